// The mosque screen: the clock, today's adhan and jamaat, the countdowns, the notices (docs/site.md, "The screen").
const SILENCE_BEFORE_MS = 5 * 60000; // "silence your phone" from 5 minutes before a jamaat
const SILENCE_AFTER_MS = 10 * 60000; // … until 10 minutes into it (the prayer itself)
const DAYS_AHEAD = 31; // answers kept for the coming month: a screen runs offline for weeks
const REFRESH_MS = 3600000; // re-read today's answers every hour (an announced month start, new rules)
const STALE_MS = DAY_MS; // "no connection" once the newest answer is older than a day
const ROTATE_MS = 8000; // the band shows one notice at a time, each for 8 s
const CACHE = "screen-v1"; // the service worker's cache (screen_sw.js)

const $ = (selector) => document.querySelector(selector);
const table = $(".times");
const band = $(".band");
let shownDate = null;
let refreshedAt = 0;

function moment(text, prayers) {
  return text.replace("{prayer}", joinList(prayers.map((p) => W.prayers[p])));
}

function renderDay(st) {
  const day = st.day;
  const status = renderDates(st.today, $(".hijri-date"));
  show($(".hijri"), Boolean(status));
  for (const row of table.querySelectorAll("tr[data-time]")) renderTimes(row, day, row.dataset.time);
  table.classList.toggle("no-jamaat", !data.jamaat);
  for (const kind of ["jumuah", "eid"]) {
    const slots = jamaatLocal(day, kind);
    const row = table.querySelector("tr." + kind);
    show(row, Array.isArray(slots) && slots.length > 0);
    if (Array.isArray(slots)) setText(row.querySelector("td"), joinList(slots.map((s) => clockText(s))));
  }
  // Band: today's events, the night that begins this evening, then the announcements of the query.
  const lines = [];
  if (status && status.events.length) {
    lines.push(W.today_events.replace("{events}", joinList(status.events.map((e) => e.title[config.lang]))));
  }
  if (status && status.tonight.length) {
    lines.push(W.tonight.replace("{events}", joinList(status.tonight.map((e) => e.title[config.lang]))));
  }
  const made = band.querySelectorAll("p.made");
  for (let i = 0; i < Math.max(made.length, lines.length); i++) {
    if (i >= lines.length) { made[i].remove(); continue; }
    let p = made[i];
    if (!p) {
      p = document.createElement("p");
      p.className = "made";
      band.insertBefore(p, band.querySelector("p.note"));
    }
    setText(p, lines[i]);
  }
}

function renderChanges(st) {
  const changed = st.tomorrowDay && Array.isArray(st.tomorrowDay.jamaatChanged) ? st.tomorrowDay.jamaatChanged : [];
  const items = changed.map((name) => {
    const local = jamaatLocal(st.tomorrowDay, name);
    const times = Array.isArray(local) ? joinList(local.map((t) => clockText(t))) : clockText(local);
    return (W.prayers[name] || W[name] || name) + " " + times;
  });
  setText($(".changes"), items.length ? W.changes_tomorrow.replace("{prayers}", joinList(items)) : "");
  show($(".changes"), items.length > 0);
}

function renderClock(st) {
  const c = st.clock;
  const hhmm = pad2(c.h) + ":" + pad2(c.m);
  setText($(".clock .hm"), clockText(hhmm, false));
  setText($(".clock .seconds"), native(":" + pad2(c.s)));
  let period = "";
  if (config.clock === "12") for (const [start, word] of W.periods) if (c.h >= start) period = word;
  setText($(".clock .period"), period);
}

function renderCountdown(st) {
  const box = $(".countdown");
  const next = st.next;
  show(box, next !== null);
  show($(".waiting"), st.day === null);
  if (next) {
    box.dataset.kind = next.kind;
    box.dataset.at = String(next.at);
    setText(box.querySelector(".label"), moment(next.kind === "adhan" ? W.until_adhan : W.until_jamaat, next.prayers));
    setText(box.querySelector(".value"), countdownText(next.at - st.nowMs));
  }
  const silence = st.moments.some((m) => m.kind === "jamaat" && st.nowMs >= m.at - SILENCE_BEFORE_MS
    && st.nowMs < m.at + SILENCE_AFTER_MS);
  show($(".silence"), silence);
  const upcoming = st.nextAdhan && st.nextAdhan.iso === st.today ? st.nextAdhan.prayers[0] : null;
  for (const row of table.querySelectorAll("tr[data-time]")) {
    const current = row.dataset.time === st.current;
    row.classList.toggle("current", current);
    if (current) row.setAttribute("aria-current", "time"); else row.removeAttribute("aria-current");
    row.classList.toggle("next", row.dataset.time === upcoming);
  }
}

function renderBand(st) {
  const items = Array.from(band.querySelectorAll("p.made, p.note"));
  const shown = items.length ? Math.floor(st.nowMs / ROTATE_MS) % items.length : -1;
  items.forEach((p, i) => show(p, i === shown));
  show(band, items.length > 0);
  const stale = data.freshAt > 0 && st.nowMs - data.freshAt > STALE_MS;
  setText($(".stale"), stale ? W.stale.replace("{date}", gregorianText(placeClock(data.freshAt).iso)) : "");
  show($(".stale"), stale);
}

function render() {
  const st = dayState(Date.now());
  renderDay(st);
  renderChanges(st);
  renderClock(st);
  renderCountdown(st);
  renderBand(st);
  return st;
}

async function refresh(iso, again, every) {
  // Today's answers (again: read anew, for an announced month start or changed rules), then the coming
  // month's, one by one (every: all of them anew, so that a service worker that just started keeps them).
  if (again) await settle([loadYear(Number(iso.slice(0, 4)), true), loadStatus(iso, true), loadStatus(isoAdd(iso, 1), true)]);
  await ensureData(iso, DAYS_AHEAD);
  render();
  if (every && Number(isoAdd(iso, DAYS_AHEAD).slice(0, 4)) !== Number(iso.slice(0, 4))) {
    await settle([loadYear(Number(iso.slice(0, 4)) + 1, true)]);
  }
  for (let k = 2; k <= DAYS_AHEAD; k++) await settle([loadStatus(isoAdd(iso, k), every)]);
  render();
  await prune(iso);
}

async function prune(iso) {
  // Drop the cached answers of days and years that have passed.
  if (!("caches" in window)) return;
  const cache = await caches.open(CACHE);
  const yesterday = isoAdd(iso, -1);
  for (const request of await cache.keys()) {
    const day = /date=(\d{4}-\d{2}-\d{2})/.exec(request.url);
    const year = /year=(\d{4})/.exec(request.url);
    if ((day && day[1] < yesterday) || (year && Number(year[1]) < Number(iso.slice(0, 4)))) await cache.delete(request);
  }
}

function tick() {
  const st = render();
  if (st.today !== shownDate) { // a new day (midnight, or the screen was switched on)
    shownDate = st.today;
    refresh(st.today, false, false).catch(() => null);
  } else if (st.nowMs - refreshedAt > REFRESH_MS) {
    refreshedAt = st.nowMs;
    refresh(st.today, true, false).catch(() => null);
  }
  setTimeout(tick, 1000 - (Date.now() % 1000));
}

function offline() {
  // A service worker keeps this page and its answers: the screen starts and runs without network.
  if (!("serviceWorker" in navigator)) return;
  const cacheAll = () => {
    fetch(location.href, { credentials: "omit" }).catch(() => null);
    if (shownDate) refresh(shownDate, true, true).catch(() => null);
  };
  let kept = false;
  const once = () => { if (!kept && navigator.serviceWorker.controller) { kept = true; cacheAll(); } };
  navigator.serviceWorker.addEventListener("controllerchange", once);
  navigator.serviceWorker.register(config.serviceWorker, { scope: config.scope }).catch(() => null);
  navigator.serviceWorker.ready.then(once).catch(() => null);
}

refreshedAt = Date.now();
tick();
offline();
