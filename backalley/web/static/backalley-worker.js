/* backalley-worker.js - the library in a Web Worker, for loadInWorker() of
 * backalley.js: started as a module worker beside backalley.js, it loads the
 * library with load() and answers the page's calls by message, so the
 * page's own thread never runs Python (a pimc bot may think for seconds;
 * the page stays live meanwhile).
 *
 * Messages from the page:
 *   {id, op: "load", base, pageCompiles}         -> {id, value: {version, pyodideVersion, manifest, timings}}
 *   {op: "runtime-code", module}                 the runtime's WebAssembly compiled by the page (or null)
 *   {id, op: "call", handle, method, args}       -> {id, value} or {id, error}
 *   {op: "dispose", handle}                      (no answer)
 * and, while loading, {type: "progress", event} (load()'s progress, with the
 * runtime's bytes counted here as they arrive).
 *
 * With `pageCompiles`, Pyodide's WebAssembly is not fetched here: the page
 * compiles it (the browser then keeps the compiled code for the next visit,
 * which it does not for a worker's compilation) and sends the module, which
 * is instantiated here in its place; without a module (the page could not
 * compile it), it is fetched here after all.
 *
 * The rule sets, games and bots stay here: the page holds a handle of each
 * (0 is the library), with the facts a Game carries.  Only the methods of
 * the public API may be called.  An error goes back as data: a
 * BackAlleyError with its kind, reason and message, anything else with its
 * name and message.
 */

import { BackAlleyError, Bot, Game, Rules, load } from "./backalley.js";

const METHODS = {
  Backalley: ["variants", "bots", "rules", "newGame", "resume", "dealEnd", "bot"],
  Rules: ["document"],
  Game: ["json", "document", "view", "facts", "legalMoves", "check", "cards", "calls", "apply", "recordJSON", "record"],
  Bot: ["choose"],
};

const held = new Map(); // handle -> a Backalley, Rules, Game or Bot
let nextHandle = 1;

function kindOf(value) {
  if (value instanceof Game) return "Game";
  if (value instanceof Rules) return "Rules";
  if (value instanceof Bot) return "Bot";
  return null;
}

/** What goes back to the page: plain values as they are; a rule set, a
 * game or a bot as a handle with its facts. */
function outgoing(value) {
  const kind = kindOf(value);
  if (kind === null) return value;
  const handle = nextHandle++;
  held.set(handle, value);
  let fields;
  if (kind === "Game") {
    fields = {
      kind: value.kind, seat: value.seat, phase: value.phase, toAct: value.toAct, isOver: value.isOver,
      dealer: value.dealer, handSize: value.handSize, scores: value.scores, winner: value.winner,
      dealsPlayed: value.dealsPlayed, players: value.players, moveCount: value.moveCount,
    };
  } else if (kind === "Rules") {
    fields = { name: value.name, players: value.players, document: value.document() };
  } else {
    fields = { name: value.name };
  }
  return { $object: kind, handle, fields };
}

function incoming(value) {
  if (value === null || typeof value !== "object" || !("$handle" in value)) return value;
  const found = held.get(value.$handle);
  if (!found || value.$handle === 0) throw new TypeError("a rule set, game or bot given was disposed");
  return found;
}

function errorData(err) {
  if (err instanceof BackAlleyError) {
    return {
      backalley: true, kind: err.kind, reason: err.reason, message: err.message, move: err.move,
      seat: err.seat, problems: err.problems, path: err.path, details: err.details,
    };
  }
  return { backalley: false, name: (err && err.name) || "Error", message: String(err && err.message ? err.message : err) };
}

let pageCode = null;
const fromPage = new Promise((resolve) => {
  pageCode = resolve;
});
/** The answers standing for the runtime's WebAssembly, with the module the
 * page compiled. */
const compiledByPage = new WeakMap();

/** Count the runtime's bytes as Pyodide fetches them, and hand it the
 * page's module for its WebAssembly (this worker's own fetch and
 * instantiateStreaming: nothing else runs here). */
function countRuntime(prefix, started, pageCompiles) {
  const plain = self.fetch.bind(self);
  const instantiate = WebAssembly.instantiateStreaming;
  const counted = { loaded: 0, total: null, done: false };
  let told = 0;
  const tell = (force) => {
    const at = performance.now();
    if (counted.done || (!force && at - told < 50)) return;
    told = at;
    const event = { step: "runtime", state: "progress", loaded: counted.loaded, total: counted.total, ms: at - started };
    self.postMessage({ type: "progress", event });
  };
  self.fetch = async (input, init) => {
    const url = String(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
    if (pageCompiles && url === `${prefix}pyodide.asm.wasm`) {
      const module = await fromPage;
      if (module) {
        const standIn = new Response(null, { headers: { "Content-Type": "application/wasm" } });
        compiledByPage.set(standIn, module);
        return standIn;
      }
    }
    const response = await plain(input, init);
    if (!url.startsWith(prefix) || !response.ok || !response.body) return response;
    const counter = new TransformStream({
      transform(chunk, controller) {
        counted.loaded += chunk.byteLength;
        tell(false);
        controller.enqueue(chunk);
      },
      flush() {
        tell(true);
      },
    });
    return new Response(response.body.pipeThrough(counter), {
      status: response.status, statusText: response.statusText, headers: response.headers,
    });
  };
  WebAssembly.instantiateStreaming = async (source, imports) => {
    const response = await source;
    const module = compiledByPage.get(response);
    if (!module) return instantiate(response, imports);
    return { instance: await WebAssembly.instantiate(module, imports), module };
  };
  counted.restore = () => {
    self.fetch = plain;
    WebAssembly.instantiateStreaming = instantiate;
  };
  return counted;
}

async function loadLibrary(message) {
  const base = message.base ? new URL(message.base, new URL(".", import.meta.url)) : new URL(".", import.meta.url);
  const folder = base.href.endsWith("/") ? base.href : `${base.href}/`;
  const counted = countRuntime(new URL("pyodide/", folder).href, performance.now(), Boolean(message.pageCompiles));
  try {
    const ba = await load({
      base: folder,
      progress: (event) => {
        if (event.step === "runtime" && event.state === "start") counted.total = event.total;
        if (event.step === "runtime" && event.state === "done") counted.done = true;
        self.postMessage({ type: "progress", event });
      },
    });
    held.set(0, ba);
    return { version: ba.version, pyodideVersion: ba.pyodideVersion, manifest: ba.manifest, timings: ba.timings };
  } finally {
    counted.restore();
  }
}

function callMethod(message) {
  const target = held.get(message.handle);
  if (!target) throw new TypeError("a rule set, game or bot used was disposed");
  const kind = message.handle === 0 ? "Backalley" : kindOf(target);
  if (!METHODS[kind].includes(message.method)) throw new TypeError(`${kind} has no method ${message.method}`);
  const args = (message.args || []).map(incoming);
  return outgoing(target[message.method](...args));
}

self.addEventListener("message", async (event) => {
  const message = event.data || {};
  if (message.op === "runtime-code") {
    pageCode(message.module || null);
    return;
  }
  if (message.op === "dispose") {
    const value = held.get(message.handle);
    if (value && message.handle !== 0) {
      held.delete(message.handle);
      try {
        value.dispose();
      } catch (_) { /* released already: nothing is left to free */ }
    }
    return;
  }
  let answer;
  try {
    if (message.op === "load") answer = { id: message.id, value: await loadLibrary(message) };
    else if (message.op === "call" && held.has(0)) answer = { id: message.id, value: callMethod(message) };
    else throw new Error(`the library's worker does not know ${message.op}`);
  } catch (err) {
    answer = { id: message.id, error: errorData(err) };
  }
  self.postMessage(answer);
});
