// The widget: today's times (and jamaat), the next prayer, a link to the month; its height is told
// to the page that embeds it (docs/site.md, "The widget").
const ROWS = ["fajr", "sunrise", "dhuhr", "asr", "maghrib", "isha"];
const $ = (selector) => document.querySelector(selector);
let shownDate = null;

function render() {
  const st = dayState(Date.now());
  const day = st.day;
  renderDates(st.today, $(".hijri"));
  for (const row of document.querySelectorAll("[data-time]")) {
    renderTimes(row, day, row.dataset.time);
    row.classList.toggle("current", row.dataset.time === st.current);
  }
  document.body.classList.toggle("no-jamaat", !data.jamaat);
  const jumuah = jamaatLocal(day, "jumuah");
  show($(".jumuah"), Array.isArray(jumuah) && jumuah.length > 0);
  if (Array.isArray(jumuah)) setText($(".jumuah .slots"), joinList(jumuah.map((s) => clockText(s))));
  const next = st.nextAdhan;
  show($(".next"), next !== null);
  if (next) {
    const minutes = Math.ceil((next.at - st.nowMs) / 60000);
    const nextDay = dayOf(next.iso);
    setText($(".next-name"), W.prayers[next.prayers[0]]);
    setText($(".next-time"), nextDay ? clockText(nextDay.local[next.prayers[0]], true) : "");
    setText($(".next-in"), "(" + W.next_in.replace("{hours}", native(Math.floor(minutes / 60)))
      .replace("{minutes}", native(pad2(minutes % 60))) + ")");
  }
  show($(".waiting"), day === null);
  const month = $(".month");
  if (config.monthLink) month.href = config.monthLink.replace("year=YEAR", "year=" + st.today.slice(0, 4))
    .replace("month=MONTH", "month=" + Number(st.today.slice(5, 7)));
  return st;
}

function tellHeight() {
  // The embedding page (widget.js) sets the frame's height from this message; nothing else is sent.
  if (window.parent !== window) {
    // The body's own height: the document's scroll height never falls below the frame it is in.
    window.parent.postMessage({ source: "shia-times-widget", height: Math.ceil(document.body.getBoundingClientRect().height) }, "*");
  }
}

function tick() {
  const st = render();
  if (st.today !== shownDate) {
    shownDate = st.today;
    ensureData(st.today, 1).then(() => { render(); tellHeight(); });
  }
  setTimeout(tick, 15000 - (Date.now() % 15000));
}

tick();
new ResizeObserver(tellHeight).observe(document.body);
