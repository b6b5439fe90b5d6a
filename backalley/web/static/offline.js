/* The table that needs no server: the library runs in this page (Pyodide,
 * through backalley.js) and the table is drawn by the served table's own
 * code (table.js, window.backalleyTable).
 *
 * Each seat is played by a person at this screen or by one of the library's
 * bots, which move in the page.  With several persons the screen is covered
 * whenever the turn passes to another of them (pass-and-play).  The page
 * decides nothing: the legal moves, the greyed cards and their sentences,
 * the names and the status line all come from the library's view document
 * and facts, exactly as the server sends them, and a move is applied by the
 * library, which refuses an illegal one with its reason.  At the end of each
 * deal the table holds its last trick and result until a person continues
 * (the bots wait), as the served table does.  Every move is
 * saved in this browser (the state document), and the record of the game
 * can be downloaded for `backalley check`.
 *
 * `?delay=MS` sets the pause before each bot's move (400 ms by default).
 */

import { BackAlleyError, load } from "./backalley.js";

const T = window.backalleyTable;
const $ = (selector) => document.querySelector(selector);
const PERSON = "human";
const SAVED = "backalley:offline:game";
const params = new URLSearchParams(location.search);
const BOT_DELAY = Math.min(10000, Math.max(0, Number(params.get("delay") ?? 400) || 0));

const lib = { ba: null, players: {} };
const play = {
  game: null, // the Game (a full state: it lives only in this page)
  seats: [], // per seat: PERSON or a bot's name
  bots: [], // per seat: a Bot, or null for a person
  shown: null, // the person's seat whose hand is shown
  covered: false, // the screen is covered until the next person shows their hand
  pause: null, // the end of the deal just scored, held until a person continues
  timer: null,
  record: null, // the object URL of the record offered for download
};

// -- the lobby -----------------------------------------------------------------------------

function fillLobby() {
  const ba = lib.ba;
  const select = $("#variant");
  select.replaceChildren();
  for (const name of ba.variants()) {
    const rules = ba.rules(name, { format: "name" });
    lib.players[name] = rules.players;
    rules.dispose();
    select.append(T.html("option", { value: name }, name));
  }
  drawSeatChoices();
  showSaved();
}

function drawSeatChoices() {
  const box = $("#seat-choices");
  const before = Array.from(box.querySelectorAll("select"), (s) => s.value);
  const bots = lib.ba.bots();
  const fallback = bots.includes("heuristic") ? "heuristic" : bots[0];
  const players = lib.players[$("#variant").value] || 4;
  box.replaceChildren();
  for (let s = 0; s < players; s++) {
    const row = T.html("div", { class: "row" });
    row.append(T.html("label", { for: `seat-${s}` }, `Seat ${s + 1}`));
    const select = T.html("select", { id: `seat-${s}`, "data-seat-choice": s });
    select.append(T.html("option", { value: PERSON }, "a person"));
    for (const bot of bots) select.append(T.html("option", { value: bot }, `${bot} bot`));
    select.value = before[s] || (s === 0 ? PERSON : fallback);
    row.append(select);
    box.append(row);
  }
}

function handSizes() {
  const text = $("#hand-sizes").value.trim();
  if (!text) return null;
  const parts = text.split(/[\s,]+/);
  if (!parts.every((p) => /^[0-9]{1,3}$/.test(p) && Number(p) > 0)) {
    throw new Error("hand sizes are whole numbers of cards, one per deal, such as 3 2 1");
  }
  return parts.map(Number);
}

function startGame() {
  const ba = lib.ba;
  let game;
  const seats = Array.from($("#seat-choices").querySelectorAll("select"), (s) => s.value);
  try {
    const sizes = handSizes();
    let rules = ba.rules($("#variant").value, { format: "name" });
    if (sizes) {
      // the same change the served lobby makes: the rules document's schedule
      const doc = rules.document();
      doc.schedule = { type: "schedule", hand_sizes: sizes };
      rules = ba.rules(doc);
    }
    game = ba.newGame(rules);
  } catch (err) {
    T.notice(err.message, "error");
    return;
  }
  T.notice("");
  begin(game, seats);
}

function showSaved() {
  const saved = readSaved();
  const button = $("#resume");
  if (!saved) {
    button.hidden = true;
    return;
  }
  const people = saved.seats.filter((kind) => kind === PERSON).length;
  $("#saved-text").textContent = `${saved.title}: ${saved.status} (${people} person${people === 1 ? "" : "s"} ` +
    `at this screen, ${saved.moves} moves).`;
  button.hidden = false;
}

function resumeSaved() {
  const saved = readSaved();
  if (!saved) return;
  let game;
  try {
    game = lib.ba.resume(saved.state);
  } catch (err) {
    T.notice(`The saved game cannot be read: ${err.message}`, "error");
    return;
  }
  begin(game, saved.seats);
}

// -- saving -------------------------------------------------------------------------------------

function readSaved() {
  try {
    const saved = JSON.parse(localStorage.getItem(SAVED) || "null");
    return saved && typeof saved.state === "string" && Array.isArray(saved.seats) ? saved : null;
  } catch (_) {
    return null;
  }
}

function save() {
  const game = play.game;
  const facts = game.facts(game.isOver ? 0 : undefined);
  try {
    localStorage.setItem(SAVED, JSON.stringify({
      state: game.json(), seats: play.seats, title: facts.title, status: facts.status, moves: game.moveCount,
    }));
  } catch (_) { /* a browser that keeps nothing: the game goes on unsaved */ }
}

// -- the game ---------------------------------------------------------------------------------

function people() {
  return play.seats.map((kind, seat) => (kind === PERSON ? seat : null)).filter((seat) => seat !== null);
}

function begin(game, seats) {
  stop();
  for (const bot of play.bots) if (bot) bot.dispose();
  play.game = game;
  play.seats = seats;
  const seed = Array.from(crypto.getRandomValues(new Uint32Array(2)), (n) => n.toString(16)).join("");
  play.bots = seats.map((kind, seat) => (kind === PERSON ? null : lib.ba.bot(kind, `${seed}:${seat}`)));
  const persons = people();
  play.shown = persons.includes(game.toAct) ? game.toAct : (persons[0] ?? null);
  play.covered = false;
  play.pause = null;
  save();
  if (location.hash !== "#game") location.hash = "#game";
  else route();
}

function stop() {
  if (play.timer) clearTimeout(play.timer);
  play.timer = null;
}

function step() {
  stop();
  const game = play.game;
  const seat = game.toAct;
  if (play.pause) {
    draw(); // the bots wait for a person to continue
    return;
  }
  if (seat !== null && play.seats[seat] === PERSON && seat !== play.shown) {
    // pass-and-play: another person's turn covers the screen until they show their hand
    play.covered = true;
  }
  draw();
  if (game.isOver || seat === null || play.seats[seat] === PERSON) return;
  play.timer = setTimeout(botMove, BOT_DELAY);
}

function botMove() {
  play.timer = null;
  const game = play.game;
  const seat = game.toAct;
  if (seat === null || !play.bots[seat]) return;
  try {
    moved(game, play.bots[seat].choose(game, seat), seat);
  } catch (err) {
    T.notice(`The ${play.seats[seat]} bot at seat ${seat + 1} stopped: ${err.message}`, "error");
    return;
  }
  step();
}

function move(text) {
  const game = play.game;
  const seat = game.toAct;
  if (seat === null || play.seats[seat] !== PERSON || play.covered || play.pause) return;
  try {
    moved(game, text, seat);
  } catch (err) {
    if (!(err instanceof BackAlleyError)) throw err;
    T.notice(err.message, "refused", err.reason);
    return;
  }
  T.notice("");
  step();
}

/** Apply a move (the library refuses an illegal one: it throws) and hold
 * the end of a deal it scores while a person sits at the table. */
function moved(game, text, seat) {
  const next = game.apply(text, seat);
  play.pause = people().length ? lib.ba.dealEnd(game, text, next) : null;
  play.game = next;
  save();
}

function proceed() {
  play.pause = null;
  T.notice("");
  step();
}

function clickCard(item) {
  if (!item.playable) {
    T.notice(item.message ? `${T.cardText(item.card)}: ${item.message}` : `${T.cardText(item.card)} cannot be played now`,
      "refused", item.reason);
    return;
  }
  move(`play ${item.card}`);
}

function reveal() {
  const seat = play.game.toAct;
  if (seat !== null && play.seats[seat] === PERSON) play.shown = seat;
  play.covered = false;
  T.notice("");
  draw();
}

// -- drawing (table.js draws the board and the score sheet) ------------------------------------

const PRIVATE_KEYS = ["seat", "hand", "discards", "legal_moves", "cards", "call_answers"];

function message() {
  // the documents the server sends: a seat's view with its facts, or (for a
  // covered screen, or a table of bots only) the public part of a view
  const game = play.game;
  const labels = play.seats.map((kind) => (kind === PERSON ? "person" : kind));
  const base = { table: "offline", version: game.moveCount, seats: labels };
  const seat = play.shown;
  if (seat === null || play.covered) {
    const doc = game.view(0);
    for (const key of [...PRIVATE_KEYS, "format", "version"]) delete doc[key];
    return { type: "public", ...base, public: doc, facts: game.facts(0) };
  }
  return { type: "view", ...base, seat, view: game.view(seat), facts: game.facts(seat) };
}

function draw() {
  const msg = message();
  const end = play.pause;
  // the served table's drawing of a deal's end: its last trick and result
  const held = end ? { dealEnd: { ...end, waiting: [], holding: false, seconds_left: null } } : undefined;
  const { root, table } = T.drawBoard(msg, end ? () => {} : clickCard, held);
  $("#board").replaceChildren(root);
  const doc = table.doc;
  const section = $("#game");
  section.setAttribute("data-version", msg.version);
  section.setAttribute("data-phase", doc.phase);
  section.setAttribute("data-seat", msg.type === "view" ? msg.seat : "");
  section.setAttribute("data-paused", end ? end.deal : "");
  const phase = $("#phase");
  phase.textContent = doc.phase.replace("-", " ");
  phase.setAttribute("data-phase", doc.phase);
  $("#status").textContent = end ? `Deal ${end.deal} of ${doc.deals} is over` : table.facts.status || "";
  drawCalls(table, msg);
  T.drawScores(table);
  const over = doc.phase === "game-over" && !end;
  $("#game-over").hidden = !over;
  if (over) drawRecord(table, doc);
}

function drawCalls(table, msg) {
  const box = $("#calls");
  box.replaceChildren();
  const doc = table.doc;
  const title = $("#actions-title");
  const hint = $("#hint");
  hint.textContent = "";
  $("#cover-box").hidden = true;
  $("#continue-box").hidden = true;
  if (play.pause) {
    title.textContent = `Deal ${play.pause.deal} is over`;
    hint.textContent = "Its last trick and each side's result are shown; the bots wait.";
    $("#continue").textContent = doc.phase === "game-over" ? "See the final scores" : "Continue";
    $("#continue-box").hidden = false;
    return;
  }
  if (doc.phase === "game-over") {
    title.textContent = "The game is over";
    return;
  }
  const actor = doc.to_act;
  if (play.covered) {
    title.textContent = "Pass the screen";
    hint.textContent = `${table.names[actor]} is to play: pass the screen, then show the hand.`;
    $("#reveal").textContent = `I am ${table.names[actor]}: show my hand`;
    $("#cover-box").hidden = false;
    return;
  }
  const mine = msg.type === "view" && actor === msg.seat;
  const calls = mine ? doc.legal_moves.filter((m) => !m.startsWith("play ")) : [];
  if (doc.phase === "playing" && !calls.length) {
    title.textContent = mine ? "Your play" : "Playing";
    hint.textContent = mine ? "Click a card that is not greyed out." : `${table.names[actor]} to play.`;
    return;
  }
  if (!calls.length) {
    title.textContent = doc.phase === "naming-trump" ? "Naming the trump" : "Bidding";
    hint.textContent = `${table.names[actor]} to call.`;
    return;
  }
  title.textContent = doc.phase === "naming-trump" ? "Name the trump" : "Your call";
  for (const call of calls) {
    const button = T.html("button", { type: "button", class: "call", "data-move": call }, T.callLabel(call));
    button.addEventListener("click", () => move(call));
    box.append(button);
  }
}

function drawRecord(table, doc) {
  const parts = table.sides.map((side, i) => `${side.name} ${T.minus(doc.scores[i])}`);
  $("#final").textContent = `${table.facts.status || "Game over"}. Final scores: ${parts.join(", ")}.`;
  const players = play.seats.map((kind) => (kind === PERSON ? "person" : `${kind} bot`));
  const text = play.game.recordJSON({ players, metadata: { table: "offline" } });
  if (play.record) URL.revokeObjectURL(play.record);
  play.record = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  const link = $("#record-link");
  link.setAttribute("href", play.record);
  link.setAttribute("download", `backalley-offline-${new Date().toISOString().slice(0, 10)}.json`);
}

// -- pages ----------------------------------------------------------------------------------------

function placeNotice(inGame) {
  const node = $("#notice");
  if (inGame) $("#actions").append(node);
  else $("main").prepend(node);
}

function route() {
  if (!lib.ba) return;
  const inGame = location.hash === "#game" && play.game !== null;
  placeNotice(inGame);
  $("#loading").hidden = true;
  $("#lobby").hidden = inGame;
  $("#game").hidden = !inGame;
  if (inGame) {
    step();
  } else {
    stop();
    showSaved();
  }
}

async function main() {
  $("#notice").addEventListener("click", () => T.notice(""));
  $("#variant").addEventListener("change", drawSeatChoices);
  $("#create").addEventListener("click", startGame);
  $("#resume").addEventListener("click", resumeSaved);
  $("#reveal").addEventListener("click", reveal);
  $("#continue").addEventListener("click", proceed);
  window.addEventListener("hashchange", route);
  const connection = $("#connection");
  try {
    lib.ba = await load();
  } catch (err) {
    connection.setAttribute("data-state", "closed");
    connection.textContent = "the rules did not load";
    T.notice(`The rules could not be loaded into this page: ${err.message}`, "error");
    return;
  }
  const seconds = (lib.ba.timings.total / 1000).toFixed(1);
  connection.setAttribute("data-state", "open");
  connection.textContent = `no server: backalley ${lib.ba.version} in this page (${seconds} s)`;
  fillLobby();
  document.documentElement.setAttribute("data-load-ms", String(Math.round(lib.ba.timings.total)));
  document.documentElement.setAttribute("data-ready", "true");
  route();
}

main();
