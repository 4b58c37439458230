// Today's row of a page's timetable (city.js, mosque.js): the rows carry data-date (YYYY-MM-DD); the one of
// the place's date is marked "today" (and aria-current), whichever row the server marked.
function markToday(iso) {
  for (const row of document.querySelectorAll("tr.today")) {
    row.classList.remove("today");
    row.removeAttribute("aria-current");
  }
  for (const row of document.querySelectorAll('tr[data-date="' + iso + '"]')) {
    row.classList.add("today");
    row.setAttribute("aria-current", "date");
  }
}

// A today card's date line (city.js, mosque.js): each date in a span of its own, unbroken, so a line breaks only
// at the separator (gallery reviews fa LANG3-12, FA7-03: «۲۰» / «مارس ۲۰۲۶» on a phone).
function fillDateLabel(label, text) {
  label.replaceChildren();
  text.split(label.dataset.sep).forEach((part, i) => {
    if (i > 0) label.append(label.dataset.sep);
    const span = document.createElement("span");
    span.className = "date-part";
    span.textContent = part;
    label.append(span);
  });
}
