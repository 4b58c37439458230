// The screen's and the widget's shared part: read the API's own answers and say where the day stands.
// Nothing here computes a prayer time or a date: the times are /v1/prayer-times' UTC instants and
// `local` HH:mm, the Hijri date and the events are /v1/day-status', the Solar Hijri date is the
// page's own (server-rendered).  The only arithmetic is comparing instants with the clock, and the
// Gregorian date of the place, read from the browser's clock in the place's zone (Intl).
const config = JSON.parse(document.getElementById("page-config").textContent);
const W = config.words;
const DIGITS = { en: "0123456789", ar: "٠١٢٣٤٥٦٧٨٩", fa: "۰۱۲۳۴۵۶۷۸۹", ur: "۰۱۲۳۴۵۶۷۸۹" }[config.lang];
const PRAYERS = ["fajr", "dhuhr", "asr", "maghrib", "isha"];
const DAY_MS = 86400000;
const years = {}; // Gregorian year -> {iso date: /v1/prayer-times day}
const statuses = {}; // iso date -> /v1/day-status answer
const data = { freshAt: 0, jamaat: false }; // freshAt: the clock when the network last answered

const native = (text) => String(text).replace(/[0-9]/g, (d) => DIGITS[Number(d)]);
const pad2 = (n) => String(n).padStart(2, "0");
const placeParts = new Intl.DateTimeFormat("en-GB", {
  timeZone: config.tz, year: "numeric", month: "2-digit", day: "2-digit",
  hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23",
});

function placeClock(ms) {
  // The place's date and wall-clock time at the instant ms.
  const p = {};
  for (const part of placeParts.formatToParts(ms)) p[part.type] = part.value;
  return { iso: p.year + "-" + p.month + "-" + p.day, h: Number(p.hour) % 24, m: Number(p.minute), s: Number(p.second) };
}

function isoAdd(iso, days) {
  const [y, m, d] = iso.split("-").map(Number);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

function clockText(hhmm, marked) {
  // "HH:mm" as the language writes it: 24-hour, or 12-hour (the part-of-day word when marked).
  if (typeof hhmm !== "string" || hhmm.length !== 5) return "";
  if (config.clock === "24") return native(hhmm);
  const hours = Number(hhmm.slice(0, 2));
  const text = native(((hours + 11) % 12 + 1) + ":" + hhmm.slice(3));
  if (!marked) return text;
  let word = "";
  for (const [start, period] of W.periods) if (hours >= start) word = period;
  return text + " " + word;
}

function localOf(ms) {
  const c = placeClock(ms);
  return pad2(c.h) + ":" + pad2(c.m);
}

function joinList(items) {
  if (items.length < 2) return items.join("");
  return items.slice(0, -1).join(W.comma) + W.and + items[items.length - 1];
}

function gregorianText(iso) {
  const [y, m, d] = iso.split("-").map(Number);
  const weekday = (new Date(Date.UTC(y, m - 1, d)).getUTCDay() + 6) % 7; // Monday first
  return W.weekdays[weekday] + " " + native(d) + " " + W.months[m - 1] + " " + native(y);
}

function hijriText(status) {
  const h = status.hijri;
  return native(h.hd) + " " + W.hijriMonths[h.hm - 1] + " " + native(h.hy);
}

function shamsiText(iso) {
  // The Solar Hijri date on Persian pages: the server gives each month's first day (Iran's calendar,
  // generator/site/shamsi.py); the day of the month is the count of days since then.
  if (!config.shamsiMonths) return null;
  const month = config.shamsiMonths.filter((m) => m[0] <= iso).pop();
  if (!month) return null;
  const [y, m, d] = month[0].split("-").map(Number);
  const [y2, m2, d2] = iso.split("-").map(Number);
  const day = Math.round((Date.UTC(y2, m2 - 1, d2) - Date.UTC(y, m - 1, d)) / DAY_MS) + 1;
  if (day > 31) return null; // past the months the page carries
  return native(day) + " " + W.shamsiMonths[month[2] - 1] + " " + native(month[1]);
}

const fill = (urls, slot, value) => urls.map((url) => url.replace(slot, value));

async function fetchFirst(urls) {
  // The static path URL first, then the query URL; a service worker's copy says so in a header.
  let failure = new Error("no address");
  for (const url of urls) {
    try {
      const response = await fetch(url, { cache: "no-cache", credentials: "omit" });
      if (!response.ok) { failure = new Error("HTTP " + response.status + " " + url); continue; }
      const body = await response.json();
      if (response.headers.get("x-screen-offline") !== "1") data.freshAt = Date.now();
      else if (!data.freshAt) data.freshAt = Date.parse(response.headers.get("date") || "") || 0;
      return body;
    } catch (error) {
      failure = error;
    }
  }
  throw failure;
}

async function loadYear(year, again) {
  if (years[year] && !again) return;
  const answer = await fetchFirst(fill(config.prayerTimes, "year=YEAR", "year=" + year));
  const byDate = {};
  for (const day of answer.days) {
    byDate[day.date] = day;
    if (day.jamaat) data.jamaat = true;
  }
  years[year] = byDate;
}

async function loadStatus(iso, again) {
  if (statuses[iso] && !again) return;
  statuses[iso] = await fetchFirst(fill(config.dayStatus, "date=DATE", "date=" + iso));
}

async function settle(promises) {
  // Wait for every load; one that fails (offline, no copy) leaves what was there.
  await Promise.all(promises.map((p) => p.catch(() => null)));
}

function dayOf(iso) {
  const year = years[iso.slice(0, 4)];
  return year ? year[iso] || null : null;
}

const at = (instant) => (typeof instant === "string" ? Date.parse(instant) : null);

function moments(iso) {
  // A day's adhans and jamaats in time order; prayers sharing one jamaat (asr:dhuhr) are one moment.
  const day = dayOf(iso);
  if (!day) return [];
  const out = [];
  for (const p of PRAYERS) {
    const adhan = at(day[p]);
    if (adhan !== null) out.push({ at: adhan, kind: "adhan", prayers: [p], iso });
  }
  const jamaats = new Map();
  for (const p of PRAYERS) {
    const jamaat = day.jamaat ? at(day.jamaat[p]) : null;
    if (jamaat === null) continue;
    if (!jamaats.has(jamaat)) jamaats.set(jamaat, []);
    jamaats.get(jamaat).push(p);
  }
  for (const [instant, prayers] of jamaats) out.push({ at: instant, kind: "jamaat", prayers, iso });
  out.sort((a, b) => a.at - b.at || (a.kind === "adhan" ? -1 : 1));
  return out;
}

function currentPrayer(nowMs, today, yesterday) {
  // The prayer whose time it is: fajr until sunrise, dhuhr until asr, asr until maghrib, maghrib
  // until isha, isha until the API's midnight (which may fall after 00:00).
  const inside = (day, from, to) => day && at(day[from]) !== null && at(day[to]) !== null
    && nowMs >= at(day[from]) && nowMs < at(day[to]);
  if (inside(yesterday, "isha", "midnight")) return "isha";
  const spans = [["fajr", "sunrise"], ["dhuhr", "asr"], ["asr", "maghrib"], ["maghrib", "isha"], ["isha", "midnight"]];
  for (const [from, to] of spans) if (inside(today, from, to)) return from;
  return null;
}

function dayState(nowMs) {
  const clock = placeClock(nowMs);
  const today = clock.iso;
  const yesterday = isoAdd(today, -1);
  const tomorrow = isoAdd(today, 1);
  const all = [...moments(yesterday), ...moments(today), ...moments(tomorrow)];
  const next = all.find((moment) => moment.at > nowMs) || null;
  const nextAdhan = all.find((moment) => moment.at > nowMs && moment.kind === "adhan") || null;
  return {
    nowMs, clock, today, tomorrow, next, nextAdhan, moments: all,
    day: dayOf(today), tomorrowDay: dayOf(tomorrow),
    current: currentPrayer(nowMs, dayOf(today), dayOf(yesterday)),
  };
}

function jamaatLocal(day, name) {
  // A jamaat's local HH:mm ("jumuah" and "eid" are lists), as the API wrote it.
  const local = day && day.jamaatLocal ? day.jamaatLocal[name] : null;
  if (local !== undefined && local !== null) return local;
  const instant = day && day.jamaat ? day.jamaat[name] : null;
  if (Array.isArray(instant)) return instant.map((i) => localOf(Date.parse(i)));
  return typeof instant === "string" ? localOf(Date.parse(instant)) : null;
}

// The dates both pages show (Gregorian, the Solar Hijri on Persian pages, the Hijri of the day's
// status, written into ``hijriElement``) and a prayer's adhan and jamaat cells; returns the status.
function renderDates(today, hijriElement) {
  const status = statuses[today];
  setText(document.querySelector(".gregorian"), gregorianText(today));
  const shamsi = shamsiText(today);
  setText(document.querySelector(".shamsi"), shamsi || "");
  show(document.querySelector(".shamsi"), Boolean(shamsi));
  setText(hijriElement, status ? hijriText(status) : "");
  return status;
}

function renderTimes(row, day, name) {
  setText(row.querySelector(".adhan"), day ? clockText(day.local[name]) : "");
  const jamaat = row.querySelector(".jamaat");
  if (jamaat) setText(jamaat, clockText(jamaatLocal(day, name)));
}

function setText(element, text) {
  if (element && element.textContent !== text) element.textContent = text;
}

function show(element, visible) {
  if (element && element.hidden === visible) element.hidden = !visible;
}

function countdownText(ms) {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(seconds / 3600);
  return native(h + ":" + pad2(Math.floor(seconds / 60) % 60) + ":" + pad2(seconds % 60));
}

function ensureData(iso, ahead) {
  // The answers the place's date iso needs: its year (and the next when ahead days reach into it),
  // and the day-status of the day and the next.
  const year = Number(iso.slice(0, 4));
  const wanted = [loadYear(year)];
  if (Number(isoAdd(iso, ahead).slice(0, 4)) !== year) wanted.push(loadYear(year + 1));
  wanted.push(loadStatus(iso), loadStatus(isoAdd(iso, 1)));
  return settle(wanted);
}
