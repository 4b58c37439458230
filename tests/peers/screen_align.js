// Measure the mosque screen's table as Chromium draws it (tests/test_screen_align_browser.py): in one browser, each
// page at each viewport, with a fake clock, the boxes of the texts (a Range's rectangle: what is drawn, not the
// cell) of every heading, time, prayer name and the countdown.
//
// stdin: {"base", "chromium", "artifacts", "pages": [{"name", "url", "start": Unix ms, "viewports": [[w, h], ...],
//          "turns": [ms, ...] (optional: run the clock so long and read again: a bilingual screen's other turn),
//          "shots": false (optional: no screenshots)}]}
// stdout: {"pages": [{"name", "errors", "reads": [{"viewport", "wait", ...readTable()}]}]}
"use strict";
const fs = require("fs");
const path = require("path");
const { chromium } = require("playwright-core");

const { until, eachInOwnContext, report } = require("./browser_tools");

function readTable() {
  const box = (r) => ({ left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width, height: r.height });
  const textBox = (element) => {
    // The union of the drawn lines of the element's text (its own text and its children's).
    const range = document.createRange();
    range.selectNodeContents(element);
    return box(range.getBoundingClientRect());
  };
  const canvas = document.createElement("canvas").getContext("2d");
  const inkBox = (element) => {
    // What the glyphs of the element's text cover (the canvas's measure of that text in the element's own font:
    // its ink above and below the baseline), placed on the line the browser drew: the Range's top is the font's
    // ascent above the baseline.  A line box may be shorter than the font's ascent and descent; the ink must fit.
    const style = getComputedStyle(element);
    canvas.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    canvas.direction = style.direction;
    const range = document.createRange();
    range.selectNodeContents(element);
    const lines = Array.from(range.getClientRects());
    if (!lines.length) return null;
    const m = canvas.measureText(element.textContent.trim());
    const baseline = lines[0].top + m.fontBoundingBoxAscent;
    return { top: baseline - m.actualBoundingBoxAscent, bottom: baseline + m.actualBoundingBoxDescent };
  };
  const contentBox = (element) => {
    // The cell's box less its padding: where its text may be aligned.
    const r = element.getBoundingClientRect();
    const s = getComputedStyle(element);
    return { left: r.left + parseFloat(s.paddingLeft) + parseFloat(s.borderLeftWidth),
             right: r.right - parseFloat(s.paddingRight) - parseFloat(s.borderRightWidth) };
  };
  const visible = (e) => e && !e.closest("[hidden]") && getComputedStyle(e).display !== "none";
  const heads = Array.from(document.querySelectorAll(".times thead th"));
  const columns = heads.map((th, i) => ({ index: i, visible: visible(th), text: th.textContent.trim(), cell: contentBox(th),
                                          box: textBox(th) }));
  const rows = [];
  for (const row of document.querySelectorAll(".times tbody tr")) {
    if (!visible(row)) continue;
    const cells = Array.from(row.children).filter(visible);
    rows.push({
      id: row.dataset.time || row.className,
      row: box(row.getBoundingClientRect()),
      cells: cells.map((cell) => ({
        tag: cell.tagName, colspan: cell.colSpan, text: cell.textContent.trim(), cell: contentBox(cell), box: textBox(cell),
        ink: inkBox(cell), scrollWidth: cell.scrollWidth, clientWidth: cell.clientWidth,
        // each language's own name in a bilingual row (.second), with its own box
        parts: Array.from(cell.querySelectorAll(".first, .second")).filter(visible)
          .map((part) => ({ lang: part.closest("[lang]").lang, text: part.textContent.trim(), box: textBox(part),
                            ink: inkBox(part),
                            fontSize: parseFloat(getComputedStyle(part).fontSize) })),
        fontSize: parseFloat(getComputedStyle(cell).fontSize),
      })),
    });
  }
  const countdown = document.querySelector(".countdown");
  const side = document.querySelector(".now");
  const part = (selector) => {
    const e = document.querySelector(selector);
    return visible(e) ? { text: e.textContent.trim(), box: textBox(e), lang: e.closest("[lang]").lang,
                          dir: getComputedStyle(e).direction } : null;
  };
  return {
    lang: document.documentElement.lang, dir: document.documentElement.dir,
    width: window.innerWidth, height: window.innerHeight,
    table: box(document.querySelector(".times table").getBoundingClientRect()),
    columns, rows,
    side: side ? contentBox(side) : null,
    sideLang: side ? side.closest("[lang]").lang : null,
    bottom: Math.max(...Array.from(document.querySelectorAll(".screen *")).filter(visible)
      .map((e) => e.getBoundingClientRect().bottom)),
    countdown: visible(countdown) ? { box: box(countdown.getBoundingClientRect()), label: part(".countdown .label"),
                                      value: part(".countdown .value") } : null,
    gregorian: part(".gregorian"),
    band: Array.from(document.querySelectorAll(".band p")).filter(visible)
      .map((p) => ({ text: p.textContent.trim(), lang: p.closest("[lang]").lang, dir: getComputedStyle(p).direction })),
    place: part("h1.place"),
    fit: [document.querySelector(".side"), document.querySelector(".times")].map((e) => (e.className.match(/fit-\d/) || [""])[0]),
    // the parts below the table (the band, the QR code) and the rows' order: what must not overlap
    foot: visible(document.querySelector(".foot")) ? box(document.querySelector(".foot").getBoundingClientRect()) : null,
    sideBox: side ? box(document.querySelector(".side").getBoundingClientRect()) : null,
    shown: [".changes", ".moved", ".silence"].filter((s) => visible(document.querySelector(s))),
    // the Hijri line's authority bracket: its text and on how many drawn lines it lies (gallery review 4, AR4-07)
    authority: (() => {
      const e = document.querySelector(".hijri .reckoning .authority");
      if (!visible(e)) return null;
      const range = document.createRange();
      range.selectNodeContents(e);
      const tops = new Set(Array.from(range.getClientRects()).filter((r) => r.width > 0).map((r) => Math.round(r.top)));
      return { text: e.textContent, lines: tops.size, right: e.getBoundingClientRect().right,
               left: e.getBoundingClientRect().left };
    })(),
  };
}

const READY = () => {
  const cell = document.querySelector('tr[data-time="fajr"] .adhan');
  return Boolean(cell && cell.textContent.trim() && document.documentElement.classList.contains("scripted"));
};

async function measure(context, config, spec) {
  const page = await context.newPage();
  const result = { name: spec.name, errors: [], reads: [] };
  page.on("console", (message) => { if (message.type() === "error") result.errors.push(message.text()); });
  page.on("pageerror", (e) => result.errors.push(String(e)));
  await page.setViewportSize({ width: spec.viewports[0][0], height: spec.viewports[0][1] });
  await page.clock.install({ time: spec.start });
  const response = await page.goto(config.base + spec.url, { waitUntil: "load" });
  result.status = response.status();
  result.url = page.url();
  result.ready = await until(page, READY, 15000);
  await page.clock.pauseAt(spec.start + 20000); // from here the clock moves only as told (runFor)
  for (const viewport of spec.viewports) {
    await page.setViewportSize({ width: viewport[0], height: viewport[1] });
    for (const wait of [1100, ...(spec.turns || [])]) {
      await page.clock.runFor(wait); // a tick or more: the script fits the layout to the new size (or turns)
      await page.evaluate(() => document.fonts.ready);
      const read = await page.evaluate(readTable);
      result.reads.push({ viewport, wait, ...read });
      if (spec.shots === false) continue; // many reads: the pictures only where asked
      const shot = `${spec.name}-${viewport[0]}x${viewport[1]}-${result.reads.length}.png`;
      await page.screenshot({ path: path.join(config.artifacts, shot) });
    }
  }
  await page.close();
  return result;
}

report(async () => {
  const config = JSON.parse(fs.readFileSync(0, "utf8"));
  fs.mkdirSync(config.artifacts, { recursive: true });
  return { pages: await eachInOwnContext(chromium, config.chromium, config.pages, () => ({ serviceWorkers: "block" }),
                                         (context, spec) => measure(context, config, spec)) };
});
