// What the Chromium peers share (playwright-core in Debian's Chromium): the browser's flags, a real sleep, waiting
// for a condition in the page, cutting the network, and running one context per case.
"use strict";

// No sandbox (a container), no GPU, no background traffic: every request a test sees is the page's own.
const ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync"];

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms)); // node's own (real) timer

async function until(page, test, ms, argument) {
  // The first truthy value of test(argument) evaluated in the page, polled every 50 ms for ms (else the last value).
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await page.evaluate(test, argument).catch(() => null);
    if (value || Date.now() > deadline) return value;
    await sleep(50);
  }
}

async function setOffline(context, offline) {
  // Cut twice: the browser's offline switch, and every request that still reaches the network aborted (the switch
  // alone let a service worker's fetch of the page through; the workers' requests need
  // PW_EXPERIMENTAL_SERVICE_WORKER_NETWORK_EVENTS=1, set by the scripts that use them, before playwright loads).
  await context.setOffline(offline);
  if (offline) await context.route("**/*", (route) => route.abort("internetdisconnected"));
  else await context.unroute("**/*");
}

async function eachInOwnContext(chromium, executablePath, cases, options, run) {
  // One browser; each case in a context of its own (no service worker, cache or clock left by another case),
  // made with options(case); the results of run(context, case) in order.
  const browser = await chromium.launch({ executablePath, headless: true, args: ARGS });
  const results = [];
  try {
    for (const one of cases) {
      const context = await browser.newContext(options(one));
      try {
        results.push(await run(context, one));
      } finally {
        await context.close();
      }
    }
  } finally {
    await browser.close();
  }
  return results;
}

function report(main) {
  // Run a peer's main(): its value as JSON on stdout, or its error on stderr and exit status 1.
  main().then((out) => process.stdout.write(JSON.stringify(out)), (error) => {
    console.error(error);
    process.exit(1);
  });
}

module.exports = { ARGS, sleep, until, setOffline, eachInOwnContext, report };
