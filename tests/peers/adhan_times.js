// Run adhan-js (npm adhan, pinned in package-lock.json) as a peer: JSON cases on stdin,
// JSON results on stdout. Times are Unix seconds (adhan's own rounding), null when adhan
// has none. Run with TZ=UTC: adhan reads the date with local getters.
'use strict';
const adhan = require('adhan');

const { parametersFor: parameters } = require('./adhan_methods.js');

// adhan's rounded times can keep stray milliseconds (its TwilightAngle/seasonal safe times add
// fractional seconds that roundedMinute never clears, e.g. 12:38:00.500Z): the time it means,
// and displays, is the whole minute, so the milliseconds are dropped rather than rounded.
function seconds(date) {
  const t = date.getTime();
  return Number.isNaN(t) ? null : Math.floor(t / 1000);
}

// Optional per case: highLatitudeRule (adhan's names: MiddleOfTheNight, SeventhOfTheNight,
// TwilightAngle) and madhab (Shafi, Hanafi); absent, the service's defaults of adhan_methods.js.
function times(lat, lng, ymd, method, highLatitudeRule, madhab) {
  const [y, m, d] = ymd.split('-').map(Number);
  const date = new Date(y, m - 1, d);
  const params = parameters(method);
  if (highLatitudeRule !== undefined) params.highLatitudeRule = adhan.HighLatitudeRule[highLatitudeRule];
  if (madhab !== undefined) params.madhab = adhan.Madhab[madhab];
  const pt = new adhan.PrayerTimes(new adhan.Coordinates(lat, lng), date, params);
  return {
    fajr: seconds(pt.fajr), sunrise: seconds(pt.sunrise), dhuhr: seconds(pt.dhuhr), asr: seconds(pt.asr),
    sunset: seconds(pt.sunset), maghrib: seconds(pt.maghrib), isha: seconds(pt.isha),
  };
}

function nextDay(ymd) {
  const [y, m, d] = ymd.split('-').map(Number);
  const next = new Date(Date.UTC(y, m - 1, d + 1));
  return next.toISOString().slice(0, 10);
}

const cases = JSON.parse(require('fs').readFileSync(0, 'utf8'));
const out = cases.map(({ lat, lng, date, method, highLatitudeRule, madhab }) => {
  const today = times(lat, lng, date, method, highLatitudeRule, madhab);
  today.nextFajr = times(lat, lng, nextDay(date), method, highLatitudeRule, madhab).fajr;
  return today;
});
process.stdout.write(JSON.stringify(out));
