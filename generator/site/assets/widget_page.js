// The widget: today's times (and jamaat), the next prayer, a link to the month; its height is told
// to the page that embeds it (docs/site.md, "The widget").
var NEXT_KINDS = { imsak: true, adhan: true, iftar: true, jumuah: true, eid: true }; // what "Next:" names
var shownDate = null;

function $(selector) {
  return document.querySelector(selector);
}

function nextName(m) {
  if (m.kind === "imsak") return W.times.imsak;
  if (m.kind === "jumuah") return W.jumuah;
  if (m.kind === "eid") return W.eid;
  if (m.kind === "adhan") return W.adhanNames[m.prayers[0]]; // the city card's column name (Persian «اذان ظهر»)
  if (m.kind === "iftar" && W.iftar) return W.iftar; // Ramadan's maghrib, as the city card names it (LANG4-04)
  return W.prayers[m.prayers[0]];
}

function nextLocal(m) {
  if (m.local) return m.local;
  var day = dayOf(m.iso);
  return day ? day.local[m.kind === "imsak" ? "imsak" : m.prayers[0]] : "";
}

function nextClock(m) {
  // The next time with its part-of-day word: in Urdu that of the prayer, as the feeds write it
  // (feed_words.period_of: maghrib and isha «شام» or «رات», never the clock hour's «سہ پہر»).
  var hhmm = nextLocal(m);
  var p = W.eventPeriods;
  if (!p || config.clock === "24" || typeof hhmm !== "string" || hhmm.length !== 5) return clockText(hhmm, true);
  var hours = Number(hhmm.slice(0, 2));
  var event = m.kind === "adhan" ? m.prayers[0] : m.kind; // imsak, iftar, jumuah, eid, or the prayer
  var key = p.events[event];
  if (key === "evening" && !(hours >= 12 && hours < p.eveningUntil)) key = "night";
  if (key === "afternoon" && hours < p.lateAfternoonFrom) key = "noon";
  return clockText(hhmm, false) + " " + p.words[key];
}

function render() {
  var st = dayState(Date.now());
  var day = st.day;
  renderDates(st, $(".hijri"), W.hijriDate);
  each(document.querySelectorAll("[data-time]"), function (row) {
    var name = row.getAttribute("data-time");
    renderTimes(row, day, name);
    toggleClass(row, "current", name === st.current);
  });
  show($('tr[data-time="imsak"]'), st.ramadan);
  toggleClass(document.body, "no-jamaat", !data.jamaat);
  each(SLOTS, function (kind) {
    var slots = jamaatLocal(day, kind);
    var shown = Array.isArray(slots) && slots.length > 0;
    show($("." + kind), shown);
    setText($("." + kind + " .slots"), shown ? joinList(slots.map(function (s) { return clockText(s); })) : "");
  });
  applyAnnouncements(st.today); // the mosque's announcement lines of the day (screen_core.js), all at once
  each(document.querySelectorAll(".notes li"), function (li) { show(li, !li.hasAttribute("data-off")); });
  var list = $(".notes");
  if (list) show(list, list.querySelectorAll("li:not([data-off])").length > 0);
  var notes = dayNotes(day); // a jamaat moved, kept or skipped today (screen_core.js; issue 33)
  setText($(".moved"), notes.join(" "));
  show($(".moved"), notes.length > 0);
  // The day and tonight's nights, as the screen says them (gallery reviews fa LANG3-03, ur UR3-02, ar AR2-04)
  var dayText = todayEventsText(st);
  setText($(".day-events"), dayText);
  show($(".day-events"), dayText !== "");
  var nightText = tonightText(st);
  setText($(".night"), nightText);
  show($(".night"), nightText !== "");
  // Ashura: abstain until after asr, not a fast (day-status flags.ashuraImsak), with the day's asr (issue 33)
  var status = statuses[st.today];
  var practice = status && status.flags.ashuraImsak && day && day.local.asr
    ? W.ashura_imsak.replace("{asr}", clockText(day.local.asr)) : "";
  setText($(".practice"), practice);
  show($(".practice"), practice !== "");
  var clockLine = clockChangeText(st.today, st.nowMs); // the clock change, tonight or last night (screen_core.js)
  setText($(".clock-change"), clockLine);
  show($(".clock-change"), clockLine !== "");
  var next = firstAfter(st.moments, st.nowMs, NEXT_KINDS);
  show($(".next"), next !== null);
  if (next) {
    var minutes = Math.ceil((next.at - st.nowMs) / 60000);
    $(".next").setAttribute("data-kind", next.kind);
    $(".next").setAttribute("data-at", String(next.at));
    setText($(".next-name"), nextName(next));
    setText($(".next-time"), nextClock(next));
    setText($(".next-in"), "(" + timeLeftText(minutes, W.nextIn, native) + ")");  // time_left.js
  }
  show($(".waiting"), day === null);
  var month = $(".month");
  if (config.monthLink) month.href = config.monthLink.replace("year=YEAR", "year=" + st.today.slice(0, 4))
    .replace("month=MONTH", "month=" + Number(st.today.slice(5, 7)));
  return st;
}

var toldHeight = -1;
function tellHeight() {
  // The embedding page (widget.js) sets the frame's height from this message; nothing else is sent.
  if (window.parent === window) return;
  // The body's own height: the document's scroll height never falls below the frame it is in.
  var height = Math.ceil(document.body.getBoundingClientRect().height);
  if (height === toldHeight) return;
  toldHeight = height;
  window.parent.postMessage({ source: "shia-times-widget", height: height }, "*");
}

function tick() {
  var st = render();
  tellHeight();
  if (st.today !== shownDate) {
    shownDate = st.today;
    ensureData(st.today, 1).then(function () { render(); tellHeight(); });
  }
  setTimeout(tick, 15000 - (Date.now() % 15000));
}

document.documentElement.className += " scripted";
tick();
followProfile();
// The frame's height follows its content: ResizeObserver where there is one (Chromium 64), else the window's size.
if (typeof ResizeObserver === "function") new ResizeObserver(tellHeight).observe(document.body);
else window.addEventListener("resize", tellHeight);
