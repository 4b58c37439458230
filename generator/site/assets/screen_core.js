// The screen's and the widget's shared part: read the API's own answers and say where the day stands.
// Nothing here computes a prayer time or a date: the times are /v1/prayer-times' UTC instants and
// `local` HH:mm, the Hijri date and the events are /v1/day-status', the Solar Hijri date is the
// page's own (server-rendered).  The only arithmetic is comparing instants with the clock, and the
// place's wall clock: the instant plus the zone's offset then, from the offsets the page carries
// (config.zone, from the server's tz database), never from the browser's Intl.
//
// ECMAScript 5.1 only (docs/site.md, "Old TVs"): var and function, no arrow, class, template, let,
// const, for-of, spread, destructuring, async or Map; of the newer library only Promise and
// XMLHttpRequest (Chromium 33 and older have both).  tests/peers/es_check.js parses this at ES5.
var config = JSON.parse(document.getElementById("page-config").textContent);
var W = config.words;
var DIGIT_SETS = { en: "0123456789", ar: "٠١٢٣٤٥٦٧٨٩", fa: "۰۱۲۳۴۵۶۷۸۹", ur: "۰۱۲۳۴۵۶۷۸۹" };
var DIGITS = DIGIT_SETS[config.lang];
// A bilingual screen (config.second, issue 36) writes its sentences in either language by turns: speak(1) makes
// the words and digits the second language's, speak(0) the first's again.
var SPOKEN = [{ lang: config.lang, words: config.words }].concat(config.second ? [config.second] : []);
var spoken = 0;

function speak(turn) {
  spoken = turn;
  W = SPOKEN[turn].words;
  DIGITS = DIGIT_SETS[SPOKEN[turn].lang];
}
var PRAYERS = ["fajr", "dhuhr", "asr", "maghrib", "isha"];
var SLOTS = ["jumuah", "eid"]; // the API's lists of jamaat slots (Fridays, the reckoning's Eid days)
var CONGREGATION = { jamaat: true, jumuah: true, eid: true }; // moments a congregation prays at
var KIND_ORDER = { imsak: 0, adhan: 1, iftar: 1, jamaat: 2, jumuah: 2, eid: 2 };
var DAY_MS = 86400000;
var years = {}; // Gregorian year -> {iso date: /v1/prayer-times day}
var statuses = {}; // iso date -> /v1/day-status answer
var data = { freshAt: 0, jamaat: false }; // freshAt: the clock when the network last answered
var seeded = {}; // iso date -> the day the server rendered into the page (config.today), until its year comes
if (config.today) {
  seeded[config.today.date] = config.today.day;
  statuses[config.today.date] = config.today.status;
  data.jamaat = Boolean(config.today.day.jamaat);
}

function native(text) {
  return String(text).replace(/[0-9]/g, function (d) { return DIGITS.charAt(Number(d)); });
}

// The change of the place's clock the server names (config.clockChanges: its day, instant, size and the old
// clock's reading, the fact the pages and /v1/day-status give): from 12 hours before it "the clocks go back an hour
// tonight at 02:00", after it, on its day, "the clocks went back …" (gallery review 4: ar AR4-03, fa LANG4-01, ur
// UR4-05).  Only instants and dates are compared here.
function clockChangeText(today, nowMs) {
  var changes = config.clockChanges || [];
  for (var i = 0; i < changes.length; i++) {
    var c = changes[i];
    var coming = nowMs < c.at;
    if (coming ? nowMs < c.at - 12 * 3600000 : c.date !== today) continue;
    var size = Math.abs(c.minutes);
    var amount = size === 60 ? W.clock_hour : W.clock_minutes.replace("{minutes}", native(size));
    var key = (c.minutes > 0 ? "clock_forward" : "clock_back") + (coming ? "_tonight" : "");
    return W[key].replace("{amount}", amount).replace("{time}", clockText(c.before));
  }
  return "";
}

function pad2(n) {
  return n < 10 ? "0" + n : String(n);
}

function each(list, visit) {
  // Array.prototype.forEach over a NodeList or an array (NodeList.forEach is Chromium 51).
  for (var i = 0; i < list.length; i++) visit(list[i], i);
}

function zoneOffsetMs(ms) {
  // The place's offset from UTC at the instant ms: the last change of config.zone at or before it.
  var offset = config.zone[0][1];
  for (var i = 0; i < config.zone.length && config.zone[i][0] <= ms; i++) offset = config.zone[i][1];
  return offset * 60000;
}

function placeClock(ms) {
  // The place's date and wall-clock time at the instant ms.
  var wall = new Date(ms + zoneOffsetMs(ms));
  return { iso: wall.toISOString().slice(0, 10), h: wall.getUTCHours(), m: wall.getUTCMinutes(), s: wall.getUTCSeconds() };
}

function isoParts(iso) {
  return [Number(iso.slice(0, 4)), Number(iso.slice(5, 7)), Number(iso.slice(8, 10))];
}

function isoAdd(iso, days) {
  var p = isoParts(iso);
  return new Date(Date.UTC(p[0], p[1] - 1, p[2] + days)).toISOString().slice(0, 10);
}

function periodWord(hours) {
  var word = "";
  for (var i = 0; i < W.periods.length; i++) if (hours >= W.periods[i][0]) word = W.periods[i][1];
  return word;
}

function clockText(hhmm, marked) {
  // "HH:mm" as the language writes it: 24-hour, or 12-hour (the part-of-day word when marked).
  if (typeof hhmm !== "string" || hhmm.length !== 5) return "";
  if (config.clock === "24") return native(hhmm);
  var hours = Number(hhmm.slice(0, 2));
  var text = native(((hours + 11) % 12 + 1) + ":" + hhmm.slice(3));
  return marked ? text + " " + periodWord(hours) : text;
}

function localOf(ms) {
  var c = placeClock(ms);
  return pad2(c.h) + ":" + pad2(c.m);
}

function joinList(items) {
  // As the feeds join a list (screen.list_words): two items with "pair", more with "comma" and "and".
  if (items.length < 2) return items.join("");
  if (items.length === 2) return items[0] + W.pair + items[1];
  return items.slice(0, -1).join(W.comma) + W.and + items[items.length - 1];
}

function weekdayText(iso) {
  var p = isoParts(iso);
  return W.weekdays[(new Date(Date.UTC(p[0], p[1] - 1, p[2])).getUTCDay() + 6) % 7]; // Monday first
}

function gregorianText(iso, bare) {
  // The Gregorian date with its weekday; ``bare``: without it (a Persian page gives the weekday to the Solar Hijri date).
  var p = isoParts(iso);
  return (bare ? "" : weekdayText(iso) + " ") + native(p[2]) + " " + W.months[p[1] - 1] + " " + native(p[0]);
}

function dayText(iso) {
  // A date in one phrase: on a Persian page the Solar Hijri date with its weekday, else the Gregorian (fa FA-18).
  var shamsi = shamsiText(iso);
  return shamsi ? weekdayText(iso) + " " + shamsi : gregorianText(iso);
}

function hijriText(status, form) {
  // form: a template with its era mark, "{d} {m} {y}ھ" (the widget: W.hijriDate); the screen writes none here
  var h = status.hijri;
  if (form) return form.replace("{d}", native(h.hd)).replace("{m}", W.hijriMonths[h.hm - 1]).replace("{y}", native(h.hy));
  return native(h.hd) + " " + W.hijriMonths[h.hm - 1] + " " + native(h.hy);
}

function shamsiText(iso) {
  // The Solar Hijri date on Persian pages: the server gives each month's first day (Iran's calendar,
  // generator/calendars/shamsi.py); the day of the month is the count of days since then.
  if (!config.shamsiMonths || !W.shamsiMonths) return null; // a Persian page, or a screen's Persian turn
  var month = null;
  for (var i = 0; i < config.shamsiMonths.length && config.shamsiMonths[i][0] <= iso; i++) month = config.shamsiMonths[i];
  if (!month) return null;
  var a = isoParts(month[0]), b = isoParts(iso);
  var day = Math.round((Date.UTC(b[0], b[1] - 1, b[2]) - Date.UTC(a[0], a[1] - 1, a[2])) / DAY_MS) + 1;
  if (day > 31) return null; // past the months the page carries
  return native(day) + " " + W.shamsiMonths[month[2] - 1] + " " + native(month[1]);
}

function fill(urls, slot, value) {
  return urls.map(function (url) { return url.replace(slot, value); });
}

function getJson(url) {
  // One answer by XMLHttpRequest (fetch is Chromium 42): its body, and whether a service worker's copy said so.
  return new Promise(function (resolve, reject) {
    var request = new XMLHttpRequest();
    request.open("GET", url);
    request.setRequestHeader("Cache-Control", "no-cache"); // revalidate: an announced month start, new rules
    request.onload = function () {
      if (request.status < 200 || request.status > 299) { reject(new Error("HTTP " + request.status + " " + url)); return; }
      try {
        resolve({ body: JSON.parse(request.responseText), offline: request.getResponseHeader("x-screen-offline") === "1",
                  date: request.getResponseHeader("date") });
      } catch (error) {
        reject(error);
      }
    };
    request.onerror = function () { reject(new Error("network " + url)); };
    request.send();
  });
}

function fetchFirst(urls) {
  // The static path URL first, then the query URL; a service worker's copy says so in a header.
  var i = 0;
  function next(failure) {
    if (i >= urls.length) return Promise.reject(failure || new Error("no address"));
    return getJson(urls[i++]).then(function (answer) {
      if (!answer.offline) data.freshAt = Date.now();
      else if (!data.freshAt) data.freshAt = Date.parse(answer.date || "") || 0;
      return answer.body;
    }, next);
  }
  return next(null);
}

function loadYear(year, again) {
  if (years[year] && !again) return Promise.resolve();
  return fetchFirst(fill(config.prayerTimes, "year=YEAR", "year=" + year)).then(function (answer) {
    var byDate = {};
    each(answer.days, function (day) {
      byDate[day.date] = day;
      if (day.jamaat) data.jamaat = true;
    });
    years[year] = byDate;
  });
}

function loadStatus(iso, again) {
  if (statuses[iso] && !again) return Promise.resolve();
  return fetchFirst(fill(config.dayStatus, "date=DATE", "date=" + iso)).then(function (answer) { statuses[iso] = answer; });
}

function settle(promises) {
  // Wait for every load; one that fails (offline, no copy) leaves what was there.
  return Promise.all(promises.map(function (p) { return p.then(null, function () { return null; }); }));
}

function dayOf(iso) {
  var year = years[iso.slice(0, 4)];
  return year ? year[iso] || null : seeded[iso] || null;
}

function at(instant) {
  return typeof instant === "string" ? Date.parse(instant) : null;
}

function isRamadan(iso) {
  // Ramadan under the page's reckoning, as the day's status says (the API's Hijri date).
  var status = statuses[iso];
  return Boolean(status && status.hijri && status.hijri.hm === 9);
}

function slotList(day, name) {
  var list = day && day.jamaat ? day.jamaat[name] : null;
  return Array.isArray(list) ? list : [];
}

function moments(iso) {
  // A day's moments in time order: in Ramadan imsak, the adhans (maghrib's is iftar in Ramadan), the jamaats
  // (prayers sharing one jamaat are one moment), each Jumu'ah slot and each Eid prayer slot.  A jamaat at the
  // instant of a Jumu'ah slot is that slot (on Fridays the API gives dhuhr's jamaat as the first slot).
  var day = dayOf(iso);
  if (!day) return [];
  var ramadan = isRamadan(iso);
  var out = [];
  if (ramadan && at(day.imsak) !== null) out.push({ at: at(day.imsak), kind: "imsak", prayers: [], iso: iso });
  each(PRAYERS, function (p) {
    // Asr or isha prayed in one jamaat with dhuhr or maghrib has no adhan of its own (the API's jamaatCombined):
    // its computed time opens its recommended time, and nobody is called to it (issue 33).
    if (combinedOn(day, p)) return;
    if (at(day[p]) !== null) out.push({ at: at(day[p]), kind: ramadan && p === "maghrib" ? "iftar" : "adhan", prayers: [p], iso: iso });
  });
  var slotAt = {};
  each(SLOTS, function (name) {
    var locals = day.jamaatLocal && Array.isArray(day.jamaatLocal[name]) ? day.jamaatLocal[name] : [];
    each(slotList(day, name), function (instant, i) {
      var ms = at(instant);
      if (ms === null) return;
      slotAt[ms] = true;
      out.push({ at: ms, kind: name, prayers: [], slot: i, local: locals[i] || localOf(ms), iso: iso });
    });
  });
  var groups = [];
  var byInstant = {};
  each(PRAYERS, function (p) {
    var ms = day.jamaat ? at(day.jamaat[p]) : null;
    if (ms === null || slotAt[ms]) return;
    if (!byInstant[ms]) { byInstant[ms] = { at: ms, kind: "jamaat", prayers: [], iso: iso }; groups.push(byInstant[ms]); }
    byInstant[ms].prayers.push(p);
  });
  out = out.concat(groups);
  out.sort(function (a, b) { return a.at - b.at || KIND_ORDER[a.kind] - KIND_ORDER[b.kind]; });
  return out;
}

function dayNotes(day) {
  // What the API did to the day's jamaat times, in the page's words (issue 33; screen.py table_text writes the same):
  // moved back inside the time (jamaatMovedEnd), moved later to its opening (jamaatMoved less those), a time the mosque
  // set outside the prayer's time kept or skipped as it chose (jamaatKept, jamaatSkipped).
  var notes = [];
  if (!day) return notes;
  var movedEnd = Array.isArray(day.jamaatMovedEnd) ? day.jamaatMovedEnd : [];
  each([["jamaatMovedEnd", W.moved_end, true], ["jamaatMoved", W.moved_later, true], ["jamaatKept", W.outside_kept, true],
        ["jamaatSkipped", W.outside_skipped, false]], function (kind) {
    var names = Array.isArray(day[kind[0]]) ? day[kind[0]] : [];
    if (kind[0] === "jamaatMoved") names = names.filter(function (n) { return movedEnd.indexOf(n) < 0; });
    if (!names.length) return;
    notes.push(kind[1].replace("{prayers}", joinList(names.map(function (n) {
      var local = jamaatLocal(day, n);
      var times = Array.isArray(local) ? joinList(local.map(function (t) { return clockText(t); })) : clockText(local);
      return (W.prayers[n] || W[n] || n) + (kind[2] && times ? " " + times : "");
    }))));
  });
  return notes;
}

function fadhilaOn(day, name) {
  // At a mosque (a day with jamaat times) the computed asr and isha open their recommended (fadhila) times: the
  // mosque's own adhan goes with its own jamaat, or none when it combines (docs/decisions.md, "The countdown to asr
  // and isha at a mosque"; gallery review 2026-11-28 fa R-01).
  return (name === "asr" || name === "isha") && Boolean(day && day.jamaat && Object.keys(day.jamaat).length);
}

function combinedOn(day, name) {
  return Boolean(day && Array.isArray(day.jamaatCombined) && day.jamaatCombined.indexOf(name) >= 0);
}

function currentPrayer(nowMs, today, yesterday) {
  // The prayer whose time it is: fajr until sunrise, dhuhr until asr, asr until maghrib, maghrib
  // until isha, isha until the API's midnight (which may fall after 00:00).
  function inside(day, from, to) {
    return Boolean(day) && at(day[from]) !== null && at(day[to]) !== null && nowMs >= at(day[from]) && nowMs < at(day[to]);
  }
  if (inside(yesterday, "isha", "midnight")) return "isha";
  var spans = [["fajr", "sunrise"], ["dhuhr", "asr"], ["asr", "maghrib"], ["maghrib", "isha"], ["isha", "midnight"]];
  for (var i = 0; i < spans.length; i++) if (inside(today, spans[i][0], spans[i][1])) return spans[i][0];
  return null;
}

function firstAfter(list, nowMs, kinds) {
  for (var i = 0; i < list.length; i++) if (list[i].at > nowMs && (!kinds || kinds[list[i].kind])) return list[i];
  return null;
}

function dayState(nowMs) {
  var clock = placeClock(nowMs);
  var today = clock.iso;
  var yesterday = isoAdd(today, -1);
  var tomorrow = isoAdd(today, 1);
  var all = moments(yesterday).concat(moments(today), moments(tomorrow));
  return {
    nowMs: nowMs, clock: clock, today: today, tomorrow: tomorrow, moments: all,
    next: firstAfter(all, nowMs, null),
    nextAdhan: firstAfter(all, nowMs, { adhan: true, iftar: true }),
    day: dayOf(today), tomorrowDay: dayOf(tomorrow), ramadan: isRamadan(today),
    current: currentPrayer(nowMs, dayOf(today), dayOf(yesterday))
  };
}

function jamaatLocal(day, name) {
  // A jamaat's local HH:mm ("jumuah" and "eid" are lists), as the API wrote it.
  var local = day && day.jamaatLocal ? day.jamaatLocal[name] : null;
  if (local !== undefined && local !== null) return local;
  var instant = day && day.jamaat ? day.jamaat[name] : null;
  if (Array.isArray(instant)) return instant.map(function (i) { return localOf(Date.parse(i)); });
  return typeof instant === "string" ? localOf(Date.parse(instant)) : null;
}

function hijriStatus(st) {
  // The status whose Hijri date is the date now: the Hijri date changes at sunset (docs/decisions.md, "The Hijri date
  // changes at sunset"; the API's hijriChange), so from the day's sunset it is the next civil day's, as the nights are.
  var sunset = st.day ? at(st.day.sunset) : null;
  if (sunset !== null && st.nowMs >= sunset && statuses[st.tomorrow]) return statuses[st.tomorrow];
  return statuses[st.today] || null;
}

// The dates both pages show (the Gregorian; on Persian pages the Solar Hijri first, with the weekday; the Hijri
// date now, written into ``hijriElement``) and a prayer's adhan and jamaat cells; returns the civil day's status.
function renderDates(st, hijriElement, hijriForm) {
  var shamsi = shamsiText(st.today);
  setText(document.querySelector(".gregorian"), gregorianText(st.today, Boolean(shamsi)));
  setText(document.querySelector(".shamsi"), shamsi ? weekdayText(st.today) + " " + shamsi : "");
  show(document.querySelector(".shamsi"), Boolean(shamsi));
  var hijri = hijriStatus(st);
  setText(hijriElement, hijri ? hijriText(hijri, hijriForm) : "");
  return statuses[st.today];
}

function renderTimes(row, day, name) {
  setText(row.querySelector(".adhan"), day ? clockText(day.local[name]) : "");
  var jamaat = row.querySelector(".jamaat");
  if (jamaat) setText(jamaat, clockText(jamaatLocal(day, name)));
  show(row.querySelector(".fadhila"), fadhilaOn(day, name)); // its time the start of its recommended time

}

function setText(element, text) {
  if (element && element.textContent !== text) element.textContent = text;
}

function show(element, visible) {
  if (element && element.hidden === visible) element.hidden = !visible;
}

function toggleClass(element, name, on) {
  if (element && element.classList.contains(name) !== on) element.classList.toggle(name);
}

function countdownText(ms) {
  var seconds = Math.max(0, Math.ceil(ms / 1000));
  var h = Math.floor(seconds / 3600);
  return native(h + ":" + pad2(Math.floor(seconds / 60) % 60) + ":" + pad2(seconds % 60));
}

function ensureData(iso, ahead) {
  // The answers the place's date iso needs: its year (and the next when ahead days reach into it),
  // and the day-status of the day before (its moments reach past midnight), the day and the next.
  var year = Number(iso.slice(0, 4));
  var wanted = [loadYear(year)];
  if (Number(isoAdd(iso, ahead).slice(0, 4)) !== year) wanted.push(loadYear(year + 1));
  if (Number(isoAdd(iso, -1).slice(0, 4)) !== year) wanted.push(loadYear(year - 1));
  wanted.push(loadStatus(iso), loadStatus(isoAdd(iso, 1)), loadStatus(isoAdd(iso, -1)));
  return settle(wanted);
}

function applyAnnouncements(iso) {
  // The mosque's announcements that apply on the place's date iso are those config.announcements lists for it (the
  // server's one rule, generator/prayer/announcements.py); the others are marked off and hidden. Past the page's
  // days none applies: a screen long offline shows no announcement that may have ended.
  if (!config.announcements) return;
  var on = config.announcements[iso] || [];
  each(document.querySelectorAll("[data-item]"), function (element) {
    var off = on.indexOf(Number(element.getAttribute("data-item"))) < 0;
    if (off) {
      element.setAttribute("data-off", "");
      show(element, false);
    } else {
      element.removeAttribute("data-off");
    }
  });
}

// A hosted mosque's screen and widget follow an edit of its profile (docs/site.md, "Following an edit").
var FOLLOW_MS = 20000; // how often the page asks whether its profile was edited
var reloading = false;

function followProfile() {
  // config.profile (a hosted profile's page only): the profile's address and the version the page was rendered
  // with. Every FOLLOW_MS the page asks for it with If-None-Match: an unchanged profile answers 304; a 200 with
  // another ETag reloads the page, which the server renders anew (name, announcement, screen options, and the
  // answers, keyed by the version). A network error, a 404 (deleted), a 5xx or a service worker's kept copy
  // change nothing: the page keeps what it shows, and asks again later. At most one reload per edit seen.
  if (!config.profile) return;
  var rendered = "\"" + config.profile.version + "\"";
  function ask() {
    if (reloading) return;
    setTimeout(ask, FOLLOW_MS); // the next question, whatever becomes of this one
    var request = new XMLHttpRequest();
    request.open("GET", config.profile.url);
    request.timeout = FOLLOW_MS;
    // A conditional request is never answered from the browser's cache (Fetch: cache mode "no-store"), nor by the
    // service worker (screen_sw.js leaves it to the network).
    request.setRequestHeader("If-None-Match", rendered);
    request.onload = function () {
      var tag = (request.getResponseHeader("ETag") || "").replace(/^W\//, ""); // a gzipping proxy weakens it
      if (request.status === 200 && tag !== "" && tag !== rendered && request.getResponseHeader("x-screen-offline") !== "1") {
        reloading = true;
        location.reload();
      }
    };
    request.send();
  }
  setTimeout(ask, FOLLOW_MS);
}

function namedNights(st) {
  // The nights the screen names now (docs/decisions.md, "Naming a night"): before the day's fajr, the night under
  // way (the day-status lists its Hijri date's night among the day's events); from the day's dhuhr, the nights
  // beginning this evening (its `tonight`); between them none, and never a night on the day after it.
  var status = statuses[st.today];
  var fajr = st.day ? at(st.day.fajr) : null;
  var dhuhr = st.day ? at(st.day.dhuhr) : null;
  if (!status || fajr === null || dhuhr === null) return [];
  if (st.nowMs < fajr) return status.events.filter(isNight);
  return st.nowMs >= dhuhr ? status.tonight : [];
}

function isNight(event) {
  return config.nights.indexOf(event.id) >= 0;
}

// The day's own events and the nights named now, as the screen's band and the widget say them (issue 33; the widget
// said neither: gallery reviews fa LANG3-03, ur UR3-02, ar AR2-04).
function todayEventsText(st) {
  var status = statuses[st.today];
  var todays = status ? status.events.filter(function (e) { return !isNight(e); }) : [];
  return todays.length ? W.today_events.replace("{events}", joinList(todays.map(function (e) { return e.title[config.lang]; }))) : "";
}

function tonightText(st) {
  var nights = namedNights(st);
  return nights.length ? W.tonight.replace("{events}", joinList(nights.map(function (e) { return unbroken(e.title[config.lang]); }))) : "";
}

function unbroken(title) {
  // A title's bracket kept on one line: «شب قدر (شب بیست‌ویکم» / «رمضان)» left a word alone (review 7, fa FA7-04)
  return title.replace(/\([^()]*\)/g, function (part) { return part.replace(/ /g, "\u00a0"); });
}
