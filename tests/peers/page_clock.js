// Open saved pages in Debian's headless Chromium (playwright-core) at a fake clock and report the
// today card and the rows marked today, for tests/test_mosque_today.py.
//
// stdin: {"chromium": "/usr/bin/chromium", "runs": [{"name", "file" (an HTML file), "at": Unix ms}]}
// stdout: {"runs": [{"name", "errors", "card": {"hidden", "date", "label", "times": {id: text}} | null,
//                    "marked": [data-date of each row marked today]}]}
// The pages' own scripts run; any request beyond the file fails the run (they make none).
"use strict";
const fs = require("fs");
const { chromium } = require("playwright-core");

const ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
  "--disable-component-update", "--disable-sync"];

function read() {
  const card = document.querySelector(".today-card");
  const times = {};
  for (const item of card ? card.querySelectorAll("li[data-time]") : []) {
    times[item.dataset.time] = item.querySelector(".time").textContent.trim();
  }
  return {
    card: card && {
      hidden: card.hidden || card.closest("[hidden]") !== null,
      date: card.dataset.date,
      label: card.querySelector(".card-date").textContent.trim(),
      times,
    },
    marked: Array.from(document.querySelectorAll('tr[aria-current="date"]')).map((row) => row.dataset.date),
  };
}

async function main() {
  const config = JSON.parse(fs.readFileSync(0, "utf8"));
  const results = [];
  const browser = await chromium.launch({ executablePath: config.chromium, headless: true, args: ARGS });
  try {
    for (const spec of config.runs) {
      const context = await browser.newContext();
      try {
        const page = await context.newPage();
        const errors = [];
        page.on("pageerror", (error) => errors.push(String(error)));
        page.on("console", (message) => { if (message.type() === "error") errors.push(message.text()); });
        await context.route((url) => !url.href.startsWith("file:"), (route) => {
          errors.push("request " + route.request().url());
          return route.abort();
        });
        await page.clock.install({ time: spec.at });
        await page.goto("file://" + spec.file);
        results.push({ name: spec.name, errors, ...(await page.evaluate(read)) });
      } finally {
        await context.close();
      }
    }
  } finally {
    await browser.close();
  }
  process.stdout.write(JSON.stringify({ runs: results }));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
