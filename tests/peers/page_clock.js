// Open saved pages in Debian's headless Chromium (playwright-core) at a fake clock and report the
// today card and the rows marked today, for tests/test_mosque_today.py (mosque and city pages).
//
// stdin: {"chromium": "/usr/bin/chromium", "runs": [{"name", "file" (an HTML file), "at": Unix ms}]}
// stdout: {"runs": [{"name", "errors", "card": {"hidden", "date", "label", "times": {id: text}, "next": {name, time, in} | null} | null,
//                    "marked": [data-date of each row marked today]}]}
// The pages' own scripts run; any request beyond the file fails the run (they make none).
"use strict";
const fs = require("fs");
const { chromium } = require("playwright-core");

const { eachInOwnContext, report } = require("./browser_tools");

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
      // the city card's "Next: …" line (city.js), as shown: null when hidden or absent (a mosque's card has none)
      next: !card.querySelector(".next") || card.querySelector(".next").hidden ? null : {
        name: card.querySelector(".next-name").textContent.trim(),
        time: card.querySelector(".next-time").textContent.trim(),
        in: card.querySelector(".next-in").textContent.trim(),
      },
    },
    marked: Array.from(document.querySelectorAll('tr[aria-current="date"]')).map((row) => row.dataset.date),
  };
}

async function one(context, spec) {
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
  return { name: spec.name, errors, ...(await page.evaluate(read)) };
}

report(async () => {
  const config = JSON.parse(fs.readFileSync(0, "utf8"));
  return { runs: await eachInOwnContext(chromium, config.chromium, config.runs, () => ({}), one) };
});
