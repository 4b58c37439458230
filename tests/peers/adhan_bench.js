// Time adhan-js computing prayer times in node, for the benchmark's peer column.
// argv: JSON {lat, lng, first: 'YYYY-MM-DD', days, methods: [...ids], runs}.
// Prints JSON {best_ms, median_ms, samples_ms}: bare PrayerTimes construction for every day × method.
'use strict';
const adhan = require('adhan');
const { parametersFor } = require('./adhan_methods.js');

const spec = JSON.parse(process.argv[2]);
const coordinates = new adhan.Coordinates(spec.lat, spec.lng);
const params = spec.methods.map(parametersFor);
const [y, m, d] = spec.first.split('-').map(Number);
const dates = Array.from({ length: spec.days }, (_, i) => new Date(y, m - 1, d + i));

function once() {
  let sink = 0;
  for (const p of params) {
    for (const date of dates) {
      const pt = new adhan.PrayerTimes(coordinates, date, p);
      sink += pt.isha.getTime() & 1;
    }
  }
  return sink;
}

for (let i = 0; i < 20; i++) once(); // warm up the JIT
const samples = [];
for (let i = 0; i < spec.runs; i++) {
  const start = process.hrtime.bigint();
  once();
  samples.push(Number(process.hrtime.bigint() - start) / 1e6);
}
samples.sort((a, b) => a - b);
process.stdout.write(JSON.stringify({ best_ms: samples[0], median_ms: samples[Math.floor(samples.length / 2)], samples_ms: samples }));
