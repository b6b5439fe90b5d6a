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
 *   const ba = await load();                      // about 3 s
 *   let game = ba.newGame("gamerules");
 *   game.legalMoves();                            // ["pass", "bid 1", ...]
 *   game.check("bid 99");                         // {legal: false, reason: "BID_TOO_HIGH", message: ...}
 *   game = game.apply("bid 3");                   // a new Game; refused: a BackAlleyError
 *   game.view(1).cards;                           // seat 1's cards, each playable or why not
 *
 * Nothing is fetched from anywhere but the folder this module was loaded
 * from (or `options.base`): manifest.json, pyodide/ and wheels/, as written
 * by `backalley build-web DIR`.  The types: backalley.d.ts.
 *
 * The calls above are synchronous: the library runs on the thread that
 * loaded it, so a page that calls it on its own thread waits while a bot
 * thinks.  `loadInWorker()` loads the same library in a Web Worker
 * (backalley-worker.js) and answers the same calls asynchronously:
 *
 *   const ba = await loadInWorker({ progress: (event) => show(event) });
 *   const game = await ba.newGame("gamerules");
 *   const move = await (await ba.bot("pimc")).choose(game);   // the page stays live
 */

const HERE = new URL(".", import.meta.url);

/** An error of the library: `kind` (its Python class, such as
 * "IllegalMoveError"), `reason` (for a refused move: a Reason name such as
 * "MUST_FOLLOW_SUIT", or the tag of a reason a user's rule registered),
 * `message` (the sentence to show), and, where they
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

/** The bytes at `url`; `onBytes(n)` hears each piece as it arrives. */
async function readBytes(url, onBytes) {
  if (url.protocol === "file:") {
    const fs = await import("node:fs/promises");
    const bytes = new Uint8Array(await fs.readFile(url));
    if (onBytes) onBytes(bytes.byteLength);
    return bytes;
  }
  const response = await fetch(url, { credentials: "same-origin" });
  if (!response.ok) throw new Error(`${url.href}: ${response.status} ${response.statusText}`);
  if (!onBytes || !response.body) {
    const bytes = new Uint8Array(await response.arrayBuffer());
    if (onBytes) onBytes(bytes.byteLength);
    return bytes;
  }
  const pieces = [];
  let size = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    pieces.push(value);
    size += value.byteLength;
    onBytes(value.byteLength);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const piece of pieces) {
    bytes.set(piece, at);
    at += piece.byteLength;
  }
  return bytes;
}

function now() {
  return typeof performance !== "undefined" ? performance.now() : Date.now();
}

/** The files of the runtime that Pyodide fetches (its modules it imports). */
const RUNTIME_FETCHED = ["pyodide/pyodide.asm.wasm", "pyodide/python_stdlib.zip", "pyodide/pyodide-lock.json"];

/** Load the library: the runtime, the wheels, the bridge.  `options.base`
 * is the folder written by `backalley build-web` (default: this module's
 * folder); `options.stdout`/`options.stderr` receive what Python prints
 * (default: nothing); `options.progress` hears each step as it starts,
 * moves on and ends: {step: "runtime" | "wheels" | "import", state:
 * "start" | "progress" | "done", loaded, total (bytes, or null), ms (since
 * the start)}.  The wheels' bytes are counted as they arrive; the runtime's
 * step says the bytes it will fetch (`total`), and its "progress" comes
 * from whoever counts them (backalley-worker.js does). */
export async function load(options = {}) {
  const started = now();
  const progress = typeof options.progress === "function" ? options.progress : null;
  const report = (step, state, loaded = null, total = null) => {
    if (progress) progress({ step, state, loaded, total, ms: now() - started });
  };
  let base = options.base ? new URL(options.base, HERE) : HERE;
  if (!base.href.endsWith("/")) base = new URL(`${base.href}/`);
  const manifest = JSON.parse(new TextDecoder().decode(await readBytes(new URL("manifest.json", base))));
  if (manifest.format !== "backalley/web") {
    throw new Error(`${base.href}manifest.json is not a backalley/web manifest`);
  }
  const runtime = new URL("pyodide/", base);
  const files = manifest.files || {};
  report("runtime", "start", 0, RUNTIME_FETCHED.reduce((sum, name) => sum + (files[name] || 0), 0) || null);
  // the wheels come while the runtime starts
  const wheelBytes = manifest.wheels.reduce((sum, wheel) => sum + (wheel.bytes || 0), 0) || null;
  let wheelsLoaded = 0;
  report("wheels", "start", 0, wheelBytes);
  const counted = progress
    ? (n) => {
      wheelsLoaded += n;
      report("wheels", "progress", wheelsLoaded, wheelBytes);
    }
    : undefined;
  const wheels = Promise.all(manifest.wheels.map((wheel) => readBytes(new URL(`wheels/${wheel.file}`, base), counted)));
  wheels.catch(() => {}); // a failure is thrown where the wheels are awaited
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
  report("runtime", "done");
  const site = pyodide.runPython("import sysconfig; sysconfig.get_paths()['purelib']");
  for (const bytes of await wheels) pyodide.unpackArchive(bytes, "wheel", { extractDir: site });
  pyodide.runPython("import importlib; importlib.invalidate_caches()");
  const unpacked = now();
  report("wheels", "done", wheelsLoaded, wheelBytes);
  report("import", "start");
  const bridge = pyodide.pyimport("backalley.web.bridge");
  const done = now();
  report("import", "done");
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

// -- the library in a Web Worker ---------------------------------------------------

/** Load the library in a Web Worker (backalley-worker.js, beside this
 * module) and answer an AsyncBackalley: the same calls as a Backalley,
 * each answering a Promise, so the page's thread never waits for the
 * library - not while it loads, not while a bot thinks.  `options.base` as
 * for `load()`; `options.progress` hears the loading's steps as `load()`
 * reports them, with the runtime's bytes counted as they arrive.  A refusal
 * rejects with a BackAlleyError as the synchronous call throws it.  Only
 * in a browser (a page, or a worker that may start workers). */
export async function loadInWorker(options = {}) {
  const worker = new Worker(new URL("backalley-worker.js", import.meta.url), {
    type: "module",
    name: "backalley",
  });
  const port = new WorkerPort(worker, typeof options.progress === "function" ? options.progress : null);
  // a relative base is read as load() reads it: against this module's folder
  let base = new URL(options.base ? String(options.base) : ".", HERE);
  if (!base.href.endsWith("/")) base = new URL(`${base.href}/`);
  // The runtime's WebAssembly is compiled here (off this thread all the same:
  // a streaming compilation) and handed to the worker, because the browser
  // keeps the compiled code for the next visit only for a page's compilation:
  // compiled in the worker, each reload took a second more.  Should it fail
  // (a policy without 'wasm-unsafe-eval' here), the worker fetches it itself.
  const pageCompiles = typeof WebAssembly !== "undefined" && typeof WebAssembly.compileStreaming === "function";
  if (pageCompiles) {
    compileRuntime(new URL("pyodide/pyodide.asm.wasm", base), (n) => port.countRuntime(n)).then(
      (module) => port.send({ op: "runtime-code", module }),
      () => port.send({ op: "runtime-code", module: null }),
    );
  }
  let facts;
  try {
    facts = await port.ask({ op: "load", base: base.href, pageCompiles });
  } catch (err) {
    worker.terminate();
    throw err;
  }
  return new AsyncBackalley(port, facts);
}

/** The runtime's WebAssembly module, compiled as it arrives; `counted(n)`
 * hears its bytes. */
async function compileRuntime(url, counted) {
  const response = await fetch(url, { credentials: "same-origin" });
  if (!response.ok) throw new Error(`${url.href}: ${response.status} ${response.statusText}`);
  if (response.body) {
    // count a copy: the response itself is compiled, so that the browser caches its code
    const reader = response.clone().body.getReader();
    (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        counted(value.byteLength);
      }
    })().catch(() => {});
  }
  return WebAssembly.compileStreaming(response);
}

/** An error sent back by the worker, as it was thrown there. */
function fromWorker(data) {
  if (data.backalley) return new BackAlleyError(data);
  const Kind = { TypeError, RangeError, SyntaxError }[data.name] || Error;
  const err = new Kind(data.message);
  if (Kind === Error && data.name) err.name = data.name;
  return err;
}

/** The page's side of the worker: each call a message, answered in order. */
class WorkerPort {
  constructor(worker, progress) {
    this.worker = worker;
    this.progress = progress;
    this.pending = new Map();
    this.next = 1;
    this.broken = null;
    this.runtime = {
      page: 0, worker: 0, total: null, done: false, told: 0,
      loaded() {
        return this.total ? Math.min(this.total, this.page + this.worker) : this.page + this.worker;
      },
    };
    // a value the page lets go of is let go of in the worker too
    this.released = new FinalizationRegistry((handle) => this.send({ op: "dispose", handle }));
    worker.addEventListener("message", (event) => this.heard(event.data));
    worker.addEventListener("error", (event) => {
      event.preventDefault();
      this.fail(`the library's worker stopped: ${event.message || "it could not be started"}`);
    });
    worker.addEventListener("messageerror", () => this.fail("the library's worker sent what cannot be read"));
  }

  heard(data) {
    if (data && data.type === "progress") {
      let event = data.event;
      if (event.step === "runtime") {
        // the runtime's bytes: its WebAssembly counted here, the rest in the worker
        const runtime = this.runtime;
        if (event.state === "start") runtime.total = event.total;
        if (event.state === "done") runtime.done = true;
        if (event.state === "progress") {
          runtime.worker = event.loaded;
          event = { ...event, loaded: runtime.loaded(), total: runtime.total };
        }
      }
      this.tell(event);
      return;
    }
    const waiting = this.pending.get(data.id);
    if (!waiting) return;
    this.pending.delete(data.id);
    if (data.error) waiting.reject(fromWorker(data.error));
    else waiting.resolve(data.value);
  }

  tell(event) {
    if (!this.progress) return;
    try {
      this.progress(event);
    } catch (err) {
      console.error(err);
    }
  }

  /** `n` more bytes of the runtime's WebAssembly, fetched by this side. */
  countRuntime(n) {
    const runtime = this.runtime;
    runtime.page += n;
    const at = now();
    if (runtime.done || (at - runtime.told < 50 && runtime.loaded() < runtime.total)) return;
    runtime.told = at;
    this.tell({ step: "runtime", state: "progress", loaded: runtime.loaded(), total: runtime.total, ms: null });
  }

  fail(message) {
    this.broken = message;
    for (const waiting of this.pending.values()) waiting.reject(new Error(message));
    this.pending.clear();
  }

  send(message) {
    if (!this.broken) this.worker.postMessage(message);
  }

  ask(message) {
    if (this.broken) return Promise.reject(new Error(this.broken));
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      try {
        this.worker.postMessage({ ...message, id });
      } catch (err) {
        this.pending.delete(id);
        reject(err);
      }
    });
  }

  /** Call `method` of the worker's value `handle` (0: the library); the
   * values answered (a rule set, a game, a bot) come back as objects of
   * this side. */
  async call(lib, handle, method, args) {
    const answer = await this.ask({ op: "call", handle, method, args: args.map(toWorker) });
    return fromWorkerValue(lib, answer);
  }

  keep(object, handle) {
    this.released.register(object, handle, object);
  }

  dispose(object, handle) {
    this.released.unregister(object);
    this.send({ op: "dispose", handle });
  }
}

/** Call `method` of the worker's value `handle` (0: the library) of `lib`. */
function remote(lib, handle, method, ...args) {
  return lib.port.call(lib, handle, method, args);
}

function toWorker(value) {
  if (value instanceof AsyncRules || value instanceof AsyncGame || value instanceof AsyncBot) {
    if (value.disposed) throw new TypeError(`this ${value.constructor.name.slice(5)} was disposed`);
    return { $handle: value.handle };
  }
  return value;
}

function fromWorkerValue(lib, value) {
  if (value === null || typeof value !== "object" || !value.$object) return value;
  const Kind = { Rules: AsyncRules, Game: AsyncGame, Bot: AsyncBot }[value.$object];
  const made = new Kind(lib, value.handle, value.fields);
  lib.port.keep(made, value.handle);
  return made;
}

/** The library in a worker: the methods of Backalley, each answering a Promise. */
export class AsyncBackalley {
  constructor(port, facts) {
    this.port = port;
    this.version = facts.version;
    this.pyodideVersion = facts.pyodideVersion;
    this.manifest = facts.manifest;
    this.timings = facts.timings;
  }

  /** The registered variants' names. */
  variants() {
    return remote(this, 0, "variants");
  }

  /** The registered bots' names. */
  bots() {
    return remote(this, 0, "bots");
  }

  /** A rule set (see Backalley.rules). */
  async rules(spec, options = {}) {
    if (spec instanceof AsyncRules) return spec;
    return remote(this, 0, "rules", spec, options);
  }

  /** A new game (see Backalley.newGame). */
  newGame(rules = "gamerules", options = {}) {
    return remote(this, 0, "newGame", rules, options);
  }

  /** A game from a state document, a view document or a record. */
  resume(doc) {
    return remote(this, 0, "resume", doc);
  }

  /** The end of the deal `move` scored, or null (see Backalley.dealEnd). */
  dealEnd(before, move, after) {
    return remote(this, 0, "dealEnd", before, move, after);
  }

  /** A registered bot, reproducible from `seed`. */
  bot(name = "heuristic", seed = null) {
    return remote(this, 0, "bot", name, seed);
  }

  /** Stop the worker: every call under way, and every later one, is refused. */
  terminate() {
    this.port.fail("the library's worker was terminated");
    this.port.worker.terminate();
  }
}

/** A rule set held by the worker. */
export class AsyncRules {
  constructor(lib, handle, fields) {
    this.lib = lib;
    this.handle = handle;
    this.disposed = false;
    this.name = fields.name;
    this.players = fields.players;
    this._document = fields.document;
  }

  /** The backalley/rules document (a fresh copy). */
  async document() {
    return structuredClone(this._document);
  }

  dispose() {
    if (this.disposed) return;
    this.disposed = true;
    this.lib.port.dispose(this, this.handle);
  }
}

/** A game held by the worker: the facts of a Game, its methods answering Promises. */
export class AsyncGame {
  constructor(lib, handle, fields) {
    this.lib = lib;
    this.handle = handle;
    this.disposed = false;
    Object.assign(this, fields);
  }

  /** The game's own document as JSON text. */
  json() {
    return remote(this.lib, this.handle, "json");
  }

  /** The game's own document (backalley/state or backalley/view). */
  document() {
    return remote(this.lib, this.handle, "document");
  }

  /** A seat's view document (default: the seat to act; a view: its own). */
  view(seat) {
    return remote(this.lib, this.handle, "view", seat);
  }

  /** The names and status line the server sends beside a seat's view. */
  facts(seat) {
    return remote(this.lib, this.handle, "facts", seat);
  }

  /** The legal moves of the seat to act. */
  legalMoves() {
    return remote(this.lib, this.handle, "legalMoves");
  }

  /** The answer to a move: {move, legal, reason, message}. */
  check(move, seat) {
    return remote(this.lib, this.handle, "check", move, seat);
  }

  /** For each card of a seat's hand: {card, playable, reason, message}. */
  cards(seat) {
    return remote(this.lib, this.handle, "cards", seat);
  }

  /** For each call the bidding knows now: {call, legal, reason, message}. */
  calls(seat) {
    return remote(this.lib, this.handle, "calls", seat);
  }

  /** The game after `move`; a refusal rejects with a BackAlleyError. */
  apply(move, seat) {
    return remote(this.lib, this.handle, "apply", move, seat);
  }

  /** The record of the game so far as JSON text. */
  recordJSON(options = {}) {
    return remote(this.lib, this.handle, "recordJSON", options);
  }

  /** The record of the game so far (backalley/record). */
  record(options = {}) {
    return remote(this.lib, this.handle, "record", options);
  }

  dispose() {
    if (this.disposed) return;
    this.disposed = true;
    this.lib.port.dispose(this, this.handle);
  }
}

/** A bot held by the worker. */
export class AsyncBot {
  constructor(lib, handle, fields) {
    this.lib = lib;
    this.handle = handle;
    this.disposed = false;
    this.name = fields.name;
  }

  /** The move this bot makes for `seat` (default: the seat to act). */
  choose(game, seat) {
    return remote(this.lib, this.handle, "choose", game, seat);
  }

  dispose() {
    if (this.disposed) return;
    this.disposed = true;
    this.lib.port.dispose(this, this.handle);
  }
}
