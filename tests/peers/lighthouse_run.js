// Lighthouse (npm lighthouse, pinned in package.json) over the site's pages in Debian's headless
// Chromium: chrome-launcher starts the system binary, nothing is downloaded.
//
// stdin: {"chromium": "/usr/bin/chromium", "artifacts": "dir" (or null),
//         "categories": ["performance", "accessibility", "best-practices", "seo"],
//         "formFactors": ["mobile", "desktop"], "pages": [{"name", "url"}]}
// stdout: {"runs": [{"name", "url", "formFactor", "seconds", "scores": {category: 0..100},
//                    "failed": [{"category", "id", "title", "score", "displayValue"}],
//                    "warnings": [...], "benchmarkIndex": Lighthouse's measure of this machine's speed}]}
// One Chromium serves every run, one run at a time (Lighthouse's rule: runs in parallel disturb
// each other's timings).  Mobile is Lighthouse's default (Moto G Power, 4× CPU slowdown, slow 4G,
// simulated); desktop is its desktop-config.js.  With "artifacts", each report is saved as
// <name>-<formFactor>.report.html.
"use strict";
const fs = require("fs");
const path = require("path");

async function main() {
  const input = JSON.parse(fs.readFileSync(0, "utf8"));
  const { default: lighthouse } = await import("lighthouse");
  const { default: desktopConfig } = await import("lighthouse/core/config/desktop-config.js");
  const chromeLauncher = await import("chrome-launcher");
  const chrome = await chromeLauncher.launch({
    chromePath: input.chromium,
    chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    logLevel: "silent",
  });
  const runs = [];
  try {
    for (const page of input.pages) {
      for (const formFactor of input.formFactors) {
        const started = Date.now();
        const flags = { port: chrome.port, output: input.artifacts ? ["json", "html"] : "json",
                        logLevel: "error", onlyCategories: input.categories };
        const result = await lighthouse(page.url, flags, formFactor === "desktop" ? desktopConfig : undefined);
        const lhr = result.lhr;
        if (input.artifacts) {
          fs.mkdirSync(input.artifacts, { recursive: true });
          fs.writeFileSync(path.join(input.artifacts, `${page.name}-${formFactor}.report.html`), result.report[1]);
        }
        const scores = {};
        const failed = [];
        for (const [id, category] of Object.entries(lhr.categories)) {
          scores[id] = category.score === null ? null : Math.round(category.score * 100);
          for (const ref of category.auditRefs) {
            const audit = lhr.audits[ref.id];
            if (ref.weight > 0 && audit.score !== null && audit.score < 1) {
              failed.push({ category: id, id: ref.id, title: audit.title, score: audit.score,
                            displayValue: audit.displayValue || "" });
            }
          }
        }
        runs.push({ name: page.name, url: page.url, formFactor, seconds: (Date.now() - started) / 1000,
                    scores, failed, warnings: lhr.runWarnings, error: lhr.runtimeError || null,
                    benchmarkIndex: lhr.environment.benchmarkIndex, lighthouse: lhr.lighthouseVersion });
      }
    }
  } finally {
    await chrome.kill();
  }
  process.stdout.write(JSON.stringify({ runs }));
}

main().catch((error) => { console.error(error); process.exit(1); });
