// A mosque's short screen address (/mosque/<id>/screen/) opened without network, in Debian's headless Chromium
// (playwright-core) with a fake clock, for tests/test_screen_home.py.
//
// stdin: {"base": "http://127.0.0.1:PORT", "chromium": "/usr/bin/chromium", "artifacts": "dir",
//         "start": Unix ms (the fake clock), "home": "/mosque/<id>/screen/",
//         "crafted": [{"scope": "/mosque/…/", "target": "any text"}] (registrations of /screen/sw.js made by a page of
//                    this origin, each with ?screen=<target> and its own scope, as a hostile script could make them)}
// Online: the short address is opened, and the run waits until its service workers are active and the screen's
// page and today's answers are kept; the crafted registrations are made then.  Offline (the browser's switch, and
// every request that still leaves aborted): the short address is opened in a new page of the same context, then each
// crafted scope, each in a new page.
// stdout: {"online": {"navigations", "registrations": [[scope, script URL, active]], "kept": [URLs], "read"},
//          "offline": {"status", "url", "fromServiceWorker", "gotoError", "navigations", "requests", "read",
//                      "errors" (uncaught exceptions)},
//          "crafted": [{"scope", "target", "registered", "gotoError", "navigations", "requests"}],
//          "offloop": [requests that left loopback], "ms": wall time}
"use strict";
const fs = require("fs");
const path = require("path");
process.env.PW_EXPERIMENTAL_SERVICE_WORKER_NETWORK_EVENTS = "1"; // the workers' requests are cut off too
const { chromium } = require("playwright-core");

const { ARGS, sleep, until, setOffline } = require("./browser_tools");

function readScreen() {
  const text = (selector) => {
    const element = document.querySelector(selector);
    return element && !element.hidden && !element.closest("[hidden]") ? element.textContent.trim() : null;
  };
  const times = {};
  for (const row of document.querySelectorAll("tr[data-time]")) {
    if (!row.hidden) times[row.dataset.time] = row.querySelector(".adhan").textContent.trim();
  }
  return {
    url: location.href, place: text("h1.place"), gregorian: text(".gregorian"), times, stale: text(".stale"),
    waiting: text(".waiting"), scripted: document.documentElement.classList.contains("scripted"),
    controlled: Boolean(navigator.serviceWorker && navigator.serviceWorker.controller),
  };
}

const READY = () => {
  const cell = document.querySelector('tr[data-time="fajr"] .adhan');
  const hijri = document.querySelector(".hijri-date");
  return document.documentElement.classList.contains("scripted") && Boolean(cell && cell.textContent.trim()
    && hijri && hijri.textContent.trim());
};


async function registrations(page) {
  return page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).map((r) => [
    r.scope, (r.active || r.waiting || r.installing || { scriptURL: null }).scriptURL, Boolean(r.active)]));
}

async function open(context, url, offloop) {
  // A new page at url: its main frame's navigations, every request of the context meanwhile, the answer or the error.
  const page = await context.newPage();
  const out = { navigations: [], requests: [], errors: [] };
  page.on("framenavigated", (frame) => { if (frame === page.mainFrame()) out.navigations.push(frame.url()); });
  page.on("pageerror", (e) => out.errors.push(String(e)));
  out.console = [];
  page.on("console", (m) => { if (m.type() === "error") out.console.push(m.text()); });
  out.responses = [];
  out.failed = [];
  page.on("response", (r) => out.responses.push([r.url(), r.status(), r.fromServiceWorker()]));
  page.on("requestfailed", (r) => out.failed.push([r.url(), (r.failure() || {}).errorText || null]));
  const record = (request) => out.requests.push(request.url());
  context.on("request", record);
  try {
    const response = await page.goto(url, { waitUntil: "load", timeout: 10000 });
    out.status = response ? response.status() : null;
    out.url = response ? response.url() : null;
    out.fromServiceWorker = response ? response.fromServiceWorker() : null;
    out.chain = [];
    for (let r = response && response.request(); r; r = r.redirectedFrom()) out.chain.unshift(r.url());
  } catch (error) {
    out.gotoError = String(error.message || error).split("\n")[0];
  }
  return { page, out, stop: () => context.off("request", record) };
}

async function main() {
  const config = JSON.parse(fs.readFileSync(0, "utf8"));
  fs.mkdirSync(config.artifacts, { recursive: true });
  const started = Date.now();
  const result = { offloop: [], crafted: [] };
  const browser = await chromium.launch({ executablePath: config.chromium, headless: true, args: ARGS });
  try {
    const context = await browser.newContext({ serviceWorkers: "allow", viewport: { width: 1920, height: 1080 } });
    await context.clock.install({ time: config.start });
    let inflight = 0;
    context.on("request", (request) => {
      inflight++;
      if (!request.url().startsWith(config.base)) result.offloop.push(request.url());
    });
    context.on("requestfinished", () => inflight--);
    context.on("requestfailed", () => inflight--);
    const homeUrl = config.base + config.home;

    // Online: the short address once, as a TV on its first start.
    const first = await open(context, homeUrl);
    first.stop();
    const page = first.page;
    await until(page, READY, 15000);
    // Both workers active (the short address's one, when the page registers it), and the page and today's answers kept.
    const kept = await until(page, async (home) => {
      if (!navigator.serviceWorker.controller) return null;
      const keys = (await (await caches.open("screen-v1")).keys()).map((r) => r.url);
      const homeRegistration = await navigator.serviceWorker.getRegistration(home);
      const homeActive = Boolean(homeRegistration && homeRegistration.active
        && new URL(homeRegistration.scope).pathname === new URL(home).pathname);
      const ready = keys.some((u) => u.includes("/screen/?")) && keys.some((u) => u.includes("prayer-times"))
        && keys.some((u) => u.includes("day-status"));
      return ready && homeActive ? keys : null;
    }, 8000, homeUrl);
    // ... and the page's loads all back (half a second without one in flight; capped).
    for (let quiet = 0, waited = 0; quiet < 500 && waited < 8000; waited += 50) {
      quiet = inflight > 0 ? 0 : quiet + 50;
      await sleep(50);
    }
    // The crafted registrations, made by a script of this origin (the page's own console, as it were).
    for (const c of config.crafted) {
      const registered = await page.evaluate(async ({ scope, target }) => {
        try {
          const r = await navigator.serviceWorker.register("/screen/sw.js?screen=" + encodeURIComponent(target), { scope });
          const worker = r.installing || r.waiting || r.active;
          if (worker && worker.state !== "activated") {
            await new Promise((resolve) => {
              worker.addEventListener("statechange", () => { if (worker.state === "activated" || worker.state === "redundant") resolve(); });
              setTimeout(resolve, 5000);
            });
          }
          return Boolean(r.active) && new URL(r.scope).pathname === scope;
        } catch (error) {
          return String(error);
        }
      }, c);
      result.crafted.push({ scope: c.scope, target: c.target, registered });
    }
    result.online = {
      navigations: first.out.navigations, chain: first.out.chain, status: first.out.status, console: first.out.console,
      registrations: await registrations(page),
      kept: kept || (await page.evaluate(async () => (await (await caches.open("screen-v1")).keys()).map((r) => r.url))),
      read: await page.evaluate(readScreen),
    };

    await setOffline(context, true);
    const second = await open(context, homeUrl);
    if (!second.out.gotoError) await until(second.page, READY, 10000);
    await sleep(300); // a second's worth of the screen's own work: an error it would show, it shows by then
    second.stop();
    second.out.read = await second.page.evaluate(readScreen).catch((e) => String(e));
    await second.page.screenshot({ path: path.join(config.artifacts, "home-offline-1920x1080.png") }).catch(() => null);
    result.offline = second.out;

    for (const c of result.crafted) {
      const tried = await open(context, config.base + c.scope);
      await sleep(200);
      tried.stop();
      Object.assign(c, { gotoError: tried.out.gotoError || null, status: tried.out.status || null,
                         navigations: tried.out.navigations, requests: tried.out.requests, chain: tried.out.chain || null });
      await tried.page.close();
    }
    await context.close();
  } finally {
    await browser.close();
  }
  result.ms = Date.now() - started;
  process.stdout.write(JSON.stringify(result));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
