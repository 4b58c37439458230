// A page on one origin calls the API on another, in Debian's headless Chromium (playwright-core):
// what the browser lets the page read is what CORS allows (tests/test_runtime_http.py).
//
// stdin: {"chromium": "/usr/bin/chromium", "page": "http://127.0.0.1:PORT_B/", "api": "http://127.0.0.1:PORT_A",
//         "limitTries": 120}
// stdout: {"origin", "plain", "custom", "limited", "errors": [...]}
// Host names resolve to nothing (--host-resolver-rules), so only the two loopback origins are reachable.
"use strict";
const fs = require("fs");
const os = require("os");
const path = require("path");
const { chromium } = require("playwright-core");

const ARGS = [
  "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
  "--disable-component-update", "--disable-sync", "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
];

async function main() {
  const config = JSON.parse(fs.readFileSync(0, "utf8"));
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "cors-check-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: config.chromium, headless: true, args: ARGS,
  });
  const errors = [];
  try {
    const page = await context.newPage();
    page.on("pageerror", (error) => errors.push(String(error)));
    await page.goto(config.page);
    const result = await page.evaluate(async ({ api, limitTries }) => {
      const read = async (response) => ({
        status: response.status,
        etag: response.headers.get("ETag"),
        retryAfter: response.headers.get("Retry-After"),
        rateLimit: response.headers.get("RateLimit"),
        rateLimitPolicy: response.headers.get("RateLimit-Policy"),
        body: await response.text(),
      });
      const out = { origin: window.location.origin };
      // a simple request (no preflight)
      out.plain = await read(await fetch(`${api}/v1/qibla?lat=51.5&lng=-0.13`));
      // a custom header: the browser sends an OPTIONS preflight first
      try {
        out.custom = await read(await fetch(`${api}/v1/qibla?lat=51.51&lng=-0.13`,
          { headers: { "X-Client-Version": "7", "Accept": "application/json" } }));
      } catch (error) {
        out.custom = { failed: String(error) };
      }
      // spend the limit until a 429: its Retry-After must be readable
      for (let i = 0; i < limitTries; i += 1) {
        const response = await fetch(`${api}/v1/qibla?lat=${(i * 0.37 - 40).toFixed(2)}&lng=77`,
          { headers: { "X-Client-Version": "7" } });
        if (response.status === 429) {
          out.limited = await read(response);
          out.limited.tries = i + 1;
          break;
        }
      }
      return out;
    }, { api: config.api, limitTries: config.limitTries });
    process.stdout.write(JSON.stringify({ ...result, errors }));
  } finally {
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
}

main().catch((error) => { console.error(error); process.exit(1); });
