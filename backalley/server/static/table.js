/* The browser table of `backalley serve`.
 *
 * A lobby (make a table, join an open seat, watch a table) and the table
 * itself: the seat's WebSocket pushes the seat's view after every move and
 * the page redraws the table from it, drawn as the library's SVG pictures
 * (backalley/render/svg.py) draw a view.  The page never decides what is
 * legal: the cards it lets you click, the calls it offers and the reasons it
 * shows all come from the view the server sends (`cards`, `legal_moves`),
 * as do each seat's call, the contracts and the tricks (`bids`, `contracts`,
 * `tricks_won`, `side_tricks`, ...), and the names of seats and sides and the
 * status line from the message's `facts`.  Text is only ever set with
 * textContent.
 *
 * The picture is drawn at the width of its box in CSS pixels, so that its
 * text is at least 12 px and a card of the hand at least 44 px wide to tap,
 * from 400 px wide windows up.  At the end of each deal (the message's
 * `deal_end`) the page shows the deal's last trick and result until the
 * player continues; the server's bots wait meanwhile (at most the server's
 * deal pause).  A socket that cannot be opened is tried a few times, then
 * the page asks the server why (GET /api/health) and says so.
 *
 * Served with `--web DIR`, the page also loads the library itself
 * (local.js): the answers are then the page's own, and a move the library
 * refuses is explained without being sent.  The offline table
 * (offline.js) draws with this same code (window.backalleyTable).
 */
"use strict";

(() => {
  // -- the picture's measures and colours (a card's as in backalley/render/svg.py) ----
  const SVGNS = "http://www.w3.org/2000/svg";
  const CW = 36;
  const CH = 50;
  const FONT = "DejaVu Sans, Verdana, Helvetica, Arial, sans-serif";
  const FELT = "#1d6a44";
  const FELT_EDGE = "#124a2f";
  const GOLD = "#f2c94c";
  const GREEN = "#4cd07d";
  const RED = "#c8102e";
  const BLACK = "#1a1a1a";
  const BACK = "#2f5ea8";
  const INK = "#20262e";
  const PALE = "#e8efe9";
  const GREY = "#3d4650";

  const PIPS = {
    D: "M50 2 L92 50 L50 98 L8 50 Z",
    H: "M50 94 C22 70 2 52 2 30 C2 13 14 4 28 4 C39 4 47 11 50 21 " +
      "C53 11 61 4 72 4 C86 4 98 13 98 30 C98 52 78 70 50 94 Z",
    S: "M50 2 C78 28 98 44 98 62 C98 77 87 86 74 86 C65 86 57 82 53 75 " +
      "C54 86 59 93 68 98 L32 98 C41 93 46 86 47 75 C43 82 35 86 26 86 " +
      "C13 86 2 77 2 62 C2 44 22 28 50 2 Z",
    C: "M50 4 A21 21 0 1 1 49.9 4 Z M26 38 A21 21 0 1 1 25.9 38 Z " +
      "M74 38 A21 21 0 1 1 73.9 38 Z M46 55 C46 78 42 90 32 98 L68 98 " +
      "C58 90 54 78 54 55 Z",
  };
  const STAR = "M50 4 L61 38 L97 38 L68 59 L79 94 L50 73 L21 94 L32 59 L3 38 L39 38 Z";
  const SYMBOLS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
  const SUIT_NAMES = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
  const SUIT_ORDER = ["S", "H", "C", "D"];
  const RANKS = "23456789TJQKA";

  // Advance widths (hundredths of an em) of ASCII 32..126 in DejaVu Sans and
  // DejaVu Sans Bold: labels are measured so they never run into each other.
  const WIDTHS = (
    "32 40 46 84 64 95 78 27 39 39 50 84 32 36 32 34 64 64 64 64 64 64 64 64 64 64 34 34 84 84 " +
    "84 53 100 68 69 70 77 63 58 77 75 29 29 66 56 86 75 79 60 79 69 63 61 73 68 99 69 61 69 39 " +
    "34 39 84 50 50 61 63 55 63 62 35 63 63 28 28 58 28 97 63 61 63 63 41 52 39 63 59 82 59 59 " +
    "52 64 34 64 84"
  ).split(" ").map((w) => Number(w) / 100);
  const BOLD_WIDTHS = (
    "35 46 52 84 70 100 87 31 46 46 52 84 38 42 38 37 70 70 70 70 70 70 70 70 70 70 40 40 84 84 " +
    "84 58 100 77 76 73 83 68 68 82 84 37 37 77 64 100 84 85 73 85 77 72 68 81 77 110 77 72 73 " +
    "46 37 46 84 50 50 67 72 59 72 68 44 72 71 34 34 67 34 104 71 69 72 72 49 60 48 71 65 92 65 " +
    "65 58 71 37 71 84"
  ).split(" ").map((w) => Number(w) / 100);

  function textWidth(text, size, bold) {
    const table = bold ? BOLD_WIDTHS : WIDTHS;
    let sum = 0;
    for (const ch of String(text)) {
      const code = ch.codePointAt(0);
      sum += code >= 32 && code < 127 ? table[code - 32] : 0.8;
    }
    return size * sum;
  }

  // -- small helpers ---------------------------------------------------------

  const $ = (selector) => document.querySelector(selector);

  function html(name, attrs, text) {
    const node = document.createElement(name);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value !== null && value !== undefined && value !== false) {
        node.setAttribute(key, value === true ? "" : String(value));
      }
    }
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function svg(name, attrs, parent) {
    const node = document.createElementNS(SVGNS, name);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value !== null && value !== undefined) node.setAttribute(key, String(value));
    }
    if (parent) parent.appendChild(node);
    return node;
  }

  function num(x) {
    const text = x.toFixed(1);
    return text.endsWith(".0") ? text.slice(0, -2) : text;
  }

  function svgText(parent, x, y, content, opts) {
    const o = opts || {};
    const node = svg("text", {
      x: num(x),
      y: num(y),
      "font-size": num(o.size || 12),
      fill: o.fill || INK,
      "text-anchor": o.anchor && o.anchor !== "start" ? o.anchor : null,
      "font-weight": o.weight && o.weight !== "normal" ? o.weight : null,
      "letter-spacing": o.spacing || null,
      class: o.cls || null,
    }, parent);
    node.textContent = content;
    return node;
  }

  function sleep(ms) {
    return new Promise((resolve) => setTimeout(resolve, ms));
  }

  function randomId() {
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  function minus(n) {
    return String(n).replace("-", "\u2212");
  }

  // -- cards -------------------------------------------------------------------

  function isJoker(card) {
    return card === "BJ" || card === "LJ";
  }

  function suitOf(card) {
    return isJoker(card) ? null : card.slice(-1);
  }

  function cardColor(card) {
    if (isJoker(card)) return card === "BJ" ? RED : BLACK;
    const suit = suitOf(card);
    return suit === "H" || suit === "D" ? RED : BLACK;
  }

  function rankText(card) {
    if (isJoker(card)) return card;
    const rank = card.slice(0, -1);
    return rank === "T" ? "10" : rank;
  }

  function cardText(card) {
    return isJoker(card) ? (card === "BJ" ? "big joker" : "little joker")
      : rankText(card) + SYMBOLS[suitOf(card)];
  }

  // A sentence of the library (a refusal's reason) names cards by their
  // letters ("not 4D", "your highest trump, TS"); the page writes each as it
  // writes cards, so that one line never mixes two notations.
  function sentence(text) {
    return String(text).replace(/\b(?:[2-9TJQKA]|10)[CDHS]\b|\b[BL]J\b/g, (card) => cardText(card));
  }

  // A greyed-out card's notice (shown as "refused": notice() writes its cards).
  function refusedCard(item) {
    return item.message ? `${cardText(item.card)}: ${item.message}` : `${cardText(item.card)} cannot be played now`;
  }

  function sortedCards(items, key) {
    // Jokers first (big, little), then spades, hearts, clubs, diamonds, high to low.
    const weight = (card) => {
      if (card === "BJ") return [-1, -2];
      if (card === "LJ") return [-1, -1];
      return [SUIT_ORDER.indexOf(suitOf(card)), -RANKS.indexOf(card.slice(0, -1))];
    };
    return items.slice().sort((a, b) => {
      const x = weight(key(a));
      const y = weight(key(b));
      return x[0] - y[0] || x[1] - y[1];
    });
  }

  function pip(parent, suit, x, y, size, fill) {
    svg("path", {
      transform: `translate(${num(x)},${num(y)}) scale(${(size / 100).toFixed(3)})`,
      fill,
      d: suit === null ? STAR : PIPS[suit],
    }, parent);
  }

  // A card is drawn at the library's measures (CW x CH, as svg.py draws it)
  // and scaled to `width`: a hand card is at least 44 px wide on the screen.
  function cardGroup(parent, x, y, width, attrs) {
    const g = svg("g", attrs, parent);
    const k = width / CW;
    const inner = svg("g", { transform: `translate(${num(x)},${num(y)}) scale(${k.toFixed(4)})` }, g);
    return [g, inner];
  }

  function cardFace(parent, card, x, y, attrs, width, extra) {
    const [g, inner] = cardGroup(parent, x, y, width || CW, { class: "card", "data-card": card, ...(attrs || {}) });
    const title = svg("title", {}, g);
    title.textContent = cardText(card);
    svg("rect", {
      x: 0, y: 0, width: CW, height: CH, rx: 3.5, fill: "#ffffff", stroke: "#6b6b6b", "stroke-width": 0.8,
    }, inner);
    const color = cardColor(card);
    if (isJoker(card)) {
      svgText(inner, 3, 13, card, { size: 12, fill: color, weight: "bold" });
      pip(inner, null, CW / 2 - 9, CH / 2 - 4, 18, color);
    } else {
      const label = rankText(card);
      svgText(inner, 2.5, 13, label, { size: 13, fill: color, weight: "bold", spacing: "-0.5" });
      // the small pip just after the rank (svg.py's 9 or 14.5, wider for Q, K, A)
      const w = Math.max(label.length === 2 ? 14.5 : 9, textWidth(label, 13, true) - 0.5 * label.length + 2);
      pip(inner, suitOf(card), 2.5 + w, 3.5, 9.5, color);
      pip(inner, suitOf(card), CW / 2 - 9, CH / 2 - 5, 18, color);
    }
    if (extra) extra(inner);
    return g;
  }

  function cardBack(parent, x, y, width) {
    const [, inner] = cardGroup(parent, x, y, width || CW, { class: "card back" });
    svg("rect", {
      x: 0, y: 0, width: CW, height: CH, rx: 3.5, fill: "#ffffff", stroke: "#6b6b6b", "stroke-width": 0.8,
    }, inner);
    svg("rect", { x: 3, y: 3, width: CW - 6, height: CH - 6, rx: 2, fill: BACK }, inner);
    svg("path", {
      d: `M${CW / 2} 8 L${CW - 8} ${CH / 2} L${CW / 2} ${CH - 8} L8 ${CH / 2} Z`,
      fill: "none", stroke: "#ffffff", "stroke-opacity": 0.55, "stroke-width": 1.2,
    }, inner);
  }

  function outline(inner, color, width, cls) {
    svg("rect", {
      class: cls || null, x: -1, y: -1, width: CW + 2, height: CH + 2, rx: 4.5,
      fill: "none", stroke: color, "stroke-width": width || 2.6,
    }, inner);
  }

  function shade(inner) {
    svg("rect", {
      class: "shade", x: 0, y: 0, width: CW, height: CH, rx: 3.5, fill: "#000000", "fill-opacity": 0.38,
    }, inner);
  }

  // -- the table's facts, from a view (or a spectator's document) ----------------

  function tableOf(message) {
    const doc = message.view || message.public;
    const facts = message.facts || {};
    const n = doc.hand_counts.length;
    const names = facts.seat_names || Array.from({ length: n }, (_, s) => `Seat ${s + 1}`);
    const viewer = message.view ? message.seat : null;
    const kinds = message.seats || [];
    const calls = doc.bids || Array(n).fill(null);
    const won = doc.tricks_won || Array(n).fill(0);
    const seats = [];
    for (let s = 0; s < n; s++) {
      let player = kinds[s] || null;
      if (player === "human") player = "person";
      if (s === viewer) player = "you";
      seats.push({
        seat: s,
        name: names[s],
        player,
        count: doc.hand_counts[s],
        call: calls[s],
        won: won[s],
        dealer: s === doc.dealer,
        declarer: doc.declarer !== null && doc.declarer !== undefined && s === doc.declarer,
        toAct: s === doc.to_act,
      });
    }
    const trick = doc.trick.map((card, k) => [(doc.leader + k) % n, card]);
    let lastTrick = null;
    if (doc.phase === "playing" && !doc.trick.length && doc.tricks.length) {
      const done = doc.tricks[doc.tricks.length - 1];
      lastTrick = [done.cards.map((card, k) => [(done.leader + k) % n, card]), done.winner];
    }
    const end = message.deal_end;
    if (doc.phase === "game-over" && end && end.last_trick) {
      // the game's last trick, which the server keeps (the view has none)
      const done = end.last_trick;
      lastTrick = [done.cards.map((card, k) => [(done.leader + k) % n, card]), done.winner];
    }
    const sides = doc.scores.map((_, i) => ({
      name: (facts.side_names || [])[i] || `Side ${i + 1}`,
      seats: (doc.side_seats || [])[i] || [],
    }));
    return {
      doc, facts, n, names, viewer, seats, trick, lastTrick, sides,
      phase: doc.phase,
      cards: message.view ? doc.cards : null,
      end: null,
    };
  }

  // The end of a deal (the message's `deal_end`, with the deal's entry of
  // `deal_results`): the table as it was when the deal's last card was played.
  function endedTable(table, end) {
    const result = (table.doc.deal_results || []).find((r) => r.number === end.deal);
    if (!result) return table;
    const n = table.n;
    const trick = end.last_trick;
    const seats = table.seats.map((seat) => ({
      ...seat,
      call: result.bids ? result.bids[seat.seat] : null,
      won: null,
      count: 0,
      dealer: seat.seat === result.dealer,
      declarer: result.declarer !== null && result.declarer !== undefined && seat.seat === result.declarer,
      toAct: false,
    }));
    return {
      ...table,
      seats,
      trick: [],
      lastTrick: trick ? [trick.cards.map((card, k) => [(trick.leader + k) % n, card]), trick.winner] : null,
      cards: null,
      end: { ...end, result },
    };
  }

  // -- drawing the table ------------------------------------------------------------
  //
  // The picture is drawn in CSS pixels at the width of its box (one unit, one
  // pixel), so its text is the size it says (12 px at least) and a hand card
  // is at least 44 px wide, at 400 px as at 1280.

  const NAME = 14;
  const SMALL = 12;
  const MIN_TAP = 44;

  function boardWidth() {
    const box = document.querySelector("#board");
    const width = box ? box.clientWidth : 0;
    return Math.max(300, Math.min(width || 480, 860));
  }

  function measures(width) {
    const wide = width >= 560;
    const trickW = wide ? 52 : 44;
    const handW = wide ? 58 : 48;
    return {
      W: width,
      trickW, trickH: trickW * CH / CW,
      handW, handH: handW * CH / CW,
      backW: 26, backH: 26 * CH / CW,
      cornerW: 36, cornerH: 50,
    };
  }

  // The other seats around the table, clockwise from the viewer's left:
  // [position, top index, tops] per seat.
  function around(count) {
    if (count === 1) return [["top", 0, 1]];
    if (count === 2) return [["left"], ["right"]];
    const tops = count - 2;
    const out = [["left"]];
    for (let k = 0; k < tops; k++) out.push(["top", k, tops]);
    out.push(["right"]);
    return out;
  }

  function miniFan(parent, count, x0, y, room, m, anchor) {
    if (!count) return;
    const step = count > 1 ? Math.min(10, (room - m.backW) / (count - 1)) : 0;
    const width = m.backW + step * (count - 1);
    let x = x0 - width / 2;
    if (anchor === "start") x = x0;
    else if (anchor === "end") x = x0 - width;
    for (let i = 0; i < count; i++, x += step) cardBack(parent, x, y, m.backW);
  }

  function seatDetail(seat, playing) {
    const parts = [];
    if (seat.declarer) parts.push("declarer");
    if (seat.call !== null && seat.call !== undefined) parts.push(seat.call);
    if (playing && seat.won !== null && seat.won !== undefined) parts.push(`won ${seat.won}`);
    return parts.join(" \u00b7 ");
  }

  function fit(text, size, room, bold) {
    if (textWidth(text, size, bold) <= room) return text;
    for (let keep = text.length - 1; keep > 2; keep--) {
      const cut = `${text.slice(0, keep).trimEnd()}\u2026`;
      if (textWidth(cut, size, bold) <= room) return cut;
    }
    return "";
  }

  // `text`'s parts (joined by " \u00b7 ") on as few lines of `room` pixels as they fit.
  function wrap(text, room) {
    const lines = [];
    for (const part of text ? text.split(" \u00b7 ") : []) {
      const last = lines.length ? `${lines[lines.length - 1]} \u00b7 ${part}` : null;
      if (last !== null && textWidth(last, SMALL) <= room) lines[lines.length - 1] = last;
      else lines.push(fit(part, SMALL, room, false));
    }
    return lines;
  }

  // The seat's name (on gold when it is to act), its player and its call,
  // tricks and cards from (x, y), in at most `room` pixels: on one line when
  // `oneLine` and it fits (else the details on a second), or one item a line.
  // Answers the number of lines.
  function drawLabel(parent, seat, x, y, anchor, room, playing, oneLine) {
    const g = svg("g", { class: "seat-label", "data-seat-label": seat.seat }, parent);
    const button = seat.dealer ? 22 : 0;
    const name = fit(seat.name, NAME, room - button, true);
    const nameW = textWidth(name, NAME, true);
    const cards = seat.hand || !seat.count ? "" : `${seat.count} card${seat.count !== 1 ? "s" : ""}`;
    const detail = [seatDetail(seat, playing), cards].filter(Boolean).join(" \u00b7 ");
    let player = seat.player ? `(${seat.player})` : "";
    const playerW = player ? textWidth(player, SMALL) + 6 : 0;
    const detailW = detail ? textWidth(detail, SMALL) + 12 : 0;
    let lines = [];
    let headW = button + nameW;
    if (oneLine && headW + playerW + detailW <= room) {
      headW += playerW + detailW;
    } else if (oneLine) {
      player = fit(player, SMALL, room - headW - 6, false);
      if (player) headW += textWidth(player, SMALL) + 6;
      if (detail) lines = [fit(detail, SMALL, room, false)];
    } else {
      lines = [fit(player, SMALL, room, false), ...wrap(detail, room)].filter(Boolean);
      player = "";
    }
    const together = oneLine && !lines.length;
    let x0 = x;
    if (anchor === "middle") x0 = x - headW / 2;
    else if (anchor === "end") x0 = x - headW;
    const nameX = x0 + button;
    if (seat.toAct) {
      svg("rect", {
        class: "to-act", x: num(nameX - 5), y: num(y - NAME), width: num(nameW + 10), height: NAME + 6, rx: 9,
        fill: GOLD,
      }, g);
    }
    if (seat.dealer) {
      svg("circle", {
        class: "dealer", cx: num(x0 + 9), cy: num(y - 5), r: 9, fill: "#ffffff", stroke: INK, "stroke-width": 0.8,
      }, g);
      svgText(g, x0 + 9, y - 0.5, "D", { size: SMALL, weight: "bold", anchor: "middle" });
    }
    svgText(g, nameX, y, name, { size: NAME, weight: "bold", fill: seat.toAct ? INK : "#ffffff", cls: "seat-name" });
    let after = nameX + nameW;
    if (player) {
      svgText(g, after + 6, y, player, { size: SMALL, fill: PALE, cls: "player" });
      after += textWidth(player, SMALL) + 6;
    }
    if (together && detail) svgText(g, after + 12, y, detail, { size: SMALL, fill: PALE, cls: "seat-detail" });
    lines.forEach((text, k) => {
      svgText(g, x, y + 16 * (k + 1), text, {
        size: SMALL, fill: PALE, anchor: anchor === "start" ? null : anchor, cls: "seat-detail",
      });
    });
    return 1 + lines.length;
  }

  function pill(parent, cx, cy, text, cls, fill) {
    const w = textWidth(text, SMALL, true) + 12;
    const h = 18;
    const g = svg("g", { class: cls }, parent);
    svg("rect", {
      x: num(cx - w / 2), y: num(cy - h / 2), width: num(w), height: h, rx: h / 2,
      fill: fill || "#ffffff", stroke: INK, "stroke-width": 0.8,
    }, g);
    svgText(g, cx, cy + 4.3, text, { size: SMALL, weight: "bold", anchor: "middle" });
    return g;
  }

  // Where each seat's card of a trick lies: toward the seat, around (cx, cy).
  function trickPlaces(table, place, m, cx, cy) {
    const out = {};
    for (const seat of table.seats) {
      const where = place[seat.seat];
      let dx = 0;
      let dy = 0;
      if (where.position === "bottom") dy = 1;
      else if (where.position === "left") dx = -1;
      else if (where.position === "right") dx = 1;
      else {
        dy = -1;
        if (where.tops > 1) dx = (where.index - (where.tops - 1) / 2) * 1.1;
      }
      const x = cx + dx * (m.trickW + 10) - m.trickW / 2;
      const y = cy + dy * (m.trickH / 2 + 6) - m.trickH / 2;
      out[seat.seat] = [x, y];
    }
    return out;
  }

  function drawMiddle(parent, table, places, m, cx, cy) {
    const g = svg("g", { class: "middle" }, parent);
    const cardAt = (group, seat, card) => {
      const [x, y] = places[seat];
      cardFace(group, card, x, y, { "data-trick-seat": seat }, m.trickW);
    };
    const tag = (seat, text, kind) => {
      const [x, y] = places[seat];
      pill(g, x + m.trickW / 2, y + m.trickH - 2, text, `${kind} tag`, kind.includes("won") ? GOLD : "#ffffff")
        .setAttribute("data-seat", seat);
    };
    if (table.trick.length) {
      const trick = svg("g", { class: "trick" }, g);
      for (const [seat, card] of table.trick) cardAt(trick, seat, card);
      tag(table.trick[0][0], "led", "lead");
    } else if (table.lastTrick) {
      const [plays, winner] = table.lastTrick;
      const ending = table.end !== null;
      const last = svg("g", { class: ending ? "last-trick deal-last-trick" : "last-trick", opacity: ending ? 1 : 0.6 }, g);
      for (const [seat, card] of plays) cardAt(last, seat, card);
      const leader = plays[0][0];
      if (leader === winner) {
        tag(leader, "led \u00b7 won", "lead won");
      } else {
        tag(leader, "led", "lead");
        tag(winner, "won", "won");
      }
      if (!ending) {
        // above the cards, clear of them and of their tags (between them it crowded them at 400 px)
        const top = Math.min(...Object.values(places).map(([, y]) => y));
        svgText(g, cx, top - 7, "last trick", { size: SMALL, fill: PALE, anchor: "middle", cls: "last-trick-label" });
      }
    } else if (table.phase === "bidding" || table.phase === "naming-trump") {
      for (const seat of table.seats) {
        if (seat.call === null || seat.call === undefined) continue;
        const [x, y] = places[seat.seat];
        const label = seat.call.startsWith("bid ") ? seat.call.slice(4) : seat.call;
        pill(g, x + m.trickW / 2, y + m.trickH / 2, label, "chip call").setAttribute("data-call-seat", seat.seat);
      }
    }
  }

  function drawCorners(parent, table, m) {
    const doc = table.doc;
    const turnUp = table.end ? table.end.result.turn_up : doc.turn_up;
    const trump = table.end ? table.end.result.trump : doc.trump;
    const y = 10;
    if (turnUp) {
      cardFace(parent, turnUp, 10, y, { "data-turn-up": turnUp }, m.cornerW);
      svgText(parent, 10 + m.cornerW / 2, y + m.cornerH + 15, "turn-up", { size: SMALL, fill: PALE, anchor: "middle" });
    }
    const x = m.W - 10 - m.cornerW;
    const g = svg("g", { class: "trump", "data-trump": trump || "" }, parent);
    svg("rect", {
      x, y, width: m.cornerW, height: m.cornerH, rx: 6, fill: "#ffffff", "fill-opacity": 0.92, stroke: FELT_EDGE,
    }, g);
    if (trump) {
      const color = trump === "H" || trump === "D" ? RED : BLACK;
      pip(g, trump, x + m.cornerW / 2 - 12, y + m.cornerH / 2 - 12, 24, color);
      const title = svg("title", {}, g);
      title.textContent = `trump: ${SUIT_NAMES[trump]}`;
    } else {
      const known = table.end !== null || doc.trump_known !== false;
      const word = known ? "none" : "?";
      svgText(g, x + m.cornerW / 2, y + m.cornerH / 2 + 5, word, {
        size: word === "?" ? 14 : SMALL, anchor: "middle", weight: "bold",
      });
    }
    svgText(parent, x + m.cornerW / 2, y + m.cornerH + 15, "trump", { size: SMALL, fill: PALE, anchor: "middle" });
  }

  // The viewer's hand below the felt: rows of cards, each at least 44 px to
  // tap (the part of a card not under the next one).
  function handRows(count, m) {
    const room = m.W - 16;
    if (!count) return { rows: 0, perRow: 0, step: 0 };
    let perRow = Math.max(1, Math.floor((room - m.handW) / MIN_TAP) + 1);
    const rows = Math.ceil(count / perRow);
    perRow = Math.ceil(count / rows);
    const step = perRow > 1 ? Math.min(m.handW + 6, (room - m.handW) / (perRow - 1)) : 0;
    return { rows, perRow, step };
  }

  function drawHand(parent, seat, top, m, handler) {
    const { perRow, step } = handRows(seat.hand.length, m);
    const g = svg("g", { class: "seat hand", "data-seat": seat.seat }, parent);
    seat.hand.forEach((item, i) => {
      const row = Math.floor(i / perRow);
      const inRow = Math.min(perRow, seat.hand.length - row * perRow);
      const rowW = m.handW + (inRow - 1) * step;
      const x = (m.W - rowW) / 2 + (i % perRow) * step;
      const y = top + row * (m.handH + 8);
      const card = cardFace(g, item.card, x, y, {
        class: `card hand-card ${item.playable ? "playable" : "refused"}`,
        "data-hand-card": item.card,
        "data-playable": item.playable ? "true" : "false",
        "data-reason": item.reason || null,
        role: "button",
        tabindex: 0,
        "aria-label": `${cardText(item.card)}${item.playable ? "" : ` (${item.message || "not playable"})`}`,
      }, m.handW, (inner) => {
        if (item.playable) outline(inner, GREEN, 2.2, "legal");
        else shade(inner);
      });
      card.addEventListener("click", () => handler(item));
      card.addEventListener("keydown", (event) => {
        if (event.key === "Enter" || event.key === " ") {
          event.preventDefault();
          handler(item);
        }
      });
    });
  }

  function drawFooter(parent, table, top, m) {
    const k = table.sides.length;
    const columns = m.W / k >= 150 ? k : 1;
    const colW = m.W / columns;
    const over = table.phase === "game-over";
    const end = table.end;
    const contracts = end ? end.result.contracts : table.doc.contracts;
    const sideTricks = end ? end.result.tricks : table.doc.side_tricks || [];
    let height = 0;
    table.sides.forEach((side, i) => {
      const col = i % columns;
      const row = Math.floor(i / columns);
      const x = colW * col + colW / 2;
      const y = top + row * 42;
      height = Math.max(height, (row + 1) * 42);
      const won = over && table.doc.winner === i;
      const g = svg("g", { class: "side-score", "data-side": i }, parent);
      if (won) {
        svg("rect", { x: num(colW * col + 4), y: y + 2, width: num(colW - 8), height: 38, rx: 6, fill: GOLD }, g);
      }
      const line = svg("text", { x: num(x), y: y + 18, "font-size": NAME, fill: INK, "text-anchor": "middle" }, g);
      const name = svg("tspan", { "font-weight": "bold" }, line);
      name.textContent = side.name;
      const score = svg("tspan", { dx: 6 }, line);
      score.textContent = minus(table.doc.scores[i]);
      let detail = "";
      if (end) {
        const made = end.made ? end.made[i] : null;
        detail = contracts && contracts[i] ? `contract ${contractText(contracts[i])} \u00b7 won ${sideTricks[i]}` : `won ${sideTricks[i]}`;
        if (made !== null && made !== undefined) detail += made ? " \u00b7 made" : " \u00b7 set";
      } else if (over) {
        detail = won ? "winner" : "";
      } else if (contracts) {
        const contract = contracts[i];
        detail = contract === null ? "no contract" : `contract ${contractText(contract)}`;
        if (sideTricks.length) detail += ` \u00b7 won ${sideTricks[i]}`;
      }
      if (detail) svgText(g, x, y + 34, fit(detail, SMALL, colW - 8, false), { size: SMALL, fill: GREY, anchor: "middle" });
    });
    return height;
  }

  // The table drawn from a seat's view (or a spectator's document):
  // `options.dealEnd` (the message's `deal_end`) draws the end of that deal
  // instead - its last trick, its calls and its result.
  function drawBoard(message, handler, options) {
    let table = tableOf(message);
    const dealEnd = options && options.dealEnd;
    if (dealEnd) table = endedTable(table, dealEnd);
    const n = table.n;
    const m = measures(boardWidth());
    let bottom = table.viewer;
    if (bottom === null) bottom = n === 4 && table.names[2] === "South" ? 2 : 0;
    if (table.viewer !== null && table.cards) {
      table.seats[table.viewer].hand = sortedCards(table.cards, (item) => item.card);
    }
    const place = { [bottom]: { position: "bottom" } };
    around(n - 1).forEach(([position, index, tops], k) => {
      place[(bottom + 1 + k) % n] = { position, index, tops };
    });

    const facts = table.facts;
    const deal = table.end ? table.end.deal : facts.deal;
    const handSize = table.end ? table.end.result.hand_size : table.doc.hand_size;
    const title = `${facts.title || "Back Alley"} \u00b7 deal ${deal} of ${table.doc.deals} \u00b7 ` +
      `${handSize} card${handSize === 1 ? "" : "s"}`;

    // the felt: the top seats, the sides and the trick between them, the viewer
    const header = 28;
    const topH = 92;
    const midH = Math.max(2 * m.trickH + 30, 136);
    const hand = table.viewer !== null ? table.seats[table.viewer].hand : null;
    // a spectator sees the bottom seat's backs under its name; a seat, its
    // hand below the felt
    const bottomBacks = !hand && !table.end && table.seats[bottom].count > 0;
    const feltH = topH + midH + (bottomBacks ? 52 + m.backH : 46);
    const { rows } = handRows(hand ? hand.length : 0, m);
    const handTop = header + feltH + 10;
    const handH = rows ? rows * (m.handH + 8) + 6 : 0;
    const footTop = handTop + handH;
    const footRows = m.W / table.sides.length >= 150 ? 1 : table.sides.length;
    const height = footTop + footRows * 42 + 6;

    const root = svg("svg", {
      version: "1.1", viewBox: `0 0 ${num(m.W)} ${num(height)}`, width: num(m.W), height: num(height),
      role: "group", "font-family": FONT, class: "board", "data-width": num(m.W),
      "aria-label": `${title}. ${facts.status || ""}`,
    });
    svg("rect", { width: num(m.W), height: num(height), fill: "#f7f5ef" }, root);
    svgText(root, 8, 19, fit(title, NAME, m.W - 16, true), { size: NAME, weight: "bold", cls: "board-title" });
    const felt = svg("g", { class: "felt", transform: `translate(0,${header})` }, root);
    svg("rect", {
      x: 1, y: 1, width: num(m.W - 2), height: num(feltH - 2), rx: 14, fill: FELT, stroke: FELT_EDGE, "stroke-width": 2,
    }, felt);
    drawCorners(felt, table, m);
    const playing = table.phase === "playing" || table.phase === "game-over" || table.end !== null;
    const cx = m.W / 2;
    const cy = topH + midH / 2;
    const crossW = 3 * m.trickW + 20;
    const sideRoom = Math.max(60, (m.W - crossW) / 2 - 14);
    for (const seat of table.seats) {
      const where = place[seat.seat];
      const g = svg("g", { class: "seat", "data-seat": seat.seat, "data-position": where.position }, felt);
      const backs = table.end || seat.hand ? 0 : seat.count;
      if (where.position === "top") {
        const slotW = (m.W - 2 * (m.cornerW + 18)) / where.tops;
        const x = m.cornerW + 18 + slotW * (where.index + 0.5);
        const lines = drawLabel(g, seat, x, 24, "middle", slotW - 8, playing, true);
        miniFan(g, backs, x, 24 + 16 * (lines - 1) + 10, Math.min(slotW - 8, 170), m);
      } else if (where.position === "left" || where.position === "right") {
        const left = where.position === "left";
        const x = left ? 10 : m.W - 10;
        const y = topH + 8;
        const anchor = left ? "start" : "end";
        const lines = drawLabel(g, seat, x, y, anchor, sideRoom, playing, sideRoom >= 200);
        miniFan(g, backs, x, y + 16 * (lines - 1) + 10, Math.min(sideRoom, 170), m, anchor);
      } else {
        const lines = drawLabel(g, seat, cx, topH + midH + 20, "middle", m.W - 24, playing, true);
        miniFan(g, backs, cx, topH + midH + 20 + 16 * (lines - 1) + 10, 170, m);
      }
    }
    drawMiddle(felt, table, trickPlaces(table, place, m, cx, cy), m, cx, cy);
    if (hand && hand.length) drawHand(root, table.seats[table.viewer], handTop, m, handler);
    drawFooter(root, table, footTop, m);
    return { root, table };
  }

  // -- the score sheet -------------------------------------------------------------------

  function contractText(contract) {
    if (contract === null || contract === undefined) return "\u2014";
    let text = contract.board ? "board" : String(contract.tricks);
    if (contract.multiplier !== 1) text += ` x${contract.multiplier}`;
    return text;
  }

  function drawScores(table) {
    const sheet = $("#scores");
    const head = sheet.querySelector("thead");
    const body = sheet.querySelector("tbody");
    const foot = sheet.querySelector("tfoot");
    head.replaceChildren();
    body.replaceChildren();
    foot.replaceChildren();
    const top = html("tr");
    top.append(html("th", { scope: "col" }, "Deal"), html("th", { scope: "col", title: "cards each" }, "Cards"),
      html("th", { scope: "col" }, "Trump"));
    table.sides.forEach((side) => top.append(html("th", { scope: "col" }, side.name)));
    head.append(top);
    for (const result of table.doc.deal_results) {
      const row = html("tr", { "data-deal": result.number });
      row.append(html("td", {}, result.number), html("td", {}, result.hand_size),
        html("td", { class: result.trump === "H" || result.trump === "D" ? "red" : null },
          result.trump ? SYMBOLS[result.trump] : "none"));
      table.sides.forEach((_, i) => {
        const cell = html("td", { "data-side": i });
        cell.append(html("strong", {}, minus(result.points[i])));
        const contract = result.contracts ? result.contracts[i] : null;
        cell.append(html("span", { class: "sub" }, `${contractText(contract)} / ${result.tricks[i]}`));
        row.append(cell);
      });
      body.append(row);
    }
    if (!table.doc.deal_results.length) {
      const row = html("tr", { class: "empty" });
      row.append(html("td", { colspan: 3 + table.sides.length }, "No deal scored yet."));
      body.append(row);
    }
    const total = html("tr", { id: "totals" });
    total.append(html("th", { scope: "row", colspan: 3 }, "Total"));
    table.sides.forEach((_, i) => {
      total.append(html("td", { "data-score-side": i }, minus(table.doc.scores[i])));
    });
    foot.append(total);
  }

  // -- talking to the server ------------------------------------------------------------

  async function api(method, path, body, token) {
    const headers = { Accept: "application/json" };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (token) headers.Authorization = `Bearer ${token}`;
    const response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: "no-store",
      credentials: "same-origin",
    });
    let data = null;
    try {
      data = await response.json();
    } catch (_) {
      data = { error: "bad-answer", message: `the server answered ${response.status} without JSON` };
    }
    return { ok: response.ok, status: response.status, data };
  }

  function refusal(answer) {
    const data = answer.data || {};
    let text = data.message || `refused (${answer.status})`;
    if (data.reason) text += ` (${data.reason})`;
    return text;
  }

  function tokenKey(table, seat) {
    return `backalley:token:${table}:${seat}`;
  }

  function socketUrl(path) {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${location.host}${path}`;
  }

  // -- the notice ----------------------------------------------------------------------------

  function notice(text, kind, reason) {
    const node = $("#notice");
    if (text && kind === "refused") text = sentence(text);  // the cards as the page writes them
    if (!text) {
      node.hidden = true;
      node.textContent = "";
      node.removeAttribute("data-kind");
      node.removeAttribute("data-reason");
      return;
    }
    node.hidden = false;
    node.textContent = text;
    node.setAttribute("data-kind", kind || "info");
    if (reason) node.setAttribute("data-reason", reason);
    else node.removeAttribute("data-reason");
  }

  function connection(state, text) {
    const node = $("#connection");
    node.setAttribute("data-state", state);
    node.textContent = text || "";
  }

  // -- the lobby ---------------------------------------------------------------------------------

  const lobby = {
    variants: [], seatsOf: {}, descriptions: {}, seatNames: {}, bots: [], players: 4, loaded: false,
    showQuiet: false,
  };

  const QUIET_SECONDS = 30 * 60;
  /* A table with no move for this long (and no seat of this browser's) is
   * quiet: the lobby leaves it aside, saying how many, until asked. */

  function seatNamesOf(name, players) {
    const names = lobby.seatNames[name];
    return names && names.length === players ? names : Array.from({ length: players }, (_, s) => `Seat ${s + 1}`);
  }

  function drawSeatChoices() {
    const box = $("#seat-choices");
    const before = Array.from(box.querySelectorAll("select"), (s) => s.value);
    box.replaceChildren();
    const fallback = lobby.bots.includes("heuristic") ? "heuristic" : lobby.bots[0];
    const names = seatNamesOf($("#variant").value, lobby.players);
    for (let s = 0; s < lobby.players; s++) {
      const row = html("div", { class: "row" });
      row.append(html("label", { for: `seat-${s}` }, names[s]));
      const select = html("select", { id: `seat-${s}`, "data-seat-choice": s });
      select.append(html("option", { value: "human" }, "a person"));
      for (const bot of lobby.bots) select.append(html("option", { value: bot }, `${bot} bot`));
      select.value = before[s] || (s === 0 ? "human" : fallback);
      row.append(select);
      box.append(row);
    }
  }

  async function chooseVariant() {
    // the number of seats, their names and the description are the server's
    // answers (GET /api/variants), never worked out here from the rules
    const name = $("#variant").value;
    lobby.players = lobby.seatsOf[name] || lobby.players;
    $("#variant-description").textContent = lobby.descriptions[name] || "";
    drawSeatChoices();
  }

  async function loadLobby() {
    if (!lobby.loaded) {
      const [variants, bots] = await Promise.all([api("GET", "/api/variants"), api("GET", "/api/bots")]);
      if (!variants.ok || !bots.ok) {
        notice(refusal(variants.ok ? bots : variants), "error");
        return;
      }
      lobby.variants = variants.data.variants;
      lobby.seatsOf = variants.data.players;
      lobby.descriptions = variants.data.descriptions || {};
      lobby.seatNames = variants.data.seat_names || {};
      lobby.bots = bots.data.bots;
      const select = $("#variant");
      select.replaceChildren();
      for (const name of lobby.variants) select.append(html("option", { value: name }, name));
      lobby.loaded = true;
      await chooseVariant();
    }
    await listTables();
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

  async function createTable() {
    const button = $("#create");
    let sizes;
    try {
      sizes = handSizes();
    } catch (err) {
      notice(err.message, "error");
      return;
    }
    button.disabled = true;
    try {
      const name = $("#variant").value;
      let rules = name;
      if (sizes) {
        const answer = await api("GET", `/api/variants/${encodeURIComponent(name)}`);
        if (!answer.ok) {
          notice(refusal(answer), "error");
          return;
        }
        rules = answer.data;
        rules.schedule = { type: "schedule", hand_sizes: sizes };
      }
      const seats = Array.from($("#seat-choices").querySelectorAll("select"), (s) => s.value);
      const made = await api("POST", "/api/tables", { rules, seats });
      if (!made.ok) {
        notice(refusal(made), "error");
        return;
      }
      const table = made.data.table;
      const human = seats.indexOf("human");
      notice("");
      if (human < 0) {
        location.hash = `#watch/${table}`;
        return;
      }
      await joinSeat(table, human);
    } finally {
      button.disabled = false;
    }
  }

  async function joinSeat(table, seat) {
    const joined = await api("POST", `/api/tables/${encodeURIComponent(table)}/seats/${seat}/join`);
    if (!joined.ok) {
      notice(refusal(joined), "error");
      return false;
    }
    sessionStorage.setItem(tokenKey(table, seat), joined.data.token);
    location.hash = `#table/${table}/seat/${seat}`;
    return true;
  }

  // A table is named by its rules and its players ("gamerules: 1 person,
  // 3 heuristic bots"), with when it was made and how far its game is.
  function playersText(seats) {
    const counts = new Map();
    for (const seat of seats) {
      const what = seat.player === "human" ? "person" : `${seat.player} bot`;
      counts.set(what, (counts.get(what) || 0) + 1);
    }
    return Array.from(counts, ([what, k]) => {
      if (k === 1) return `1 ${what}`;
      return `${k} ${what === "person" ? "people" : `${what}s`}`;
    }).join(", ");
  }

  function madeText(created) {
    if (typeof created !== "number") return "";
    const when = new Date(created * 1000);
    const today = new Date().toDateString() === when.toDateString();
    const time = when.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
    return today ? `made at ${time}` : `made ${when.toLocaleDateString()} ${time}`;
  }

  function progressText(summary) {
    if (summary.over) return "game over";
    if (typeof summary.deals !== "number") return summary.phase.replace("-", " ");
    return `deal ${Math.min((summary.deals_played || 0) + 1, summary.deals)} of ${summary.deals}`;
  }

  function agoText(seconds) {
    if (seconds < 90) return "just now";
    if (seconds < 90 * 60) return `${Math.round(seconds / 60)} min ago`;
    if (seconds < 36 * 3600) return `${Math.round(seconds / 3600)} h ago`;
    return `${Math.round(seconds / 86400)} days ago`;
  }

  // Who the table waits for ("West to play", "West, an open seat, to play")
  // and when it last moved: what tells apart tables of the same rules.
  function turnText(summary) {
    if (summary.over || typeof summary.to_act !== "number") return "";
    const seat = summary.seats[summary.to_act];
    if (!seat) return "";
    const name = seat.name || `Seat ${seat.seat + 1}`;
    return seat.open ? `waiting for someone at ${name}` : `${name} to play`;
  }

  function mine(summary) {
    return summary.seats.some((seat) => sessionStorage.getItem(tokenKey(summary.table, seat.seat)));
  }

  function quiet(summary, now) {
    const last = typeof summary.last_move === "number" ? summary.last_move : summary.created;
    return typeof last === "number" && now - last > QUIET_SECONDS && !mine(summary);
  }

  async function listTables() {
    const answer = await api("GET", "/api/tables");
    const list = $("#tables");
    list.replaceChildren();
    if (!answer.ok) {
      notice(refusal(answer), "error");
      return;
    }
    const now = Date.now() / 1000;
    const all = answer.data.tables;
    const quietOnes = all.filter((summary) => quiet(summary, now));
    const found = (lobby.showQuiet ? all : all.filter((summary) => !quiet(summary, now))).slice(0, 30);
    $("#no-tables").hidden = found.length > 0;
    list.hidden = found.length === 0;
    const aside = $("#quiet-tables");
    aside.hidden = lobby.showQuiet || quietOnes.length === 0;
    aside.querySelector("span").textContent = quietOnes.length === 1
      ? "1 quiet table (no move for 30 minutes) is not shown."
      : `${quietOnes.length} quiet tables (no move for 30 minutes) are not shown.`;
    for (const summary of found) {
      const item = html("li", { class: "table-item", "data-table": summary.table });
      item.append(html("div", { class: "table-name" }, `${summary.rules || "custom rules"}: ${playersText(summary.seats)}`));
      const last = typeof summary.last_move === "number" && summary.version > 0
        ? `last move ${agoText(now - summary.last_move)}` : "";
      const meta = [progressText(summary), turnText(summary), last || madeText(summary.created)]
        .filter(Boolean).join(" \u00b7 ");
      item.append(html("div", { class: "table-meta" }, meta));
      const actions = html("div", { class: "table-actions" });
      for (const seat of summary.seats) {
        const name = seat.name || `Seat ${seat.seat + 1}`;
        if (sessionStorage.getItem(tokenKey(summary.table, seat.seat))) {
          const go = html("button", {
            type: "button", class: "small", "data-resume": `${summary.table}:${seat.seat}`,
          }, `Back to ${name}`);
          go.addEventListener("click", () => {
            location.hash = `#table/${summary.table}/seat/${seat.seat}`;
          });
          actions.append(go);
        } else if (seat.open) {
          const join = html("button", {
            type: "button", class: "small", "data-join": `${summary.table}:${seat.seat}`,
          }, `Join as ${name}`);
          join.addEventListener("click", () => joinSeat(summary.table, seat.seat));
          actions.append(join);
        }
      }
      const watch = html("button", { type: "button", class: "small", "data-watch": summary.table }, "Watch");
      watch.addEventListener("click", () => {
        location.hash = `#watch/${summary.table}`;
      });
      actions.append(watch);
      item.append(actions);
      list.append(item);
    }
  }

  // -- the table -----------------------------------------------------------------------------------

  const FAILURES = 3;
  /* Attempts in a row at opening the socket that bring no message: past
   * them the page stops trying, asks the server why and says so. */

  const game = {
    table: null, seat: null, token: null, socket: null, message: null, version: -1,
    attempts: 0, failures: 0, timer: null, busy: false, closed: true, generation: 0,
    pause: null, continued: 0, first: true,
  };

  function continuedKey(table, seat) {
    return `backalley:continued:${table}:${seat === null ? "watch" : seat}`;
  }

  function leaveTable() {
    game.closed = true;
    game.generation += 1;
    if (game.timer) clearTimeout(game.timer);
    game.timer = null;
    if (game.socket) {
      try {
        game.socket.close(1000);
      } catch (_) { /* already closed */ }
    }
    game.socket = null;
    game.message = null;
    game.version = -1;
    game.busy = false;
    game.pause = null;
    const board = document.querySelector("#board");
    if (board) board.replaceChildren();
  }

  function openTable(table, seat) {
    leaveTable();
    game.table = table;
    game.seat = seat;
    game.token = seat === null ? null : sessionStorage.getItem(tokenKey(table, seat));
    game.closed = false;
    game.attempts = 0;
    game.failures = 0;
    game.first = true;
    game.continued = Number(sessionStorage.getItem(continuedKey(table, seat))) || 0;
    $("#board").replaceChildren();
    $("#calls").replaceChildren();
    $("#hint").textContent = "";
    $("#game-over").hidden = true;
    $("#deal-end").hidden = true;
    $("#actions").hidden = false;
    $("#join-box").hidden = true;
    trouble("");
    $("#phase").textContent = "";
    $("#phase").setAttribute("data-phase", "");
    $("#status").textContent = "";
    const section = $("#game");
    section.setAttribute("data-table", table);
    section.setAttribute("data-seat", seat === null ? "" : seat);
    section.setAttribute("data-version", "");
    section.setAttribute("data-phase", "");
    section.setAttribute("data-paused", "");
    if (seat !== null && !game.token) {
      notice(`This tab has not joined this table's seat ${seat + 1}.`, "error");
      $("#join-box").hidden = false;
      $("#actions-title").textContent = "Not seated";
      connection("idle", "");
      return;
    }
    connect();
  }

  function connect() {
    if (game.closed) return;
    const generation = game.generation;
    const path = game.seat === null
      ? `/api/tables/${encodeURIComponent(game.table)}/socket`
      : `/api/tables/${encodeURIComponent(game.table)}/seats/${game.seat}/socket`;
    connection("connecting", "connecting\u2026");
    let socket;
    try {
      socket = new WebSocket(socketUrl(path));
    } catch (err) {
      failed(generation);
      return;
    }
    game.socket = socket;
    let refused = false;
    let heard = false;
    socket.addEventListener("open", () => {
      if (game.seat !== null) socket.send(JSON.stringify({ token: game.token }));
    });
    socket.addEventListener("message", (event) => {
      if (generation !== game.generation) return;
      let message;
      try {
        message = JSON.parse(event.data);
      } catch (_) {
        return;
      }
      if (message.type === "error") {
        refused = true;
        const text = refusal({ data: message, status: 0 });
        if (message.error === "not-found") trouble(`This table is gone: ${text}.`);
        else notice(text, "error");
        return;
      }
      if (message.type === "view" || message.type === "public") {
        heard = true;
        game.attempts = 0;
        game.failures = 0;
        trouble("");
        connection("open", "connected");
        show(message);
      }
    });
    socket.addEventListener("close", (event) => {
      if (generation !== game.generation || game.closed) return;
      game.socket = null;
      // 4401 (a token that does not act for the seat), 4404 (no such table
      // or seat), 4413 (too large): trying again would change nothing.
      if (refused || [4401, 4404, 4413].includes(event.code)) {
        connection("closed", "not connected");
        return;
      }
      if (heard) retry(generation); // a live connection lost: connect again
      else failed(generation);
    });
  }

  function failed(generation) {
    // a socket that never brought a message: a few more tries, then why
    game.failures += 1;
    if (game.failures >= FAILURES) diagnose(generation);
    else retry(generation);
  }

  function retry(generation) {
    if (game.closed || generation !== game.generation) return;
    const delay = Math.min(10000, 500 * 2 ** game.attempts) * (0.75 + Math.random() * 0.5);
    game.attempts += 1;
    connection("waiting", `reconnecting in ${Math.round(delay / 1000)} s\u2026`);
    game.timer = setTimeout(() => {
      game.timer = null;
      connect();
    }, delay);
  }

  // The socket cannot be opened: ask the server (GET /api/health, and the
  // table) and say why, with a button to try again.
  async function diagnose(generation) {
    if (game.closed || generation !== game.generation) return;
    connection("closed", "not connected");
    let text;
    try {
      const [health, table] = await Promise.all([
        api("GET", "/api/health"),
        api("GET", `/api/tables/${encodeURIComponent(game.table)}`),
      ]);
      if (table.status === 404) {
        text = `This table is gone: ${refusal(table)}.`;
      } else if (health.ok && health.data.websockets === false) {
        text = `The table cannot be played live: ${health.data.message}.`;
      } else if (!health.ok || !table.ok) {
        text = `The server refuses: ${refusal(health.ok ? table : health)}.`;
      } else {
        text = "The live connection to the server fails again and again, though the server answers: " +
          "something between them (a proxy?) may not pass WebSockets.";
      }
    } catch (_) {
      text = "The server cannot be reached: it may have stopped, or this computer is offline.";
    }
    if (generation !== game.generation) return;
    trouble(text);
  }

  function trouble(text) {
    $("#trouble").hidden = !text;
    $("#trouble-text").textContent = text || "";
  }

  function show(message) {
    if (message.table !== game.table) return;
    if (message.version < game.version) return;
    game.version = message.version;
    game.message = message;
    const pausing = game.pause === null;
    considerPause(message);
    redraw();
    if (pausing && game.pause !== null) {
      const button = $("#continue");
      if (button) button.focus({ preventScroll: true });
    }
  }

  // The end of a deal is shown until the player continues: a seat's page
  // while the server says the seat has not continued (so also after a
  // reload), a spectator's for the deals that end while it watches.
  function considerPause(message) {
    const end = message.deal_end;
    const first = game.first;
    game.first = false;
    if (!end) return;
    if (game.pause !== null) {
      if (game.pause.deal === end.deal) game.pause = end; // who is waiting, now
      return;
    }
    if (end.deal <= game.continued) {
      // continued here, but not known to the server (it was restarted)
      if (game.seat !== null && end.waiting.includes(game.seat)) postContinue(end.deal);
      return;
    }
    const waited = game.seat === null ? !first : end.waiting.includes(game.seat);
    if (waited) game.pause = end;
    else setContinued(end.deal);
  }

  function setContinued(deal) {
    game.continued = deal;
    sessionStorage.setItem(continuedKey(game.table, game.seat), String(deal));
  }

  async function continueDeal() {
    const end = game.pause;
    if (end === null) return;
    game.pause = null;
    setContinued(end.deal);
    redraw();
    if (game.seat !== null) await postContinue(end.deal);
  }

  async function postContinue(deal) {
    const path = `/api/tables/${encodeURIComponent(game.table)}/seats/${game.seat}/continue`;
    let answer = null;
    try {
      answer = await api("POST", path, { deal }, game.token);
    } catch (_) {
      return; // the server gives up waiting by itself
    }
    // 409: a later deal has ended meanwhile, which the socket brings
    if (!answer.ok && answer.status !== 409) notice(refusal(answer), "error");
  }

  function redraw() {
    if (!game.message) return;
    // with the library loaded in the page (local.js), the seat's answers are its own
    const message = hooks.annotate ? hooks.annotate(game.message) : game.message;
    const end = game.pause;
    const { root, table } = drawBoard(message, end ? () => {} : clickCard, end ? { dealEnd: end } : null);
    $("#board").replaceChildren(root);
    const doc = table.doc;
    const section = $("#game");
    section.setAttribute("data-version", message.version);
    section.setAttribute("data-phase", doc.phase);
    section.setAttribute("data-paused", end ? end.deal : "");
    const phase = $("#phase");
    phase.textContent = doc.phase.replace("-", " ");
    phase.setAttribute("data-phase", doc.phase);
    // the one line of status: the deal's end while it is shown, else the server's
    $("#status").textContent = end ? `Deal ${end.deal} of ${doc.deals} is over` : table.facts.status || "";
    drawDealEnd(table);
    const over = doc.phase === "game-over" && !end;
    $("#actions").hidden = over || end !== null;
    drawCalls(table);
    drawScores(table);
    $("#game-over").hidden = !over;
    if (over) {
      const parts = table.sides.map((side, i) => `${side.name} ${minus(doc.scores[i])}`);
      $("#final").textContent = `${parts.join(", ")}.`;
      $("#record-link").setAttribute("href", `/api/tables/${encodeURIComponent(game.table)}/record`);
      $("#record-link").setAttribute("download", `backalley-${game.table}.json`);
    }
    if (message.stalled) notice(message.stalled, "error");
  }

  function signed(points) {
    return points > 0 ? `+${points}` : minus(points);
  }

  // The deal's result beside its last trick: each side's contract, tricks,
  // made or set and points; who the bots wait for; the button to go on.
  function drawDealEnd(table) {
    const box = $("#deal-end");
    const end = table.end;
    box.hidden = end === null;
    if (end === null) return;
    const result = end.result;
    const body = $("#deal-result tbody");
    body.replaceChildren();
    table.sides.forEach((side, i) => {
      const row = html("tr", { "data-side": i });
      const contract = result.contracts ? result.contracts[i] : null;
      const made = end.made ? end.made[i] : null;
      const verdict = made === null || made === undefined ? "no contract" : made ? "made" : "set";
      row.append(
        html("th", { scope: "row" }, side.name),
        html("td", {}, contractText(contract)),
        html("td", {}, result.tricks[i]),
        html("td", { class: made === false ? "set" : made ? "made" : null }, verdict),
        html("td", { class: "points" }, signed(result.points[i])),
      );
      body.append(row);
    });
    let trick = "";
    if (table.lastTrick) {
      const [plays, winner] = table.lastTrick;
      const cards = plays.map(([seat, card], k) => `${table.names[seat]}${k ? "" : " led"} ${cardText(card)}`);
      trick = `Last trick: ${cards.join(", ")}; ${table.names[winner]} won it.`;
    }
    $("#deal-end-trick").textContent = trick;
    let wait = "";
    const others = end.waiting.filter((seat) => seat !== table.viewer).map((seat) => table.names[seat]);
    if (end.holding && end.seconds_left !== null) {
      const most = `at most ${Math.ceil(end.seconds_left)} s`;
      if (table.viewer !== null && end.waiting.includes(table.viewer)) {
        wait = others.length ? `The bots wait for you and ${others.join(", ")} (${most}).`
          : `The bots wait until you continue (${most}).`;
      } else if (others.length) {
        wait = `The bots wait for ${others.join(", ")} (${most}).`;
      }
    }
    $("#deal-end-wait").textContent = wait;
    $("#continue").textContent = table.phase === "game-over" ? "See the final scores" : "Continue";
  }

  function callLabel(move) {
    const named = /^trump ([SHDC]|NT)$/.exec(move);
    if (named) return named[1] === "NT" ? "no trump" : `trump ${SYMBOLS[named[1]]}`;
    return move;
  }

  function drawCalls(table) {
    const box = $("#calls");
    box.replaceChildren();
    const doc = table.doc;
    const title = $("#actions-title");
    const hint = $("#hint");
    hint.textContent = "";
    if (table.end || doc.phase === "game-over") return;
    if (table.viewer === null) {
      title.textContent = "Watching";
      hint.textContent = "You watch this table: only what every player knows is shown.";
      return;
    }
    const mine = doc.to_act === table.viewer;
    // every legal move that is not a card's play is a button
    const calls = mine ? doc.legal_moves.filter((move) => !move.startsWith("play ")) : [];
    if (doc.phase === "playing" && !calls.length) {
      title.textContent = mine ? "Your play" : "Playing";
      hint.textContent = mine ? "Tap a card that is not greyed out." : `${table.names[doc.to_act]} to play.`;
      return;
    }
    title.textContent = doc.phase === "naming-trump" ? "Name the trump" : "Your call";
    if (!calls.length) {
      title.textContent = doc.phase === "naming-trump" ? "Naming the trump" : "Bidding";
      hint.textContent = doc.to_act === null ? "" : `${table.names[doc.to_act]} to call.`;
      return;
    }
    for (const move of calls) {
      const button = html("button", { type: "button", class: "call", "data-move": move }, callLabel(move));
      if (game.busy) button.disabled = true;
      button.addEventListener("click", () => sendMove(move));
      box.append(button);
    }
  }

  function clickCard(item) {
    if (!item.playable) {
      notice(refusedCard(item), "refused", item.reason);
      return;
    }
    sendMove(`play ${item.card}`);
  }

  async function sendMove(move) {
    if (game.busy || game.seat === null) return;
    game.busy = true;
    const generation = game.generation;
    // with the library loaded in the page, a move it refuses is explained at
    // once and not sent; a move it allows is still the server's to decide
    // (the library answers from its worker: a promise)
    if (hooks.check) {
      let local = null;
      try {
        local = await hooks.check(game.message, move);
      } catch (_) {
        local = null; // the library cannot say: the server decides
      }
      if (generation !== game.generation) return;
      if (local && !local.legal) {
        game.busy = false;
        notice(local.message || `${move} is refused`, "refused", local.reason);
        return;
      }
    }
    for (const button of document.querySelectorAll("#calls button")) button.disabled = true;
    const id = randomId();
    const path = `/api/tables/${encodeURIComponent(game.table)}/seats/${game.seat}/moves`;
    let answer = null;
    // A move lost on the way is sent again with the same client move id: the
    // server applies it at most once.
    for (let attempt = 0; attempt < 3 && answer === null; attempt++) {
      try {
        answer = await api("POST", path, { move, client_move_id: id }, game.token);
      } catch (_) {
        await sleep(400 * (attempt + 1));
      }
    }
    if (generation !== game.generation) return;
    game.busy = false;
    if (answer === null) {
      notice("The server cannot be reached; try again.", "error");
    } else if (!answer.ok) {
      notice(refusal(answer), "refused", answer.data && answer.data.reason);
    } else {
      notice("");
      // The answer holds the seat's view just after the move; the socket may
      // have brought a newer one already (the bots move on at once).
      if (answer.data.view && answer.data.table === game.table && answer.data.version > game.version) {
        game.version = answer.data.version;
        game.message = { type: "view", ...answer.data };
        considerPause(game.message);
      }
    }
    redraw();
  }

  // -- pages ---------------------------------------------------------------------------------------

  function placeNotice(inGame) {
    // beside the board in the game, at the top of the page in the lobby
    const node = $("#notice");
    if (inGame) $("#actions").append(node);
    else $("main").prepend(node);
  }

  function route() {
    const hash = location.hash.replace(/^#/, "");
    placeNotice(/^(table|watch)\//.test(hash));
    let match = /^table\/([A-Za-z0-9]{1,40})\/seat\/([0-9]{1,2})$/.exec(hash);
    if (match) {
      $("#lobby").hidden = true;
      $("#game").hidden = false;
      notice("");
      openTable(match[1], Number(match[2]));
      return;
    }
    match = /^watch\/([A-Za-z0-9]{1,40})$/.exec(hash);
    if (match) {
      $("#lobby").hidden = true;
      $("#game").hidden = false;
      notice("");
      openTable(match[1], null);
      return;
    }
    leaveTable();
    connection("idle", "");
    $("#game").hidden = true;
    $("#lobby").hidden = false;
    loadLobby().catch(() => notice("The server cannot be reached.", "error"));
  }

  function start() {
    $("#variant").addEventListener("change", () => {
      chooseVariant().catch(() => notice("The server cannot be reached.", "error"));
    });
    $("#create").addEventListener("click", () => {
      createTable().catch(() => notice("The server cannot be reached.", "error"));
    });
    $("#refresh").addEventListener("click", () => {
      listTables().catch(() => notice("The server cannot be reached.", "error"));
    });
    $("#show-quiet").addEventListener("click", () => {
      lobby.showQuiet = true;
      listTables().catch(() => notice("The server cannot be reached.", "error"));
    });
    $("#join").addEventListener("click", async () => {
      if (game.table !== null && game.seat !== null) {
        const table = game.table;
        const seat = game.seat;
        if (await joinSeat(table, seat)) openTable(table, seat);
      }
    });
    $("#continue").addEventListener("click", () => {
      continueDeal().catch(() => notice("The server cannot be reached.", "error"));
    });
    $("#try-again").addEventListener("click", () => {
      trouble("");
      game.failures = 0;
      game.attempts = 0;
      if (game.timer) clearTimeout(game.timer);
      game.timer = null;
      connect();
    });
    $("#notice").addEventListener("click", () => notice(""));
    // the picture is drawn at its box's width: drawn again when that changes
    let resized = null;
    window.addEventListener("resize", () => {
      clearTimeout(resized);
      resized = setTimeout(() => {
        if (!$("#game").hidden) redraw();
      }, 120);
    });
    window.addEventListener("hashchange", route);
    route();
  }

  // -- for the page's other modules: the offline table (offline.js) and the
  // local checks (local.js) draw with this code and hook into it: `annotate`
  // (message -> message, at each drawing) and `check` (message, move -> an
  // answer {legal, reason, message}, or a promise of one, or null) ---------------

  const hooks = { annotate: null, check: null };
  window.backalleyTable = Object.freeze({
    drawBoard, drawScores, cardText, refusedCard, callLabel, html, minus, notice, redraw, hooks,
  });

  // the offline table (data-table="offline") runs its own page, not the server's
  if (document.documentElement.getAttribute("data-table") !== "offline") {
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
    else start();
  }
})();

