// Parse scripts at a given ECMAScript version with acorn (pinned in package.json): the screen's and the
// widget's scripts must parse on an engine of Chromium 47's level (docs/site.md, "Old TVs").
// stdin: {"ecmaVersion": 5, "scripts": {"name": "source", ...}}
// stdout: {"acorn": "<version>", "results": {"name": null | "<the parse error, with its line and column>"}}
"use strict";
const fs = require("fs");
const acorn = require("acorn");

const input = JSON.parse(fs.readFileSync(0, "utf8"));
const results = {};
for (const [name, source] of Object.entries(input.scripts)) {
  try {
    acorn.parse(source, { ecmaVersion: input.ecmaVersion, sourceType: "script", allowReserved: input.ecmaVersion > 3 });
    results[name] = null;
  } catch (error) {
    results[name] = `${error.message}`;
  }
}
process.stdout.write(JSON.stringify({ acorn: acorn.version, results }));
