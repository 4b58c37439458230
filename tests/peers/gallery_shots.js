// The gallery of moments (bench/gallery.py, issue 33): open each address in Debian's headless Chromium at a fake
// clock and a viewport, optionally type into fields, and save a screenshot and the text a reader sees.
//
// stdin: {"chromium": path, "runs": [{"name", "url", "at": Unix ms, "width", "height", "full": bool,
//          "png": path, "txt": path, "html": optional page HTML shown at url's origin (an error page),
//          "steps": optional [{"click": selector} | {"fill": selector, "value"}], "wait_ms": optional}]}
// stdout: {"runs": [{"name", "status", "errors": [...]}]}
// The server's own clock is the driver's to set (libfaketime); this one is the page's.
"use strict";
const fs = require("fs");
const { chromium } = require("playwright-core");

const { eachInOwnContext, report, sleep } = require("./browser_tools");

async function one(context, spec) {
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (error) => errors.push(String(error)));
  await page.clock.install({ time: spec.at });
  let status = null;
  const response = await page.goto(spec.url, { waitUntil: "networkidle" }).catch((error) => {
    errors.push(String(error));
    return null;
  });
  if (response) status = response.status();
  if (spec.html) await page.setContent(spec.html, { waitUntil: "networkidle" });
  for (const step of spec.steps || []) {
    // a key pressed (Tab: leave a box, as a reader does, so the builder shows its error: none while typing)
    const done = step.click ? page.click(step.click) : step.press ? page.keyboard.press(step.press)
      : page.fill(step.fill, step.value);
    await done.catch((error) => errors.push(String(error)));
  }
  // The page's timers (a countdown's tick, the builder's 400 ms preview) run on the fake clock: move it on a little,
  // then let the answers they asked for arrive in real time.
  await page.clock.runFor(spec.wait_ms || 1500);
  await sleep(300);
  await page.waitForLoadState("networkidle").catch(() => {});
  await page.screenshot({ path: spec.png, fullPage: Boolean(spec.full) });
  fs.writeFileSync(spec.txt, await page.evaluate(() => document.body ? document.body.innerText : ""));
  return { name: spec.name, status, errors };
}

report(async () => {
  const config = JSON.parse(fs.readFileSync(0, "utf8"));
  const runs = await eachInOwnContext(chromium, config.chromium, config.runs,
    (spec) => ({ viewport: { width: spec.width, height: spec.height }, serviceWorkers: "block" }), one);
  return { runs };
});
