// Run adhan-js's SunnahTimes (npm adhan, pinned in package-lock.json) as a peer: JSON cases
// {lat, lng, date, method} on stdin; per case, Unix seconds of the day's sunset and maghrib, the
// next day's fajr, and SunnahTimes' middleOfTheNight and lastThirdOfTheNight (maghrib + ½ and ⅔ of
// maghrib → next fajr, its own rounding). Run with TZ=UTC: adhan reads the date with local getters.
'use strict';
const adhan = require('adhan');
const { parametersFor } = require('./adhan_methods.js');

const seconds = (date) => Math.floor(date.getTime() / 1000);

const cases = JSON.parse(require('fs').readFileSync(0, 'utf8'));
const out = cases.map(({ lat, lng, date, method }) => {
  const [y, m, d] = date.split('-').map(Number);
  const coordinates = new adhan.Coordinates(lat, lng);
  const params = parametersFor(method);
  const today = new adhan.PrayerTimes(coordinates, new Date(y, m - 1, d), params);
  const tomorrow = new adhan.PrayerTimes(coordinates, new Date(y, m - 1, d + 1), params);
  const sunnah = new adhan.SunnahTimes(today);
  return {
    sunset: seconds(today.sunset), maghrib: seconds(today.maghrib), nextFajr: seconds(tomorrow.fajr),
    nextSunrise: seconds(tomorrow.sunrise), middle: seconds(sunnah.middleOfTheNight),
    lastThird: seconds(sunnah.lastThirdOfTheNight),
  };
});
process.stdout.write(JSON.stringify(out));
