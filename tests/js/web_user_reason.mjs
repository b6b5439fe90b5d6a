// A user's rules in the JavaScript API (backalley.js in Node): the page runs
// the rules' Python text in Pyodide, as a site would run its own house rules,
// then plays them; a refusal carries the reason the rules registered.
//
//   node tests/js/web_user_reason.mjs SITE RULES.py RULES.json
//
// SITE is a folder written by `backalley build-web`; RULES.py the Python text
// that registers the rule parts and their reasons (tests/house_reasons.py);
// RULES.json the rule set's document.  Prints one JSON object: the answers of
// check() and apply() to a call above half the hand, and of the opening lead
// of the leader's highest card, and the view documents' refusals.

import { pathToFileURL } from "node:url";
import { readFileSync } from "node:fs";

const [site, rulesPython, rulesJson] = process.argv.slice(2);
if (!site || !rulesPython || !rulesJson) {
  process.stderr.write("usage: node web_user_reason.mjs SITE RULES.py RULES.json\n");
  process.exit(2);
}
const base = pathToFileURL(site.endsWith("/") ? site : `${site}/`);
const { load, BackAlleyError } = await import(new URL("backalley.js", base).href);
const ba = await load();
ba.pyodide.runPython(readFileSync(rulesPython, "utf8"));

function thrown(fn) {
  try {
    fn();
  } catch (err) {
    if (!(err instanceof BackAlleyError)) throw err;
    return { kind: err.kind, reason: err.reason, message: err.message, move: err.move };
  }
  return null;
}

const refusals = (answers, key) => answers.filter((a) => !a[key]).map((a) => [a.call || a.card, a.reason, a.message]);

const out = {};
let game = ba.newGame(ba.rules(readFileSync(rulesJson, "utf8"), { format: "json" }), { seed: 1 });
out.check = game.check("bid 9");
out.apply = thrown(() => game.apply("bid 9", game.toAct));
out.calls = refusals(game.view().call_answers, "legal");
while (game.phase !== "playing") {
  const legal = game.legalMoves();
  game = game.apply(legal.find((m) => m !== "pass") || legal[0]);
}
const cards = refusals(game.view().cards, "playable");
out.cards = cards;
const ours = cards.find(([, reason]) => reason !== "TRUMP_NOT_BROKEN");
out.lead = ours ? thrown(() => game.apply(`play ${ours[0]}`, game.toAct)) : null;
process.stdout.write(`${JSON.stringify(out)}\n`, () => process.exit(0));
