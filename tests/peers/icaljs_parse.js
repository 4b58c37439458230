// Parse ICS feeds with Mozilla's ical.js (npm ical.js, pinned in package-lock.json), the
// parser Thunderbird uses, and print a JSON summary per feed on stdout.
//
// stdin: one ICS text, or a JSON array of ICS texts.
// stdout: one summary, or an array of them, each
//   { errors: [string], components: {NAME: count}, calendar: {property: value},
//     events: [{uid, summary, description, language, start, end, allDay, transp, alarms}] }
// where alarms is [{action, trigger (seconds relative to the start), description}] of the event's VALARMs
// where start/end are "YYYY-MM-DD" for all-day events and Unix seconds for timed ones.
// Every property value is read (getValues), so a value ical.js cannot type is an error.
'use strict';
const ICAL = require('ical.js');

// RFC 7986 NAME and the de-facto X-WR-CALNAME / X-WR-CALDESC are TEXT (escaped like
// SUMMARY); ical.js 2.2.1 does not know them and would return them still escaped.
['name', 'x-wr-calname', 'x-wr-caldesc'].forEach((name) => {
  ICAL.design.icalendar.property[name] = { defaultType: 'text' };
});

const CALENDAR_PROPERTIES = [
  'version', 'prodid', 'calscale', 'method', 'name', 'x-wr-calname', 'description',
  'x-wr-caldesc', 'x-wr-timezone', 'refresh-interval', 'x-published-ttl',
];

function countComponents(component, counts) {
  const name = component.name.toUpperCase();
  counts[name] = (counts[name] || 0) + 1;
  component.getAllSubcomponents().forEach((child) => countComponents(child, counts));
  return counts;
}

function readEveryValue(component, errors) {
  component.getAllProperties().forEach((property) => {
    try {
      property.getValues().forEach((value) => String(value));
    } catch (error) {
      errors.push(`${component.name}/${property.name}: ${error.message}`);
    }
  });
  component.getAllSubcomponents().forEach((child) => readEveryValue(child, errors));
}

function when(time) {
  return time.isDate ? time.toString() : time.toUnixTime();
}

function summarise(text) {
  const errors = [];
  let root;
  try {
    root = new ICAL.Component(ICAL.parse(text));
  } catch (error) {
    return { errors: [`parse: ${error.message}`], components: {}, calendar: {}, events: [] };
  }
  readEveryValue(root, errors);
  const calendar = {};
  CALENDAR_PROPERTIES.forEach((name) => {
    const property = root.getFirstProperty(name);
    if (property) calendar[name] = String(property.getFirstValue());
  });
  const events = root.getAllSubcomponents('vevent').map((vevent) => {
    const event = new ICAL.Event(vevent);
    const summary = vevent.getFirstProperty('summary');
    return {
      uid: event.uid,
      summary: event.summary,
      description: event.description,
      language: summary ? summary.getParameter('language') : null,
      start: when(event.startDate),
      end: when(event.endDate),
      allDay: event.startDate.isDate,
      transp: vevent.getFirstPropertyValue('transp'),
      alarms: vevent.getAllSubcomponents('valarm').map((valarm) => ({
        action: valarm.getFirstPropertyValue('action'),
        trigger: valarm.getFirstPropertyValue('trigger').toSeconds(),
        description: valarm.getFirstPropertyValue('description'),
      })),
    };
  });
  return { errors, components: countComponents(root, {}), calendar, events };
}

const input = require('fs').readFileSync(0, 'utf8');
const many = input.trimStart().startsWith('[');
const texts = many ? JSON.parse(input) : [input];
const summaries = texts.map(summarise);
process.stdout.write(JSON.stringify(many ? summaries : summaries[0]));
