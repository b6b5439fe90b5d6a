// A user interface's reading of a backalley view document, with no rules of
// its own: given the JSON of `state.view(seat)`, it lays out the hand and
// the bidding box, greys out every card and call button the seat may not
// use now with the refusal's sentence as its tooltip, and shows the table's
// facts - all from the document alone (no Python, no library).
//
//   node tests/js/view_ui.mjs VIEW.json
//
// prints one line per thing drawn, fields separated by tabs:
//
//   card  <card>  enabled
//   card  <card>  greyed  <Reason name>  <sentence>
//   call  <call>  enabled
//   call  <call>  greyed  <Reason name>  <sentence>
//   seat  <seat>  call <call or ->  won <tricks>  [dealer] [declarer] [to act]
//   side  <side>  seats <seats>  contract <text or ->  tricks <tricks>  score <points>
//   table  phase <phase>  trump <suit, none or ?>  broken <yes|no>  deal <n> of <m>  winner <side, draw or ->
//   moves  <the legal moves, separated by " | ">
//
// tests/io/test_view_ui.py runs it on documents the library wrote and compares
// every line with the library's own answers.

import { readFileSync } from "node:fs";

function fail(message) {
  process.stderr.write(`view_ui: ${message}\n`);
  process.exit(2);
}

const path = process.argv[2];
if (!path) fail("usage: node view_ui.mjs VIEW.json");
let doc;
try {
  doc = JSON.parse(readFileSync(path, "utf8"));
} catch (error) {
  fail(`cannot read ${path}: ${error.message}`);
}
if (doc.format !== "backalley/view") fail(`${path} is not a view document (format ${doc.format})`);

// -- the widgets: a button per card of the hand and per call the bidding knows

function button(kind, label, allowed, reason, message) {
  return { kind, label, disabled: !allowed, reason, title: allowed ? "" : message };
}

const cardButtons = doc.cards.map((a) => button("card", a.card, a.playable, a.reason, a.message));
const callButtons = doc.call_answers.map((a) => button("call", a.call, a.legal, a.reason, a.message));

const lines = [];
for (const b of [...cardButtons, ...callButtons]) {
  lines.push(
    b.disabled ? [b.kind, b.label, "greyed", b.reason, b.title] : [b.kind, b.label, "enabled"],
  );
}

// -- the table: who called what, who won what, the sides' contracts

function contractText(contract) {
  if (contract === null) return "-";
  let text = contract.board ? "board" : String(contract.tricks);
  if (contract.multiplier !== 1) text += ` x${contract.multiplier}`;
  return text;
}

const seats = doc.hand_counts.length;
for (let s = 0; s < seats; s++) {
  const marks = [];
  if (s === doc.dealer) marks.push("dealer");
  if (s === doc.declarer) marks.push("declarer");
  if (s === doc.to_act) marks.push("to act");
  const call = doc.bids[s] === null ? "-" : doc.bids[s];
  lines.push(["seat", String(s), `call ${call}`, `won ${doc.tricks_won[s]}`, ...marks]);
}
doc.side_seats.forEach((members, i) => {
  const contract = doc.contracts === null ? "-" : contractText(doc.contracts[i]);
  lines.push([
    "side",
    String(i),
    `seats ${members.join(" ")}`,
    `contract ${contract}`,
    `tricks ${doc.side_tricks[i]}`,
    `score ${doc.scores[i]}`,
  ]);
});
const trump = doc.trump !== null ? doc.trump : doc.trump_known ? "none" : "?";
const over = doc.phase === "game-over";
const deal = over ? doc.deals_played : doc.deals_played + 1;
const winner = !over ? "-" : doc.winner === null ? "draw" : String(doc.winner);
lines.push([
  "table",
  `phase ${doc.phase}`,
  `trump ${trump}`,
  `broken ${doc.trump_broken ? "yes" : "no"}`,
  `deal ${deal} of ${doc.deals}`,
  `winner ${winner}`,
]);
lines.push(["moves", doc.legal_moves.join(" | ")]);

process.stdout.write(lines.map((fields) => fields.join("\t")).join("\n") + "\n");
