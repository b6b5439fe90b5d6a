#!/usr/bin/env node
// A small Back Alley bot speaking the bot protocol (JSON lines on stdin and
// stdout), in Node with no packages: the same bot as first_legal.py.
//
// Its play: the first legal move the view lists (during the bidding, a pass
// or the smallest bid; then the lowest legal card).
//
//   backalley simulate --external first=node examples/bots/first_legal.js \
//       --players first,heuristic --games 25
"use strict";

const readline = require("node:readline");

function send(message) {
  process.stdout.write(JSON.stringify(message) + "\n");
}

function choose(view) {
  return view.legal_moves[0];
}

const lines = readline.createInterface({ input: process.stdin, terminal: false });

lines.on("line", (line) => {
  const message = JSON.parse(line);
  switch (message.type) {
    case "hello":
      send({
        type: "hello",
        protocol: "backalley-bot",
        version: 1,
        name: "first-legal (Node)",
        author: "the backalley developers",
        options: {},
      });
      break;
    case "game":
      send({ type: "ready" });
      break;
    case "turn":
      send({ type: "move", id: message.id, move: choose(message.view) });
      break;
    case "refused":
      send({ type: "move", id: message.id, move: "pass" });
      break;
    case "quit":
      lines.close();
      process.exit(0);
      break;
    default:
      // deal_end, game_end and error are notices: nothing to answer
      break;
  }
});
