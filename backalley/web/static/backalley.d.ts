// Type declarations of backalley.js: the rules of Back Alley for user
// interfaces in JavaScript.  The documents are those of the library and the
// table server (see the docs: "Integrating with a user interface" and
// "Rules in the browser"); their full definitions are in the JSON Schema
// (backalley.schema.json, written beside this file by `backalley build-web`).
//
// `load()` answers a Backalley whose calls are synchronous (the library runs
// on the caller's thread); `loadInWorker()` answers an AsyncBackalley, the
// same calls answering Promises, the library running in a Web Worker
// (backalley-worker.js).

/** A move as text: "pass", "bid 3", "board", "counter", "trump H", "play QS". */
export type MoveText = string;

/** A card as text: "QS", "TH", "BJ", "LJ". */
export type CardText = string;

export type Phase = "bidding" | "naming-trump" | "playing" | "game-over";

/** A Reason name of the library ("NOT_YOUR_TURN", "MUST_FOLLOW_SUIT", "BID_TOO_HIGH", ...),
 * or the tag of a reason a user's rule registered ("ourclub/no-ace-discards"). */
export type ReasonName = string;

/** The library's answer to a move. */
export interface MoveAnswer {
  move: MoveText;
  legal: boolean;
  reason: ReasonName | null;
  message: string | null;
}

/** The answer for one card of a seat's hand (the view document's `cards`). */
export interface CardAnswer {
  card: CardText;
  playable: boolean;
  reason: ReasonName | null;
  message: string | null;
}

/** The answer for one call the bidding knows (the view document's `call_answers`). */
export interface CallAnswer {
  call: MoveText;
  legal: boolean;
  reason: ReasonName | null;
  message: string | null;
}

/** A backalley/view document: what one seat may know, with its answers. */
export interface ViewDocument {
  format: "backalley/view";
  version: number;
  seat: number;
  rules: RulesDocument;
  phase: Phase;
  to_act: number | null;
  dealer: number;
  hand_size: number;
  hand: CardText[];
  hand_counts: number[];
  legal_moves: MoveText[];
  cards: CardAnswer[];
  call_answers: CallAnswer[];
  scores: number[];
  winner: number | null;
  [key: string]: unknown;
}

/** A backalley/state document: the rule set, the seed and/or deck orders, the first dealer and the moves. */
export interface StateDocument {
  format: "backalley/state";
  version: number;
  rules: RulesDocument;
  seed: number | null;
  first_dealer: number;
  decks: CardText[][];
  moves: MoveText[];
  [key: string]: unknown;
}

/** A backalley/rules document: every part of a rule set with its type tag. */
export interface RulesDocument {
  format?: "backalley/rules";
  version?: number;
  name?: string | null;
  [part: string]: unknown;
}

/** A backalley/record document: a game to replay (`backalley check` reads it). */
export interface RecordDocument {
  format: "backalley/record";
  version: number;
  moves: MoveText[];
  [key: string]: unknown;
}

/** The names and status line the server sends beside a seat's view. */
export interface Facts {
  title: string;
  status: string;
  deal: number;
  seat_names: string[];
  side_names: string[];
}

/** The end of a scored deal, as a table holds it: the last trick and whether each side made its contract. */
export interface DealEnd {
  deal: number;
  last_trick: { leader: number; cards: CardText[]; winner: number } | null;
  made: (boolean | null)[];
}

/** An error of the library: its kind, the Reason of a refused move and the sentence. */
export declare class BackAlleyError extends Error {
  /** The library's exception: "IllegalMoveError", "NotationError", "SerializationError",
   * "RuleSetError", "HouseRulesError", "SetupError", "UnknownVariantError", ...;
   * "InternalError" for a fault of the library (details: the Python traceback). */
  readonly kind: string;
  /** For a refused move: the Reason name; otherwise null. */
  readonly reason: ReasonName | null;
  readonly move: MoveText | null;
  readonly seat: number | null;
  /** A rule set's or house rules' problems, one sentence each. */
  readonly problems: string[];
  /** Where in a document the reader stopped ("$.moves[3]"). */
  readonly path: string | null;
  readonly details?: string;
}

/** One step of loading the library, as it starts, moves on and ends. */
export interface LoadProgress {
  /** "runtime": Pyodide fetched, compiled and started; "wheels": the wheels fetched
   * and unpacked; "import": the library imported.  The wheels arrive while the runtime starts. */
  step: "runtime" | "wheels" | "import";
  state: "start" | "progress" | "done";
  /** Bytes received so far, for a step that fetches (null otherwise).  The runtime's
   * are counted by loadInWorker(); load() says only their total. */
  loaded: number | null;
  /** Bytes the step fetches in all, when known: the runtime's WebAssembly, standard
   * library and lock file; the wheels. */
  total: number | null;
  /** Milliseconds since loading began. */
  ms: number | null;
}

export interface LoadOptions {
  /** The folder written by `backalley build-web` (default: this module's folder). */
  base?: string | URL;
  /** What Python prints (default: nothing). */
  stdout?: (line: string) => void;
  stderr?: (line: string) => void;
  /** Hears each step of the loading. */
  progress?: (event: LoadProgress) => void;
}

export interface WorkerLoadOptions {
  /** The folder written by `backalley build-web` (default: this module's folder). */
  base?: string | URL;
  /** Hears each step of the loading, the runtime's bytes too. */
  progress?: (event: LoadProgress) => void;
}

export interface Timings {
  /** Milliseconds: the runtime started, the wheels unpacked, the library imported, in all. */
  runtime: number;
  wheels: number;
  import: number;
  total: number;
}

export interface Manifest {
  format: "backalley/web";
  version: number;
  backalley: string;
  pyodide: string;
  wheels: { file: string; name: string; version: string; bytes: number; sha256: string }[];
  files: Record<string, number>;
}

export interface GameOptions {
  /** A whole number (a JavaScript number below 2**53, a BigInt or its text); none: 63 random bits. */
  seed?: number | bigint | string | null;
  dealer?: number | null;
  /** Deck orders, used one per shuffle before the seed's take over. */
  decks?: CardText[][] | null;
}

export interface RecordOptions {
  /** One name per seat. */
  players?: string[];
  metadata?: Record<string, string>;
}

/** What `rules()` takes: a variant's name, a rules or house-rules document, or TOML house rules. */
export type RulesSpec = Rules | string | RulesDocument;

/** Load the library: the Pyodide runtime, the wheels and the bridge, from the built folder. */
export declare function load(options?: LoadOptions): Promise<Backalley>;

/** The library, loaded. */
export declare class Backalley {
  readonly version: string;
  readonly pyodideVersion: string;
  readonly manifest: Manifest;
  readonly timings: Timings;
  /** The Pyodide instance the library runs in. */
  readonly pyodide: unknown;
  /** The registered variants' names. */
  variants(): string[];
  /** The registered bots' names. */
  bots(): string[];
  /** A rule set; text is read as JSON when it starts with "{", as a name when it is one
   * line without "=", as TOML otherwise (or as `options.format` says). */
  rules(spec: RulesSpec, options?: { format?: "name" | "json" | "toml" }): Rules;
  /** A new game (default: the gamerules game). */
  newGame(rules?: RulesSpec, options?: GameOptions): Game;
  /** A game from a state document, a seat's view document or a record (object or JSON text). */
  resume(document: StateDocument | ViewDocument | RecordDocument | string): Game;
  /** The end of the deal `move` scored (made in `before`, reaching `after`), or null. */
  dealEnd(before: Game, move: MoveText, after: Game): DealEnd | null;
  /** A registered bot (default: "heuristic"), reproducible from `seed`. */
  bot(name?: string, seed?: string | number | null): Bot;
}

/** A rule set. */
export declare class Rules {
  readonly name: string | null;
  readonly players: number;
  /** The backalley/rules document (a fresh copy). */
  document(): RulesDocument;
  /** Release the Python value now rather than when it is collected. */
  dispose(): void;
}

/** A game: a full state (it moves on) or one seat's view (it answers that seat's questions). */
export declare class Game {
  readonly kind: "state" | "view";
  /** A view's seat; null for a state. */
  readonly seat: number | null;
  readonly phase: Phase;
  readonly toAct: number | null;
  readonly isOver: boolean;
  readonly dealer: number;
  readonly handSize: number;
  readonly scores: number[];
  readonly winner: number | null;
  readonly dealsPlayed: number;
  readonly players: number;
  /** The moves a state has had (null for a view). */
  readonly moveCount: number | null;
  /** The game's own document as JSON text (exact, also for seeds above 2**53). */
  json(): string;
  /** The game's own document: a state's holds the seed and every move. */
  document(): StateDocument | ViewDocument;
  /** A seat's view document (default: the seat to act; a view: its own). */
  view(seat?: number): ViewDocument;
  /** The names and status line the server sends beside a seat's view. */
  facts(seat?: number): Facts;
  /** The legal moves of the seat to act, in the library's order. */
  legalMoves(): MoveText[];
  /** The answer to a move (checked for `seat` when given); text that is not a move throws. */
  check(move: MoveText, seat?: number): MoveAnswer;
  /** For each card of a seat's hand, whether it may be played and why not. */
  cards(seat?: number): CardAnswer[];
  /** For each call the bidding knows now, whether it is legal and why not. */
  calls(seat?: number): CallAnswer[];
  /** The game after the move; throws a BackAlleyError (kind "IllegalMoveError", with its reason) when refused. */
  apply(move: MoveText, seat?: number): Game;
  /** The record of the game so far, as JSON text (`backalley check` replays it). */
  recordJSON(options?: RecordOptions): string;
  record(options?: RecordOptions): RecordDocument;
  dispose(): void;
}

/** A bot of the library. */
export declare class Bot {
  readonly name: string;
  /** The move it makes for `seat` (default: the seat to act), seeing only that seat's view. */
  choose(game: Game, seat?: number): MoveText;
  dispose(): void;
}

/** Load the library in a Web Worker (backalley-worker.js, beside backalley.js): the page's
 * thread never runs Python.  Only in a browser. */
export declare function loadInWorker(options?: WorkerLoadOptions): Promise<AsyncBackalley>;

/** The library in a worker: the methods of Backalley, each answering a Promise; a refusal
 * rejects with a BackAlleyError as the synchronous call throws it.  The calls are answered
 * in the order they are made, one at a time (a bot that thinks holds up the calls after it). */
export declare class AsyncBackalley {
  readonly version: string;
  readonly pyodideVersion: string;
  readonly manifest: Manifest;
  readonly timings: Timings;
  variants(): Promise<string[]>;
  bots(): Promise<string[]>;
  rules(spec: AsyncRulesSpec, options?: { format?: "name" | "json" | "toml" }): Promise<AsyncRules>;
  newGame(rules?: AsyncRulesSpec, options?: GameOptions): Promise<AsyncGame>;
  resume(document: StateDocument | ViewDocument | RecordDocument | string): Promise<AsyncGame>;
  dealEnd(before: AsyncGame, move: MoveText, after: AsyncGame): Promise<DealEnd | null>;
  bot(name?: string, seed?: string | number | null): Promise<AsyncBot>;
  /** Stop the worker: the calls under way and every later one are refused. */
  terminate(): void;
}

/** What AsyncBackalley.rules() takes. */
export type AsyncRulesSpec = AsyncRules | string | RulesDocument;

/** A rule set held by the worker (released when disposed, or when this object is collected). */
export declare class AsyncRules {
  readonly name: string | null;
  readonly players: number;
  document(): Promise<RulesDocument>;
  dispose(): void;
}

/** A game held by the worker: the facts of a Game, its questions answering Promises. */
export declare class AsyncGame {
  readonly kind: "state" | "view";
  readonly seat: number | null;
  readonly phase: Phase;
  readonly toAct: number | null;
  readonly isOver: boolean;
  readonly dealer: number;
  readonly handSize: number;
  readonly scores: number[];
  readonly winner: number | null;
  readonly dealsPlayed: number;
  readonly players: number;
  readonly moveCount: number | null;
  json(): Promise<string>;
  document(): Promise<StateDocument | ViewDocument>;
  view(seat?: number): Promise<ViewDocument>;
  facts(seat?: number): Promise<Facts>;
  legalMoves(): Promise<MoveText[]>;
  check(move: MoveText, seat?: number): Promise<MoveAnswer>;
  cards(seat?: number): Promise<CardAnswer[]>;
  calls(seat?: number): Promise<CallAnswer[]>;
  apply(move: MoveText, seat?: number): Promise<AsyncGame>;
  recordJSON(options?: RecordOptions): Promise<string>;
  record(options?: RecordOptions): Promise<RecordDocument>;
  dispose(): void;
}

/** A bot held by the worker. */
export declare class AsyncBot {
  readonly name: string;
  /** The move it makes for `seat` (default: the seat to act); the page stays live meanwhile. */
  choose(game: AsyncGame, seat?: number): Promise<MoveText>;
  dispose(): void;
}
