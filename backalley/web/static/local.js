/* The served table's local checks: with `backalley serve --web DIR` the
 * table page loads the library itself (backalley.js) and, once it is
 * loaded, every view the server sends is read by the library in the page:
 *
 * - the cards greyed out and the calls offered, with their sentences, are
 *   the page's own answers (reading a view also checks that the server's
 *   answers are the library's: a view it refuses is shown with the
 *   server's answers and a notice);
 * - a move the library refuses is explained at once and not sent;
 * - a move it allows is sent, and the server still decides.
 *
 * Until the library is loaded (a few seconds, in the background) the page
 * works as without it.  The page's header links to the offline table.
 */

import { load } from "./backalley.js";

const T = window.backalleyTable;
const seen = { doc: null, game: null };

function mark(state) {
  const section = document.querySelector("#game");
  if (section) section.setAttribute("data-checked", state);
}

/** The library's Game of the seat's view in `message` (null for a
 * spectator's document, or a view the library does not read). */
function localGame(ba, message) {
  if (!message || message.type !== "view" || !message.view) return null;
  if (seen.doc === message.view) return seen.game;
  if (seen.game) seen.game.dispose();
  seen.doc = message.view;
  seen.game = null;
  try {
    seen.game = ba.resume(message.view);
    mark("local");
  } catch (err) {
    mark("server");
    T.notice(`The rules in this page do not read the server's view (${err.message}); ` +
      "the server's answers are shown.", "error", err.reason);
  }
  return seen.game;
}

function offlineLink() {
  const header = document.querySelector("header.top h1");
  if (!header || document.querySelector("#offline-link")) return;
  const link = T.html("a", { id: "offline-link", href: new URL("./", import.meta.url).pathname, class: "offline-link" },
    "play offline");
  header.append(" ", link);
}

async function main() {
  offlineLink();
  let ba;
  try {
    ba = await load();
  } catch (err) {
    console.warn("backalley: the rules did not load in this page; the server's answers are used", err);
    return;
  }
  T.hooks.annotate = (message) => {
    const game = localGame(ba, message);
    if (!game) return message;
    return { ...message, view: { ...message.view, cards: game.cards(), call_answers: game.calls() } };
  };
  T.hooks.check = (message, move) => {
    const game = localGame(ba, message);
    return game ? game.check(move) : null;
  };
  document.documentElement.setAttribute("data-rules", "local");
  T.redraw();
}

main();
