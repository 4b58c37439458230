// Drive the mosque screen and the widget in Debian's headless Chromium (playwright-core) with a fake
// clock, and report what they show at given instants, for tests/test_screen_browser.py to compare
// with the JSON API.
//
// stdin: {"base": "http://127.0.0.1:PORT", "chromium": "/usr/bin/chromium", "artifacts": "dir",
//         "runs": [{"name", "url" (a path on base, or a full URL: a host page), "viewport": [w, h],
//                   "start": Unix ms (the fake clock at load), "colorScheme": "light"|"dark" (optional),
//                   "steps": [{"at": Unix ms} (pause the clock there and read the screen; with "expect":
//                              {"fajr": "HH:MM", "stale": bool}, first wait until the screen shows them) |
//                             {"offline": bool} | {"reload": true} | {"serviceWorker": n day answers kept} |
//                             {"viewport": [w, h]} |
//                             {"shot": "file name"} | {"layout": true} | {"widgets": true}],
//                   "javaScript": false (optional: the page with scripts off), "initScript": "JS run before the
//                   page's own (e.g. deleting what an old engine lacks)"}]}
// stdout: {"runs": [{"name", "errors", "requests" (every URL asked), "reads": [...], "layouts": [...],
//                    "widgets": [...], "serviceWorker": {...}}]}
// Every request is recorded; one that leaves the loopback interface fails the test (no third party).
"use strict";
const fs = require("fs");
const path = require("path");
// The service worker's own requests are reported and cut off by setOffline too (Playwright's switch for it).
process.env.PW_EXPERIMENTAL_SERVICE_WORKER_NETWORK_EVENTS = "1";
const { chromium } = require("playwright-core");

const { sleep, until, setOffline, eachInOwnContext, report } = require("./browser_tools");

function readScreen() {
  const q = (selector) => document.querySelector(selector);
  const text = (selector) => {
    const element = q(selector);
    return element && !element.hidden && !element.closest("[hidden]") ? element.textContent.trim() : null;
  };
  const box = q(".countdown");
  const times = {};
  for (const row of document.querySelectorAll("tr[data-time]")) {
    if (row.hidden) continue; // imsak outside Ramadan
    const jamaat = row.querySelector(".jamaat");
    times[row.dataset.time] = {
      adhan: row.querySelector(".adhan").textContent.trim(),
      jamaat: jamaat && getComputedStyle(jamaat).display !== "none" ? jamaat.textContent.trim() : null,
    };
  }
  const qr = q(".qr svg");
  return {
    now: Date.now(),
    lang: document.documentElement.lang,
    dir: document.documentElement.dir,
    place: text("h1.place"),
    clock: text(".clock"),
    gregorian: text(".gregorian"),
    shamsi: text(".shamsi"),
    hijri: text(".hijri-date"),
    next: box && !box.hidden ? { kind: box.dataset.kind, at: Number(box.dataset.at),
                                  label: box.querySelector(".label").textContent.trim(),
                                  value: box.querySelector(".value").textContent.trim() } : null,
    silence: text(".silence"),
    changes: text(".changes"),
    moved: text(".moved"),
    practice: text(".practice"), // the widget's line of the day's practice (Ashura's abstaining, issue 33)
    // as read (a no-break space is a space to the reader); nightUnbroken: no plain space inside a bracket, so a
    // line never breaks inside one (review 7, fa FA7-04: «(شب بیست‌ویکم» / «رمضان)»)
    night: text(".night") === null ? null : text(".night").replace(/\u00a0/g, " "),
    nightUnbroken: text(".night") === null ? null : !/\([^()]* [^()]*\)/.test(text(".night")),
    dayEvents: text(".day-events"), // the widget's line of the day's own events (gallery ur UR3-02, fa LANG3-03)
    inPrayer: text(".in-prayer"),
    qr: qr ? qr.getBoundingClientRect().width : null,
    fit: [q(".side"), q(".times")].map((e) => (e ? (e.className.match(/fit-\d/) || [""])[0] : null)),
    current: Array.from(document.querySelectorAll("tr.current")).map((row) => row.dataset.time),
    times,
    jumuah: text("tr.jumuah td"),
    eid: text("tr.eid td"),
    scripted: document.documentElement.classList.contains("scripted"),
    widgetNext: text("p.next"),
    // rows whose computed time is labelled the start of its recommended (fadhila) time (issue 33)
    fadhila: Array.from(document.querySelectorAll("tr[data-time] .fadhila")).filter((e) => !e.closest("[hidden]"))
      .map((e) => e.closest("tr").dataset.time),
    band: Array.from(document.querySelectorAll(".band p")).map((p) => p.textContent.trim()),
    // what the band and the slide area show now (issue 36: the mosque's announcements of the day, in turn)
    bandShown: Array.from(document.querySelectorAll(".band p")).filter((p) => !p.closest("[hidden]"))
      .map((p) => p.textContent.trim()),
    slides: Array.from(document.querySelectorAll(".slides .slide"))
      .filter((e) => !e.closest("[hidden]") && getComputedStyle(e.closest(".slides")).display !== "none")
      .map((e) => Array.from(e.querySelectorAll("p")).map((p) => p.textContent.trim()).join("\n")),
    timesPx: q('tr[data-time="fajr"] .adhan') ? parseFloat(getComputedStyle(q('tr[data-time="fajr"] .adhan')).fontSize) : null,
    stale: text(".stale"),
    waiting: text(".waiting"),
    controlled: Boolean(navigator.serviceWorker && navigator.serviceWorker.controller),
  };
}

function readLayout() {
  // Every visible element inside the viewport (a phone may scroll down, never sideways), no text clipped.
  const problems = [];
  const phone = window.innerWidth < 600;
  for (const element of document.querySelectorAll("body *")) {
    if (element.closest("[hidden]") || ["SCRIPT", "STYLE"].includes(element.tagName)) continue;
    const r = element.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    const name = element.tagName + "." + element.className + " " + element.textContent.trim().slice(0, 40);
    if (r.left < -0.5 || r.right > window.innerWidth + 0.5 || r.top < -0.5 || (!phone && r.bottom > window.innerHeight + 0.5)) {
      problems.push(`outside: ${name} [${Math.round(r.left)}, ${Math.round(r.top)}, ${Math.round(r.right)}, ${Math.round(r.bottom)}]`);
    }
    // Text cut off by its box: wider than the box, or a line or more hidden (a clamped announcement);
    // a tall script's glyphs reaching past the line box are not a hidden line.
    const style = getComputedStyle(element);
    const line = parseFloat(style.lineHeight) || parseFloat(style.fontSize) * 1.2;
    if (["P", "TH", "TD", "H1", "SPAN", "A"].includes(element.tagName) && style.overflow === "hidden"
        && (element.scrollWidth > element.clientWidth + 1 || element.scrollHeight - element.clientHeight >= 0.8 * line)) {
      problems.push(`clipped: ${name}`);
    }
  }
  // Blocks that must not overlap one another inside the viewport (a row of the table over the clock, an
  // announcement over the table): every pair of visible blocks, neither inside the other, shares at most 1 px.
  const blocks = Array.from(document.querySelectorAll(
    ".place, .clock, .dates > p, .night, .waiting, .countdown, .silence, .changes, .moved, .times tr, .band p, .qr, .stale, "
    + ".slides"))
    .filter((e) => !e.closest("[hidden]") && getComputedStyle(e).display !== "none")
    .map((e) => ({ e, r: e.getBoundingClientRect() })).filter(({ r }) => r.width > 0 && r.height > 0);
  const label = (e) => e.tagName + "." + e.className + " " + e.textContent.trim().slice(0, 30);
  for (let i = 0; i < blocks.length; i++) {
    for (let j = i + 1; j < blocks.length; j++) {
      const a = blocks[i], b = blocks[j];
      if (a.e.contains(b.e) || b.e.contains(a.e)) continue;
      const across = Math.min(a.r.right, b.r.right) - Math.max(a.r.left, b.r.left);
      const down = Math.min(a.r.bottom, b.r.bottom) - Math.max(a.r.top, b.r.top);
      if (across > 1 && down > 1) problems.push(`overlap: ${label(a.e)} / ${label(b.e)}`);
    }
  }
  // The recommended-time label under asr's and isha's name (gallery review 2026-11-28 ur UR2-27: «عصر»'s «ر» ran into
  // «وقتِ فضیلت»): the box of the name's text as a Range measures it (its font's ascent and descent: the ink's box)
  // and the label's box.
  const fadhila = Array.from(document.querySelectorAll("tr[data-time] small.fadhila"))
    .filter((e) => !e.closest("[hidden]") && getComputedStyle(e).display !== "none").map((small) => {
      const th = small.closest("th");
      const holder = th.querySelector(".first") || th;
      const text = Array.from(holder.childNodes).find((n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim());
      const name = text.textContent.trim(), start = text.textContent.indexOf(name);
      const range = document.createRange();
      range.setStart(text, start);
      range.setEnd(text, start + name.length);
      const ink = range.getBoundingClientRect(), label = small.getBoundingClientRect();
      return { row: th.closest("tr").dataset.time, text: name,
               name: { top: ink.top, bottom: ink.bottom, left: ink.left, right: ink.right },
               label: { top: label.top, bottom: label.bottom, left: label.left, right: label.right } };
    });
  return { width: window.innerWidth, height: window.innerHeight, problems, fadhila,
           scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth };
}

async function readWidgets(page) {
  // Every widget frame on a host page: its size, its content, and its own layout.
  const out = [];
  for (const handle of await page.$$("iframe")) {
    const box = await handle.boundingBox();
    const frame = await handle.contentFrame();
    if (!frame) { out.push({ src: await handle.getAttribute("src"), loaded: false }); continue; }
    const inside = await frame.evaluate(() => ({
      url: location.href,
      lang: document.documentElement.lang,
      dir: document.documentElement.dir,
      background: getComputedStyle(document.documentElement).backgroundColor,
      contentHeight: Math.ceil(document.body.getBoundingClientRect().height),
      scrollWidth: document.documentElement.scrollWidth,
      clientWidth: document.documentElement.clientWidth,
      place: document.querySelector("h1").textContent.trim(),
      times: Object.fromEntries(Array.from(document.querySelectorAll("tr[data-time]")).map((row) => [row.dataset.time, {
        adhan: row.querySelector(".adhan").textContent.trim(),
        jamaat: getComputedStyle(row.querySelector(".jamaat")).display === "none" ? null : row.querySelector(".jamaat").textContent.trim(),
      }])),
      current: Array.from(document.querySelectorAll("tr.current")).map((row) => row.dataset.time),
      next: document.querySelector(".next").hidden ? null : document.querySelector(".next").textContent.trim(),
      hijri: document.querySelector(".hijri").textContent.trim(),
      month: document.querySelector("a.month").getAttribute("href"),
    }));
    out.push({ src: await handle.getAttribute("src"), fixedHeight: await handle.getAttribute("height"), loaded: true,
               width: box.width, height: box.height, ...inside });
  }
  return out;
}

const READY = () => {
  // The screen's (or widget's) times are filled in for the day it shows.
  const cell = document.querySelector('tr[data-time="fajr"] .adhan');
  const hijri = document.querySelector(".hijri-date") || document.querySelector(".hijri");
  return Boolean(cell && cell.textContent.trim() && hijri && hijri.textContent.trim());
};

const SHOWS = (expect) => {
  // The screen shows the expected day's fajr (and the stale line, or not): its data for the new instant arrived.
  const cell = document.querySelector('tr[data-time="fajr"] .adhan');
  const stale = document.querySelector(".stale");
  const staleShown = Boolean(stale && !stale.hidden && !stale.closest("[hidden]"));
  return (!expect.fajr || (cell && cell.textContent.trim() === expect.fajr))
    && (expect.stale === undefined || staleShown === expect.stale);
};

async function run(context, config, spec) {
  const page = await context.newPage();
  const result = { name: spec.name, errors: [], requests: [], reads: [], layouts: [], widgets: [], timings: {} };
  const started = Date.now();
  let offline = false; // errors while the network is cut are reported apart (failed fetches are expected then)
  result.offlineErrors = [];
  const error = (text) => (offline ? result.offlineErrors : result.errors).push(text);
  page.on("console", (message) => { if (message.type() === "error") error(message.text()); });
  page.on("pageerror", (e) => error(String(e)));
  let inflight = 0; // requests asked and not yet answered or failed (the page's and its service worker's)
  context.on("request", (request) => { result.requests.push(request.url()); inflight++; });
  context.on("requestfinished", () => inflight--);
  context.on("requestfailed", () => inflight--);
  // What answered while the network was cut: the service worker's copy, or (a leak of the cut) the network.
  result.offlineResponses = [];
  context.on("response", (response) => {
    if (offline) result.offlineResponses.push([response.url(), response.status(), response.fromServiceWorker(),
                                              response.headers()["x-screen-offline"] || null]);
  });
  if (spec.colorScheme) await page.emulateMedia({ colorScheme: spec.colorScheme });
  await page.setViewportSize({ width: spec.viewport[0], height: spec.viewport[1] });
  if (spec.javaScript !== false) await page.clock.install({ time: spec.start });
  if (spec.initScript) await page.addInitScript(spec.initScript); // after the fake clock's own (it wraps Intl)
  const url = spec.url.startsWith("http") ? spec.url : config.base + spec.url;
  const response = await page.goto(url, { waitUntil: "load" });
  result.status = response.status();
  result.headers = response.headers();
  const isWidgetHost = spec.steps.some((step) => step.widgets);
  if (!isWidgetHost) result.ready = await until(page, spec.javaScript === false ? () => true : READY, 15000);
  if (process.env.SCREEN_CHECK_TRACE) process.stderr.write(`${spec.name} loaded: ${Date.now() - started} ms\n`);
  for (const step of spec.steps) {
    const stepStarted = Date.now();
    if (step.at !== undefined) {
      if (spec.javaScript !== false) await page.clock.pauseAt(step.at);
      if (step.wait) await until(page, READY, 15000);
      if (step.expect) await until(page, SHOWS, 15000, step.expect);
      if (step.settle) await sleep(step.settle);
      result.reads.push({ at: step.at, ...(await page.evaluate(readScreen)) });
    } else if (step.viewport) {
      await page.setViewportSize({ width: step.viewport[0], height: step.viewport[1] });
    } else if (step.offline !== undefined) {
      await setOffline(context, step.offline);
      offline = step.offline;
    } else if (step.reload) {
      await page.reload({ waitUntil: "load" });
      result.ready = await until(page, READY, 15000);
    } else if (step.serviceWorker !== undefined) {
      // Wait until the service worker controls the page and keeps the page and the coming days' answers.
      result.serviceWorker = await until(page, async (wanted) => {
        if (!navigator.serviceWorker.controller) return null;
        const keys = await (await caches.open("screen-v1")).keys();
        const days = keys.filter((request) => request.url.includes("day-status")).length;
        const years = keys.filter((request) => request.url.includes("prayer-times")).length;
        const pages = keys.filter((request) => request.url.includes("/screen/?")).length;
        return days >= wanted && years >= 1 && pages >= 1 ? { days, years, pages } : null;
      }, 30000, step.serviceWorker);
      // ... and until the page's loads have all come back (half a second without one in flight): a load still
      // under way when the network is cut would come back fresh later, and its time would count as the data's.
      for (let quiet = 0, waited = 0; quiet < 500 && waited < 15000; waited += 50) {
        quiet = inflight > 0 ? 0 : quiet + 50;
        await sleep(50);
      }
      if (!result.serviceWorker) {
        result.serviceWorkerSeen = await page.evaluate(async () => ({
          controlled: Boolean(navigator.serviceWorker.controller),
          kept: "caches" in window ? (await (await caches.open("screen-v1")).keys()).map((r) => r.url) : null,
        })).catch((e) => String(e));
      }
    } else if (step.shot) {
      await page.screenshot({ path: path.join(config.artifacts, step.shot) });
    } else if (step.layout) {
      result.layouts.push({ at: await page.evaluate(() => Date.now()), ...(await page.evaluate(readLayout)) });
    } else if (step.widgets) {
      await until(page, () => Array.from(document.querySelectorAll("iframe")).length > 0, 10000);
      for (let i = 0; i < 100; i++) { // wait (real time) for every frame's times and its height message
        const frames = await readWidgets(page);
        if (frames.length >= step.widgets && frames.every((f) => f.loaded && f.times.fajr.adhan
            && (f.fixedHeight || Math.abs(f.height - f.contentHeight) <= 1))) break;
        await sleep(100);
      }
      result.widgets = await readWidgets(page);
    }
    if (process.env.SCREEN_CHECK_TRACE) process.stderr.write(`  ${JSON.stringify(step)}: ${Date.now() - stepStarted} ms\n`);
  }
  result.timings.ms = Date.now() - started;
  if (process.env.SCREEN_CHECK_TRACE) process.stderr.write(`${spec.name}: ${result.timings.ms} ms\n`);
  await page.close();
  return result;
}

report(async () => {
  const config = JSON.parse(fs.readFileSync(0, "utf8"));
  fs.mkdirSync(config.artifacts, { recursive: true });
  // A fresh context per run: no service worker, cache or clock left by another run.
  const options = (spec) => ({ serviceWorkers: "allow", javaScriptEnabled: spec.javaScript !== false });
  return { runs: await eachInOwnContext(chromium, config.chromium, config.runs, options,
                                        (context, spec) => run(context, config, spec)) };
});
