// A city page's script: today (the city's own date, from the reader's clock) and the next time (feed links: feed_links.js).
// The page is right without it: the server marked today in the city's zone when it rendered the page;
// this moves the mark and refills the card when the city's date has changed since, and counts down.
"use strict";
(function () {
  const data = JSON.parse(document.getElementById("day-instants").textContent);
  const card = document.querySelector(".today-card");
  // en-CA writes dates as YYYY-MM-DD, the rows' data-date.
  const cityDate = new Intl.DateTimeFormat("en-CA", { timeZone: data.tz, year: "numeric", month: "2-digit", day: "2-digit" });
  const digits = document.documentElement.lang === "en" ? "0123456789"
    : document.documentElement.lang === "ar" ? "٠١٢٣٤٥٦٧٨٩" : "۰۱۲۳۴۵۶۷۸۹";
  const native = (text) => String(text).replace(/[0-9]/g, (d) => digits[Number(d)]);

  function fillCard(iso) {
    const row = document.querySelector('tr[data-date="' + iso + '"]');
    if (!card || !row) return false;
    if (card.dataset.date !== iso) {
      card.dataset.date = iso;
      fillDateLabel(card.querySelector(".card-date"), row.dataset.label);  // today_rows.js
      for (const item of card.querySelectorAll("li[data-time]")) {
        const cell = row.querySelector('td[data-time="' + item.dataset.time + '"]');
        item.querySelector(".time").textContent = cell ? cell.textContent : "";
      }
    }
    return true;
  }

  function showNext(iso, nowMs) {
    const next = card && card.querySelector(".next");
    if (!next) return;
    const names = Array.from(card.querySelectorAll("li[data-time]"));
    const dates = Object.keys(data.days).sort();
    const at = dates.indexOf(iso);
    for (const day of at < 0 ? [] : dates.slice(at, at + 2)) {
      const instants = data.days[day];
      for (let i = 0; i < instants.length; i++) {
        if (instants[i] !== null && instants[i] * 1000 > nowMs) {
          const row = document.querySelector('tr[data-date="' + day + '"]');
          const cell = row && row.querySelector('td[data-time="' + names[i].dataset.time + '"]');
          const minutes = Math.ceil((instants[i] * 1000 - nowMs) / 60000);
          const inText = next.querySelector(".next-in");
          // in Ramadan maghrib is named as the fast's end (the server counts no sunset then: AR4-01)
          const iftar = names[i].dataset.time === "maghrib" && (data.ramadan || []).indexOf(day) >= 0;
          next.querySelector(".next-name").textContent = iftar ? data.iftar : names[i].querySelector(".name").textContent;
          next.querySelector(".next-time").textContent = cell ? cell.textContent : "";
          inText.textContent = "(" + timeLeftText(minutes, inText.dataset, native) + ")";  // time_left.js
          for (const item of names) item.classList.toggle("next-time-item", item === names[i] && day === iso);
          next.hidden = false;
          return;
        }
      }
    }
    next.hidden = true;
  }

  function tick() {
    const nowMs = Date.now();
    const iso = cityDate.format(nowMs);
    if (document.querySelector("tr.today") === null || document.querySelector("tr.today").dataset.date !== iso) {
      markToday(iso);
    }
    if (!card) return;
    card.hidden = !fillCard(iso);  // the city's date is past the months on the page: no stale card
    if (!card.hidden) showNext(iso, nowMs);
  }

  tick();
  setInterval(tick, 30000);
})();
