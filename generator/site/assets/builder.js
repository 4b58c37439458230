// The mosque builder (docs/site.md, "The mosque builder"): composes the queries and the profile from the form,
// and only reads the API's answers: /v1/cities (the search), /v1/prayer-times (the preview table and the
// check of every rule), /screen/ and /widget/ (the frames), /v1/mosques (publish, edit, versions, delete).
// It computes no time: a wrong value is the API's 400, shown beside the field of the parameter it names.
"use strict";
(function () {
  const config = JSON.parse(document.getElementById("builder-config").textContent);
  const W = config.words;
  // The service's public address for every output (PUBLIC_ORIGIN, issue 36), else the address read on.
  const ORIGIN = config.publicOrigin || location.origin;
  const HOST = ORIGIN.slice(ORIGIN.indexOf("//") + 2);
  const LANG = config.lang;
  const DIGITS = { en: "0123456789", ar: "٠١٢٣٤٥٦٧٨٩", fa: "۰۱۲۳۴۵۶۷۸۹", ur: "۰۱۲۳۴۵۶۷۸۹" };
  const FIVE = "fajr,dhuhr,asr,maghrib,isha";
  const DEFAULT_NOTICE = "5";
  const WAIT_MS = 400; // after the last keystroke, the preview asks again
  const $ = (id) => document.getElementById(id);
  const form = $("builder");
  const status = $("status");
  const today = new Date();
  const state = {
    city: "", cityName: "", year: today.getFullYear(), month: today.getMonth() + 1,
    edit: null, // {id, secret, version}: the profile the edit link opened
    unsaved: false, // a published profile changed in the form and not saved yet
    shown: "", // the preview's query as last asked
    answering: null, // that query while its answer is awaited
    warned: "", // the warnings' query as last asked (issue 33)
    warnAnswering: null, // that query while its answer is awaited
    methodTouched: false, reckoningTouched: false, midnightTouched: false,
    held: null, // an error about the box being typed in, shown when it is left (issue 36)
  };
  const DRAFT_KEY = "mosque-builder-draft"; // the form not yet published, kept in this browser (issue 36)

  // ---- text ---------------------------------------------------------------------------------------------------
  function native(text) {
    return String(text).replace(/[0-9]/g, (d) => DIGITS[LANG][Number(d)]);
  }
  function ascii(text) {
    // What a person types in Arabic-Indic or Persian digits is the same number to the API.
    // An Arabic-script keyboard's comma (U+060C) separates rules as the Latin one does.
    return String(text).replace(/[٠-٩]/g, (d) => String(d.charCodeAt(0) - 0x660))
      .replace(/[۰-۹]/g, (d) => String(d.charCodeAt(0) - 0x6f0)).replace(/\u060c/g, ",").trim();
  }
  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, (all, key) => (key in values ? values[key] : all));
  }
  function say(text, bad) {
    status.textContent = text;
    status.classList.toggle("bad", Boolean(bad));
  }
  function query(params) {
    return Object.keys(params).filter((k) => params[k] !== "" && params[k] !== undefined)
      .map((k) => encodeURIComponent(k) + "=" + encodeURIComponent(params[k])).join("&");
  }

  // ---- what the form says -------------------------------------------------------------------------------------
  function value(id) {
    const element = $(id);
    return element ? element.value.trim() : "";
  }
  function placeKind() {
    return $("f-place-point").checked ? "point" : "city";
  }
  function place() {
    if (placeKind() === "city") return state.city ? { city: state.city } : null;
    const lat = ascii(value("f-lat")), lng = ascii(value("f-lng")), tz = value("f-tz");
    return lat !== "" || lng !== "" || tz !== "" ? { lat: lat, lng: lng, tz: tz } : null;
  }
  function named(container) {
    // The fields of a section named after their API parameter (data-name), when filled.
    const out = {};
    for (const element of container.querySelectorAll("[data-name]")) {
      const text = element.tagName === "TEXTAREA" ? element.value.trim()
        : CLOCK_LISTS.includes(element.dataset.name) ? clockList(element.value) : ascii(element.value);
      if (text !== "" && element.id !== "f-city" && !["lat", "lng", "tz"].includes(element.dataset.name)) {
        out[element.dataset.name] = text;
      }
    }
    return out;
  }
  function times() {
    return named($("f-method").closest("fieldset"));
  }
  const CLOCK_LISTS = ["jumuah", "eid", "jumuahDst"]; // boxes of local times HH:MM, comma-separated
  function clockList(text) {
    // "1pm، 2pm" -> "13:00,14:00": each time as the API's grammar writes it (a time it cannot read is left as typed,
    // for the API's error to name it)
    return String(text).split(/[,\u060c]/).map((item) => item.trim()).filter(Boolean)
      .map((item) => readClock(item) || ascii(item)).join(",");
  }
  function ruleText(p, kind, typed) {
    // One rule in the jamaat grammar (docs/decisions.md "Jamaat"): a number at a fixed time is a clock ("2000" is
    // 20:00), never minutes; "" while a value is still missing.
    let given = ascii(typed);
    if (kind === "fixed" && given) {
      // a time it cannot read keeps a colon, so that the API reads it as a clock and names what is wrong ("25" is
      // never 25 minutes after the adhan)
      given = readClock(typed) || (given.includes(":") ? given : given + ":");
    }
    if (kind === "with") return p + ":" + config.partners[p];
    if (!given) return "";
    return kind === "sunrise" ? p + ":sunrise-" + given : p + ":" + given;
  }
  function kindOf(rule) {
    // A rule of the grammar back into the form's kind and value (a profile opened by its edit link, or a draft).
    if (/^\d+$/.test(rule)) return ["after", rule];
    if (/^\d{1,2}:\d{2}$/.test(rule)) return ["fixed", rule];
    if (/^sunrise-\d+$/.test(rule)) return ["sunrise", rule.slice(8)];
    return [rule ? "with" : "", ""];
  }
  const SEASON_ROUND = { jamaatDst: "jamaatRoundDst", jamaatRamadan: "jamaatRoundRamadan" };
  function seasons() {
    // The summer-time and Ramadan rows (issue 36) as jamaatDst and jamaatRamadan, in prayer order.
    // A row's own rounding (minutes-after and before-sunrise rules only, as the usual rule's) writes the rule's
    // rounding parameter; empty keeps the usual rule's rounding, "1" is none (the API's jamaatRoundRamadan).
    const out = { jamaatDst: [], jamaatRamadan: [], jamaatRoundDst: [], jamaatRoundRamadan: [] };
    const rows = Array.from(document.querySelectorAll("#season-rules li"));
    for (const p of config.prayers) {
      for (const row of rows.filter((r) => r.querySelector(".s-prayer").value === p)) {
        const when = row.querySelector(".s-when").value, kind = row.querySelector(".s-kind").value;
        const text = ruleText(p, kind, row.querySelector(".s-value").value);
        if (!text) continue;
        out[when].push(text);
        const round = row.querySelector(".s-round").value;
        if (round && (kind === "after" || kind === "sunrise")) out[SEASON_ROUND[when]].push(p + ":" + round);
      }
    }
    return out;
  }
  function jamaat(publishing) {
    // publishing: a rule whose value is missing goes to the API, which refuses it beside the jamaat (at Save);
    // the preview leaves it out meanwhile (a kind just chosen is no error: the trial's "half-typed rule")
    const rules = [], round = [], weekly = [];
    for (const p of config.prayers) {
      const kind = $("j-kind-" + p).value;
      if (!kind) continue;
      const text = ruleText(p, kind, $("j-value-" + p).value);
      if (text) rules.push(text); else if (publishing) rules.push(p + ":");
      if (kind === "after" || kind === "sunrise") {
        if ($("j-round-" + p).value) round.push(p + ":" + $("j-round-" + p).value);
        if ($("j-weekly-" + p).value) weekly.push(p + ":" + $("j-weekly-" + p).value);
      }
    }
    const out = {};
    if (rules.length) out.jamaat = rules.join(",");
    if (round.length) out.jamaatRound = round.join(",");
    if (weekly.length) out.jamaatWeekly = weekly.join(",");
    const season = seasons();
    for (const name of Object.keys(season)) if (season[name].length) out[name] = season[name].join(",");
    return Object.assign(out, named(document.querySelector("fieldset.jamaat")));
  }
  function languages() {
    const first = $("f-first").value;
    const checked = Array.from(document.querySelectorAll(".mosque-lang:checked"), (box) => box.value);
    return [first].concat(checked.filter((l) => l !== first));
  }
  function byLanguage(prefix) {
    const out = {};
    for (const l of config.languages) {
      const text = value(prefix + l).replace(/\s+/g, " ");
      if (text) out[l] = text;
    }
    return out;
  }
  function inLanguage(texts, l) {
    // As the profile's reader picks: the language asked, else the mosque's first language that has one.
    if (texts[l]) return texts[l];
    const other = languages().concat(config.languages).find((x) => texts[x]);
    return other ? texts[other] : "";
  }
  function dated(rules) {
    // /v1/prayer-times takes the reckoning only with what it dates (Eid days, Ramadan rules).
    return rules.eid || rules.jamaatRamadan ? { calendar: $("f-reckoning").value } : {};
  }
  function prayerQuery() {
    const where = place();
    if (!where) return null;
    const rules = jamaat();
    return Object.assign({}, where, times(), rules, dated(rules));
  }
  function screenOptions() {
    const out = {};
    if (ascii(value("f-notice")) && ascii(value("f-notice")) !== DEFAULT_NOTICE) out.notice = ascii(value("f-notice"));
    if (ascii(value("f-inPrayer"))) out.inPrayer = ascii(value("f-inPrayer"));
    if (ascii(value("f-lineSeconds"))) out.lineSeconds = ascii(value("f-lineSeconds")); // issue 36
    if ($("f-qr").value) out.qr = $("f-qr").value;
    return out;
  }
  function profile() {
    const where = place() || {};
    const numeric = (text) => (text !== "" && isFinite(Number(text)) ? Number(text) : text);
    const out = { names: byLanguage("f-name-") };
    out.place = where.city ? { city: where.city } : { lat: numeric(where.lat || ""), lng: numeric(where.lng || ""), tz: where.tz || "" };
    out.times = times();
    const rules = jamaat(true);
    if (Object.keys(rules).length) out.jamaat = rules;
    out.reckoning = $("f-reckoning").value;
    out.languages = languages();
    const notes = window.builderAnnouncements.read(); // issue 36: builder_announcements.js
    if (notes.length) out.announcements = notes;
    const screen = {};
    const options = screenOptions();
    for (const key of Object.keys(options)) screen[key] = key === "qr" ? options[key] : Number(options[key]);
    if (Object.keys(screen).length) out.screen = screen;
    if (value("f-website")) out.website = value("f-website");
    if (value("f-address")) out.address = value("f-address").replace(/\s+/g, " ");
    const source = { about: value("f-source-about").replace(/\s+/g, " ") };
    if (value("f-source-url")) source.url = value("f-source-url");
    const read = new Date(Date.now() - today.getTimezoneOffset() * 60000).toISOString().slice(0, 10);
    source.read = state.edit && state.edit.read ? state.edit.read : read;
    out.sources = [source];
    return out;
  }

  // ---- errors beside their fields -----------------------------------------------------------------------------
  function clearErrors() {
    for (const p of document.querySelectorAll("p.error")) { p.hidden = true; p.textContent = ""; }
    for (const e of document.querySelectorAll("[aria-invalid]")) e.removeAttribute("aria-invalid");
  }
  function fieldOf(name) {
    // A profile's field (names.en, sources[0].url), else an API parameter (jamaat, or times.method -> method).
    const short = name.replace(/^(place|times|jamaat)\./, "");
    return document.querySelector('[data-field="' + CSS.escape(name) + '"]')
      || document.querySelector('[data-param~="' + CSS.escape(short) + '"]');
  }
  function reason(answer) {
    // The API's error in the page's language: its code's sentence with its args (numbers in the page's digits,
    // a prayer by its column's name), as the 400 pages say it (generator/words/error_words.py); null when the
    // code has no sentence of its own (the English message is then shown as it is).
    const E = config.errors;
    if (LANG === "en" || !answer.code || answer.code === "invalid" || !(answer.code in E.sentences)) return null;
    const args = {};
    for (const [key, value] of Object.entries(answer.args || {})) {
      // Ids and signed numbers keep their own direction inside right-to-left text (LRI … PDI), as on the server.
      const isolate = (t) => "\u2066" + t + "\u2069";
      const one = (v) => (typeof v === "number" ? (v < 0 ? isolate(native(v)) : native(v))
        : (E.names[v] || isolate(String(v))));
      args[key] = Array.isArray(value) ? value.map(one).join(E.comma) : one(value);
    }
    return fill(E.sentences[answer.code], args);
  }
  function held(on) {
    // the preview and the addresses wait for the error shown above (gallery review 4, fa LANG4-11)
    for (const id of ["preview-held", "outputs-held"]) $(id).hidden = !on;
  }
  function showError(answer) {
    // The API's error (400 body: error, code, parameter, args) beside the field it names, after a lead in
    // the page's language; said in that language when its code has a sentence, else the English message.
    if (typeof answer === "string") answer = { error: answer };
    const message = answer.error || "";
    const colon = message.indexOf(": ");
    const name = answer.parameter || (colon > 0 ? message.slice(0, colon) : "");
    const field = fieldOf(name) || null;
    const box = field ? field.querySelector("p.error") : null;
    const target = box || status;
    target.textContent = "";
    const lead = document.createElement("span");
    lead.textContent = W.errorLead + " ";
    const text = document.createElement("span");
    const said = reason(answer);
    if (said === null) {
      text.lang = "en";
      text.dir = "ltr";
      text.textContent = message;
    } else if (box) {
      // beside its field, whose label names it, while it is typed: no "not accepted" (nothing was sent), in the
      // page's own sentence (builder.field_error: Urdu «یہاں … ہونا چاہیے۔», gallery review UR2-6)
      text.textContent = fill(W.fieldError, { sentence: said });
      target.append(text);
      target.hidden = false;
      for (const input of field.querySelectorAll("input, select, textarea")) input.setAttribute("aria-invalid", "true");
      return;
    } else {
      const parameter = document.createElement("bdi");
      parameter.textContent = name;
      text.append(parameter, ": " + said);
    }
    target.append(lead, text);
    target.hidden = false;
    if (box) {
      for (const input of field.querySelectorAll("input, select, textarea")) input.setAttribute("aria-invalid", "true");
    } else {
      status.classList.add("bad");
    }
  }

  function typingIn(answer) {
    // Whether the error names the field whose text box has the focus: a value still being typed.
    const active = document.activeElement;
    if (!active || !["INPUT", "TEXTAREA"].includes(active.tagName) || active.type === "checkbox") return false;
    const colon = (answer.error || "").indexOf(": ");
    const field = fieldOf(answer.parameter || (colon > 0 ? answer.error.slice(0, colon) : ""));
    return Boolean(field && field.contains(active));
  }
  function tidy(element) {
    // A time box left: its text as the API's HH:MM ("2000" -> 20:00, "8pm" -> 20:00, "۸:۰۰" -> 08:00).
    let text = element.value;
    const kindBox = element.classList.contains("value") ? $("j-kind-" + element.closest("[data-prayer]").dataset.prayer)
      : element.classList.contains("s-value") ? element.closest("li").querySelector(".s-kind") : null;
    if (kindBox && kindBox.value === "fixed") text = readClock(text) || text;
    else if (CLOCK_LISTS.includes(element.dataset.name)) text = clockList(text);
    if (text !== element.value) { element.value = text; update(); }
  }

  // ---- the place ----------------------------------------------------------------------------------------------
  let searchTimer = null, asked = "";
  async function search() {
    const q = value("f-city-q");
    if (q === asked) return;
    asked = q;
    const list = $("city-results");
    if (!q) { list.replaceChildren(); return; }
    let cities = [];
    try {
      const response = await fetch("/v1/cities?q=" + encodeURIComponent(q));
      if (q !== asked) return;
      cities = response.ok ? (await response.json()).cities : [];
    } catch (error) {
      say(W.network, true);
    }
    list.replaceChildren();
    if (!cities.length) {
      const none = document.createElement("li");
      none.textContent = W.noResults;
      list.append(none);
    }
    for (const city of cities.slice(0, 8)) {
      const item = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = W.choose;
      const name = document.createElement("span");
      // the country by name in the page's language (the browser's CLDR names; the code where it has none), after
      // the language's comma: «بغداد (Baghdad)، العراق», not «, IQ» (ar J1)
      name.textContent = city.names[LANG] + (LANG === "en" ? "" : " (" + city.names.en + ")") + W.comma
        + countryName(city.country);
      name.dir = "auto";
      button.setAttribute("aria-label", W.choose + ": " + name.textContent);
      button.addEventListener("click", () => chooseCity(city.id, city.names[LANG]));
      item.append(button, " ", name);
      list.append(item);
    }
  }
  function countryName(code) {
    try { return new Intl.DisplayNames([LANG], { type: "region" }).of(code) || code; } catch (failure) { return code; }
  }
  function chooseCity(id, name) {
    state.city = id;
    state.cityName = name;
    $("f-city").value = id;
    $("city-chosen").textContent = fill(W.cityChosen, { city: name });
    $("city-results").replaceChildren();
    $("f-city-q").focus(); // the chosen button is gone: back to the search, where "Chosen: …" is read out
    preselect();
    update();
  }
  function preselect() {
    // The place's own method and reckoning (data/place_defaults.csv), unless the admin chose others.
    const own = (placeKind() === "city" && config.defaults.cities[state.city])
      || [config.defaults.method, config.defaults.reckoning, config.defaults.midnights[config.defaults.method] || ""];
    if (!state.methodTouched) $("f-method").value = own[0];
    if (!state.reckoningTouched) $("f-reckoning").value = own[1];
    // The midnight of the authority the method names (the place's own with its method; issue 33).
    const method = $("f-method").value;
    if (!state.midnightTouched) $("f-midnight").value = method === own[0] ? own[2] : config.defaults.midnights[method] || "";
    $("method-own").hidden = $("f-method").value !== own[0];
    // A table its authority printed for this very city is named as what it is, in the page's language: "The Sistani
    // office's printed table for Leicester", not the office's London label (issue 36); every other option as served.
    for (const option of $("f-method").options) {
      if (!option.dataset.label) option.dataset.label = option.textContent;
      const printed = option.value === own[3] && W.printedBy[own[3]] && state.cityName;
      option.textContent = printed ? fill(W.printedBy[own[3]], { city: state.cityName }) : option.dataset.label;
    }
  }

  // ---- the preview --------------------------------------------------------------------------------------------
  function clock(hhmm) {
    // The API's local HH:MM as the mosque's page prints it (page_words.clock): 12-hour without the part of the
    // day in ar and ur ("1:30"), else as given; in the language's digits.
    if (typeof hhmm !== "string") return "";
    if (config.clock !== "12" || !/^\d\d:\d\d$/.test(hhmm)) return native(hhmm);
    return native(((Number(hhmm.slice(0, 2)) + 11) % 12 + 1) + ":" + hhmm.slice(3));
  }
  function monthCaption() {
    return fill(W.monthCaption, { month: W.months[state.month - 1], year: native(state.year) });
  }
  function head(row) {
    const tr = document.createElement("tr");
    for (const text of row) {
      const th = document.createElement("th");
      th.scope = "col";
      th.textContent = text;
      tr.append(th);
    }
    return tr;
  }
  function drawTable(answer) {
    const table = document.querySelector("table.preview");
    const ruled = config.prayers.filter((p) => answer.days.some((d) => d.jamaatLocal && typeof d.jamaatLocal[p] === "string"));
    const slots = answer.days.some((d) => d.jamaatLocal && (d.jamaatLocal.jumuah || d.jamaatLocal.eid));
    const columns = ["fajr", "sunrise", "dhuhr", "asr", "maghrib", "isha"];
    const names = Object.assign({}, W.times, W.prayers);
    const titles = [W.date];
    for (const c of columns) {
      titles.push(names[c]);
      if (ruled.includes(c)) titles.push(fill(W.jamaatOf, { prayer: W.prayers[c] })); // «جماعة الفجر» (ar D1)
    }
    if (slots) titles.push(W.jumuah + " / " + W.eid);
    table.tHead.replaceChildren(head(titles));
    let moved = false, movedEnd = false, kept = false, skipped = false, fadhila = false, contested = false;
    const rows = answer.days.map((day) => {
      const tr = document.createElement("tr");
      tr.dataset.date = day.date;
      const weekday = (new Date(day.date + "T12:00:00Z").getUTCDay() + 6) % 7;
      if (weekday === 4) tr.className = "friday";
      const th = document.createElement("th");
      th.scope = "row";
      th.textContent = W.weekdays[weekday] + " " + native(Number(day.date.slice(8)));
      tr.append(th);
      const local = day.jamaatLocal || {};
      for (const c of columns) {
        const td = document.createElement("td");
        td.dataset.time = c;
        td.dataset.label = names[c]; // the column's name beside the time on a phone (builder.css: one day a card)
        td.textContent = clock(day.local[c]);
        if ((day.jamaatCombined || []).includes(c)) { td.textContent += "°"; fadhila = true; } // no adhan of its own
        tr.append(td);
        if (ruled.includes(c)) {
          const j = document.createElement("td");
          j.dataset.jamaat = c;
          j.dataset.label = fill(W.jamaatOf, { prayer: W.prayers[c] });
          j.className = "jamaat";
          let mark = "";
          if ((day.jamaatMovedEnd || []).includes(c)) { mark = "†"; movedEnd = true; }
          else if ((day.jamaatMoved || []).includes(c)) { mark = "*"; moved = true; }
          else if ((day.jamaatKept || []).includes(c)) { mark = "‡"; kept = true; }
          else if ((day.jamaatSkipped || []).includes(c)) { mark = "–"; skipped = true; }
          else if ((day.jamaatContested || []).includes(c)) { mark = "§"; contested = true; }
          j.textContent = clock(local[c]) + mark;
          tr.append(j);
        }
      }
      if (slots) {
        const td = document.createElement("td");
        td.dataset.slots = "";
        td.dataset.label = W.jumuah + " / " + W.eid;
        const parts = [];
        const slotMark = (day.jamaatContested || []).includes("jumuah") ? "§" : ""; // kept past the computed asr
        if (slotMark) contested = true;
        if (local.jumuah) parts.push(W.jumuah + " " + local.jumuah.map(clock).join(" ") + slotMark);
        if (local.eid) parts.push(W.eid + " " + local.eid.map(clock).join(" "));
        td.textContent = parts.join(W.sep); // the language's separator: « — » in Arabic script (ar D15)
        tr.append(td);
      }
      return tr;
    });
    table.tBodies[0].replaceChildren(...rows);
    $("preview-caption").textContent = monthCaption();
    const notes = [];
    if (moved) notes.push("* " + W.movedNote);
    if (movedEnd) notes.push("† " + W.movedEndNote);
    if (kept) notes.push("‡ " + W.keptNote);
    if (skipped) notes.push("– " + W.skippedNote);
    if (fadhila) notes.push("° " + W.fadhilaNote);
    if (contested) notes.push("§ " + W.contestedNote);
    $("preview-notes").textContent = notes.join(" ");
  }
  // Issue 33: the days of the year a time the committee set passes a disputed bound (kept as set: the view behind
  // it named) or falls outside its prayer's time (the committee then chooses what happens: jamaatOutside).  One
  // year's answer, asked with jamaatOutside=keep so that every such day is listed whatever is chosen.
  function declares(q) {
    const times = [q.jamaat, q.jamaatDst, q.jamaatRamadan].some((r) => /:\d{1,2}:\d\d/.test("," + (r || "")));
    return times || Boolean(q.jumuah || q.eid || q.jamaatTable);
  }
  function dayList(dates) {
    const shown = dates.slice(0, 12).map((iso) => {
      const weekday = (new Date(iso + "T12:00:00Z").getUTCDay() + 6) % 7;
      return W.weekdays[weekday] + " " + native(Number(iso.slice(8))) + " " + W.months[Number(iso.slice(5, 7)) - 1];
    });
    if (dates.length > 12) shown.push(fill(W.moreDays, { count: native(dates.length - 12) }));
    return shown.join(LANG === "en" ? ", " : "، "); // the Arabic comma in ar, fa and ur
  }
  function nameOf(p) {
    return W.prayers[p] || (p === "jumuah" ? W.jumuah : p === "eid" ? W.eid : p);
  }
  // The warnings read a year of times: asked once the form has rested WARN_WAIT_MS after an answer, so that a rule
  // typed or changed in several steps costs one year, not one per step (issue 34: what an admin's use costs).
  const WARN_WAIT_MS = 1500;
  let warnTimer = null;
  function warnLater(q) {
    clearTimeout(warnTimer);
    form.dataset.warned = "1"; // until the warnings of this answer are shown (for tests, as data-pending)
    warnTimer = setTimeout(() => warnings(q), WARN_WAIT_MS);
  }
  async function warnings(q) {
    const box = $("jamaat-warnings");
    if (!declares(q)) { box.hidden = true; box.replaceChildren(); state.warned = ""; form.dataset.warned = "0"; return; }
    const asking = query(Object.assign({}, q, { jamaatOutside: "keep", year: state.year }));
    if (asking === state.warned) { // already asked: shown, or its answer on its way (which ends the wait)
      if (state.warnAnswering !== asking) form.dataset.warned = "0";
      return;
    }
    state.warned = asking;
    state.warnAnswering = asking;
    let answer = null;
    try {
      const response = await fetch("/v1/prayer-times?" + asking);
      if (asking !== state.warned) return; // a later change asked again
      answer = response.ok ? await response.json() : null;
    } catch (failure) {
      answer = null;
    } finally {
      if (state.warnAnswering === asking) state.warnAnswering = null;
    }
    if (asking !== state.warned) return;
    if (!answer) { state.warned = ""; form.dataset.warned = "0"; return; } // not known: asked again on the next change

    const contested = {}, outside = {};
    for (const day of answer.days) {
      for (const p of day.jamaatContested || []) (contested[p] = contested[p] || []).push(day.date);
      for (const p of day.jamaatKept || []) (outside[p] = outside[p] || []).push(day.date);
    }
    const lines = [];
    for (const p of Object.keys(outside)) lines.push(fill(W.warnOutside, { prayer: nameOf(p), days: dayList(outside[p]) }));
    for (const p of Object.keys(contested)) {
      lines.push(fill(W.warnContested, { prayer: nameOf(p), days: dayList(contested[p]),
                                         view: p === "jumuah" ? W.viewJumuah : W.viewRakaat }));
    }
    box.replaceChildren(...lines.map((text) => { const line = document.createElement("p"); line.textContent = text; return line; }));
    box.hidden = lines.length === 0;
    box.dataset.outside = Object.keys(outside).join(" ");
    box.dataset.contested = Object.keys(contested).join(" ");
    form.dataset.warned = "0";
  }
  function screenQuery(kind, lang) {
    // The screen's or widget's query of the form as it is, in lang (default the first language); a screen of a
    // mosque with two or more languages shows the next one beside it (lang2, issue 36), as its profile's would.
    const rules = jamaat();
    const first = lang || languages()[0];
    const own = Object.assign({}, place(), times(), rules, { calendar: $("f-reckoning").value, lang: first });
    const names = byLanguage("f-name-");
    if (inLanguage(names, first)) own.name = inLanguage(names, first);
    if (kind === "screen") {
      const second = languages().find((l) => l !== first);
      if (second) own.lang2 = second;
      const lines = window.builderAnnouncements.read().filter((a) => !a.kind).map((a) => inLanguage(a.text, first))
        .filter((t) => t && t.length <= config.limits.announcement); // one too long is the field's error, not the frame's
      if (lines.length) own.note = lines.slice(0, 3).join("|"); // the screen's note: at most 3 lines
      Object.assign(own, screenOptions());
    }
    return own;
  }
  // The frames' pages each ask a year of times (the screen keeps a year for offline days): asked only while the frames
  // are on screen and the form has rested FRAME_WAIT_MS, so that filling the form costs the months the preview shows,
  // not a year per change (issue 34's 429s; issue 36). data-src is the address each frame shows once it is seen.
  const FRAME_WAIT_MS = 1500;
  let framesSeen = !("IntersectionObserver" in window), frameTimer = null;
  function frame(id, src) {
    $(id).dataset.src = src;
    clearTimeout(frameTimer);
    frameTimer = setTimeout(showFrames, FRAME_WAIT_MS);
  }
  function showFrames() {
    if (!framesSeen) return;
    for (const element of document.querySelectorAll(".frames iframe")) {
      if (element.dataset.src && element.getAttribute("src") !== element.dataset.src) element.src = element.dataset.src;
    }
  }
  if (!framesSeen) {
    new IntersectionObserver((entries) => {
      framesSeen = entries.some((entry) => entry.isIntersecting);
      showFrames();
    }).observe(document.querySelector(".frames"));
  }
  function keepDraft() {
    // The form as it is, until it is published: a page closed or reloaded opens it again (never a published
    // profile's edit: that one lives on the server).
    if (state.edit) return;
    try {
      localStorage.setItem(DRAFT_KEY, JSON.stringify({ profile: profile(), cityName: state.cityName,
                                                       method: $("f-method").value }));
    } catch (failure) { /* storage off or full: nothing kept */ }
  }
  function forgetDraft() {
    try { localStorage.removeItem(DRAFT_KEY); } catch (failure) { /* storage off */ }
    $("draft-clear").hidden = true;
  }
  function restoreDraft() {
    let draft = null;
    try { draft = JSON.parse(localStorage.getItem(DRAFT_KEY) || "null"); } catch (failure) { draft = null; }
    if (!draft || !draft.profile || !draft.profile.place || !Array.isArray(draft.profile.languages)) return;
    fillForm(draft.profile);
    state.cityName = draft.cityName || "";
    if (state.city && state.cityName) $("city-chosen").textContent = fill(W.cityChosen, { city: state.cityName });
    if (draft.method) $("f-method").value = draft.method;
    preselect();
    $("draft-clear").hidden = false;
    say(W.draftRestored);
    update();
  }
  let updateTimer = null;
  function update() {
    keepDraft();
    form.dataset.pending = "1"; // until the preview has the API's answer to the form as it is now
    clearTimeout(warnTimer); // the warnings are asked of the form's next answer, once it has rested
    if (!state.warnAnswering) form.dataset.warned = "0"; // none asked now (an invalid form asks none)
    clearTimeout(updateTimer);
    updateTimer = setTimeout(preview, WAIT_MS);
  }
  async function preview() {
    const q = prayerQuery();
    $("preview-wait").hidden = Boolean(q);
    $("preview-body").hidden = !q;
    $("outputs").hidden = !q;
    $("publish").hidden = !q;
    if (!q) { held(false); form.dataset.pending = "0"; return; }
    const asking = query(Object.assign({}, q, { year: state.year, month: state.month }));
    if (asking === state.shown) {
      // The times asked are the same; the frames and outputs follow the rest of the form (its languages, names,
      // announcements, screen options: a language ticked after the last answer changed no times, 28 November CI).
      // While that same question is still out, its answer draws them and ends the wait.
      if (state.answering === asking) return;
      if (form.dataset.valid === "true") drawFrames();
      outputs();
      form.dataset.pending = "0";
      return;
    }
    state.shown = asking;
    state.answering = asking;
    let answer = null, error = null;
    try {
      const response = await fetch("/v1/prayer-times?" + asking);
      if (state.answering === asking) state.answering = null;
      if (asking !== state.shown) return; // a later change has asked again
      if (response.status === 429) { // the limit in the page's words, not the API's English (ur UR-8)
        const seconds = Number(response.headers.get("Retry-After")) || 60;
        state.shown = null; // ask again on the next change
        say(seconds < 120 ? fill(W.tooMany, { seconds: native(seconds) })
          : fill(W.tooManyMinutes, { minutes: native(Math.ceil(seconds / 60)) }), true);
        form.dataset.pending = "0";
        return;
      }
      const body = await response.json();
      if (response.ok) answer = body; else error = body.error ? body : String(response.status);
    } catch (failure) {
      if (state.answering === asking) state.answering = null;
      say(W.network, true);
      form.dataset.pending = "0";
      return;
    }
    clearErrors();
    form.dataset.pending = "0";
    if (error) {
      form.dataset.valid = "false";
      if (typingIn(error)) { state.held = error; return; } // shown once the box is left (issue 36)
      showError(error);
      held(true);
      return;
    }
    state.held = null;
    held(false);
    form.dataset.valid = "true";
    if (status.classList.contains("bad")) say(""); // an error answered; a message (draft restored, saved) stays
    drawTable(answer);
    warnLater(q);
    drawFrames();
    outputs();
  }
  function drawFrames() {
    // The frames' addresses from the form as it is (shown once seen and rested: frame()).
    frame("frame-landscape", "/screen/?" + query(screenQuery("screen")));
    frame("frame-portrait", "/screen/?" + query(screenQuery("screen")));
    frame("frame-widget", "/widget/?" + query(screenQuery("widget")));
    const second = languages()[1]; // the widget in the second language too (issue 36)
    $("frame-widget-2-box").hidden = !second;
    $("frame-widget-2-lang").textContent = second ? config.languageNames[second] : "";
    $("frame-widget-2-lang").lang = second || "";
    if (second) frame("frame-widget-2", "/widget/?" + query(screenQuery("widget", second)));
    else $("frame-widget-2").dataset.src = "";
  }

  // ---- the outputs --------------------------------------------------------------------------------------------
  function attribute(text) {
    return String(text).replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  }
  function dataName(name) {
    // The widget script's spelling: data-jamaat-round="…" is jamaatRound (the DOM's dataset).
    return "data-" + name.replace(/[A-Z]/g, (c) => "-" + c.toLowerCase());
  }
  function feedQuery(own) {
    const out = Object.assign({}, own, { lang: languages()[0] });
    if (value("o-alarm")) out.alarm = value("o-alarm");
    const duration = ascii(value("o-duration"));
    if (duration && duration !== $("o-duration").defaultValue) out.duration = duration;
    const shown = Array.from(document.querySelectorAll(".feed-time:checked"), (box) => box.value).join(",");
    if (shown !== FIVE) out.prayers = shown;
    if ($("o-ramadan").checked) {
      out.ramadan = "1"; // suhoor ends and iftar on the days of Ramadan under the mosque's reckoning
      if (!out.mosque) out.calendar = $("f-reckoning").value;
    }
    return out;
  }
  function qr(id, address) {
    const image = $(id);
    image.src = config.qrPath + "?text=" + encodeURIComponent(address);
    image.hidden = false;
  }
  function widgetCode(id, lang) {
    const widget = id ? { mosque: id, lang: lang } : screenQuery("widget", lang);
    return '<script src="' + ORIGIN + '/widget.js" '
      + Object.keys(widget).map((k) => dataName(k) + '="' + attribute(widget[k]) + '"').join(" ") + " async></" + "script>";
  }
  function eachLanguage(id) {
    // A mosque of two or more languages: each language's screen (the next language beside it) and widget.
    const langs = languages();
    $("o-languages").hidden = langs.length < 2;
    $("o-language-list").replaceChildren(...(langs.length < 2 ? [] : langs.map((lang) => {
      const item = document.createElement("li");
      item.dataset.lang = lang;
      const name = document.createElement("span");
      name.lang = lang;
      name.textContent = config.languageNames[lang] + W.sep;
      const link = document.createElement("a");
      link.className = "screen-in";
      link.href = id ? "/mosque/" + id + "/screen/?lang=" + lang : "/screen/?" + query(screenQuery("screen", lang));
      link.target = "_blank";
      link.rel = "noopener";
      link.textContent = W.screenShort;
      const code = document.createElement("input");
      code.className = "widget-in";
      code.type = "text";
      code.readOnly = true;
      code.dir = "ltr";
      code.value = widgetCode(id, lang);
      code.setAttribute("aria-label", W.widgetShort + " " + config.languageNames[lang]);
      item.append(name, link, " ", code);
      return item;
    })));
  }
  function outputs() {
    const id = state.edit && state.edit.id;
    const own = id ? { mosque: id } : prayerQuery();
    const screen = id ? "/mosque/" + id + "/screen/" : "/screen/?" + query(screenQuery("screen"));
    $("o-screen").value = ORIGIN + screen;
    $("o-screen-open").href = screen;
    $("o-screen-open").textContent = ORIGIN + screen;
    qr("o-screen-qr", ORIGIN + screen);
    $("o-widget").value = widgetCode(id, languages()[0]);
    eachLanguage(id);
    const feed = "/v1/prayer-times.ics?" + query(feedQuery(own));
    $("o-webcal").value = "webcal://" + HOST + feed;
    $("o-https").value = ORIGIN + feed;
    qr("o-feed-qr", "webcal://" + HOST + feed);
    const month = id ? "/mosque/" + id + "/" + (LANG === "en" ? "" : LANG + "/")
      : "/v1/prayer-times.csv?" + query(Object.assign({}, own, { year: state.year, month: state.month }));
    $("o-month").href = month;
    $("o-month").textContent = id ? ORIGIN + month : monthCaption() + " (CSV)";
    const text = JSON.stringify(profile(), null, 2) + "\n";
    $("o-profile").value = text;
    const link = $("o-profile-file");
    if (link.dataset.url) URL.revokeObjectURL(link.dataset.url);
    link.dataset.url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
    link.href = link.dataset.url;
    link.download = (id || slug(byLanguage("f-name-").en || "mosque")) + ".json";
    $("outputs-draft").hidden = Boolean(id);
  }
  function slug(text) {
    return text.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 48) || "mosque";
  }
  async function copy(button) {
    const source = $(button.dataset.copy);
    try {
      await navigator.clipboard.writeText(source.value);
    } catch (error) {
      source.select(); // no clipboard permission: selected, for the reader's own copy
      document.execCommand("copy");
    }
    say(W.copied);
  }

  // ---- publish, edit, versions, delete (runtime/hosted.py) ----------------------------------------------------
  async function send(method, path, body, version) {
    const headers = {};
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (state.edit && state.edit.secret) headers.Authorization = "Bearer " + state.edit.secret;
    if (version !== undefined) headers["If-Match"] = '"' + version + '"';
    let response;
    try {
      response = await fetch(path, { method: method, headers: headers, cache: "no-store",
                                     body: body === undefined ? undefined : JSON.stringify(body) });
    } catch (error) {
      say(W.network, true);
      return null;
    }
    const answer = response.status === 204 ? {} : await response.json().catch(() => ({}));
    answer.status = response.status;
    answer.etag = response.headers.get("ETag");
    if (response.ok) return answer;
    clearErrors();
    if (response.status === 400) showError(answer.error ? answer : "");
    else if (response.status === 409 && answer.version === undefined) showError(answer.error ? answer : ""); // a link's name
    else if (response.status === 409) { say(fill(W.conflict, { version: native(answer.version) }), true); $("load-current").hidden = false; }
    else if (response.status === 429) {
      const seconds = Number(response.headers.get("Retry-After")) || 60; // up to an hour: minutes from two on
      say(seconds < 120 ? fill(W.tooMany, { seconds: native(seconds) })
        : fill(W.tooManyMinutes, { minutes: native(Math.ceil(seconds / 60)) }), true);
    }
    else if (response.status === 401 || response.status === 403 || response.status === 404) {
      say(method === "POST" && response.status === 404 ? W.notHosted : W.forbidden, true);
    } else say(W.network, true);
    return null;
  }
  async function publish() {
    const answer = await send("POST", "/v1/mosques", profile());
    if (!answer) return;
    state.edit = { id: answer.id, secret: answer.edit, version: answer.version };
    forgetDraft(); // published: the server keeps it now
    // The link is shown in its field (copy button), never put in the address bar: history and synced tabs keep
    // what the address bar shows (issue 34).
    $("o-edit").value = editAddress(answer.id, answer.edit);
    $("edit-output").hidden = false;
    editing();
    say(fill(W.published, { id: answer.id }));
    outputs();
  }
  async function save() {
    const answer = await send("PUT", "/v1/mosques/" + state.edit.id, profile(), state.edit.version);
    if (!answer) return;
    state.edit.version = answer.version;
    state.unsaved = false;
    say(fill(W.saved, { version: native(answer.version) }));
    versions();
    outputs();
  }
  async function remove() {
    if (!window.confirm(W.deleteConfirm)) return;
    const answer = await send("DELETE", "/v1/mosques/" + state.edit.id, undefined, state.edit.version);
    if (!answer) return;
    state.edit = null;
    state.unsaved = false;
    history.replaceState(null, "", location.pathname);
    for (const id of ["save-button", "delete-button", "versions", "edit-output", "links"]) $(id).hidden = true;
    $("publish-button").hidden = false;
    say(W.deleted);
    outputs();
  }
  async function versions() {
    const answer = await send("GET", "/v1/mosques/" + state.edit.id + "/versions");
    if (!answer) return;
    const list = $("version-list");
    list.replaceChildren();
    for (const v of answer.versions.slice().reverse()) {
      if (v.version === state.edit.version || v.deleted) continue;
      const item = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = W.restore;
      const label = fill(W.versionLabel, { version: native(v.version), saved: native(v.saved.replace("T", " ").replace("Z", " UTC")) });
      button.setAttribute("aria-label", W.restore + ": " + label);
      button.addEventListener("click", () => restore(v.version));
      item.append(label + " ", button);
      list.append(item);
    }
    $("versions").hidden = !list.children.length;
  }
  // ---- edit links (issue 34): one per committee member, each revocable; a new secret for this one ----------------
  function editAddress(id, secret) {
    return ORIGIN + location.pathname + "#edit=" + id + "." + secret;
  }
  async function links() {
    const answer = await send("GET", "/v1/mosques/" + state.edit.id + "/links");
    if (!answer) return;
    const list = $("link-list");
    list.replaceChildren();
    for (const link of answer.links) {
      const item = document.createElement("li");
      const name = document.createElement("bdi");
      name.textContent = link.name;
      item.append(name, " ");
      if (link.name === answer.you) item.append(W.linkYours);
      else {
        const button = document.createElement("button");
        button.type = "button";
        button.textContent = W.linkRevoke;
        button.setAttribute("aria-label", W.linkRevoke + ": " + link.name);
        button.addEventListener("click", () => revokeLink(link.name));
        item.append(button);
      }
      list.append(item);
    }
    $("links").hidden = false;
  }
  async function addLink() {
    const name = $("f-link-name").value.trim();
    const answer = await send("POST", "/v1/mosques/" + state.edit.id + "/links", { name: name });
    if (!answer) return;
    $("o-link-label").textContent = fill(W.linkNew, { name: answer.name });
    $("o-link").value = editAddress(state.edit.id, answer.edit);
    $("link-output").hidden = false;
    $("f-link-name").value = "";
    links();
  }
  async function revokeLink(name) {
    const answer = await send("DELETE", "/v1/mosques/" + state.edit.id + "/links/" + encodeURIComponent(name));
    if (!answer) return;
    say(fill(W.linkRevoked, { name: name }));
    links();
  }
  async function rotate() {
    const answer = await send("POST", "/v1/mosques/" + state.edit.id + "/rotate");
    if (!answer) return;
    state.edit.secret = answer.edit;
    $("o-edit").value = editAddress(state.edit.id, answer.edit);
    $("edit-output").hidden = false;
    say(W.rotated);
  }
  async function restore(number) {
    const answer = await send("POST", "/v1/mosques/" + state.edit.id + "/versions/" + number + "/restore", undefined,
                              state.edit.version);
    if (!answer) return;
    await load();
    say(fill(W.saved, { version: native(state.edit.version) }));
  }
  function editing() {
    $("publish-button").hidden = true;
    for (const id of ["save-button", "delete-button"]) $(id).hidden = false;
    const name = byLanguage("f-name-");
    $("page-title").textContent = fill(W.editing, { name: inLanguage(name, LANG) || state.edit.id });
    versions();
    links();
  }
  async function load() {
    // The profile the edit link names, into the form (GET /v1/mosques/<id>: its version is the ETag).
    let response;
    try {
      response = await fetch("/v1/mosques/" + state.edit.id, { cache: "no-store" });
    } catch (error) {
      say(W.network, true);
      return;
    }
    if (!response.ok) { say(W.forbidden, true); return; }
    state.edit.version = Number((response.headers.get("ETag") || "").replace(/\D/g, ""));
    fillForm(await response.json());
    state.unsaved = false;
    $("load-current").hidden = true;
    editing();
    state.shown = "";
    preview();
  }
  function set(id, text) {
    if ($(id)) $(id).value = text === undefined || text === null ? "" : String(text);
  }
  function fillForm(p) {
    for (const l of config.languages) {
      set("f-name-" + l, (p.names || {})[l]);
    }
    window.builderAnnouncements.fill(p);
    set("f-address", p.address);
    set("f-website", p.website);
    if (p.place.city) {
      $("f-place-city").checked = true;
      state.city = p.place.city;
      $("f-city").value = p.place.city;
      $("city-chosen").textContent = fill(W.cityChosen, { city: p.place.city });
      fetch("/v1/cities?all=1").then((r) => r.json()).then((all) => {
        const city = all.cities.find((c) => c.id === p.place.city);
        if (!city) return;
        $("city-chosen").textContent = fill(W.cityChosen, { city: city.names[LANG] });
        state.cityName = city.names[LANG];
        preselect(); // the method's label for this city (every choice is kept: touched)
      }).catch(() => null);
    } else {
      $("f-place-point").checked = true;
      set("f-lat", p.place.lat);
      set("f-lng", p.place.lng);
      set("f-tz", p.place.tz);
    }
    showPlace();
    for (const element of document.querySelectorAll("[data-name]")) {
      const name = element.dataset.name;
      if (["city", "lat", "lng", "tz"].includes(name)) continue;
      element.value = (p.times || {})[name] || (p.jamaat || {})[name] || "";
    }
    state.methodTouched = state.reckoningTouched = state.midnightTouched = true;
    $("f-reckoning").value = p.reckoning;
    const rules = readPairs((p.jamaat || {}).jamaat), round = readPairs((p.jamaat || {}).jamaatRound),
      weekly = readPairs((p.jamaat || {}).jamaatWeekly);
    for (const prayer of config.prayers) {
      const rule = rules[prayer] || "";
      const [kind, given] = kindOf(rule);
      $("j-kind-" + prayer).value = kind;
      $("j-value-" + prayer).value = given;
      $("j-round-" + prayer).value = round[prayer] || round["*"] || "";
      $("j-weekly-" + prayer).value = weekly[prayer] || weekly["*"] || "";
      ruleRow(prayer);
    }
    $("season-rules").replaceChildren();
    for (const name of ["jamaatDst", "jamaatRamadan"]) {
      const pairs = readPairs((p.jamaat || {})[name]), rounds = readPairs((p.jamaat || {})[SEASON_ROUND[name]]);
      for (const prayer of config.prayers) if (pairs[prayer]) seasonRow(name, prayer, pairs[prayer], rounds[prayer] || "");
    }
    for (const box of document.querySelectorAll(".mosque-lang")) box.checked = p.languages.includes(box.value);
    $("f-first").value = p.languages[0];
    const screen = p.screen || {};
    set("f-notice", screen.notice || DEFAULT_NOTICE);
    set("f-inPrayer", screen.inPrayer);
    set("f-lineSeconds", screen.lineSeconds);
    $("f-qr").value = screen.qr || "";
    const source = (p.sources || [])[0] || {};
    set("f-source-about", source.about);
    set("f-source-url", source.url);
    if (state.edit) state.edit.read = source.read;
  }
  function readPairs(text) {
    // "fajr:20,dhuhr:13:30" -> {fajr: "20", dhuhr: "13:30"}; a lone value ("5", "fri") is every prayer's ("*").
    const out = {};
    for (const item of String(text || "").split(",").map((s) => s.trim()).filter(Boolean)) {
      const colon = item.indexOf(":");
      if (colon < 0 || /^\d/.test(item)) out["*"] = item; else out[item.slice(0, colon).toLowerCase()] = item.slice(colon + 1);
    }
    return out;
  }

  // ---- the form's behaviour -----------------------------------------------------------------------------------
  const PLACEHOLDERS = { after: "20", fixed: "13:30", sunrise: "30" };
  function ruleRow(prayer) {
    const kind = $("j-kind-" + prayer).value;
    const input = $("j-value-" + prayer);
    input.disabled = !PLACEHOLDERS[kind];
    input.placeholder = PLACEHOLDERS[kind] ? native(PLACEHOLDERS[kind]) : "";
    keypad(input, kind);
    for (const part of ["round", "weekly"]) $("j-" + part + "-" + prayer).disabled = !(kind === "after" || kind === "sunrise");
  }
  function keypad(input, kind) {
    // Minutes: the digits keypad. A time: the phone's text keyboard, whose digits layer has ":" (an iPhone's digits
    // and decimal keypads have none; docs/mosques.md "Time boxes"); "2000", "20.00" and "8pm" are read as well.
    input.inputMode = kind === "fixed" ? "text" : "numeric";
  }
  // ---- summer-time and Ramadan rules (issue 36): a row each, no typed grammar --------------------------------------
  function seasonRow(when, prayer, rule, round) {
    const row = $("season-row").content.firstElementChild.cloneNode(true);
    const [kind, given] = kindOf(rule || "");
    row.querySelector(".s-round").value = round || "";
    row.querySelector(".s-when").value = when;
    row.querySelector(".s-prayer").value = prayer;
    seasonKinds(row);
    row.querySelector(".s-kind").value = kind || "after";
    row.querySelector(".s-value").value = given;
    seasonValue(row);
    $("season-rules").append(row);
    return row;
  }
  function seasonKinds(row) {
    // The kinds this prayer can take: before sunrise for fajr only, "together with" for asr and isha only.
    const prayer = row.querySelector(".s-prayer").value;
    const kind = row.querySelector(".s-kind");
    kind.querySelector('[value="sunrise"]').disabled = prayer !== "fajr";
    const partner = config.partners[prayer];
    const together = kind.querySelector('[value="with"]');
    together.disabled = !partner;
    together.textContent = partner ? fill(W.kindWith, { prayer: W.prayers[partner] }) : "";
    if (kind.selectedOptions[0] && kind.selectedOptions[0].disabled) kind.value = "after";
  }
  function seasonValue(row) {
    const kind = row.querySelector(".s-kind").value;
    const input = row.querySelector(".s-value");
    input.disabled = kind === "with";
    input.placeholder = PLACEHOLDERS[kind] ? native(PLACEHOLDERS[kind]) : "";
    keypad(input, kind);
    row.querySelector(".s-round").disabled = !(kind === "after" || kind === "sunrise");  // as the usual rule's
  }
  function showPlace() {
    const point = placeKind() === "point";
    $("place-city").hidden = point;
    $("place-point").hidden = !point;
    const page = document.querySelector('#f-qr option[value="page"]');
    page.disabled = point && !state.edit; // coordinates have no page until the mosque has one
    if (page.disabled && $("f-qr").value === "page") $("f-qr").value = "";
  }

  form.addEventListener("input", (event) => {
    if (event.target.id === "f-city-q") { clearTimeout(searchTimer); searchTimer = setTimeout(search, 150); return; }
    if (state.edit) state.unsaved = true;
    update();
  });
  window.addEventListener("beforeunload", (event) => {
    // A published profile's change not saved yet: the browser asks before the page is left.
    if (state.unsaved) event.preventDefault();
  });
  form.addEventListener("change", (event) => {
    const target = event.target;
    if (state.edit) state.unsaved = true;
    if (target.classList.contains("kind")) ruleRow(target.closest("[data-prayer]").dataset.prayer);
    if (target.name === "place-kind") { showPlace(); preselect(); }
    if (target.id === "f-method") { state.methodTouched = true; preselect(); }
    if (target.id === "f-reckoning") state.reckoningTouched = true;
    if (target.id === "f-midnight") state.midnightTouched = true;
    if (target.id === "f-table-file" && target.files.length) {
      target.files[0].text().then((text) => { $("f-jamaatTable").value = text; update(); });
    }
    update();
  });
  form.addEventListener("submit", (event) => event.preventDefault());
  form.addEventListener("focusout", (event) => {
    const element = event.target;
    if (element.tagName === "INPUT" && element.type === "text") tidy(element);
    // the error held while the box was typed in (a later answer, if any, clears or replaces it)
    if (state.held && !typingIn(state.held)) { clearErrors(); showError(state.held); held(true); state.held = null; }
  });
  $("season-add").addEventListener("click", () => {
    const row = seasonRow("jamaatDst", config.prayers[1], "");
    row.querySelector(".s-when").focus();
    update();
  });
  $("season-rules").addEventListener("click", (event) => {
    if (!event.target.classList.contains("s-remove")) return;
    const row = event.target.closest("li");
    row.remove();
    $("season-add").focus();
    if (state.edit) state.unsaved = true;
    update();
  });
  $("season-rules").addEventListener("change", (event) => {
    const row = event.target.closest("li");
    if (event.target.classList.contains("s-prayer")) seasonKinds(row);
    seasonValue(row);
  });
  $("outputs").addEventListener("change", outputs);
  $("outputs").addEventListener("input", outputs);
  document.addEventListener("click", (event) => {
    const button = event.target.closest("button.copy");
    if (button) copy(button);
  });
  $("month-prev").addEventListener("click", () => { state.month -= 1; if (state.month < 1) { state.month = 12; state.year -= 1; } update(); });
  $("month-next").addEventListener("click", () => { state.month += 1; if (state.month > 12) { state.month = 1; state.year += 1; } update(); });
  $("print-month").addEventListener("click", () => window.print());
  $("publish-button").addEventListener("click", publish);
  $("save-button").addEventListener("click", save);
  $("delete-button").addEventListener("click", remove);
  $("load-current").addEventListener("click", load);
  $("link-add").addEventListener("click", addLink);
  $("rotate-button").addEventListener("click", rotate);
  for (const p of config.prayers) ruleRow(p);
  showPlace();

  const hash = location.hash;
  const link = /^#edit=([a-z0-9-]{1,48})\.([A-Za-z0-9_-]{16,200})$/.exec(hash);
  if (hash) {
    // Read once, then out of the address bar (and this history entry): the secret stays in the page's memory only.
    history.replaceState(null, "", location.pathname + location.search);
  }
  $("draft-clear").addEventListener("click", () => { forgetDraft(); location.reload(); });
  if (link) {
    openLink(link[1], link[2]);
  } else if (/^#edit=/.test(hash)) {
    // An id with no secret, or a secret cut short: said at once, not at Save (issue 36)
    say(/^#edit=[a-z0-9-]{1,48}\.[A-Za-z0-9_-]{16,}/.test(hash) ? W.forbidden : W.linkCut, true);
  } else {
    restoreDraft();
  }
  async function openLink(id, secret) {
    // The link is asked at once whether it opens this profile (its list of links needs its secret): a wrong or
    // revoked link says so before any form is filled (issue 36).
    state.edit = { id: id, secret: secret, version: null };
    const answer = await send("GET", "/v1/mosques/" + id + "/links");
    if (!answer) { state.edit = null; return; }
    $("o-edit").value = editAddress(id, secret);
    load();
  }
})();
