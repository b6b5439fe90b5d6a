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
 * textContent.  Served with `--web DIR`, the page also loads the library
 * itself (local.js): the answers are then the page's own, and a move the
 * library refuses is explained without being sent.  The offline table
 * (offline.js) draws with this same code (window.backalleyTable).
 */
"use strict";

(() => {
  // -- the picture's measures and colours (as in backalley/render/svg.py) ----
  const SVGNS = "http://www.w3.org/2000/svg";
  const WIDTH = 480;
  const HEADER = 42;
  const TABLE = 440;
  const FOOTER = 46;
  const HEIGHT = HEADER + TABLE + FOOTER;
  const CW = 36;
  const CH = 50;
  const CENTER = [WIDTH / 2, 220];
  const COLUMN_LABEL = 190;
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

  function cardFace(parent, card, x, y, attrs) {
    const g = svg("g", { class: "card", "data-card": card, ...(attrs || {}) }, parent);
    const title = svg("title", {}, g);
    title.textContent = cardText(card);
    svg("rect", {
      x: num(x), y: num(y), width: CW, height: CH, rx: 3.5,
      fill: "#ffffff", stroke: "#6b6b6b", "stroke-width": 0.8,
    }, g);
    const color = cardColor(card);
    if (isJoker(card)) {
      svgText(g, x + 3, y + 13, card, { size: 12, fill: color, weight: "bold" });
      pip(g, null, x + CW / 2 - 9, y + CH / 2 - 4, 18, color);
    } else {
      const label = rankText(card);
      svgText(g, x + 2.5, y + 13, label, { size: 13, fill: color, weight: "bold", spacing: "-0.5" });
      // the small pip just after the rank (svg.py's 9 or 14.5, wider for Q, K, A)
      const width = Math.max(label.length === 2 ? 14.5 : 9, textWidth(label, 13, true) - 0.5 * label.length + 2);
      pip(g, suitOf(card), x + 2.5 + width, y + 3.5, 9.5, color);
      pip(g, suitOf(card), x + CW / 2 - 9, y + CH / 2 - 5, 18, color);
    }
    return g;
  }

  function cardBack(parent, x, y) {
    const g = svg("g", { class: "card back" }, parent);
    svg("rect", {
      x: num(x), y: num(y), width: CW, height: CH, rx: 3.5,
      fill: "#ffffff", stroke: "#6b6b6b", "stroke-width": 0.8,
    }, g);
    svg("rect", {
      x: num(x + 3), y: num(y + 3), width: CW - 6, height: CH - 6, rx: 2, fill: BACK,
    }, g);
    svg("path", {
      d: `M${num(x + CW / 2)} ${num(y + 8)} L${num(x + CW - 8)} ${num(y + CH / 2)} ` +
        `L${num(x + CW / 2)} ${num(y + CH - 8)} L${num(x + 8)} ${num(y + CH / 2)} Z`,
      fill: "none", stroke: "#ffffff", "stroke-opacity": 0.55, "stroke-width": 1.2,
    }, g);
  }

  function outline(parent, x, y, color, width, cls) {
    svg("rect", {
      class: cls || null,
      x: num(x - 1), y: num(y - 1), width: CW + 2, height: CH + 2, rx: 4.5,
      fill: "none", stroke: color, "stroke-width": width || 2.6,
    }, parent);
  }

  function shade(parent, x, y) {
    svg("rect", {
      class: "shade",
      x: num(x), y: num(y), width: CW, height: CH, rx: 3.5,
      fill: "#000000", "fill-opacity": 0.38,
    }, parent);
  }

  // -- layout (as svg.py's _slots and _fan) ---------------------------------------

  function slots(n) {
    const rows = [[[52, 366, 428, 416], [WIDTH / 2, 434], "middle"]];
    if (n === 2) {
      rows.push([[52, 24, 428, 74], [WIDTH / 2, 16], "middle"]);
    } else {
      const topParts = n - 3;
      const sideTop = topParts <= 1 ? 134 : 146;
      rows.push([[6, sideTop, 96, 356], [8, sideTop - 22], "start"]);
      if (topParts) {
        const y1 = topParts === 1 ? 74 : 106;
        const width = 376 / topParts;
        for (let k = 0; k < topParts; k++) {
          const x0 = 52 + k * width;
          rows.push([[x0 + 2, 24, x0 + width - 2, y1], [x0 + width / 2, 16], "middle"]);
        }
      }
      rows.push([[384, sideTop, 474, 356], [472, sideTop - 22], "end"]);
    }
    const [cx, cy] = CENTER;
    return rows.map(([box, label, anchor]) => {
      const bx = (box[0] + box[2]) / 2;
      const by = (box[1] + box[3]) / 2;
      const angle = Math.atan2(by - cy, bx - cx);
      const tx = cx + 74 * Math.cos(angle) - CW / 2;
      const ty = cy + 50 * Math.sin(angle) - CH / 2;
      const room = anchor === "middle" ? box[2] - box[0] - 6 : COLUMN_LABEL;
      return {
        box, label, anchor, room,
        trick: [Math.round(tx * 10) / 10, Math.round(ty * 10) / 10],
      };
    });
  }

  function fan(count, box) {
    const [x0, y0, x1, y1] = box;
    const width = x1 - x0;
    const height = y1 - y0;
    if (count === 0) return [];
    let best = null;
    for (const minStep of [27, 22, 16, 10, 4]) {
      for (let rows = 1; rows <= count; rows++) {
        const perRow = Math.ceil(count / rows);
        if (perRow > 1 && CW + (perRow - 1) * minStep > width) continue;
        const stepX = perRow === 1 ? 30 : Math.min(30, (width - CW) / (perRow - 1));
        const stepY = rows === 1 ? 0 : Math.min(CH + 4, (height - CH) / (rows - 1));
        if (rows > 1 && stepY < Math.min(18, minStep)) continue;
        best = [perRow, stepX, stepY];
        break;
      }
      if (best) break;
    }
    if (!best) best = [count, (width - CW) / Math.max(count - 1, 1), 0];
    const [perRow, stepX, stepY] = best;
    const rows = Math.ceil(count / perRow);
    const usedH = CH + (rows - 1) * stepY;
    const top = rows > 1 ? y0 + Math.max(0, (height - usedH) / 2) : y0;
    const out = [];
    for (let i = 0; i < count; i++) {
      const r = Math.floor(i / perRow);
      const c = i % perRow;
      const inRow = Math.min(perRow, count - r * perRow);
      const rowW = CW + (inRow - 1) * stepX;
      out.push([x0 + (width - rowW) / 2 + c * stepX, top + r * stepY]);
    }
    return out;
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
    const sides = doc.scores.map((_, i) => ({
      name: (facts.side_names || [])[i] || `Side ${i + 1}`,
      seats: (doc.side_seats || [])[i] || [],
    }));
    return {
      doc, facts, n, names, viewer, seats, trick, lastTrick, sides,
      phase: doc.phase,
      cards: message.view ? doc.cards : null,
    };
  }

  // -- drawing the table (as svg.py's board) -------------------------------------------

  const PLAYER_SIZE = 12;
  const BUTTON = 21;

  function fit(player, room) {
    let text = ` (${player})`;
    if (textWidth(text, PLAYER_SIZE) <= room) return text;
    for (let keep = player.length - 1; keep > 2; keep--) {
      text = ` (${player.slice(0, keep).trimEnd()}\u2026)`;
      if (textWidth(text, PLAYER_SIZE) <= room) return text;
    }
    return "";
  }

  function drawLabel(parent, seat, slot, playing) {
    const parts = seat.call === null || seat.call === undefined ? [] : [seat.call];
    if (seat.declarer) parts.unshift("declarer");
    if (playing) parts.push(`won ${seat.won}`);
    if (!seat.hand) parts.push(`${seat.count} card${seat.count !== 1 ? "s" : ""}`);
    const detail = parts.join(" \u00b7 ");
    const [x, y] = slot.label;
    const seatW = textWidth(seat.name, 13, true);
    const detailW = textWidth(detail, 11);
    const button = seat.dealer ? BUTTON : 0;
    const room = slot.room - seatW - button - (slot.anchor === "middle" ? detailW + 8 : 0);
    const player = seat.player ? fit(seat.player, room) : "";
    const nameW = seatW + textWidth(player, PLAYER_SIZE);
    let nameX;
    let detailX;
    const lineY = y;
    let detailY = y;
    if (slot.anchor === "middle") {
      const total = button + nameW + 8 + detailW;
      nameX = x - total / 2 + button;
      detailX = nameX + nameW + 8;
    } else {
      nameX = slot.anchor === "start" ? x : x - nameW;
      detailX = slot.anchor === "start" ? x : x - detailW;
      detailY = y + 15;
    }
    if (seat.toAct) {
      svg("rect", {
        class: "to-act",
        x: num(nameX - 4), y: num(lineY - 12), width: num(nameW + 8), height: 16, rx: 8,
        fill: GOLD,
      }, parent);
    }
    const name = svg("text", {
      class: "seat-name", x: num(nameX), y: num(lineY), "font-size": 13,
      fill: seat.toAct ? INK : "#ffffff", "font-weight": "bold",
    }, parent);
    name.appendChild(document.createTextNode(seat.name));
    if (player) {
      const span = svg("tspan", {
        class: "player", "font-size": PLAYER_SIZE, "font-weight": "normal",
      }, name);
      span.textContent = player;
    }
    svgText(parent, detailX, detailY, detail, { size: 11, fill: PALE, cls: "seat-detail" });
    if (seat.dealer) {
      const bx = slot.anchor === "start" ? nameX + nameW + 13 : nameX - 13;
      svg("circle", {
        class: "dealer", cx: num(bx), cy: num(lineY - 4.5), r: 7.5,
        fill: "#ffffff", stroke: INK, "stroke-width": 0.8,
      }, parent);
      svgText(parent, bx, lineY - 1, "D", { size: 10, weight: "bold", anchor: "middle" });
    }
  }

  function drawSeat(parent, table, seat, slot, handler) {
    const g = svg("g", { class: "seat", "data-seat": seat.seat }, parent);
    const playing = table.phase === "playing" || table.phase === "game-over";
    drawLabel(g, seat, slot, playing);
    const corners = fan(seat.hand ? seat.hand.length : seat.count, slot.box);
    if (!seat.hand) {
      for (const [x, y] of corners) cardBack(g, x, y);
      return;
    }
    seat.hand.forEach((item, i) => {
      const [x, y] = corners[i];
      const card = cardFace(g, item.card, x, y, {
        class: `card hand-card ${item.playable ? "playable" : "refused"}`,
        "data-hand-card": item.card,
        "data-playable": item.playable ? "true" : "false",
        "data-reason": item.reason || null,
        role: "button",
        tabindex: 0,
        "aria-label": `${cardText(item.card)}${item.playable ? "" : ` (${item.message || "not playable"})`}`,
      });
      if (item.playable) {
        outline(card, x, y, GREEN, 2.2, "legal");
      } else {
        shade(card, x, y);
      }
      card.addEventListener("click", () => handler(item));
      card.addEventListener("keydown", (event) => {
        if (event.key === "Enter" || event.key === " ") {
          event.preventDefault();
          handler(item);
        }
      });
    });
  }

  function chip(parent, x, y, text, cls) {
    const size = 12;
    const w = textWidth(text, size, true) + 12;
    const h = 20;
    const g = svg("g", { class: cls || "chip" }, parent);
    svg("rect", {
      x: num(x - w / 2), y: num(y - h / 2), width: num(w), height: h, rx: h / 2,
      fill: "#ffffff", stroke: INK, "stroke-width": 0.8,
    }, g);
    svgText(g, x - w / 2 + 6, y + size * 0.36, text, { size, weight: "bold" });
    return g;
  }

  function beside(parent, slot, seat, text, kind) {
    const [cx, cy] = CENTER;
    const [x, y] = slot.trick;
    const mx = x + CW / 2;
    const my = y + CH / 2;
    const dx = mx - cx;
    const dy = my - cy;
    const length = Math.hypot(dx, dy);
    const ux = length ? dx / length : 0;
    const uy = length ? dy / length : 1;
    const w = textWidth(text, 10, true) + 10;
    const h = 15;
    const reach = (hw, hh) => Math.min(ux ? hw / Math.abs(ux) : Infinity, uy ? hh / Math.abs(uy) : Infinity);
    const step = reach(CW / 2, CH / 2) + reach(w / 2, h / 2) + 3;
    const tx = mx + ux * step;
    const ty = my + uy * step;
    const g = svg("g", { class: kind, "data-seat": seat }, parent);
    svg("rect", {
      x: num(tx - w / 2), y: num(ty - h / 2), width: num(w), height: num(h), rx: 7.5,
      fill: kind.split(" ").includes("lead") ? GOLD : "#ffffff", stroke: INK, "stroke-width": 0.6,
    }, g);
    svgText(g, tx, ty + 3.6, text, { size: 10, weight: "bold", anchor: "middle" });
  }

  function drawMiddle(parent, table, place) {
    const [cx, cy] = CENTER;
    const g = svg("g", { class: "middle" }, parent);
    if (table.trick.length) {
      const trick = svg("g", { class: "trick" }, g);
      for (const [seat, card] of table.trick) {
        const [x, y] = place[seat].trick;
        cardFace(trick, card, x, y, { "data-trick-seat": seat });
      }
      const leader = table.trick[0][0];
      beside(g, place[leader], leader, "led", "lead");
    } else if (table.lastTrick) {
      const [plays, winner] = table.lastTrick;
      const last = svg("g", { class: "last-trick", opacity: 0.55 }, g);
      for (const [seat, card] of plays) {
        const [x, y] = place[seat].trick;
        cardFace(last, card, x, y, { "data-trick-seat": seat });
      }
      const leader = plays[0][0];
      if (leader === winner) {
        beside(g, place[leader], leader, "led \u00b7 won", "lead won");
      } else {
        beside(g, place[leader], leader, "led", "lead");
        beside(g, place[winner], winner, "won", "won");
      }
      svgText(g, cx, cy + 4, "last trick", { size: 11, fill: PALE, anchor: "middle" });
    } else if (table.phase === "bidding" || table.phase === "naming-trump") {
      for (const seat of table.seats) {
        if (seat.call === null || seat.call === undefined) continue;
        const [x, y] = place[seat.seat].trick;
        const label = seat.call.startsWith("bid ") ? seat.call.slice(4) : seat.call;
        const c = chip(g, x + CW / 2, y + CH / 2, label, "chip call");
        c.setAttribute("data-call-seat", seat.seat);
      }
    } else if (table.phase === "game-over") {
      const winner = table.doc.winner;
      const side = winner === null || winner === undefined ? "a draw" : `${table.sides[winner].name} won`;
      svgText(g, cx, cy - 4, "Game over", { size: 20, weight: "bold", fill: "#ffffff", anchor: "middle" });
      svgText(g, cx, cy + 18, side, { size: 14, fill: "#ffffff", anchor: "middle" });
    }
  }

  function drawCorners(parent, table) {
    const doc = table.doc;
    if (doc.turn_up) {
      cardFace(parent, doc.turn_up, 8, 24, { "data-turn-up": doc.turn_up });
      svgText(parent, 26, 88, "turn-up", { size: 10, fill: PALE, anchor: "middle" });
    }
    const x = WIDTH - 8 - CW;
    const y = 24;
    const g = svg("g", { class: "trump", "data-trump": doc.trump || "" }, parent);
    svg("rect", {
      x, y, width: CW, height: CH, rx: 6, fill: "#ffffff", "fill-opacity": 0.92, stroke: FELT_EDGE,
    }, g);
    if (doc.trump) {
      const color = doc.trump === "H" || doc.trump === "D" ? RED : BLACK;
      pip(g, doc.trump, x + CW / 2 - 12, y + CH / 2 - 12, 24, color);
      const title = svg("title", {}, g);
      title.textContent = `trump: ${SUIT_NAMES[doc.trump]}`;
    } else {
      const known = table.doc.trump_known !== false;
      const word = known ? "none" : "?";
      svgText(g, x + CW / 2, y + CH / 2 + 5, word, {
        size: word === "?" ? 13 : 11, anchor: "middle", weight: "bold",
      });
    }
    svgText(parent, x + CW / 2, 88, "trump", { size: 10, fill: PALE, anchor: "middle" });
  }

  function drawFooter(parent, table) {
    const top = HEADER + TABLE;
    const k = table.sides.length;
    const col = WIDTH / k;
    const narrow = col < 130;
    const over = table.phase === "game-over";
    const contracts = table.doc.contracts;
    const sideTricks = table.doc.side_tricks || [];
    table.sides.forEach((side, i) => {
      const x = col * i + col / 2;
      const won = over && table.doc.winner === i;
      const g = svg("g", { class: "side-score", "data-side": i }, parent);
      if (won) {
        svg("rect", {
          x: num(col * i + 4), y: top + 4, width: num(col - 8), height: FOOTER - 8, rx: 6, fill: GOLD,
        }, g);
      }
      const line = svg("text", {
        x: num(x), y: top + 20, "font-size": 13, fill: INK, "text-anchor": "middle",
      }, g);
      const name = svg("tspan", { "font-weight": "bold" }, line);
      name.textContent = side.name;
      const score = svg("tspan", { dx: 6 }, line);
      score.textContent = minus(table.doc.scores[i]);
      let detail = "";
      if (over) {
        detail = won ? "winner" : "";
      } else if (contracts) {
        const contract = contracts[i];
        detail = contract === null ? "no contract" : `contract ${contractText(contract)}`;
        if (!narrow && sideTricks.length) detail += ` \u00b7 won ${sideTricks[i]}`;
      }
      if (detail) {
        svgText(g, x, top + 36, detail, { size: narrow ? 9.5 : 10.5, fill: GREY, anchor: "middle" });
      }
    });
  }

  function drawBoard(message, handler) {
    const table = tableOf(message);
    const n = table.n;
    let bottom = table.viewer;
    if (bottom === null) bottom = n === 4 && table.names[2] === "South" ? 2 : 0;
    if (table.viewer !== null && table.cards) {
      table.seats[table.viewer].hand = sortedCards(table.cards, (item) => item.card);
    }
    const places = slots(n);
    const place = {};
    for (let k = 0; k < n; k++) place[(bottom + k) % n] = places[k];

    const facts = table.facts;
    const title = `${facts.title || "Back Alley"} \u00b7 deal ${facts.deal} of ${table.doc.deals} \u00b7 ` +
      `${table.doc.hand_size} card${table.doc.hand_size === 1 ? "" : "s"}`;
    let status = facts.status || "";
    const root = svg("svg", {
      version: "1.1", viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: "group",
      "font-family": FONT, class: "board",
      "aria-label": `${facts.title || "Back Alley"}, deal ${facts.deal} of ${table.doc.deals}. ${status}`,
    });
    svg("rect", { width: WIDTH, height: HEIGHT, fill: "#f7f5ef" }, root);
    if (table.viewer !== null) status += ` \u2014 ${table.names[table.viewer]}'s view`;
    else status += " \u2014 watching";
    svgText(root, 10, 18, title, { size: 14, weight: "bold" });
    svgText(root, 10, 35, status, { size: 12, fill: GREY });
    const felt = svg("g", { transform: `translate(0,${HEADER})` }, root);
    svg("rect", {
      x: 1, y: 1, width: WIDTH - 2, height: TABLE - 2, rx: 14, fill: FELT, stroke: FELT_EDGE, "stroke-width": 2,
    }, felt);
    drawCorners(felt, table);
    for (const seat of table.seats) drawSeat(felt, table, seat, place[seat.seat], handler);
    drawMiddle(felt, table, place);
    drawFooter(root, table);
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

  const lobby = { variants: [], seatsOf: {}, bots: [], players: 4, loaded: false };

  function drawSeatChoices() {
    const box = $("#seat-choices");
    const before = Array.from(box.querySelectorAll("select"), (s) => s.value);
    box.replaceChildren();
    const fallback = lobby.bots.includes("heuristic") ? "heuristic" : lobby.bots[0];
    for (let s = 0; s < lobby.players; s++) {
      const row = html("div", { class: "row" });
      row.append(html("label", { for: `seat-${s}` }, `Seat ${s + 1}`));
      const select = html("select", { id: `seat-${s}`, "data-seat-choice": s });
      select.append(html("option", { value: "human" }, "a person"));
      for (const bot of lobby.bots) select.append(html("option", { value: bot }, `${bot} bot`));
      select.value = before[s] || (s === 0 ? "human" : fallback);
      row.append(select);
      box.append(row);
    }
  }

  async function chooseVariant() {
    // the number of seats is the server's answer (GET /api/variants), never
    // worked out here from the rules
    const name = $("#variant").value;
    lobby.players = lobby.seatsOf[name] || lobby.players;
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
    if (!parts.every((p) => /^[0-9]{1,3}$/.test(p) && Number(p) > 0)) {
      throw new Error("hand sizes are whole numbers of cards, one per deal, such as 3 2 1");
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

  async function listTables() {
    const answer = await api("GET", "/api/tables");
    const body = $("#tables tbody");
    body.replaceChildren();
    if (!answer.ok) {
      notice(refusal(answer), "error");
      return;
    }
    const found = answer.data.tables.slice(-30).reverse();
    $("#no-tables").hidden = found.length > 0;
    $("#tables").hidden = found.length === 0;
    for (const summary of found) {
      const row = html("tr", { "data-table": summary.table });
      row.append(html("td", { class: "mono" }, summary.table), html("td", {}, summary.rules),
        html("td", {}, summary.over ? "game over" : summary.phase));
      const seats = html("td", { class: "seats" });
      for (const seat of summary.seats) {
        const mine = sessionStorage.getItem(tokenKey(summary.table, seat.seat));
        if (mine) {
          const go = html("button", {
            type: "button", class: "small", "data-resume": `${summary.table}:${seat.seat}`,
          }, `back to seat ${seat.seat + 1}`);
          go.addEventListener("click", () => {
            location.hash = `#table/${summary.table}/seat/${seat.seat}`;
          });
          seats.append(go);
        } else if (seat.open) {
          const join = html("button", {
            type: "button", class: "small", "data-join": `${summary.table}:${seat.seat}`,
          }, `join seat ${seat.seat + 1}`);
          join.addEventListener("click", () => joinSeat(summary.table, seat.seat));
          seats.append(join);
        } else {
          seats.append(html("span", { class: "taken" }, `${seat.seat + 1}: ${seat.player}`));
        }
      }
      row.append(seats);
      const watch = html("td");
      const button = html("button", { type: "button", class: "small", "data-watch": summary.table }, "watch");
      button.addEventListener("click", () => {
        location.hash = `#watch/${summary.table}`;
      });
      watch.append(button);
      row.append(watch);
      body.append(row);
    }
  }

  // -- the table -----------------------------------------------------------------------------------

  const game = {
    table: null, seat: null, token: null, socket: null, message: null, version: -1,
    attempts: 0, timer: null, busy: false, closed: true, generation: 0,
  };

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
  }

  function openTable(table, seat) {
    leaveTable();
    game.table = table;
    game.seat = seat;
    game.token = seat === null ? null : sessionStorage.getItem(tokenKey(table, seat));
    game.closed = false;
    game.attempts = 0;
    $("#board").replaceChildren();
    $("#calls").replaceChildren();
    $("#hint").textContent = "";
    $("#game-over").hidden = true;
    $("#join-box").hidden = true;
    $("#phase").textContent = "";
    $("#phase").setAttribute("data-phase", "");
    $("#status").textContent = "";
    const section = $("#game");
    section.setAttribute("data-table", table);
    section.setAttribute("data-seat", seat === null ? "" : seat);
    section.setAttribute("data-version", "");
    if (seat !== null && !game.token) {
      notice(`This tab has not joined seat ${seat + 1} of table ${table}.`, "error");
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
      retry(generation);
      return;
    }
    game.socket = socket;
    let refused = false;
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
        notice(refusal({ data: message, status: 0 }), "error");
        return;
      }
      if (message.type === "view" || message.type === "public") {
        game.attempts = 0;
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
      retry(generation);
    });
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

  function show(message) {
    if (message.table !== game.table) return;
    if (message.version < game.version) return;
    game.version = message.version;
    game.message = message;
    redraw();
  }

  function redraw() {
    if (!game.message) return;
    // with the library loaded in the page (local.js), the seat's answers are its own
    const message = hooks.annotate ? hooks.annotate(game.message) : game.message;
    const { root, table } = drawBoard(message, clickCard);
    $("#board").replaceChildren(root);
    const doc = table.doc;
    const section = $("#game");
    section.setAttribute("data-version", message.version);
    section.setAttribute("data-phase", doc.phase);
    const phase = $("#phase");
    phase.textContent = doc.phase.replace("-", " ");
    phase.setAttribute("data-phase", doc.phase);
    $("#status").textContent = table.facts.status || "";
    drawCalls(table);
    drawScores(table);
    const over = doc.phase === "game-over";
    $("#game-over").hidden = !over;
    if (over) {
      const parts = table.sides.map((side, i) => `${side.name} ${minus(doc.scores[i])}`);
      $("#final").textContent = `${table.facts.status || "Game over"}. Final scores: ${parts.join(", ")}.`;
      $("#record-link").setAttribute("href", `/api/tables/${encodeURIComponent(game.table)}/record`);
      $("#record-link").setAttribute("download", `backalley-${game.table}.json`);
    }
    if (message.stalled) notice(message.stalled, "error");
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
    if (table.viewer === null) {
      title.textContent = "Watching";
      hint.textContent = "You watch this table: only what every player knows is shown.";
      return;
    }
    const mine = doc.to_act === table.viewer;
    if (doc.phase === "game-over") {
      title.textContent = "The game is over";
      return;
    }
    // every legal move that is not a card's play is a button
    const calls = mine ? doc.legal_moves.filter((move) => !move.startsWith("play ")) : [];
    if (doc.phase === "playing" && !calls.length) {
      title.textContent = mine ? "Your play" : "Playing";
      hint.textContent = mine ? "Click a card that is not greyed out." : `${table.names[doc.to_act]} to play.`;
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
      notice(item.message ? `${cardText(item.card)}: ${item.message}` : `${cardText(item.card)} cannot be played now`,
        "refused", item.reason);
      return;
    }
    sendMove(`play ${item.card}`);
  }

  async function sendMove(move) {
    if (game.busy || game.seat === null) return;
    // with the library loaded in the page, a move it refuses is explained at
    // once and not sent; a move it allows is still the server's to decide
    const local = hooks.check ? hooks.check(game.message, move) : null;
    if (local && !local.legal) {
      notice(local.message || `${move} is refused`, "refused", local.reason);
      return;
    }
    game.busy = true;
    const generation = game.generation;
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
    $("#join").addEventListener("click", async () => {
      if (game.table !== null && game.seat !== null) {
        const table = game.table;
        const seat = game.seat;
        if (await joinSeat(table, seat)) openTable(table, seat);
      }
    });
    $("#notice").addEventListener("click", () => notice(""));
    window.addEventListener("hashchange", route);
    route();
  }

  // -- for the page's other modules: the offline table (offline.js) and the
  // local checks (local.js) draw with this code and hook into it ---------------

  const hooks = { annotate: null, check: null };
  window.backalleyTable = Object.freeze({
    drawBoard, drawScores, cardText, callLabel, html, minus, notice, redraw, hooks,
  });

  // the offline table (data-table="offline") runs its own page, not the server's
  if (document.documentElement.getAttribute("data-table") !== "offline") {
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
    else start();
  }
})();
