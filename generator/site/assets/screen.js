// The mosque screen: the clock, today's adhan and jamaat, the countdowns, the notices (docs/site.md, "The screen").
var SILENCE_BEFORE_MS = 5 * 60000; // "silence your phone" from 5 minutes before a jamaat
var SILENCE_AFTER_MS = 10 * 60000; // … until 10 minutes into it (the prayer itself)
var DAYS_AHEAD = 31; // answers kept for the coming month: a screen runs offline for weeks
var REFRESH_MS = 3600000; // re-read today's answers every hour (an announced month start, new rules)
var STALE_MS = DAY_MS; // "no connection" once the newest answer is older than a day
var ROTATE_MS = config.lineMs || 8000; // the band shows one notice at a time, each 8 s (a profile's lineSeconds)
var SLIDE_MS = 2 * ROTATE_MS; // a slide (a programme of several lines) stays twice as long
var TURN_MS = 2 * ROTATE_MS; // a bilingual screen's sentences take turns: each language for two notices' time
var CACHE = "screen-v1"; // the service worker's cache (screen_sw.js)

function $(selector) {
  return document.querySelector(selector);
}
var table = $(".times");
var band = $(".band");
var shownDate = null;
var refreshedAt = 0;

function prayerNames(prayers) {
  return joinList(prayers.map(function (p) { return W.prayers[p]; }));
}

function momentLabel(m) {
  // What the countdown counts to, in the page's words (data/glossary.csv page.screen.until_*).
  if (m.kind === "imsak") return W.until_imsak;
  if (m.kind === "iftar") return W.until_iftar;
  if (m.kind === "jumuah") return W.until_jumuah.replace("{time}", clockText(m.local, true));
  if (m.kind === "eid") return W.until_eid.replace("{time}", clockText(m.local, true));
  if (m.kind === "adhan" && fadhilaOn(dayOf(m.iso), m.prayers[0])) return W.until_fadhila.replace("{prayer}", prayerNames(m.prayers));
  return (m.kind === "adhan" ? W.until_adhan : W.until_jamaat).replace("{prayer}", prayerNames(m.prayers));
}

function slotsText(day, name) {
  var slots = jamaatLocal(day, name);
  return Array.isArray(slots) ? joinList(slots.map(function (s) { return clockText(s); })) : "";
}

function renderDay(st) {
  var day = st.day;
  var status = renderDates(st, $(".hijri-date"));
  show($(".hijri"), Boolean(status));
  // the language's own form after the date (glossary reckoning.screen); its bracket, the authority's name, is a
  // block of its own that moves whole to the next line rather than break inside a name (gallery review 4, AR4-07)
  var open = W.calendar.indexOf("(");
  setText($(".reckoning .lead"), " " + (open < 0 ? W.calendar : W.calendar.slice(0, open)));
  setText($(".reckoning .authority"), open < 0 ? "" : W.calendar.slice(open));
  var turn = spoken;
  speak(0); // the table's times in the first language's digits, whatever the turn
  each(table.querySelectorAll("tr[data-time]"), function (row) { renderTimes(row, day, row.getAttribute("data-time")); });
  show(table.querySelector('tr[data-time="imsak"]'), st.ramadan);
  toggleClass(table, "no-jamaat", !data.jamaat);
  each(SLOTS, function (kind) {
    var text = slotsText(day, kind);
    var row = table.querySelector("tr." + kind);
    show(row, text !== "");
    setText(row.querySelector("td"), text);
  });
  speak(turn);
  var nightText = tonightText(st);
  setText($(".night"), nightText);
  show($(".night"), nightText !== "");
  applyAnnouncements(st.today); // the mosque's announcements of the day (screen_core.js)
  // Band: the day's own events (a night is named above, on its eve until its dawn), then the query's announcements.
  var lines = [];
  var todayLine = todayEventsText(st);
  if (todayLine) lines.push(todayLine);
  var greeting = greetingText(st); // Eid: what the congregation says that day (gallery review UR2-22)
  if (greeting) lines.push(greeting);
  // Ashura: abstain until after asr, not a fast (day-status flags.ashuraImsak), with the day's asr (issue 33)
  if (status && status.flags.ashuraImsak && day && day.local.asr) {
    lines.push(W.ashura_imsak.replace("{asr}", clockText(day.local.asr)));
  }
  var clockLine = clockChangeText(st.today, st.nowMs); // the clock change, tonight or last night (screen_core.js)
  if (clockLine) lines.push(clockLine);
  var made = band.querySelectorAll("p.made");
  for (var i = 0; i < Math.max(made.length, lines.length); i++) {
    if (i >= lines.length) { band.removeChild(made[i]); continue; }
    var p = made[i];
    if (!p) {
      p = document.createElement("p");
      p.className = "made";
      band.insertBefore(p, band.querySelector("p.note"));
    }
    setText(p, lines[i]);
    speakingOn(p);
  }
}

function timesOf(day, name) {
  var local = jamaatLocal(day, name);
  return Array.isArray(local) ? joinList(local.map(function (t) { return clockText(t); })) : clockText(local);
}

function prayerList(day, names) {
  return joinList(names.map(function (name) { return (W.prayers[name] || W[name] || name) + " " + timesOf(day, name); }));
}

function renderChanges(st) {
  var changed = st.tomorrowDay && Array.isArray(st.tomorrowDay.jamaatChanged) ? st.tomorrowDay.jamaatChanged : [];
  setText($(".changes"), changed.length ? W.changes_tomorrow.replace("{prayers}", prayerList(st.tomorrowDay, changed)) : "");
  show($(".changes"), changed.length > 0);
  var notes = dayNotes(st.day); // moved, kept or skipped jamaat times (screen_core.js)
  setText($(".moved"), notes.join(" "));
  show($(".moved"), notes.length > 0);
}

function turnOf(nowMs) {
  return config.second ? Math.floor(nowMs / TURN_MS) % 2 : 0;
}

function speakingOn(element) {
  // A bilingual screen's part in the language of the turn (its font, its direction); a screen of one language
  // leaves the page's own.
  if (!config.second) return;
  var lang = SPOKEN[spoken].lang, dir = spoken ? config.second.dir : document.documentElement.dir;
  if (element.getAttribute("lang") !== lang) element.setAttribute("lang", lang);
  if (element.getAttribute("dir") !== dir) element.setAttribute("dir", dir);
}

function renderClock(st) {
  var c = st.clock;
  setText($(".clock .hm"), clockText(pad2(c.h) + ":" + pad2(c.m), false));
  setText($(".clock .seconds"), native(":" + pad2(c.s)));
  setText($(".clock .period"), config.clock === "12" ? periodWord(c.h) : "");
}

function inPrayer(st) {
  // The congregation's prayer under way: from a jamaat (Jumu'ah, Eid) for config.inPrayer minutes.
  if (!config.inPrayer) return null;
  for (var i = 0; i < st.moments.length; i++) {
    var m = st.moments[i];
    if (CONGREGATION[m.kind] && st.nowMs >= m.at && st.nowMs < m.at + config.inPrayer * 60000) return m;
  }
  return null;
}

function renderCountdown(st) {
  var box = $(".countdown");
  var next = st.next;
  show(box, next !== null);
  show($(".waiting"), st.day === null);
  setText($(".waiting"), W.waiting);
  setText($(".silence"), W.silence);
  if (next) {
    box.setAttribute("data-kind", next.kind);
    box.setAttribute("data-at", String(next.at));
    setText(box.querySelector(".label"), momentLabel(next));
    setText(box.querySelector(".value"), countdownText(next.at - st.nowMs));
  }
  var silence = st.moments.some(function (m) {
    return CONGREGATION[m.kind] && st.nowMs >= m.at - SILENCE_BEFORE_MS && st.nowMs < m.at + SILENCE_AFTER_MS;
  });
  show($(".silence"), silence);
  var praying = inPrayer(st);
  show($(".in-prayer"), praying !== null);
  var upcoming = st.nextAdhan && st.nextAdhan.iso === st.today ? st.nextAdhan.prayers[0] : null;
  each(table.querySelectorAll("tr[data-time]"), function (row) {
    var name = row.getAttribute("data-time");
    var current = name === st.current;
    toggleClass(row, "current", current);
    if (current) row.setAttribute("aria-current", "time"); else row.removeAttribute("aria-current");
    toggleClass(row, "next", name === upcoming);
  });
}

function renderBand(st) {
  // One line at a time: the day's events, then the announcements of the turn's language (a bilingual screen's; the
  // other language's when the turn's has none).
  var all = Array.prototype.slice.call(band.querySelectorAll("p.made, p.note"));
  all = all.filter(function (p) { return !p.hasAttribute("data-off"); });
  var notes = all.filter(function (p) { return p.className === "note" && !p.hasAttribute("data-off"); });
  var own = notes.filter(function (p) { return (p.getAttribute("data-turn") || "0") === String(spoken); });
  var items = all.filter(function (p) { return p.className !== "note"; }).concat(own.length ? own : notes);
  var shown = items.length ? items[Math.floor(st.nowMs / ROTATE_MS) % items.length] : null;
  each(all, function (p) { show(p, p === shown); });
  show(band, items.length > 0);
  renderSlides(st);
  var stale = data.freshAt > 0 && st.nowMs - data.freshAt > STALE_MS;
  setText($(".stale"), stale ? W.stale.replace("{date}", dayText(placeClock(data.freshAt).iso)) : "");
  show($(".stale"), stale);
}

function renderSlides(st) {
  // The slide areas (one beside the clock, one under the table: screen.css shows the one of the orientation): the
  // day's slides in turn, those of the turn's language (the other language's when it has none).
  each(document.querySelectorAll(".slides"), function (area) {
    var all = Array.prototype.filter.call(area.querySelectorAll(".slide"), function (s) { return !s.hasAttribute("data-off"); });
    var own = all.filter(function (s) { return (s.getAttribute("data-turn") || "0") === String(spoken); });
    var items = own.length ? own : all;
    var shown = items.length ? items[Math.floor(st.nowMs / SLIDE_MS) % items.length] : null;
    each(area.querySelectorAll(".slide"), function (s) { show(s, s === shown); });
    show(area, items.length > 0);
  });
}

var FIT_LEVELS = ["", "fit-1", "fit-2", "fit-3", "fit-4", "fit-5"]; // screen.css: each a step smaller (fit-5: the landscape table's)
var fitted = "";

function overflows(part) {
  return part.scrollHeight > part.clientHeight + 1 || part.scrollWidth > part.clientWidth + 1;
}

function overflowsAcross(part) {
  return part.scrollWidth > part.clientWidth + 1;
}

function setLevel(part, level) {
  each(FIT_LEVELS, function (name) { if (name) toggleClass(part, name, name === FIT_LEVELS[level]); });
}

function fitLayout() {
  // The largest size at which the side (clock, dates, countdown, notices) and the table each fit their box,
  // found again whenever what they show or the screen's size changes.  A phone scrolls instead.
  var side = $(".side");
  var clock = $(".clock").textContent, value = $(".countdown .value").textContent; // their lengths only: they tick
  var key = window.innerWidth + "x" + window.innerHeight + clock.length + value.length
    + side.textContent.replace(clock, "").replace(value, "") + table.textContent + band.textContent
    + Array.prototype.map.call(document.querySelectorAll(".side [hidden], .times [hidden], .band [hidden]"),
      function (e) { return e.className; }).join();
  if (key === fitted) return;
  fitted = key;
  // The band keeps the height of its tallest line, so that the parts above do not move as the lines take turns.
  var lines = band.querySelectorAll("p.made, p.note:not([data-off])");
  var shownBefore = Array.prototype.map.call(lines, function (p) { return !p.hidden; });
  var tallest = 0;
  band.style.minHeight = "";
  each(lines, function (line) {
    each(lines, function (p) { show(p, p === line); });
    tallest = Math.max(tallest, band.offsetHeight);
  });
  each(lines, function (p, i) { show(p, shownBefore[i]); });
  band.style.minHeight = tallest ? tallest + "px" : "";
  // Side by side (landscape) each part steps down on its own until it fits its box. Stacked (portrait) the
  // side's height is the table's loss: the side steps down first, and the table only if the side's last step is
  // not enough (issue 36: a notice's line shrank the whole table, read from the back, to 57 %). There the side is
  // as tall as its lines, so only its width counts (a glyph a pixel past its box once stepped everything down).
  var portrait = window.innerHeight > window.innerWidth;
  function tooBig(part) {
    if (portrait) return overflowsAcross(side) || overflows(table);
    return overflows(part);
  }
  setLevel(side, 0);
  setLevel(table, 0);
  each([side, table], function (part) {
    for (var level = 0; level < FIT_LEVELS.length; level++) {
      setLevel(part, level);
      if (window.innerWidth < 600 || !tooBig(part)) break;
    }
  });
}

function render() {
  var st = dayState(Date.now());
  speak(turnOf(st.nowMs));
  speakingOn($(".now"));
  renderDay(st);
  renderChanges(st);
  renderCountdown(st);
  renderBand(st);
  speak(0);
  renderClock(st); // the clock in the first language, whatever the turn
  fitLayout();
  return st;
}

function sequence(steps) {
  // Run promise-making steps one after another.
  return steps.reduce(function (done, step) { return done.then(step); }, Promise.resolve());
}

function refresh(iso, again, every) {
  // Today's answers (again: read anew, for an announced month start or changed rules), then the coming
  // month's, one by one (every: all of them anew, so that a service worker that just started keeps them, and
  // yesterday's too, which the page read before the worker was there and needs when it starts without network).
  var year = Number(iso.slice(0, 4));
  var today = [loadYear(year, true), loadStatus(iso, true), loadStatus(isoAdd(iso, 1), true)];
  if (every) today.push(loadStatus(isoAdd(iso, -1), true));
  if (every && Number(isoAdd(iso, -1).slice(0, 4)) !== year) today.push(loadYear(year - 1, true)); // on 1 January
  var first = again ? settle(today) : Promise.resolve();
  return first.then(function () { return ensureData(iso, DAYS_AHEAD); }).then(function () {
    render();
    var steps = [];
    if (every && Number(isoAdd(iso, DAYS_AHEAD).slice(0, 4)) !== year) steps.push(function () { return settle([loadYear(year + 1, true)]); });
    for (var k = 2; k <= DAYS_AHEAD; k++) {
      steps.push((function (day) { return function () { return settle([loadStatus(day, every)]); }; })(isoAdd(iso, k)));
    }
    return sequence(steps);
  }).then(function () {
    render();
    return prune(iso);
  });
}

function prune(iso) {
  // Drop the cached answers of days and years that have passed.
  if (!("caches" in window)) return Promise.resolve();
  var yesterday = isoAdd(iso, -1);
  return caches.open(CACHE).then(function (cache) {
    return cache.keys().then(function (requests) {
      return Promise.all(requests.map(function (request) {
        var day = /date=(\d{4}-\d{2}-\d{2})/.exec(request.url);
        var year = /year=(\d{4})/.exec(request.url);
        var old = (day && day[1] < yesterday) || (year && Number(year[1]) < Number(iso.slice(0, 4)) - 1);
        return old ? cache["delete"](request) : null;
      }));
    });
  });
}

function tick() {
  var st = render();
  if (st.today !== shownDate) { // a new day (midnight, or the screen was switched on)
    shownDate = st.today;
    refresh(st.today, false, false).then(null, function () { return null; });
  } else if (st.nowMs - refreshedAt > REFRESH_MS) {
    refreshedAt = st.nowMs;
    refresh(st.today, true, false).then(null, function () { return null; });
  }
  setTimeout(tick, 1000 - (Date.now() % 1000));
}

function offline() {
  // A service worker keeps this page and its answers: the screen starts and runs without network.
  if (!("serviceWorker" in navigator)) return;
  var kept = false;
  function once() {
    if (kept || !navigator.serviceWorker.controller) return;
    kept = true;
    var page = new XMLHttpRequest(); // the page itself, for the service worker to keep
    page.open("GET", location.href);
    page.send();
    if (shownDate) refresh(shownDate, true, true).then(null, function () { return null; });
  }
  navigator.serviceWorker.addEventListener("controllerchange", once);
  navigator.serviceWorker.register(config.serviceWorker, { scope: config.scope }).then(null, function () { return null; });
  navigator.serviceWorker.ready.then(once, function () { return null; });
  // A mosque's screen: the same worker for its short address too, so that a TV starting there finds this page
  // without network.  Only on the screen that address leads to (the copy this page keeps): another screen of the
  // mosque (another language, an option) would point the short address at a page that is not kept.
  var home = config.home;
  if (home && location.pathname + location.search === home.screen) {
    navigator.serviceWorker.register(home.serviceWorker, { scope: home.scope }).then(null, function () { return null; });
  }
}

document.documentElement.className += " scripted"; // the server's table is replaced by the script's
refreshedAt = Date.now();
tick();
offline();
followProfile();

function greetingText(st) {
  // The greetings of the day's own events (W.greetings by event id: glossary greeting.*), each once.
  var status = statuses[st.today];
  var said = [];
  (status ? status.events : []).forEach(function (e) {
    var greeting = W.greetings[e.id];
    if (greeting && said.indexOf(greeting) < 0) said.push(greeting);
  });
  return said.join(W.sep);
}
