// The conformance vectors (`backalley vectors`) through the JavaScript API:
// each position's view is resumed with backalley.js (the library in Pyodide)
// and its legal moves and sample refusals must be the file's.
//
//   node tests/js/web_vectors.mjs SITE VECTORS.jsonl [...]
//
// prints one JSON line: {"positions": N, "probes": N, "failures": [...]};
// exit status 1 when any position disagrees.

import { pathToFileURL } from "node:url";
import { readFileSync } from "node:fs";

const [site, ...files] = process.argv.slice(2);
if (!site || !files.length) {
  process.stderr.write("usage: node web_vectors.mjs SITE VECTORS.jsonl [...]\n");
  process.exit(2);
}
const base = pathToFileURL(site.endsWith("/") ? site : `${site}/`);
const { load } = await import(new URL("backalley.js", base).href);
const ba = await load();
let positions = 0;
let probes = 0;
const failures = [];
const started = performance.now();

for (const path of files) {
  const lines = readFileSync(path, "utf8").split("\n").filter((line) => line.trim());
  const header = JSON.parse(lines[0]);
  if (header.format !== "backalley/vectors" || header.version !== 2) {
    failures.push(`${path}: not a backalley/vectors file of version 2`);
    continue;
  }
  for (const line of lines.slice(1)) {
    const vector = JSON.parse(line);
    if (vector.type !== "position") continue;
    const where = `${path} game ${vector.game} ply ${vector.ply}`;
    // the rules are stated once, in the header
    const game = ba.resume({ ...vector.view, rules: header.rules });
    const legal = game.legalMoves();
    if (JSON.stringify(legal) !== JSON.stringify(vector.legal)) {
      failures.push(`${where}: legal ${JSON.stringify(legal)}, not ${JSON.stringify(vector.legal)}`);
    }
    for (const probe of vector.illegal) {
      const answer = game.check(probe.move);
      probes += 1;
      if (answer.legal || answer.reason !== probe.reason) {
        failures.push(`${where}: ${probe.move} answered ${answer.legal ? "legal" : answer.reason}, not ${probe.reason}`);
      }
    }
    game.dispose();
    positions += 1;
  }
}
const seconds = (performance.now() - started) / 1000;
const result = { positions, probes, failures: failures.slice(0, 20), seconds };
// exit only once the pipe has taken the line
process.stdout.write(`${JSON.stringify(result)}\n`, () => process.exit(failures.length ? 1 : 0));
