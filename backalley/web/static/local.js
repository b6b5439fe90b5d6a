/* The served table's local checks: with `backalley serve --web DIR` the
 * table page loads the library itself, in a Web Worker (loadInWorker of
 * backalley.js: the page's own thread never runs Python), and, once it is
 * loaded, every view the server sends is read by the library:
 *
 * - the cards greyed out and the calls offered, with their sentences, are
 *   the library's answers in this page (reading a view also checks that
 *   the server's answers are the library's: a view it refuses is shown with
 *   the server's answers and a notice);
 * - a move the library refuses is explained at once and not sent;
 * - a move it allows is sent, and the server still decides.
 *
 * Until the library is loaded (a few seconds, in the background) the page
 * works as without it, and a view is drawn with the server's answers until
 * the library has read it (a few milliseconds).  The page's header links to
 * the offline table.
 */

import { loadInWorker } from "./backalley.js";

const T = window.backalleyTable;
// the last view read: its document, the library's game of it (a promise)
// and, once read, the answers drawn in its place
const seen = { doc: null, game: null, answers: null };

function mark(state) {
  const section = document.querySelector("#game");
  if (section) section.setAttribute("data-checked", state);
}

/** The library's game of the seat's view in `message` (a promise; null for
 * a spectator's document, or a view the library does not read). */
function localGame(ba, message) {
  if (!message || message.type !== "view" || !message.view) return Promise.resolve(null);
  if (seen.doc === message.view) return seen.game;
  const previous = seen.game;
  seen.doc = message.view;
  seen.answers = null;
  seen.game = ba.resume(message.view).then(
    (game) => {
      mark("local");
      return game;
    },
    (err) => {
      mark("server");
      T.notice(`The rules in this page do not read the server's view (${err.message}); ` +
        "the server's answers are shown.", "error", err.reason);
      return null;
    },
  );
  if (previous) previous.then((game) => game && game.dispose());
  return seen.game;
}

/** Read the view in `message` with the library, then draw it again with
 * the library's answers. */
async function readView(ba, message) {
  const doc = message.view;
  const game = await localGame(ba, message);
  if (!game || seen.doc !== doc) return;
  const [cards, calls] = await Promise.all([game.cards(), game.calls()]);
  if (seen.doc !== doc) return;
  seen.answers = { cards, call_answers: calls };
  T.redraw();
}

function offlineLink() {
  if (document.querySelector("#offline-link")) return;
  const title = document.querySelector("header.top h1");
  if (!title) return;
  // beside the title, not in it: a link of its own
  const link = T.html("a", { id: "offline-link", href: new URL("./", import.meta.url).pathname, class: "offline-link" },
    "Play offline");
  link.title = "The table that needs no server: the rules run in this page";
  title.after(link);
}

async function main() {
  offlineLink();
  let ba;
  try {
    ba = await loadInWorker();
  } catch (err) {
    console.warn("backalley: the rules did not load in this page; the server's answers are used", err);
    return;
  }
  T.hooks.annotate = (message) => {
    if (!message || message.type !== "view" || !message.view) return message;
    if (seen.doc === message.view && seen.answers) {
      return { ...message, view: { ...message.view, ...seen.answers } };
    }
    if (seen.doc !== message.view) readView(ba, message);
    return message;
  };
  T.hooks.check = async (message, move) => {
    const game = await localGame(ba, message);
    return game ? game.check(move) : null;
  };
  document.documentElement.setAttribute("data-rules", "local");
  T.redraw();
}

main();
