// The time left to the next time, in the page's words (city.js, widget_page.js; glossary page.next_in for two hours
// or more, page.next_in_one_hour, page.next_in_minutes under an hour). A form that writes the time as a clock,
// «:{minutes}», gets two digits («2:05»); a form in words gets the count (Urdu «۲ گھنٹے ۵ منٹ باقی»: beside the
// prayer's own clock time a second «۲:۰۵» read as a time of day, gallery review UR2-1).
function timeLeftText(minutes, forms, native) {
  var hours = Math.floor(minutes / 60);
  var form = hours === 0 ? forms.minutes : hours === 1 ? forms.oneHour : forms.hours;
  var rest = minutes % 60;
  return form.replace("{hours}", native(hours))
    .replace("{minutes}", native(form.indexOf(":{minutes}") >= 0 && rest < 10 ? "0" + rest : rest));
}
