// A hosted mosque's screen and widget following edits of its profile, in Debian's headless Chromium
// (playwright-core) with a fake clock, for tests/test_screen_follow.py.
//
// stdin: {"base": "http://127.0.0.1:PORT", "chromium": "/usr/bin/chromium", "artifacts": "dir",
//         "start": Unix ms (the fake clock at load), "pages": [{"name", "url", "viewport": [w, h]}],
//         "steps": [{"wait": fake ms, "step": fake ms (default 1000)} (advance both pages' clocks by step at a
//                    time, with real time between for what the pages ask) |
//                   {"http": {"method", "path", "headers", "body"}} (a request from this process: an edit) |
//                   {"until": {"page name": {"announcement"?, "place"?, "dhuhrJamaat"?}}, "within": fake ms}
//                    (advance second by second until every page shows that, or the fake time is up) |
//                   {"offline": bool} (the network cut, or back) | {"read": true} | {"shot": "file name"}]}
// stdout: {"pages": {name: {"errors", "navigations": [URL of each document loaded], "profileAnswers":
//          [[status, from the service worker, real ms]], "controlled"}}, "steps": [{..., "seenAt": {name: fake ms
//          from the step's start}, "realReloadMs": {name: real ms from the 200 to the page showing the edit}}]}
// Every request that leaves the loopback interface fails the run (no third party).
"use strict";
const fs = require("fs");
const path = require("path");
process.env.PW_EXPERIMENTAL_SERVICE_WORKER_NETWORK_EVENTS = "1";
const { chromium } = require("playwright-core");

const { ARGS, sleep, setOffline } = require("./browser_tools");
const STEP_MS = 1000; // the fake clock moves a second at a time (the screen ticks every second)

function readPage() {
  const shown = (e) => Boolean(e) && !e.hidden && !e.closest("[hidden]");
  const notes = Array.from(document.querySelectorAll(".band p.note")).map((p) => p.textContent.trim());
  const dhuhr = document.querySelector('tr[data-time="dhuhr"] .jamaat');
  const fajr = document.querySelector('tr[data-time="fajr"] .adhan');
  return {
    now: Date.now(),
    place: (document.querySelector("h1") || { textContent: "" }).textContent.trim(),
    notes,
    bandShown: shown(document.querySelector(".band")),
    dhuhrJamaat: dhuhr ? dhuhr.textContent.trim() : null,
    fajrAdhan: fajr ? fajr.textContent.trim() : null,
    waiting: shown(document.querySelector(".waiting")),
    scripted: document.documentElement.classList.contains("scripted"),
    config: JSON.parse(document.getElementById("page-config").textContent).profile || null,
    controlled: Boolean(navigator.serviceWorker && navigator.serviceWorker.controller),
  };
}

function shows(read, want) {
  return Boolean(read) && (!want.announcement || read.notes.includes(want.announcement))
    && (!want.place || read.place === want.place) && (!want.dhuhrJamaat || read.dhuhrJamaat === want.dhuhrJamaat);
}

async function main() {
  const config = JSON.parse(fs.readFileSync(0, "utf8"));
  fs.mkdirSync(config.artifacts, { recursive: true });
  const out = { pages: {}, steps: [] };
  const browser = await chromium.launch({ executablePath: config.chromium, headless: true, args: ARGS });
  try {
    const context = await browser.newContext({ serviceWorkers: "allow" });
    await context.clock.install({ time: config.start }); // one clock for the context's pages
    const pages = {};
    let offline = false;
    for (const spec of config.pages) {
      const page = await context.newPage();
      const record = { errors: [], offlineErrors: [], navigations: [], profileAnswers: [], requests: [],
                       asking: 0, reloadAsked: false };
      out.pages[spec.name] = record;
      pages[spec.name] = page;
      // errors while the network is cut are reported apart (a failed question is expected then)
      const error = (text) => (offline ? record.offlineErrors : record.errors).push(text);
      page.on("pageerror", (e) => error(String(e)));
      page.on("console", (m) => { if (m.type() === "error") error(m.text() + " " + m.location().url); });
      const question = (request) => new URL(request.url()).pathname.startsWith("/v1/mosques/");
      page.on("request", (request) => {
        if (!request.url().startsWith(config.base)) record.errors.push("request off loopback: " + request.url());
        record.requests.push(request.url());
        if (question(request)) record.asking += 1;
      });
      page.on("requestfinished", (request) => { if (question(request)) record.asking -= 1; });
      page.on("requestfailed", (request) => { if (question(request)) record.asking -= 1; });
      page.on("load", () => { record.reloadAsked = false; });
      page.on("framenavigated", (frame) => { if (frame === page.mainFrame()) record.navigations.push(frame.url()); });
      page.on("response", (response) => {
        if (new URL(response.url()).pathname.startsWith("/v1/mosques/")) {
          record.profileAnswers.push([response.status(), response.fromServiceWorker(), Date.now()]);
          // a 200 from the network is an edit: the page reloads (screen_core.js followProfile)
          if (response.status() === 200 && !response.fromServiceWorker()) record.reloadAsked = true;
        }
      });
      await page.setViewportSize({ width: spec.viewport[0], height: spec.viewport[1] });
      await page.goto(config.base + spec.url, { waitUntil: "load" });
    }
    const read = async (name) => pages[name].evaluate(readPage).catch(() => null); // null while reloading
    // Both pages ready: their day filled in from the API (real time), the screen under its service worker.
    for (const name of Object.keys(pages)) {
      for (let i = 0; i < 200; i++) {
        const r = await read(name);
        if (r && r.fajrAdhan && !r.waiting && (name !== "screen" || r.controlled)) break;
        await sleep(50);
      }
      out.pages[name].controlled = (await read(name) || {}).controlled;
    }
    async function advance(ms) {
      await context.clock.runFor(ms).catch(() => null);
      // The fake clock waits while a question is out and while the reload an edit's answer asks for loads: the fake
      // time an edit is seen at never hangs on this machine's speed (the real wait is bounded at a minute, a
      // failure bound for a page that never answers, not a measure).
      for (let i = 0; i < 1200 && Object.values(out.pages).some((r) => r.asking > 0 || r.reloadAsked); i++) await sleep(50);
      await sleep(60); // and a moment for the page's own callbacks
    }
    for (const step of config.steps) {
      const result = { step };
      if (step.wait !== undefined) {
        const by = step.step || STEP_MS;
        for (let waited = 0; waited < step.wait; waited += by) await advance(by);
      } else if (step.http) {
        const response = await fetch(config.base + step.http.path, {
          method: step.http.method, headers: step.http.headers || {},
          body: step.http.body === undefined ? undefined : JSON.stringify(step.http.body),
        });
        result.status = response.status;
        result.etag = response.headers.get("etag");
        result.body = await response.text();
        result.at = {};
        for (const name of Object.keys(pages)) result.at[name] = (await read(name) || {}).now;
      } else if (step.until) {
        const names = Object.keys(step.until);
        const from = {};
        for (const name of names) from[name] = (await read(name)).now;
        result.seenAt = {};
        for (let elapsed = 0; elapsed <= step.within; elapsed += STEP_MS) {
          for (const name of names) {
            if (result.seenAt[name] === undefined) {
              // a reload in flight: give it real time (its fake clock does not move meanwhile)
              let r = await read(name);
              for (let i = 0; i < 40 && (!r || r.waiting || !r.fajrAdhan); i++) { await sleep(50); r = await read(name); }
              if (shows(r, step.until[name])) {
                result.seenAt[name] = r.now - from[name];
                // real ms from the profile's 200 (the question that saw the edit) to the page showing it
                const changed = out.pages[name].profileAnswers.filter((a) => a[0] === 200).pop();
                result.realReloadMs = { ...result.realReloadMs, [name]: changed ? Date.now() - changed[2] : null };
              }
            }
          }
          if (names.every((name) => result.seenAt[name] !== undefined)) break;
          await advance(STEP_MS);
        }
      } else if (step.offline !== undefined) {
        await setOffline(context, step.offline);
        offline = step.offline;
      } else if (step.shot) {
        await pages.screen.screenshot({ path: path.join(config.artifacts, step.shot) });
      }
      if (step.read || step.until || step.wait !== undefined) {
        result.reads = {};
        for (const name of Object.keys(pages)) {
          result.reads[name] = await read(name);
          result.reads[name].navigations = out.pages[name].navigations.length;
          result.reads[name].profileAnswers = out.pages[name].profileAnswers.slice();
        }
      }
      out.steps.push(result);
    }
    await context.close();
  } finally {
    await browser.close();
  }
  process.stdout.write(JSON.stringify(out));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
