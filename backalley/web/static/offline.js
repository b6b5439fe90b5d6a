/* The table that needs no server: the library runs in a Web Worker of this
 * page (Pyodide, through loadInWorker of backalley.js, so the page stays
 * live while it loads and while a bot thinks) and the table is drawn by the
 * served table's own code (table.js, window.backalleyTable).
 *
 * Each seat is played by a person at this screen or by one of the library's
 * bots, which move in the worker.  With several persons the screen is
 * covered whenever the turn passes to another of them (pass-and-play).  The
 * page decides nothing: the legal moves, the greyed cards and their
 * sentences, the names and the status line all come from the library's view
 * document and facts, exactly as the server sends them, and a move is
 * applied by the library, which refuses an illegal one with its reason.  At
 * the end of each deal the table holds its last trick and result until a
 * person continues (the bots wait), as the served table does.  Every move is
 * saved in this browser (the state document), and the record of the game
 * can be downloaded for `backalley check`.
 *
 * While the library loads, its steps (the runtime, the wheels, the import)
 * show with their progress.  The board is drawn again at its new width when
 * the window's changes.  `?delay=MS` sets the pause before each bot's move
 * (400 ms by default).
 */

import { BackAlleyError, loadInWorker } from "./backalley.js";

const T = window.backalleyTable;
const $ = (selector) => document.querySelector(selector);
const PERSON = "human";
const SAVED = "backalley:offline:game";
const params = new URLSearchParams(location.search);
const BOT_DELAY = Math.min(10000, Math.max(0, Number(params.get("delay") ?? 400) || 0));

const lib = { ba: null, players: {}, bots: [] };
const play = {
  game: null, // the Game (a full state, held by the worker: it lives only in this page)
  seats: [], // per seat: PERSON or a bot's name
  bots: [], // per seat: a Bot, or null for a person
  shown: null, // the person's seat whose hand is shown
  covered: false, // the screen is covered until the next person shows their hand
  pause: null, // the end of the deal just scored, held until a person continues
  timer: null,
  record: null, // the object URL of the record offered for download
  message: null, // the documents drawn last (drawn again from them at a new width)
  recordText: null, // the record of a finished game
  busy: false, // a person's move is being applied
  thinking: null, // the seat whose bot is choosing its move
  generation: 0, // moves on when a game begins or the page leaves it: late answers are dropped
};

function failed(err) {
  // no traceback reaches the page: the library's sentence, or the error's
  T.notice(err && err.message ? err.message : String(err), "error", err && err.reason);
}

// -- loading --------------------------------------------------------------------------------

const STEPS = ["runtime", "wheels", "import"];

function megabytes(bytes) {
  return `${(bytes / 1e6).toFixed(1)} MB`;
}

/** Show one of load()'s progress events on its step's line. */
function showProgress(event) {
  const row = document.querySelector(`#load-steps [data-step="${event.step}"]`);
  if (!row) return;
  const bar = row.querySelector("progress");
  const state = row.querySelector(".step-state");
  if (event.state === "done") {
    row.setAttribute("data-state", "done");
    bar.max = 1;
    bar.value = 1;
    state.textContent = event.ms === null ? "done" : `done at ${(event.ms / 1000).toFixed(1)} s`;
    return;
  }
  row.setAttribute("data-state", "active");
  row.setAttribute("data-since", String(performance.now()));
  if (event.total && event.loaded !== null && event.step === "runtime" && event.loaded >= event.total) {
    // every byte here: the runtime compiles and starts, for as long as it takes
    bar.removeAttribute("value");
    state.textContent = `${megabytes(event.total)} received, starting`;
  } else if (event.total && event.loaded !== null) {
    bar.max = event.total;
    bar.value = Math.min(event.loaded, event.total);
    state.textContent = event.loaded >= event.total
      ? `${megabytes(event.total)} received`
      : `${megabytes(event.loaded)} of ${megabytes(event.total)}`;
  } else if (event.state === "start") {
    bar.removeAttribute("value"); // under way, for as long as it takes
    state.textContent = "under way";
  }
}

/** The clock of the loading: it ticks while the library loads in its
 * worker (the page's thread is free). */
function startClock() {
  const clock = $("#load-clock");
  const started = performance.now();
  const tick = () => {
    if (lib.ba || $("#loading").hidden) return;
    clock.textContent = `${((performance.now() - started) / 1000).toFixed(1)} s`;
    setTimeout(tick, 100);
  };
  tick();
}

// -- the lobby -----------------------------------------------------------------------------

async function fillLobby() {
  const ba = lib.ba;
  const [names, bots] = await Promise.all([ba.variants(), ba.bots()]);
  lib.bots = bots;
  // asked all at once: the worker answers them in a row
  const rules = await Promise.all(names.map((name) => ba.rules(name, { format: "name" })));
  const select = $("#variant");
  select.replaceChildren();
  names.forEach((name, i) => {
    lib.players[name] = rules[i].players;
    rules[i].dispose();
    select.append(T.html("option", { value: name }, name));
  });
  drawSeatChoices();
  showSaved();
}

function drawSeatChoices() {
  const box = $("#seat-choices");
  const before = Array.from(box.querySelectorAll("select"), (s) => s.value);
  const bots = lib.bots;
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
  if (!parts.every((p) => /^[0-9]{1,3}$/.test(p))) {
    throw new Error("hand sizes are whole numbers of cards, one per deal, such as 3 2 1");
  }
  if (parts.some((p) => Number(p) === 0)) {
    throw new Error("a deal has at least 1 card: 0 is not a hand size");
  }
  return parts.map(Number);
}

async function startGame() {
  const ba = lib.ba;
  const button = $("#create");
  if (button.disabled) return;
  const seats = Array.from($("#seat-choices").querySelectorAll("select"), (s) => s.value);
  button.disabled = true;
  let game;
  try {
    const sizes = handSizes();
    let rules = await ba.rules($("#variant").value, { format: "name" });
    if (sizes) {
      // the same change the served lobby makes: the rules document's schedule
      const doc = await rules.document();
      doc.schedule = { type: "schedule", hand_sizes: sizes };
      rules.dispose();
      rules = await ba.rules(doc);
    }
    game = await ba.newGame(rules);
    rules.dispose();
  } catch (err) {
    failed(err);
    return;
  } finally {
    button.disabled = false;
  }
  T.notice("");
  await begin(game, seats);
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

async function resumeSaved() {
  const saved = readSaved();
  if (!saved) return;
  let game;
  try {
    game = await lib.ba.resume(saved.state);
  } catch (err) {
    T.notice(`The saved game cannot be read: ${err.message}`, "error");
    return;
  }
  await begin(game, saved.seats);
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

async function save(game) {
  const [facts, state] = await Promise.all([game.facts(game.isOver ? 0 : undefined), game.json()]);
  try {
    localStorage.setItem(SAVED, JSON.stringify({
      state, seats: play.seats, title: facts.title, status: facts.status, moves: game.moveCount,
    }));
  } catch (_) { /* a browser that keeps nothing: the game goes on unsaved */ }
}

// -- the game ---------------------------------------------------------------------------------

function people() {
  return play.seats.map((kind, seat) => (kind === PERSON ? seat : null)).filter((seat) => seat !== null);
}

async function begin(game, seats) {
  stop();
  const generation = play.generation;
  for (const bot of play.bots) if (bot) bot.dispose();
  if (play.game) play.game.dispose();
  play.game = game;
  play.seats = seats;
  play.bots = seats.map(() => null);
  play.message = null;
  play.recordText = null;
  const seed = Array.from(crypto.getRandomValues(new Uint32Array(2)), (n) => n.toString(16)).join("");
  try {
    const bots = await Promise.all(seats.map((kind, seat) => (kind === PERSON ? null : lib.ba.bot(kind, `${seed}:${seat}`))));
    if (generation !== play.generation) return;
    play.bots = bots;
    await save(game);
  } catch (err) {
    failed(err);
    return;
  }
  const persons = people();
  play.shown = persons.includes(game.toAct) ? game.toAct : (persons[0] ?? null);
  play.covered = false;
  play.pause = null;
  if (location.hash !== "#game") location.hash = "#game";
  else route();
}

/** Stop the game's moves: a bot's move or a person's under way is dropped
 * when it comes. */
function stop() {
  if (play.timer) clearTimeout(play.timer);
  play.timer = null;
  play.generation += 1;
  play.busy = false;
  if (play.thinking !== null) setThinking(null);
}

/** Draw the game as it stands and, when a bot is to move, let it. */
async function step() {
  if (play.timer) clearTimeout(play.timer);
  play.timer = null;
  const generation = play.generation;
  const game = play.game;
  const seat = game.toAct;
  if (!play.pause && seat !== null && play.seats[seat] === PERSON && seat !== play.shown) {
    // pass-and-play: another person's turn covers the screen until they show their hand
    play.covered = true;
  }
  if (!(await refresh(generation))) return;
  if (play.pause || game.isOver || seat === null || play.seats[seat] === PERSON) return;
  if (play.thinking !== null) return; // its move comes
  play.timer = setTimeout(() => botMove(generation), BOT_DELAY);
}

function setThinking(seat) {
  play.thinking = seat;
  const section = $("#game");
  section.setAttribute("data-thinking", seat === null ? "" : String(seat));
  if (seat !== null && play.message) {
    const names = (play.message.facts && play.message.facts.seat_names) || [];
    const hint = $("#hint");
    if (hint && !play.pause) hint.textContent = `${names[seat] || `Seat ${seat + 1}`} (${play.seats[seat]} bot) is thinking\u2026`;
  }
}

async function botMove(generation) {
  play.timer = null;
  if (generation !== play.generation) return;
  const game = play.game;
  const seat = game.toAct;
  if (seat === null || !play.bots[seat]) return;
  setThinking(seat);
  try {
    const text = await play.bots[seat].choose(game, seat);
    if (generation !== play.generation) return;
    if (!(await moved(game, text, seat, generation))) return;
  } catch (err) {
    if (generation !== play.generation) return;
    setThinking(null);
    T.notice(`The ${play.seats[seat]} bot at seat ${seat + 1} stopped: ${err.message}`, "error");
    return;
  }
  setThinking(null);
  await step();
}

async function move(text) {
  const game = play.game;
  const seat = game.toAct;
  if (seat === null || play.seats[seat] !== PERSON || play.covered || play.pause || play.busy) return;
  const generation = play.generation;
  play.busy = true;
  try {
    if (!(await moved(game, text, seat, generation))) return;
  } catch (err) {
    if (generation !== play.generation) return;
    if (err instanceof BackAlleyError) T.notice(err.message, "refused", err.reason);
    else failed(err);
    return;
  } finally {
    play.busy = false;
  }
  T.notice("");
  await step();
}

/** Apply a move (the library refuses an illegal one: the promise rejects)
 * and hold the end of a deal it scores while a person sits at the table.
 * Answers false when the page has left the game meanwhile. */
async function moved(game, text, seat, generation) {
  const next = await game.apply(text, seat);
  const end = people().length ? await lib.ba.dealEnd(game, text, next) : null;
  if (generation !== play.generation) {
    next.dispose();
    return false;
  }
  play.pause = end;
  play.game = next;
  game.dispose();
  await save(next);
  return generation === play.generation;
}

function proceed() {
  play.pause = null;
  T.notice("");
  step().catch(failed);
}

function clickCard(item) {
  if (!item.playable) {
    T.notice(T.refusedCard(item), "refused", item.reason);
    return;
  }
  move(`play ${item.card}`).catch(failed);
}

function reveal() {
  const seat = play.game.toAct;
  if (seat !== null && play.seats[seat] === PERSON) play.shown = seat;
  play.covered = false;
  T.notice("");
  refresh(play.generation).catch(failed);
}

// -- drawing (table.js draws the board and the score sheet) ------------------------------------

const PRIVATE_KEYS = ["seat", "hand", "discards", "legal_moves", "cards", "call_answers"];

/** The documents the server sends: a seat's view with its facts, or (for a
 * covered screen, or a table of bots only) the public part of a view. */
async function message(game) {
  const labels = play.seats.map((kind) => (kind === PERSON ? "person" : kind));
  const base = { table: "offline", version: game.moveCount, seats: labels };
  const seat = play.shown;
  if (seat === null || play.covered) {
    const [doc, facts] = await Promise.all([game.view(0), game.facts(0)]);
    for (const key of [...PRIVATE_KEYS, "format", "version"]) delete doc[key];
    return { type: "public", ...base, public: doc, facts };
  }
  const [view, facts] = await Promise.all([game.view(seat), game.facts(seat)]);
  return { type: "view", ...base, seat, view, facts };
}

/** Ask the library for the documents of the game as it stands, then draw
 * them.  Answers false when the page has moved on meanwhile. */
async function refresh(generation) {
  const game = play.game;
  const msg = await message(game);
  let record = null;
  if (game.isOver) {
    const players = play.seats.map((kind) => (kind === PERSON ? "person" : `${kind} bot`));
    record = await game.recordJSON({ players, metadata: { table: "offline" } });
  }
  if (generation !== play.generation || game !== play.game) return false;
  play.message = msg;
  play.recordText = record;
  draw();
  return true;
}

function draw() {
  const msg = play.message;
  if (!msg) return;
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
  // the one line of status: the deal's end while it is shown, else the library's
  $("#status").textContent = end ? `Deal ${end.deal} of ${doc.deals} is over` : table.facts.status || "";
  const over = doc.phase === "game-over" && !end;
  // at the game's end the status line says so; the panel beside it gives the final scores
  $("#actions").hidden = over;
  drawCalls(table, msg);
  T.drawScores(table);
  $("#game-over").hidden = !over;
  if (over) drawRecord(table, doc);
  if (play.thinking !== null) setThinking(play.thinking);
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
  if (doc.phase === "game-over") return;
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
    button.addEventListener("click", () => move(call).catch(failed));
    box.append(button);
  }
}

function drawRecord(table, doc) {
  const parts = table.sides.map((side, i) => `${side.name} ${T.minus(doc.scores[i])}`);
  $("#final").textContent = `${parts.join(", ")}.`;
  if (play.record) URL.revokeObjectURL(play.record);
  play.record = URL.createObjectURL(new Blob([play.recordText || ""], { type: "application/json" }));
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
    step().catch(failed);
  } else {
    stop();
    showSaved();
  }
}

function watchWidth() {
  // the picture is drawn at its box's width: drawn again when that changes
  let resized = null;
  let width = window.innerWidth;
  window.addEventListener("resize", () => {
    clearTimeout(resized);
    resized = setTimeout(() => {
      if (window.innerWidth === width) return;
      width = window.innerWidth;
      if (!$("#game").hidden) draw();
    }, 120);
  });
}

async function main() {
  $("#notice").addEventListener("click", () => T.notice(""));
  $("#variant").addEventListener("change", drawSeatChoices);
  $("#create").addEventListener("click", () => startGame().catch(failed));
  $("#resume").addEventListener("click", () => resumeSaved().catch(failed));
  $("#reveal").addEventListener("click", reveal);
  $("#continue").addEventListener("click", proceed);
  window.addEventListener("hashchange", route);
  watchWidth();
  const connection = $("#connection");
  startClock();
  try {
    lib.ba = await loadInWorker({ progress: showProgress });
    await fillLobby();
  } catch (err) {
    connection.setAttribute("data-state", "closed");
    connection.textContent = "the rules did not load";
    $("#loading").setAttribute("data-state", "failed");
    T.notice(`The rules could not be loaded into this page: ${err.message}`, "error");
    return;
  }
  const seconds = (lib.ba.timings.total / 1000).toFixed(1);
  connection.setAttribute("data-state", "open");
  connection.textContent = `no server \u00b7 ${seconds} s`;
  connection.title = `backalley ${lib.ba.version} runs in this page (Pyodide ${lib.ba.pyodideVersion}), ` +
    `loaded in ${seconds} s: no server is asked anything`;
  document.documentElement.setAttribute("data-load-ms", String(Math.round(lib.ba.timings.total)));
  document.documentElement.setAttribute("data-ready", "true");
  route();
}

main();
