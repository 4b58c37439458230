// The mosque builder as a new admin uses it, in Debian's headless Chromium (playwright-core), for
// tests/test_builder_browser.py: compose a mosque in each language, read back what the page shows,
// publish it, then edit it from a phone-sized window while a TV shows its screen.
//
// stdin: {"base", "chromium", "artifacts", "year", "month",
//         "compose": [{"lang", "name" (default lang), "search" | "point": {lat, lng, tz}, "names": {lang: name}, "rules": {prayer: [kind, value, round, weekly]},
//                      "fields": {element id: value}, "publish": bool,
//                      "warnings": {"choose": a jamaatOutside value} (read the warnings, publish refused, choose, publish)}],
//         "edit": {"lang", "rules": {...}, "fields": {...}, "tvMs": wait after the save (ms)} | null}
// stdout: {"runs": [{"lang", "errors", "method", "reckoning", "methodOwnShown", "cityResult" (the first search result's
//                   text), "table": {caption, head, rows},
//                    "frames": {landscape, portrait, widget}, "outputs": {id: value}, "profile", "published",
//                    "layout": [{width, height, scrollWidth, overlaps}]}],
//          "edit": {"before", "after", "afterMs", "status", "phoneScrollWidth"} }
// Only loopback requests are let through; any other is aborted and reported as an error.
"use strict";
const fs = require("fs");
const path = require("path");
const { chromium } = require("playwright-core");

const { ARGS } = require("./browser_tools");
const DESKTOP = { width: 1366, height: 900 };
const PHONE = { width: 390, height: 844 };

function guard(page, errors) {
  page.on("pageerror", (error) => errors.push("script: " + error.message));
  page.on("console", (message) => { if (message.type() === "error") errors.push("console: " + message.text()); });
  page.route("**/*", (route) => {
    const url = new URL(route.request().url());
    if (["127.0.0.1", "localhost"].includes(url.hostname) || url.protocol === "blob:" || url.protocol === "data:") {
      return route.continue();
    }
    errors.push("request off loopback: " + url.href);
    return route.abort();
  });
}

async function setRules(page, rules) {
  for (const [prayer, [kind, value, round, weekly]] of Object.entries(rules)) {
    await page.selectOption("#j-kind-" + prayer, kind);
    if (value !== null && value !== undefined) await page.fill("#j-value-" + prayer, value);
    if (round) await page.selectOption("#j-round-" + prayer, round);
    if (weekly) await page.selectOption("#j-weekly-" + prayer, weekly);
  }
}

async function setFields(page, fields) {
  for (const [id, value] of Object.entries(fields || {})) {
    const tag = await page.$eval("#" + id, (e) => e.tagName + ":" + (e.type || ""));
    if (tag.startsWith("SELECT")) await page.selectOption("#" + id, value);
    else if (tag.endsWith("checkbox")) await page.setChecked("#" + id, Boolean(value));
    else {
      const details = await page.$("#" + id + " >> xpath=ancestor::details");
      if (details) await details.evaluate((d) => { d.open = true; });
      await page.fill("#" + id, value);
    }
  }
}

async function settled(page) {
  // The preview answers after the last change (builder.js waits 400 ms, then asks the API).
  // builder.js marks the form pending from a change until the API's answer to it is shown.
  await page.waitForFunction(() => document.getElementById("builder").dataset.pending === "0", null, { timeout: 30000 });
}

function readPage() {
  const table = document.querySelector("table.preview");
  const text = (e) => (e ? e.textContent.trim() : "");
  const outputs = {};
  for (const id of ["o-screen", "o-widget", "o-webcal", "o-https", "o-profile", "o-edit"]) outputs[id] = document.getElementById(id).value;
  outputs["o-month"] = document.getElementById("o-month").getAttribute("href");
  outputs["o-screen-qr"] = document.getElementById("o-screen-qr").getAttribute("src");
  outputs["o-feed-qr"] = document.getElementById("o-feed-qr").getAttribute("src");
  // issue 36: each language's screen and widget (a mosque of two or more languages)
  outputs.languages = document.getElementById("o-languages").hidden ? [] : Array.from(
    document.querySelectorAll("#o-language-list li"),
    (li) => ({ lang: li.dataset.lang, screen: li.querySelector("a.screen-in").getAttribute("href"),
               widget: li.querySelector("input.widget-in").value }));
  return {
    method: document.getElementById("f-method").value,
    methodLabel: document.getElementById("f-method").selectedOptions[0].textContent.trim(),
    reckoning: document.getElementById("f-reckoning").value,
    methodOwnShown: !document.getElementById("method-own").hidden,
    valid: document.getElementById("builder").dataset.valid,
    errors: Array.from(document.querySelectorAll("p.error:not([hidden])"), (p) => [p.id, text(p)]),
    status: text(document.getElementById("status")),
    table: {
      caption: text(table.caption),
      head: Array.from(table.tHead.querySelectorAll("th"), text),
      rows: Array.from(table.tBodies[0].rows, (row) => ({
        date: row.dataset.date,
        times: Object.fromEntries(Array.from(row.querySelectorAll("td[data-time]"), (c) => [c.dataset.time, text(c)])),
        jamaat: Object.fromEntries(Array.from(row.querySelectorAll("td[data-jamaat]"), (c) => [c.dataset.jamaat, text(c)])),
        slots: text(row.querySelector("td[data-slots]")),
      })),
    },
    frames: {
      // the address each frame shows once scrolled into view (builder.js loads frames only then: issue 36)
      landscape: document.getElementById("frame-landscape").dataset.src,
      portrait: document.getElementById("frame-portrait").dataset.src,
      widget: document.getElementById("frame-widget").dataset.src,
      widget2: document.getElementById("frame-widget-2").dataset.src || null,
    },
    outputs: outputs,
  };
}

function layout() {
  // Horizontal overflow, and form controls overlapping one another (each label and control a box).
  const boxes = Array.from(document.querySelectorAll("form input:not([type=hidden]), form select, form textarea, form button, .side button"))
    .filter((e) => e.offsetParent !== null && !e.closest("details:not([open])")).map((e) => [e.id || e.className, e.getBoundingClientRect()]);
  const overlaps = [];
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i][1], b = boxes[j][1];
      if (a.width && b.width && a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1) {
        overlaps.push([boxes[i][0], boxes[j][0]]);
      }
    }
  }
  return { width: innerWidth, height: innerHeight, scrollWidth: document.documentElement.scrollWidth, overlaps: overlaps };
}

async function compose(browser, input, job) {
  const errors = [];
  const context = await browser.newContext({ viewport: DESKTOP, locale: job.lang });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: input.base });
  const page = await context.newPage();
  guard(page, errors);
  await page.goto(input.base + "/mosque/new/" + (job.lang === "en" ? "" : job.lang + "/"));
  // The month shown: the test's, by the page's own buttons (it opens on the reader's month).
  let focused = null, cityResult = null;
  if (job.point) { // coordinates and a zone instead of a city
    await page.check("#f-place-point");
    for (const [name, value] of Object.entries(job.point)) await page.fill("#f-" + name, value);
  } else {
    await page.fill("#f-city-q", job.search);
    await page.waitForSelector("#city-results button", { timeout: 10000 });
    cityResult = await page.evaluate(() => document.querySelector("#city-results li span").textContent);
    // Keyboard only, as a screen-reader user: Tab from the search box to the first result, Enter chooses it.
    await page.focus("#f-city-q");
    await page.keyboard.press("Tab");
    focused = await page.evaluate(() => document.activeElement.closest("#city-results") !== null);
    await page.keyboard.press("Enter");
  }
  for (const [lang, name] of Object.entries(job.names)) await page.fill("#f-name-" + lang, name);
  await setRules(page, job.rules);
  await setFields(page, job.fields);
  await settled(page);
  if (job.fieldErrors) { // a value out of range typed and left: the errors beside their fields, read, then closed
    const read = await page.evaluate(readPage);
    await context.close();
    return { name: job.name || job.lang, lang: job.lang, fieldErrors: read.errors, errors };
  }
  const now = new Date();
  let shownMonths = now.getFullYear() * 12 + now.getMonth();
  const wanted = input.year * 12 + (input.month - 1);
  while (shownMonths !== wanted) {
    await page.click(shownMonths < wanted ? "#month-next" : "#month-prev");
    shownMonths += shownMonths < wanted ? 1 : -1;
    await settled(page);
  }
  const run = Object.assign({ name: job.name || job.lang, lang: job.lang, keyboardReachesResults: focused, cityResult },
                            await page.evaluate(readPage));
  run.layout = [await page.evaluate(layout)];
  await page.screenshot({ path: path.join(input.artifacts, "builder-" + (job.name || job.lang) + "-desktop.png"), fullPage: true });
  for (const id of ["o-screen-qr", "o-feed-qr"]) {
    await page.locator("#" + id).scrollIntoViewIfNeeded();
    await page.locator("#" + id).screenshot({ path: path.join(input.artifacts, "builder-" + (job.name || job.lang) + "-" + id + ".png") });
  }
  if (job.warnings) { // issue 33: the warnings on declared times, then publishing needs the committee's choice
    await page.waitForFunction(() => document.getElementById("builder").dataset.warned === "0", null, { timeout: 30000 });
    run.warnings = await page.evaluate(() => Array.from(document.querySelectorAll("#jamaat-warnings p"), (p) => p.textContent.trim()));
    await page.click("#publish-button");
    await page.waitForSelector("#e-jamaatOutside:not([hidden])", { timeout: 20000 });
    run.refusal = await page.evaluate(() => document.getElementById("e-jamaatOutside").textContent.trim());
    await page.selectOption("#f-jamaatOutside", job.warnings.choose);
    await settled(page);
    await page.click("#publish-button");
    await page.waitForFunction(() => document.getElementById("o-edit").value !== "", null, { timeout: 20000 });
    run.publishedProfile = await page.evaluate(() => document.getElementById("o-profile").value);
  }
  await page.click("button.copy[data-copy=o-screen]");
  run.clipboard = await page.evaluate(() => navigator.clipboard.readText());
  if (job.publish) {
    await page.click("#publish-button");
    await page.waitForFunction(() => document.getElementById("o-edit").value !== "", null, { timeout: 20000 });
    await settled(page);
    run.published = await page.evaluate(readPage);
    run.published.address = page.url(); // the address bar after publishing (issue 34: never the secret)
  }
  await page.setViewportSize(PHONE);
  await page.waitForTimeout(300);
  run.layout.push(await page.evaluate(layout));
  await page.screenshot({ path: path.join(input.artifacts, "builder-" + (job.name || job.lang) + "-phone.png"), fullPage: false });
  run.errors = errors;
  await context.close();
  return run;
}

async function readScreen(page) {
  return page.evaluate(() => ({
    notes: Array.from(document.querySelectorAll(".band p.note"), (p) => p.textContent.trim()),
    dhuhr: (document.querySelector('tr[data-time="dhuhr"] td.jamaat') || {}).textContent,
    name: document.querySelector("h1.place").textContent.trim(),
  }));
}

async function edit(browser, input, job, editLink, screenPath) {
  const errors = [];
  // The TV: the published screen, left running.
  const tv = await browser.newContext({ viewport: { width: 1920, height: 1080 } });
  // Its clock is the test's: it runs as a wall clock until the save, then is run forward by the minute the issue
  // allows (the page's timers fire as that minute passes), so the verdict never hangs on the machine's speed.
  await tv.clock.install();
  const screen = await tv.newPage();
  guard(screen, errors);
  await screen.goto(input.base + screenPath);
  await screen.waitForLoadState("networkidle");
  const before = await readScreen(screen);
  // The phone: the edit link opens the profile in the builder.
  const phone = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true });
  const page = await phone.newPage();
  guard(page, errors);
  await page.goto(editLink);
  await page.waitForFunction(() => document.getElementById("save-button").hidden === false, null, { timeout: 20000 });
  await settled(page);
  const loaded = await page.evaluate(readPage);
  loaded.address = page.url(); // the address bar once the edit link is read (issue 34: the fragment removed)
  await setRules(page, job.rules);
  await setFields(page, job.fields);
  await settled(page);
  await page.click("#save-button");
  await page.waitForFunction(() => /\S/.test(document.getElementById("status").textContent), null, { timeout: 20000 });
  const status = await page.evaluate(() => document.getElementById("status").textContent.trim());
  const phoneScrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  await page.screenshot({ path: path.join(input.artifacts, "builder-edit-phone.png"), fullPage: false });
  // The TV follows within a minute of its clock: the clock stopped, then run forward by tvMs (the page's polls fire as
  // that time passes, their answers come over the network), then set going again. The edit must show without any
  // further run of the clock: the reload the poll caused renders the saved profile. (A page that polled less often
  // than tvMs would have sent no question, and the wait below would end in its failure bound.)
  await tv.clock.pauseAt(new Date(Date.now() + 1000));
  const followed = screen.waitForEvent("load", { timeout: 60000 }).then(() => true, () => false);
  await tv.clock.runFor(job.tvMs || 60000);
  const reloaded = await followed; // the reload the answer to a poll asked for (a failure bound, not a verdict)
  await tv.clock.resume(); // the reloaded page's own timers (its first tick) run as a wall clock again
  await screen.waitForLoadState("networkidle");
  const after = await readScreen(screen);
  await screen.screenshot({ path: path.join(input.artifacts, "builder-edit-tv.png") });
  await tv.close();
  // Issue 34: a second member's named link, then a new secret for this one (the old link then opens nothing).
  await page.waitForFunction(() => document.getElementById("links").hidden === false, null, { timeout: 20000 });
  await page.evaluate(() => { document.getElementById("links").open = true; });
  await page.fill("#f-link-name", "treasurer");
  await page.click("#link-add");
  await page.waitForFunction(() => document.getElementById("o-link").value !== "", null, { timeout: 20000 });
  await page.waitForFunction(() => document.querySelectorAll("#link-list li").length === 2, null, { timeout: 20000 });
  const links = await page.evaluate(() => ({
    added: document.getElementById("o-link").value,
    label: document.getElementById("o-link-label").textContent,
    listed: Array.from(document.querySelectorAll("#link-list li"), (li) => li.textContent.trim()),
  }));
  await page.click("#rotate-button");
  await page.waitForFunction((old) => document.getElementById("o-edit").value !== old, editLink, { timeout: 20000 });
  links.rotated = await page.evaluate(() => document.getElementById("o-edit").value);
  links.address = page.url();
  await phone.close();
  return { errors, before, loaded, after, reloaded, status, phoneScrollWidth, links };
}

// Issue 36: the Leicester committee's run on a 390×844 phone, step by step as a person does it, counted: taps (a
// drop-down is two: open, choose), keystrokes, pixels scrolled to reach each control (Playwright scrolls a control
// into view as a thumb would) and the fieldsets visited. No rule is typed in a grammar: the steps touch form controls
// only. Every /v1/prayer-times request of the page and its frames is recorded (year or month, status).
// committee: {lang, steps: [{tap | type + text | select + value | check | keyboard | read, settledBefore?}], publish: bool}
async function committee(browser, input, job) {
  const errors = [];
  const context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true, locale: job.lang });
  const asked = [];
  context.on("response", (response) => {
    const url = new URL(response.url());
    if (url.pathname.startsWith("/v1/prayer-times")) {
      asked.push({ path: url.pathname, month: url.searchParams.has("month"), year: url.searchParams.has("year"),
                   status: response.status() });
    }
    if (response.status() === 429) errors.push("429: " + url.pathname);
  });
  const page = await context.newPage();
  guard(page, errors);
  await page.goto(input.base + "/mosque/new/" + (job.lang === "en" ? "" : job.lang + "/"));
  const counts = { taps: 0, keys: 0, scrolledPx: 0, steps: 0, fieldsets: [], typedInto: [], read: {} };
  for (const step of job.steps) {
    const target = step.tap || step.type || step.select || step.check || step.read;
    counts.steps += 1;
    if (step.keyboard) { counts.taps += 1; continue; } // the phone's keyboard switched to another language
    if (step.wait) await page.waitForSelector(target, { timeout: 10000 });
    if (step.settledBefore) await settled(page); // the preview has answered every change before this one
    const before = await page.evaluate(() => scrollY);
    await page.locator(target).first().scrollIntoViewIfNeeded();
    counts.scrolledPx += Math.abs((await page.evaluate(() => scrollY)) - before);
    const legend = await page.locator(target).first().evaluate((e) => {
      const set = e.closest("form > fieldset, section");
      const title = set && set.querySelector("legend, h2");
      return title ? title.textContent.trim() : "";
    });
    if (legend && !counts.fieldsets.includes(legend)) counts.fieldsets.push(legend);
    if (step.read) { counts.read[step.as] = await page.locator(target).first().evaluate((e) => (e.tagName === "SELECT"
      ? e.selectedOptions[0].textContent : e.textContent).trim()); counts.steps -= 1; continue; }
    if (step.tap) { await page.locator(target).first().tap(); counts.taps += 1; }
    if (step.check) { await page.locator(target).first().tap(); counts.taps += 1; }
    if (step.select) { await page.selectOption(target, step.value); counts.taps += 2; }
    if (step.type) {
      await page.locator(target).first().tap();
      counts.taps += 1;
      // the digits of a text keyboard are a layer away: one more tap (a digits keypad has them at once)
      const mode = await page.locator(target).first().evaluate((e) => e.inputMode);
      if (mode !== "numeric" && mode !== "decimal" && /\d/.test(step.text)) counts.taps += 1;
      counts.typedInto.push(await page.locator(target).first().evaluate((e) => e.id || e.className));
      // the text as typed, one keystroke a character (counted below); set at once, then left: a key typed key by key
      // right after a tap was lost about once in five runs in the phone emulation (never with the box's events traced)
      await page.locator(target).first().fill(step.text);
      counts.keys += Array.from(step.text).length;
      await page.locator(target).first().blur();
    }
  }
  await settled(page);
  const run = { name: "committee", errors, counts, asked };
  run.beforePublish = await page.evaluate(readPage);
  run.layout = [await page.evaluate(layout)];
  await page.screenshot({ path: path.join(input.artifacts, "builder-committee-phone.png"), fullPage: true });
  for (const [name, selector] of [["seasons", "fieldset.seasons"], ["preview", "table.preview tbody tr:nth-child(-n+3)"]]) {
    // the summer/Ramadan rows, the first day cards (page coordinates: the boxes are the viewport's)
    const [top, bottom] = await page.evaluate((css) => {
      const all = Array.from(document.querySelectorAll(css));
      return [all[0].getBoundingClientRect().top + scrollY, all[all.length - 1].getBoundingClientRect().bottom + scrollY];
    }, selector);
    await page.screenshot({ path: path.join(input.artifacts, "builder-committee-" + name + ".png"), fullPage: true,
      clip: { x: 0, y: top, width: PHONE.width, height: bottom - top } });
  }
  if (job.publish) {
    const before = await page.evaluate(() => scrollY);
    await page.locator("#publish-button").scrollIntoViewIfNeeded();
    counts.scrolledPx += Math.abs((await page.evaluate(() => scrollY)) - before);
    const answered = page.waitForResponse((r) => new URL(r.url()).pathname === "/v1/mosques"
      && r.request().method() === "POST", { timeout: 60000 });
    await page.locator("#publish-button").tap();
    counts.taps += 1;
    counts.steps += 1;
    run.publishStatus = (await answered).status();
    await page.waitForFunction(() => document.getElementById("o-edit").value !== ""
      || document.getElementById("status").classList.contains("bad")
      || document.querySelector("p.error:not([hidden])"), null, { timeout: 20000 });
    run.published = await page.evaluate(readPage);
    await page.locator("#o-ramadan").scrollIntoViewIfNeeded();
    await page.locator("#o-ramadan").tap(); // suhoor and iftar in the members' calendars
    run.ramadanFeed = await page.evaluate(() => document.getElementById("o-https").value);
    run.draftAfterPublish = await page.evaluate(() => localStorage.getItem("mosque-builder-draft"));
  }
  await context.close();
  return run;
}

// Issue 36: a draft kept in the browser (closed before publishing, opened again) and edit links checked when opened.
async function keeping(browser, input, job) {
  const errors = [];
  const context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  guard(page, errors);
  const builder = input.base + "/mosque/new/";
  await page.goto(builder);
  await page.fill("#f-name-en", job.name);
  await page.fill("#f-city-q", job.search);
  await page.waitForSelector("#city-results button", { timeout: 10000 });
  await page.click("#city-results button");
  const errorsShown = () => Array.from(document.querySelectorAll("p.error:not([hidden])"), (p) => p.textContent.trim());
  await page.selectOption("#j-kind-isha", "fixed");
  await page.locator("#j-value-isha").pressSequentially(job.typing[0]); // half typed: "8:3"
  await page.waitForTimeout(700); // past the form's wait: the preview has asked the API while the box is typed in
  await settled(page);
  const whileTyping = { errors: await page.evaluate(errorsShown),
                        valid: await page.evaluate(() => document.getElementById("builder").dataset.valid) };
  await page.locator("#j-value-isha").pressSequentially(job.typing[1]); // the rest: "0pm"
  await page.locator("#j-value-isha").blur();
  await settled(page);
  const afterLeaving = await page.evaluate(() => ({ value: document.getElementById("j-value-isha").value,
    inputMode: document.getElementById("j-value-isha").inputMode,
    minutesInputMode: document.getElementById("j-value-fajr").inputMode }));
  afterLeaving.errors = await page.evaluate(errorsShown);
  await page.selectOption("#j-kind-maghrib", "fixed");
  await page.locator("#j-value-maghrib").pressSequentially(job.wrong); // a time no clock has: "25:00"
  await page.waitForTimeout(700);
  await settled(page);
  const wrongWhileTyping = await page.evaluate(errorsShown);
  await page.locator("#j-value-maghrib").blur();
  await page.waitForTimeout(100);
  const wrongAfterLeaving = await page.evaluate(errorsShown);
  // the preview's and the addresses' note while the error is shown (gallery review 4, fa LANG4-11)
  const heldNotes = await page.evaluate(() => ["preview-held", "outputs-held"].filter(
    (id) => !document.getElementById(id).hidden).map((id) => document.getElementById(id).textContent.trim()));
  await page.selectOption("#j-kind-maghrib", "");
  await settled(page);
  const page2 = await context.newPage(); // the page closed, opened again
  await page.close();
  guard(page2, errors);
  await page2.goto(builder);
  await settled(page2);
  const restored = await page2.evaluate(() => ({ name: document.getElementById("f-name-en").value,
    city: document.getElementById("f-city").value, isha: document.getElementById("j-value-isha").value,
    status: document.getElementById("status").textContent.trim(), cleared: !document.getElementById("draft-clear").hidden }));
  const links = {};
  for (const [name, fragment] of Object.entries(job.links)) {
    const other = await context.newPage();
    guard(other, errors);
    await other.goto(builder + fragment.replace("{id}", job.id));
    await other.waitForFunction(() => /\S/.test(document.getElementById("status").textContent), null, { timeout: 20000 });
    links[name] = await other.evaluate(() => ({ status: document.getElementById("status").textContent.trim(),
      bad: document.getElementById("status").classList.contains("bad"),
      saveShown: !document.getElementById("save-button").hidden, name: document.getElementById("f-name-en").value }));
    await other.close();
  }
  let oldRows = null;
  if (job.oldProfile) { // a profile whose summer and Ramadan rules were typed in the grammar, opened by its edit link
    const other = await context.newPage();
    guard(other, errors);
    await other.goto(builder + job.oldProfile);
    await other.waitForFunction(() => document.getElementById("save-button").hidden === false, null, { timeout: 30000 });
    oldRows = await other.evaluate(() => Array.from(document.querySelectorAll("#season-rules li"), (li) =>
      [".s-when", ".s-prayer", ".s-kind", ".s-value"].map((c) => li.querySelector(c).value)));
    oldRows.push(await other.evaluate(() => document.getElementById("f-jumuahDst").value));
    await other.close();
  }
  await context.close();
  return { errors, oldRows, whileTyping, afterLeaving, wrongWhileTyping, wrongAfterLeaving, heldNotes, restored, links };
}

async function main() {
  const input = JSON.parse(fs.readFileSync(0, "utf8"));
  fs.mkdirSync(input.artifacts, { recursive: true });
  const browser = await chromium.launch({ executablePath: input.chromium, args: ARGS });
  const out = { runs: [], edit: null };
  try {
    for (const job of input.compose) out.runs.push(await compose(browser, input, job));
    if (input.committee) out.committee = await committee(browser, input, input.committee);
    if (input.keeping) {
      const id = out.committee && out.committee.published && out.committee.published.outputs["o-edit"]
        ? new URL(out.committee.published.outputs["o-screen"]).pathname.split("/")[2] : "none";
      out.keeping = await keeping(browser, input, Object.assign({ id: id }, input.keeping));
    }
    const published = out.runs.find((r) => r.published);
    if (input.edit && published) {
      const screenPath = new URL(published.published.outputs["o-screen"]).pathname;
      out.edit = await edit(browser, input, input.edit, published.published.outputs["o-edit"], screenPath);
    }
  } finally {
    await browser.close();
  }
  process.stdout.write(JSON.stringify(out));
}

main().catch((error) => { process.stderr.write(String(error.stack || error)); process.exit(1); });
