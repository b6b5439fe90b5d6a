/* backalley.js - the rules of Back Alley for user interfaces written in
 * JavaScript, in a browser or in Node.
 *
 * This module holds no rule.  It loads Pyodide (the CPython interpreter
 * compiled to WebAssembly) from the folder beside it, unpacks the wheels of
 * the pure-Python library `backalley` and its dependencies, and asks the
 * library everything: each method below is one call of
 * backalley/web/bridge.py.  Its answers are the documents the table server
 * speaks (the state, view, rules and record documents), so a user interface
 * can move between offline and online play.
 *
 *   import { load } from "./backalley.js";
 *   const ba = await load();                      // about 2 s the first time
 *   let game = ba.newGame("gamerules");
 *   game.legalMoves();                            // ["pass", "bid 1", ...]
 *   game.check("bid 99");                         // {legal: false, reason: "BID_TOO_HIGH", message: ...}
 *   game = game.apply("bid 3");                   // a new Game; refused: a BackAlleyError
 *   game.view(1).cards;                           // seat 1's cards, each playable or why not
 *
 * Nothing is fetched from anywhere but the folder this module was loaded
 * from (or `options.base`): manifest.json, pyodide/ and wheels/, as written
 * by `backalley build-web DIR`.  The types: backalley.d.ts.
 */

const HERE = new URL(".", import.meta.url);

/** An error of the library: `kind` (its Python class, such as
 * "IllegalMoveError"), `reason` (for a refused move: a Reason name such as
 * "MUST_FOLLOW_SUIT"), `message` (the sentence to show), and, where they
 * apply, `move`, `seat`, `problems` (a rule set's problems) and `path`
 * (where a document reader stopped). */
export class BackAlleyError extends Error {
  constructor(data) {
    super(data.message);
    this.name = "BackAlleyError";
    this.kind = data.kind;
    this.reason = data.reason ?? null;
    this.move = data.move ?? null;
    this.seat = data.seat ?? null;
    this.problems = data.problems ?? [];
    this.path = data.path ?? null;
    if (data.details) this.details = data.details;
  }
}

async function readBytes(url) {
  if (url.protocol === "file:") {
    const fs = await import("node:fs/promises");
    return new Uint8Array(await fs.readFile(url));
  }
  const response = await fetch(url, { credentials: "same-origin" });
  if (!response.ok) throw new Error(`${url.href}: ${response.status} ${response.statusText}`);
  return new Uint8Array(await response.arrayBuffer());
}

function now() {
  return typeof performance !== "undefined" ? performance.now() : Date.now();
}

/** Load the library: the runtime, the wheels, the bridge.  `options.base`
 * is the folder written by `backalley build-web` (default: this module's
 * folder); `options.stdout`/`options.stderr` receive what Python prints
 * (default: nothing). */
export async function load(options = {}) {
  const started = now();
  let base = options.base ? new URL(options.base, HERE) : HERE;
  if (!base.href.endsWith("/")) base = new URL(`${base.href}/`);
  const manifest = JSON.parse(new TextDecoder().decode(await readBytes(new URL("manifest.json", base))));
  if (manifest.format !== "backalley/web") {
    throw new Error(`${base.href}manifest.json is not a backalley/web manifest`);
  }
  const runtime = new URL("pyodide/", base);
  // the wheels come while the runtime starts
  const wheels = Promise.all(manifest.wheels.map((wheel) => readBytes(new URL(`wheels/${wheel.file}`, base))));
  const { loadPyodide } = await import(new URL("pyodide.mjs", runtime).href);
  let indexURL = runtime.href;
  if (runtime.protocol === "file:") {
    const { fileURLToPath } = await import("node:url");
    indexURL = fileURLToPath(runtime);
  }
  const quiet = () => {};
  const pyodide = await loadPyodide({
    indexURL,
    packages: [],
    stdout: options.stdout || quiet,
    stderr: options.stderr || quiet,
  });
  const runtimeReady = now();
  const site = pyodide.runPython("import sysconfig; sysconfig.get_paths()['purelib']");
  for (const bytes of await wheels) pyodide.unpackArchive(bytes, "wheel", { extractDir: site });
  pyodide.runPython("import importlib; importlib.invalidate_caches()");
  const unpacked = now();
  const bridge = pyodide.pyimport("backalley.web.bridge");
  const done = now();
  const timings = {
    runtime: runtimeReady - started,
    wheels: unpacked - runtimeReady,
    import: done - unpacked,
    total: done - started,
  };
  return new Backalley(pyodide, bridge, manifest, timings);
}

// -- calling the bridge ------------------------------------------------------------

function seatArg(seat) {
  return seat === null || seat === undefined ? undefined : seat;
}

/** A Python exception that is not one of the library's (a fault, not a
 * refusal): its last line, with the whole traceback as `details`. */
function internal(err) {
  const text = String(err && err.message ? err.message : err);
  const lines = text.trim().split("\n").filter((line) => line && !line.startsWith("For more information"));
  const message = lines.length ? lines[lines.length - 1] : "an error in the library";
  return new BackAlleyError({ kind: "InternalError", message, details: text });
}

/** Call a bridge function; its Answer's value, or its error thrown. */
function call(fn, ...args) {
  let answer;
  try {
    answer = fn(...args);
  } catch (err) {
    if (err && err.constructor && err.constructor.name === "PythonError") throw internal(err);
    throw err;
  }
  try {
    const error = answer.error;
    if (error !== null && error !== undefined) throw new BackAlleyError(JSON.parse(error));
    const value = answer.value;
    // a Python value borrowed from the answer outlives it only as a copy
    return value !== null && typeof value === "object" && typeof value.copy === "function" ? value.copy() : value;
  } finally {
    answer.destroy();
  }
}

/** Call a bridge function that answers plain text (never refuses). */
function ask(fn, ...args) {
  try {
    return fn(...args);
  } catch (err) {
    if (err && err.constructor && err.constructor.name === "PythonError") throw internal(err);
    throw err;
  }
}

function text(doc, what) {
  if (typeof doc === "string") return doc;
  if (doc !== null && typeof doc === "object") return JSON.stringify(doc);
  throw new TypeError(`${what} is a document: an object, or its JSON text`);
}

function seedText(seed) {
  if (seed === null || seed === undefined) return null;
  if (typeof seed === "bigint") return seed.toString();
  if (typeof seed === "number") {
    if (!Number.isSafeInteger(seed)) {
      throw new TypeError("a seed given as a number is a whole number below 2**53; give larger ones as a BigInt or text");
    }
    return String(seed);
  }
  return String(seed);
}

// -- the library -------------------------------------------------------------------

/** The library, loaded: rule sets, games and bots. */
export class Backalley {
  constructor(pyodide, bridge, manifest, timings) {
    this.pyodide = pyodide;
    this.bridge = bridge;
    this.manifest = manifest;
    this.timings = timings;
    this.version = ask(bridge.library_version);
    this.pyodideVersion = pyodide.version;
  }

  /** The registered variants' names. */
  variants() {
    return JSON.parse(ask(this.bridge.variant_names));
  }

  /** The registered bots' names. */
  bots() {
    return JSON.parse(ask(this.bridge.bot_names));
  }

  /** A rule set: a variant's name, a rules (or house-rules) document as an
   * object or JSON text, or house rules as TOML text.  `options.format`
   * ("name", "json", "toml") says which when the text could be either. */
  rules(spec, options = {}) {
    if (spec instanceof Rules) return spec;
    const format = options.format || (typeof spec === "object" && spec !== null ? "json" : "auto");
    const proxy = call(this.bridge.rules, text(spec, "rules"), format);
    return new Rules(this, proxy);
  }

  /** A new game: `rules` a Rules or what `rules()` takes; `options.seed`
   * (a whole number, BigInt or its text; none: 63 random bits),
   * `options.dealer`, `options.decks` (deck orders, lists of card texts). */
  newGame(rules = "gamerules", options = {}) {
    const ruleSet = this.rules(rules);
    const given = {};
    if (options.seed !== undefined && options.seed !== null) given.seed = seedText(options.seed);
    if (options.dealer !== undefined && options.dealer !== null) given.dealer = options.dealer;
    if (options.decks !== undefined && options.decks !== null) given.decks = options.decks;
    return new Game(this, call(this.bridge.new_game, ruleSet.proxy, JSON.stringify(given)));
  }

  /** A game from a state document, a seat's view document (it answers
   * that seat's questions but does not move on) or a record (replayed to
   * its last move): an object or JSON text. */
  resume(doc) {
    return new Game(this, call(this.bridge.resume, text(doc, "a game")));
  }

  /** The end of the deal that `move`, made in the state `before`, scored
   * (`after` = before.apply(move)): {deal, last_trick: {leader, cards,
   * winner}, made} as the table server shows it, or null when the move
   * scored no deal. */
  dealEnd(before, move, after) {
    return JSON.parse(call(this.bridge.deal_end, before.proxy, String(move), after.proxy));
  }

  /** A registered bot, reproducible from `seed` (text or a number). */
  bot(name = "heuristic", seed = null) {
    const proxy = call(this.bridge.make_bot_named, name, seed === null ? undefined : String(seed));
    return new Bot(this, name, proxy);
  }
}

/** A rule set. */
export class Rules {
  constructor(lib, proxy) {
    this.lib = lib;
    this.proxy = proxy;
    const facts = JSON.parse(ask(lib.bridge.rules_summary, proxy));
    this.name = facts.name;
    this.players = facts.players;
    this._document = facts.document;
  }

  /** The backalley/rules document (a fresh copy). */
  document() {
    return structuredClone(this._document);
  }

  dispose() {
    this.proxy.destroy();
  }
}

/** A game: a full state (every hand; it moves on) or one seat's view (its
 * own hand and the public facts; it answers that seat's questions). */
export class Game {
  constructor(lib, proxy) {
    this.lib = lib;
    this.proxy = proxy;
    const facts = JSON.parse(ask(lib.bridge.summary, proxy));
    this.kind = facts.kind;
    this.seat = facts.seat;
    this.phase = facts.phase;
    this.toAct = facts.to_act;
    this.isOver = facts.is_over;
    this.dealer = facts.dealer;
    this.handSize = facts.hand_size;
    this.scores = facts.scores;
    this.winner = facts.winner;
    this.dealsPlayed = facts.deals_played;
    this.players = facts.players;
    this.moveCount = facts.moves;
  }

  /** The game's own document as JSON text (a state's holds the seed and
   * every move: never show it to a player before the game is over). */
  json() {
    return ask(this.lib.bridge.document, this.proxy);
  }

  /** The game's own document (backalley/state or backalley/view). */
  document() {
    return JSON.parse(this.json());
  }

  /** A seat's view document (default: the seat to act; a view: its own). */
  view(seat) {
    return JSON.parse(call(this.lib.bridge.view, this.proxy, seatArg(seat)));
  }

  /** The names and status line the server sends beside a seat's view. */
  facts(seat) {
    return JSON.parse(call(this.lib.bridge.facts, this.proxy, seatArg(seat)));
  }

  /** The legal moves of the seat to act (a view's: none when it is not its turn). */
  legalMoves() {
    return JSON.parse(ask(this.lib.bridge.legal_moves, this.proxy));
  }

  /** The answer to a move: {move, legal, reason, message}.  Text that is
   * not a move throws (kind "NotationError"); a refusal does not. */
  check(move, seat) {
    return JSON.parse(call(this.lib.bridge.check, this.proxy, String(move), seatArg(seat)));
  }

  /** For each card of a seat's hand: {card, playable, reason, message}. */
  cards(seat) {
    return this.view(seat).cards;
  }

  /** For each call the bidding knows now: {call, legal, reason, message}. */
  calls(seat) {
    return this.view(seat).call_answers;
  }

  /** The game after `move` (checked for `seat` when given).  Throws a
   * BackAlleyError with the library's reason when the rules refuse it. */
  apply(move, seat) {
    return new Game(this.lib, call(this.lib.bridge.apply, this.proxy, String(move), seatArg(seat)));
  }

  /** The record of the game so far as JSON text (`backalley check` replays
   * it); `options.players` names the seats, `options.metadata` adds text. */
  recordJSON(options = {}) {
    return call(this.lib.bridge.record, this.proxy, JSON.stringify(options));
  }

  /** The record of the game so far (backalley/record). */
  record(options = {}) {
    return JSON.parse(this.recordJSON(options));
  }

  dispose() {
    this.proxy.destroy();
  }
}

/** A bot of the library: it sees one seat's view and answers a legal move. */
export class Bot {
  constructor(lib, name, proxy) {
    this.lib = lib;
    this.name = name;
    this.proxy = proxy;
  }

  /** The move this bot makes for `seat` (default: the seat to act). */
  choose(game, seat) {
    return call(this.lib.bridge.bot_move, this.proxy, game.proxy, seatArg(seat));
  }

  dispose() {
    this.proxy.destroy();
  }
}
