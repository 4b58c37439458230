// The builder's reader of a time typed in a time box (issue 36): what a secretary types on a phone's keypad, read
// as the local time HH:MM that the API's jamaat grammar takes (generator/prayer/jamaat.py `_clock`), or null.
// "20:00", "20.00", "2000", "20" (a fixed time: 20:00, never minutes), "8pm", "8:30 pm", "8.30 p.m.", "۸:۰۰" and
// "٨:٠٠" (Persian and Arabic digits), "٢٠٫٠٠" (the Arabic decimal separator). The builder's box says "at a fixed
// time" beside it: a number is read as a clock, never as minutes. tests/test_builder_clock.py runs it in node.
"use strict";
function readClock(text) {
  const plain = String(text)
    .replace(/[\u0660-\u0669]/g, (d) => String(d.charCodeAt(0) - 0x660))
    .replace(/[\u06f0-\u06f9]/g, (d) => String(d.charCodeAt(0) - 0x6f0))
    .replace(/[\u066b\uff1a]/g, ":") // the Arabic decimal separator, a full-width colon
    .toLowerCase().replace(/\s+/g, "").replace(/\./g, ":");
  // the part of the day: am, pm, a.m., p.m. (the dots read as colons above)
  const part = /^(.*?):?([ap]):?m:?$/.exec(plain);
  const digits = part ? part[1] : plain;
  const shape = /^(\d{1,2})(?::(\d{2}))?$/.exec(digits) || /^(\d{1,2})(\d{2})$/.exec(digits);
  if (!shape) return null;
  let hours = Number(shape[1]);
  const minutes = shape[2] === undefined ? 0 : Number(shape[2]);
  if (minutes > 59) return null;
  if (part) {
    if (hours < 1 || hours > 12) return null; // 13pm, 0am: not a time of a 12-hour clock
    hours = (hours % 12) + (part[2] === "p" ? 12 : 0);
  }
  if (hours > 23) return null;
  return String(hours).padStart(2, "0") + ":" + String(minutes).padStart(2, "0");
}
if (typeof module !== "undefined") module.exports = readClock;
