// A user interface of its own on backalley.js: the seat's hand with, card by
// card, whether it may be played and why not - every answer the library's.
//
// Run it (from the repository):
//
//   npm ci --prefix web
//   backalley build-web site
//   cp -r examples/browser site/example
//   python3 -m http.server -d site 8000       # then open http://127.0.0.1:8000/example/
//
// Any static host serves the folder; nothing is fetched from anywhere else.

import { BackAlleyError, load } from "../backalley.js";

const $ = (selector) => document.querySelector(selector);
const ME = 2; // South, in a game of four partners
let ba;
let game;
let bots;

function button(text, onClick, refused) {
  const node = document.createElement("button");
  node.type = "button";
  node.textContent = text;
  if (refused) node.className = "refused";
  node.addEventListener("click", onClick);
  return node;
}

function say(answer) {
  // an answer of the library: {move, legal, reason, message}
  const node = $("#answer");
  node.dataset.legal = String(answer.legal);
  node.dataset.reason = answer.reason || "";
  node.textContent = answer.legal ? `${answer.move}: legal` : `${answer.move}: ${answer.message} (${answer.reason})`;
}

function play(move) {
  try {
    game = game.apply(move, ME); // refused: a BackAlleyError with the library's reason
  } catch (err) {
    if (!(err instanceof BackAlleyError)) throw err;
    say({ move, legal: false, reason: err.reason, message: err.message });
    return;
  }
  $("#answer").textContent = "";
  // the bots play until it is South's turn again, or the game is over
  while (!game.isOver && game.toAct !== ME) game = game.apply(bots[game.toAct].choose(game));
  show();
}

function show() {
  const view = game.view(ME); // the document the table server would send South
  const facts = game.facts(ME);
  $("#status").textContent = `${facts.title}, deal ${facts.deal}: ${facts.status}`;
  $("#view").textContent = JSON.stringify(view, null, 2);
  const calls = $("#calls");
  calls.replaceChildren();
  for (const answer of view.call_answers) {
    calls.append(button(answer.call, () => (answer.legal ? play(answer.call) : say({ move: answer.call, ...answer })),
      !answer.legal));
  }
  const hand = $("#hand");
  hand.replaceChildren();
  for (const answer of view.cards) {
    const move = `play ${answer.card}`;
    const item = document.createElement("li");
    item.append(button(answer.card, () => (answer.playable ? play(move) : say(game.check(move, ME))), !answer.playable));
    hand.append(item);
  }
  document.documentElement.dataset.phase = view.phase;
}

function deal() {
  try {
    const toml = $("#toml").value.trim();
    const rules = ba.rules(toml || $("#variant").value, { format: toml ? "toml" : "name" });
    game = ba.newGame(rules, { seed: Number($("#seed").value) || 0 });
  } catch (err) {
    say({ move: "the rules", legal: false, reason: err.kind, message: err.message });
    return;
  }
  bots = Array.from({ length: game.players }, (_, seat) => ba.bot("heuristic", seat));
  while (!game.isOver && game.toAct !== ME) game = game.apply(bots[game.toAct].choose(game));
  show();
}

ba = await load({ base: new URL("../", import.meta.url) });
for (const name of ba.variants()) $("#variant").append(new Option(name, name));
$("#loading").textContent = `backalley ${ba.version} loaded in ${(ba.timings.total / 1000).toFixed(1)} s (Pyodide ${ba.pyodideVersion}).`;
$("#setup").hidden = false;
$("#deal").addEventListener("click", deal);
deal();
document.documentElement.dataset.ready = "true";
