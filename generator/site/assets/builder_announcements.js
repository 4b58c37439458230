// The builder's announcements (issue 36; docs/site.md, "The mosque builder"): a list the committee adds to and
// removes from, each item a line or a slide, its text per language, its dates and weekdays as form controls.  It
// only reads and writes the form: which items apply on a day is the server's rule (generator/prayer/announcements.py),
// and a wrong value is the API's 400 naming announcements[k].<field>, shown beside that field by builder.js.
// builder.js calls window.builderAnnouncements.read() for the profile and .fill(profile) for an edit link's profile.
"use strict";
(function () {
  const list = document.getElementById("ann-list");
  const template = document.getElementById("ann-template");
  if (!list || !template) return;
  const DIGITS = { en: "0123456789", ar: "٠١٢٣٤٥٦٧٨٩", fa: "۰۱۲۳۴۵۶۷۸۹", ur: "۰۱۲۳۴۵۶۷۸۹" };
  const digits = DIGITS[document.documentElement.lang] || DIGITS.en;
  const MOST = Number(list.getAttribute("data-most"));
  const INDEXED = ["id", "for", "data-field", "aria-describedby"]; // the attributes that carry an item's index

  function items() {
    return Array.prototype.slice.call(list.querySelectorAll("li.ann"));
  }
  function renumber() {
    // Each item's ids and field names carry its position, so that the API's announcements[k] finds its box.
    items().forEach((item, k) => {
      item.setAttribute("data-index", String(k));
      for (const element of item.querySelectorAll("*")) {
        for (const name of INDEXED) {
          const value = element.getAttribute(name);
          if (value !== null) element.setAttribute(name, value.replace(/^(f-ann-|e-announcements\[|announcements\[)(\d+|__K__)/, "$1" + k));
        }
      }
    });
    document.getElementById("ann-add").disabled = items().length >= MOST;
  }
  function count(box) {
    // "37 / 120" beside the box, marked past the kind's limit (the API refuses it then; nothing is cut).
    const item = box.closest("li.ann");
    const small = box.parentNode.querySelector(".ann-count");
    const slide = item.querySelector(".ann-kind").value === "slide";
    const most = Number(small.getAttribute(slide ? "data-slide" : "data-line"));
    const n = box.value.length;
    const local = (x) => String(x).replace(/[0-9]/g, (d) => digits[Number(d)]);
    small.textContent = n ? local(n) + " / " + local(most) : "";
    small.classList.toggle("over", n > most);
    box.rows = slide ? 5 : 1;
  }
  function add() {
    if (items().length >= MOST) return null;
    list.appendChild(template.content.cloneNode(true));
    renumber();
    return items()[items().length - 1];
  }
  function read() {
    // The profile's announcements: an item with no text in any language is left out (an empty form is none).
    const out = [];
    for (const item of items()) {
      const kind = item.querySelector(".ann-kind").value;
      const text = {};
      for (const box of item.querySelectorAll(".ann-text")) {
        // a line is one line: a line break typed in its box is a space (a slide keeps its lines)
        const value = kind === "slide" ? box.value.replace(/\r\n?/g, "\n").trim() : box.value.replace(/\s+/g, " ").trim();
        if (value) text[box.getAttribute("data-lang")] = value;
      }
      if (!Object.keys(text).length) continue;
      const entry = { text: text };
      if (kind !== "line") entry.kind = kind;
      const from = item.querySelector(".ann-from").value, until = item.querySelector(".ann-until").value;
      if (from) entry.from = from;
      if (until) entry.until = until;
      const days = Array.prototype.filter.call(item.querySelectorAll(".ann-day"), (box) => box.checked)
        .map((box) => box.value);
      if (days.length) entry.weekdays = days;
      out.push(entry);
    }
    return out;
  }
  function fill(profile) {
    // An edit link's profile: its announcements (the older one-line form read as one line without dates).
    const given = profile.announcements || (profile.announcement ? [{ text: profile.announcement }] : []);
    for (const item of items()) item.parentNode.removeChild(item);
    for (const entry of given.length ? given : [{ text: {} }]) {
      const item = add();
      if (!item) break;
      item.querySelector(".ann-kind").value = entry.kind || "line";
      for (const box of item.querySelectorAll(".ann-text")) {
        box.value = (entry.text || {})[box.getAttribute("data-lang")] || "";
        count(box);
      }
      item.querySelector(".ann-from").value = entry.from || "";
      item.querySelector(".ann-until").value = entry.until || "";
      for (const box of item.querySelectorAll(".ann-day")) box.checked = (entry.weekdays || []).indexOf(box.value) >= 0;
    }
  }

  document.getElementById("ann-add").addEventListener("click", () => {
    const item = add();
    if (item) item.querySelector(".ann-text").focus();
  });
  list.addEventListener("click", (event) => {
    const button = event.target.closest(".ann-remove");
    if (!button) return;
    const item = button.closest("li.ann");
    item.parentNode.removeChild(item);
    if (!items().length) add(); // one empty item stays, ready to type in
    renumber();
    list.dispatchEvent(new Event("input", { bubbles: true })); // the form changed: builder.js follows it
  });
  list.addEventListener("input", (event) => {
    if (event.target.classList.contains("ann-text")) count(event.target);
  });
  list.addEventListener("change", (event) => {
    if (event.target.classList.contains("ann-kind")) {
      for (const box of event.target.closest("li.ann").querySelectorAll(".ann-text")) count(box);
    }
  });
  renumber();
  window.builderAnnouncements = { read: read, fill: fill };
})();
