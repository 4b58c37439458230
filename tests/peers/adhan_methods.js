'use strict';
const adhan = require('adhan');

// Our method ids -> adhan parameters. Presets adhan lacks are built from Other().
function parametersFor(method) {
  const M = adhan.CalculationMethod;
  const other = (fajr, isha, maghribAngle, maghribAdjust) => {
    const p = M.Other();
    p.fajrAngle = fajr;
    p.ishaAngle = isha;
    if (maghribAngle !== undefined) p.maghribAngle = maghribAngle;
    if (maghribAdjust !== undefined) p.methodAdjustments.maghrib = maghribAdjust;
    return p;
  };
  const table = {
    Tehran: () => M.Tehran(),
    SheikhKalbasi: () => M.Tehran(),
    Jafari: () => other(16, 14, 4),
    AlKhoeiFoundation: () => other(16, 14, 4),
    // adhan cannot express the Centre's fitted dawn (issue 19): its maghrib with the Jafari angles, for the
    // speed bench only (tests/test_prayer_vs_adhan.py leaves the Centre out)
    IslamicCentreOfEngland: () => other(16, 14, undefined, 15),
    MuslimWorldLeague: () => M.MuslimWorldLeague(),
    Egyptian: () => M.Egyptian(),
    Karachi: () => M.Karachi(),
    UmmAlQura: () => M.UmmAlQura(),
    Dubai: () => M.Dubai(),
    MoonsightingCommittee: () => M.MoonsightingCommittee(),
    NorthAmerica: () => M.NorthAmerica(),
    Kuwait: () => M.Kuwait(),
    Qatar: () => M.Qatar(),
    Singapore: () => M.Singapore(),
    Turkey: () => M.Turkey(),
  };
  const p = table[method]();
  p.madhab = adhan.Madhab.Shafi;
  p.highLatitudeRule = adhan.HighLatitudeRule.TwilightAngle; // the service's rule
  p.polarCircleResolution = adhan.PolarCircleResolution.Unresolved;
  return p;
}

module.exports = { parametersFor };
