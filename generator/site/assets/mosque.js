// A mosque page's script: today's card and the marked row follow the mosque's own date (its zone, from
// the reader's clock).  The page is right without it when rendered on request; a pre-rendered file is
// built for a UTC day and served all that day, while the mosque's date may be the day before or after
// (issue 29), so the card of every day the page may need is in #card-days.
"use strict";
(function () {
  const data = JSON.parse(document.getElementById("card-days").textContent);
  const card = document.querySelector(".today-card");
  // en-CA writes dates as YYYY-MM-DD, the rows' data-date.
  const placeDate = new Intl.DateTimeFormat("en-CA", { timeZone: data.tz, year: "numeric", month: "2-digit", day: "2-digit" });

  function fillCard(iso) {
    const day = data.days[iso];
    if (!card || !day) return false;
    if (card.dataset.date === iso) return true;
    card.dataset.date = iso;
    fillDateLabel(card.querySelector(".card-date"), day.label);  // today_rows.js
    for (const item of card.querySelectorAll("li[data-time]")) {
      item.querySelector(".time").textContent = day.times[item.dataset.time] || "";
      const jamaat = item.querySelector(".jamaat");
      if (jamaat) {
        const time = day.jamaat[item.dataset.time] || "";
        jamaat.textContent = jamaat.dataset.word + " " + time;
        jamaat.hidden = !time;
      }
    }
    const slots = card.querySelector(".card-slots");
    slots.replaceChildren(...day.slots.map((text) => {
      const line = document.createElement("p");
      line.className = "slots";
      line.textContent = text;
      return line;
    }));
    const changes = card.querySelector(".changes");
    changes.textContent = day.changes || "";
    changes.hidden = !day.changes;
    return true;
  }

  function tick() {
    const iso = placeDate.format(Date.now());
    const marked = document.querySelector("tr.today");
    if (marked === null || marked.dataset.date !== iso) markToday(iso);
    if (card) card.hidden = !fillCard(iso);  // past the days on the page: no stale card
  }

  tick();
  setInterval(tick, 30000);
})();
