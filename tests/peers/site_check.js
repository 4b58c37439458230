// Open the site's pages in Debian's headless Chromium (playwright-core, no browser download)
// and report what a reader sees, for tests/test_site_browser.py to compare with the JSON API.
//
// stdin: {"base": "http://127.0.0.1:PORT", "chromium": "/usr/bin/chromium", "artifacts": "dir",
//         "pages": [{"name", "path" (or "file": a saved page),
//                    "kind": "index"|"home"|"city"|"month"|"mosque"|"imsakiya"|"moon"|"svg"|"print",
//                    "pdf": bool, "viewports": [[width, height], ...]}]}
// stdout: {"pages": [{"name", "lang", "dir", "errors": [...], "tables"|"maps"|"search"|"imsakiya", "links", "pdf",
//                     "layout": [{"width", "height", "scrollWidth", "card", "today", "webcal", "imsakiya", "aria", ...}]}]}
// At each viewport the page is measured (horizontal overflow, today's card on the first screen)
// and photographed: <name>-<width>.png (the first screen on a phone, the whole page on a desktop).
// Only loopback requests are let through; anything else is aborted and reported as an error.
"use strict";
const fs = require("fs");
const os = require("os");
const path = require("path");
const { chromium } = require("playwright-core");

const ARGS = [
  "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync",
];

async function readTables(page) {
  return page.$$eval("table.timetable", (tables) => tables.map((table) => ({
    year: table.dataset.year,
    month: table.dataset.month,
    rows: Array.from(table.querySelectorAll("tbody tr")).map((row) => ({
      date: row.dataset.date,
      times: Object.fromEntries(Array.from(row.querySelectorAll("td[data-time]"))
        .map((cell) => [cell.dataset.time, cell.textContent.trim()])),
      jamaat: Object.fromEntries(Array.from(row.querySelectorAll("td[data-jamaat]"))
        .map((cell) => [cell.dataset.jamaat, cell.textContent.trim()])),
      hijri: Object.fromEntries(Array.from(row.querySelectorAll("td[data-calendar]"))
        .map((cell) => [cell.dataset.calendar, cell.textContent.trim()])),
      events: Array.from(row.querySelectorAll(".event")).map((e) => e.textContent.trim()),
    })),
  })));
}

async function readMaps(page) {
  // Every map's cell paths by class (z0..z4), with their rendered size, for the test to decode.
  return page.$$eval("svg g.cells", (groups) => groups.map((group) => {
    const figure = group.closest("figure");
    const svg = group.closest("svg");
    const box = svg.getBoundingClientRect();
    return {
      evening: figure ? Number(figure.dataset.evening) : null,
      viewBox: svg.getAttribute("viewBox"),
      widthPx: box.width,
      paths: Object.fromEntries(Array.from(group.querySelectorAll("path"))
        .map((p) => [p.getAttribute("class"), p.getAttribute("d")])),
      coastDrawn: svg.querySelector("use, path.coast") !== null,
    };
  }));
}

async function readLayout(page) {
  // What a reader sees at this viewport: does the page scroll sideways, where is today's card, which row is today.
  return page.evaluate(() => {
    function readImsakiyaBoxes() {
      // Where the imsakiya's columns stand on the screen (gallery review ur UR2-32: iftar off a phone's screen): the
      // table's own scrolling box, and per column (its header's data-time/-jamaat/-slots, else its position) the boxes
      // of its header and of today's row (else the first); in the page's document order.
      const table = document.querySelector("table.imsakiya");
      if (!table) return null;
      const rect = (element) => {
        const r = element.getBoundingClientRect();
        return { left: r.left, right: r.right, top: r.top, bottom: r.bottom,
                 shown: getComputedStyle(element).display !== "none" && r.width > 0 && r.height > 0 };
      };
      const row = table.querySelector('tbody tr[aria-current="date"]') || table.querySelector("tbody tr");
      const heads = Array.from(table.querySelectorAll("thead th"));
      const cells = Array.from(row.children);
      return {
        box: rect(table.closest(".table-scroll")),
        scrollingWidth: document.scrollingElement.scrollWidth,
        row: row.dataset.date,
        columns: heads.map((th, i) => ({
          id: th.dataset.time || th.dataset.jamaat || th.dataset.slots || String(i),
          head: rect(th),
          cell: cells[i] ? rect(cells[i]) : null,
          cellId: cells[i] ? (cells[i].dataset.time || cells[i].dataset.jamaat || cells[i].dataset.slots || String(i)) : null,
        })),
      };
    }
    const card = document.querySelector(".today-card");
    const box = card ? card.getBoundingClientRect() : null;
    return {
      width: window.innerWidth,
      height: window.innerHeight,
      scrollWidth: document.documentElement.scrollWidth,
      clientWidth: document.documentElement.clientWidth,
      card: card ? {
        date: card.dataset.date,
        hidden: card.hidden,
        top: box.top + window.scrollY,
        bottom: box.bottom + window.scrollY,
        times: Object.fromEntries(Array.from(card.querySelectorAll("li[data-time]"))
          .map((li) => [li.dataset.time, li.querySelector(".time").textContent.trim()])),
        next: !card.querySelector(".next") || card.querySelector(".next").hidden ? null
          : card.querySelector(".next").textContent.trim(),  // (a mosque's card names no next time)
      } : null,
      today: Array.from(document.querySelectorAll('tr[aria-current="date"]')).map((row) => row.dataset.date),
      webcal: Array.from(document.querySelectorAll("a.webcal")).map((a) => a.href),
      https: Array.from(document.querySelectorAll("a.https")).map((a) => a.href),
      clock: Date.now(),
      imsakiya: readImsakiyaBoxes(),
    };
  });
}

async function readImsakiya(page) {
  return page.$eval("table.imsakiya", (table) => ({
    calendar: table.dataset.calendar,
    method: table.dataset.method,
    mosque: table.dataset.mosque || null,
    rows: Array.from(table.querySelectorAll("tbody tr")).map((row) => ({
      date: row.dataset.date,
      day: row.querySelector("th").textContent.trim(),
      qadr: row.classList.contains("qadr"),
      times: Object.fromEntries(Array.from(row.querySelectorAll("td[data-time]"))
        .map((cell) => [cell.dataset.time, cell.textContent.trim()])),
      jamaat: Object.fromEntries(Array.from(row.querySelectorAll("td[data-jamaat]"))
        .map((cell) => [cell.dataset.jamaat, cell.textContent.trim()])),
      slots: Array.from(row.querySelectorAll("td[data-slots]")).map((cell) => cell.textContent.trim()),
    })),
  }));
}

async function citySearch(page) {
  // Type an Arabic-script name, as a user would, and read the suggestions.
  await page.fill("#city-q", "کربلا");
  await page.waitForSelector("#city-results a", { timeout: 5000 });
  return page.$$eval("#city-results a", (links) => links.map((a) => a.getAttribute("href")));
}

async function main() {
  const config = JSON.parse(fs.readFileSync(0, "utf8"));
  fs.mkdirSync(config.artifacts, { recursive: true });
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "site-check-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: config.chromium,
    headless: true,
    args: ARGS,
    viewport: { width: 1280, height: 900 },
  });
  const results = [];
  try {
    await context.route("**/*", (route) => {
      const url = new URL(route.request().url());
      if (url.protocol === "file:" || url.hostname === "127.0.0.1" || url.hostname === "localhost") {
        return route.continue();
      }
      return route.abort();
    });
    for (const spec of config.pages) {
      const page = await context.newPage();
      const errors = [];
      page.on("console", (message) => { if (message.type() === "error") errors.push(message.text()); });
      page.on("pageerror", (error) => errors.push(String(error)));
      page.on("requestfailed", (request) => errors.push(`request failed: ${request.url()}`));
      page.on("response", (response) => {
        if (response.status() >= 400) errors.push(`HTTP ${response.status()}: ${response.url()}`);
      });
      const url = spec.file ? "file://" + spec.file : config.base + spec.path;
      const response = await page.goto(url, { waitUntil: "load" });
      const result = {
        name: spec.name,
        kind: spec.kind,
        status: spec.file ? 200 : response.status(),
        contentType: spec.file ? "text/html" : response.headers()["content-type"],
        errors,
      };
      if (spec.kind !== "svg") {
        result.lang = await page.getAttribute("html", "lang");
        result.dir = await page.getAttribute("html", "dir");
        result.title = await page.title();
        await page.evaluate(() => document.fonts.ready);
      }
      if (["city", "month", "mosque"].includes(spec.kind)) result.tables = await readTables(page);
      if (spec.kind === "imsakiya") result.imsakiya = await readImsakiya(page);
      if (spec.kind === "moon" || spec.kind === "svg") result.maps = await readMaps(page);
      if (spec.kind === "index" || spec.kind === "home") result.search = await citySearch(page);
      if (spec.kind === "mosque") {  // the links beside the month (issue 36: previous, next, the Ramadan timetable)
        result.links = await page.$$eval("nav.months-nav a", (links) => links.map((a) => ({
          rel: a.getAttribute("rel"), href: a.getAttribute("href"), imsakiya: a.classList.contains("imsakiya-link") })));
      }
      result.layout = [];
      for (const [width, height] of spec.viewports || []) {
        await page.setViewportSize({ width, height });
        await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve())));
        result.layout.push(await readLayout(page));
        if (spec.kind === "imsakiya") {  // what a screen reader is given: the same table at every width
          result.layout[result.layout.length - 1].aria = await page.locator("table.imsakiya").ariaSnapshot();
        }
        const started = Date.now();
        await page.screenshot({ path: path.join(config.artifacts, `${spec.name}-${width}.png`), fullPage: width > 800 && spec.kind !== "svg",
                                timeout: 120000 });
        if (process.env.SITE_CHECK_TRACE) process.stderr.write(`${spec.name} ${width}: ${Date.now() - started} ms\n`);
      }
      if (spec.pdf) {
        await page.setViewportSize({ width: 1280, height: 900 });
        const file = path.join(config.artifacts, `${spec.name}.pdf`);
        await page.pdf({ path: file, format: "A4", printBackground: true, preferCSSPageSize: true });
        result.pdf = file;
      }
      results.push(result);
      await page.close();
    }
  } finally {
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
  process.stdout.write(JSON.stringify({ pages: results }));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
