// Run praytimes.org v3 (npm praytime, pinned in package-lock.json) as a peer: JSON cases on
// stdin, JSON results on stdout.
//
// A case: {lat, lng, date: "YYYY-MM-DD", params: {...}, rounding?, iterations?}
//   params are praytime's own settings, passed through unchanged: fajr / isha / maghrib
//   (degrees, or "N min" for intervals), asr ("Standard" | "Hanafi" | a shadow factor),
//   midnight ("Standard" = solar midnight | "Jafari" = midpoint of sunset and the next
//   fajr), highLats ("NightMiddle" | "OneSeventh" | "AngleBased" | "None"), dhuhr ("N min").
//   Unset params take praytime's defaults, among them maghrib "1 min" and highLats
//   "NightMiddle": pass them explicitly to compare like with like.
//   rounding: praytime's "nearest" | "up" | "down" | "none" (default "none": the exact instant).
//   iterations: praytime's refinement passes (default 3; praytime itself defaults to 1,
//   whose asr and twilight times can be ~10 s from the converged value).
// A result: {fajr, sunrise, dhuhr, asr, sunset, maghrib, isha, midnight} in Unix seconds
//   (fractional when unrounded), null where praytime has no time (angle never reached).
//
// praytime 3.2 has no elevation setting (its horizon is fixed at 0.833°). Its day is the
// UTC calendar date shifted by the longitude (local mean time), so the date of a result is
// the local date at that meridian; no time zone is involved, and TZ does not matter.
'use strict';
const { PrayTime } = require('praytime');

const NAMES = ['fajr', 'sunrise', 'dhuhr', 'asr', 'sunset', 'maghrib', 'isha', 'midnight'];

function times({ lat, lng, date, params = {}, rounding = 'none', iterations = 3 }) {
  const [y, m, d] = date.split('-').map(Number);
  const pt = new PrayTime('MWL');
  pt.adjust({ ...params, iterations }).location([lat, lng]).round(rounding).format('x');
  const raw = pt.times([y, m, d]);
  const out = {};
  for (const name of NAMES) {
    const ms = raw[name];
    out[name] = typeof ms === 'number' && Number.isFinite(ms) ? ms / 1000 : null;
  }
  return out;
}

const cases = JSON.parse(require('fs').readFileSync(0, 'utf8'));
process.stdout.write(JSON.stringify(cases.map(times)));
