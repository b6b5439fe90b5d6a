// Whole games played through the JavaScript API (backalley.js in Node: the
// library in Pyodide, no Python on the machine needed), printed for the test
// suite to compare with the Python library's own answers.
//
//   node tests/js/web_games.mjs SITE GAMES.json
//
// SITE is a folder written by `backalley build-web`; GAMES.json a list of
// {"variant": NAME, "seed": N}.  Game g is played from newGame(variant,
// {seed}) choosing, at ply p, legal[(7 * p + seed) % legal.length].  One JSON
// line per ply:
//
//   {"game", "ply", "seat", "legal", "move", "view", "facts", "refused"}
//
// where `refused` is what apply() threw for a call (or else a card) the view
// refuses, if the seat has one: {"move", "kind", "reason", "message"}; then
// per game {"game", "end": true, "state", "record", "scores", "winner"};
// then {"api": ...}, the answers of the API's other promises (rule sets from
// names, documents and TOML, seeds, refusals, views, records, bots), and
// {"timings": ...}.  Exit status 1 when the API broke its promise (a
// refused move applied, an error without the view's reason).

import { pathToFileURL } from "node:url";
import { readFileSync } from "node:fs";

const [site, gamesPath] = process.argv.slice(2);
if (!site || !gamesPath) {
  process.stderr.write("usage: node web_games.mjs SITE GAMES.json\n");
  process.exit(2);
}
const base = pathToFileURL(site.endsWith("/") ? site : `${site}/`);
const { load, BackAlleyError } = await import(new URL("backalley.js", base).href);
const started = performance.now();
const ba = await load();
const loaded = performance.now();
const printed = [];
const out = (data) => printed.push(`${JSON.stringify(data)}\n`);
let broken = 0;

function refusal(view) {
  // a refused call while the seat calls, else a refused card
  const call = view.call_answers.find((answer) => !answer.legal);
  if (call) return { move: call.call, reason: call.reason, message: call.message };
  const card = view.cards.find((answer) => !answer.playable);
  if (card) return { move: `play ${card.card}`, reason: card.reason, message: card.message };
  return null;
}

const games = JSON.parse(readFileSync(gamesPath, "utf8"));
for (const [g, spec] of games.entries()) {
  let game = ba.newGame(spec.variant, { seed: spec.seed });
  for (let ply = 0; !game.isOver; ply++) {
    const seat = game.toAct;
    const view = game.view();
    const legal = game.legalMoves();
    const move = legal[(7 * ply + spec.seed) % legal.length];
    const wanted = refusal(view);
    let refused = null;
    if (wanted) {
      try {
        game.apply(wanted.move, seat);
        broken += 1;
        process.stderr.write(`game ${g} ply ${ply}: ${wanted.move} was applied, the view refuses it\n`);
      } catch (err) {
        if (!(err instanceof BackAlleyError) || err.reason !== wanted.reason || err.message !== wanted.message) {
          broken += 1;
          process.stderr.write(`game ${g} ply ${ply}: ${wanted.move} refused as ${err.reason}, not ${wanted.reason}\n`);
        }
        refused = { move: wanted.move, kind: err.kind, reason: err.reason, message: err.message };
      }
    }
    out({ game: g, ply, seat, legal, move, view, facts: game.facts(), refused });
    game = game.apply(move);
  }
  out({
    game: g, end: true, state: game.document(), record: game.record(), scores: game.scores, winner: game.winner,
  });
}
// -- the API's other promises, answered for the test suite to check --------------------

function thrown(fn) {
  try {
    fn();
  } catch (err) {
    if (!(err instanceof BackAlleyError)) throw err;
    return { kind: err.kind, reason: err.reason, message: err.message, move: err.move, seat: err.seat,
      problems: err.problems, path: err.path };
  }
  return null;
}

const api = {};
const vietnam = ba.rules("vietnam");
api.vietnam = { name: vietnam.name, players: vietnam.players };
const house = ba.rules("base = 'vietnam'\n[schedule]\nhand_sizes = [3, 2]\n");
api.house = { name: house.name, schedule: house.document().schedule };
api.fromDocument = ba.rules(house.document()).document();
api.unknownVariant = thrown(() => ba.rules("no-such-variant"));
api.badToml = thrown(() => ba.rules("[schedule\nhand_sizes = 3", { format: "toml" }));
api.seeds = [ba.newGame("gamerules", { seed: 36 }).json(), ba.newGame("gamerules", { seed: 36n }).json(),
  ba.newGame("gamerules", { seed: "36" }).json()];
api.bigSeed = ba.newGame("gamerules", { seed: 2n ** 62n + 1n }).json();
let g36 = ba.newGame("gamerules", { seed: 36 });
api.notYourTurn = g36.check("bid 4", 3);
for (const m of ["bid 4", "bid 3", "bid 3", "bid 2", "play KD"]) g36 = g36.apply(m);
api.cardsOfSeat1 = g36.cards(1);
api.followSuit = thrown(() => g36.apply("play AC"));
api.notAMove = thrown(() => g36.check("play 1X"));
const seen = ba.resume(g36.view(1));
api.view = { kind: seen.kind, seat: seen.seat, legal: seen.legalMoves(), check: seen.check("play AC"),
  apply: thrown(() => seen.apply("play 4D")), other: thrown(() => seen.view(2)) };
api.badDocument = thrown(() => ba.resume({ format: "backalley/state", moves: [] }));
api.fromRecord = ba.resume(g36.record()).json() === g36.json();
api.bots = ba.bots();
let bots = ba.newGame(house, { seed: 11 });
const players = [0, 1, 2, 3].map((s) => ba.bot("heuristic", `s:${s}`));
api.dealEnds = [];
while (!bots.isOver) {
  const move = players[bots.toAct].choose(bots);
  const next = bots.apply(move);
  const end = ba.dealEnd(bots, move, next);
  if (end) api.dealEnds.push(end);
  bots = next;
}
api.botGame = bots.json();
api.unknownBot = thrown(() => ba.bot("no-such-bot"));
out({ api });
out({ timings: { ...ba.timings, load: loaded - started, games: performance.now() - loaded } });
// exit only once the pipe has taken every line
process.stdout.write(printed.join(""), () => process.exit(broken ? 1 : 0));
