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
