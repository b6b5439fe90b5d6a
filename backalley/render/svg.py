"""Pictures of positions: :func:`board` draws a state or a view as SVG.

The picture shows the table from above: the seats around it with their names
(North, East, South, West in a four-player partnership game, else Seat 1 ..
Seat n; see :mod:`backalley.rules.seats`) and, when given, their players
beside them (``North (heuristic)``), each hand (face up for a full
:class:`~backalley.GameState` and for a :class:`~backalley.PlayerView`'s own
seat, face down with its count for the hands a view does not see), the
current trick in the middle with a ``led`` tag beside the leader's card (or,
between tricks, the last trick with ``led`` and ``won`` beside its leader's
and its winner's cards; during the bidding, the calls), the turn-up and the
trump, each seat's call and tricks won, the dealer button, the seat to act,
and the scores with each side's contract.

The SVG is self-contained (no fonts, images or style sheets to fetch; suits
are drawn as shapes, not font glyphs), has no ``id`` attributes (so several
pictures can be inlined in one HTML page), and is meant to be read from 400
pixels wide: it is drawn ``size`` pixels wide (480 by default) but never wider
than the page or frame it is shown in (``max-width: 100%``), keeping its
proportions.  Notebooks show it through ``state._repr_svg_()``; a text table of
the same facts is :func:`backalley.render.diagram.diagram`.

Only what the position knows is drawn: a view's picture holds no trace of a
hidden card (face-down cards are all alike).

One module, one job: one picture, whose hands, trick, labels and scores are
laid out on one set of coordinates.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from xml.sax.saxutils import escape, quoteattr

import attrs

from backalley.cards import Card, Rank, Suit
from backalley.errors import SetupError
from backalley.moves import MOVE_TYPES as _MOVE_TYPES
from backalley.moves import Move, NameTrump, Play
from backalley.render.diagram import (
    DiagramFacts,
    SeatFacts,
    StateOrView,
    call_text,
    rank_text,
    table_of,
)
from backalley.rules.seats import COMPASS, seat_names

__all__ = ["board"]

WIDTH = 480
"""The picture's width in its own units (the ``viewBox``)."""
HEADER = 42
TABLE = 440
FOOTER = 46
HEIGHT = HEADER + TABLE + FOOTER
CW, CH = 36, 50
"""A card's width and height."""
FONT = "DejaVu Sans, Verdana, Helvetica, Arial, sans-serif"

FELT = "#1d6a44"
FELT_EDGE = "#124a2f"
GOLD = "#f2c94c"
GREEN = "#4cd07d"
RED = "#c8102e"
BLACK = "#1a1a1a"
BACK = "#2f5ea8"
INK = "#20262e"

_PIPS = {
    Suit.DIAMONDS: "M50 2 L92 50 L50 98 L8 50 Z",
    Suit.HEARTS: (
        "M50 94 C22 70 2 52 2 30 C2 13 14 4 28 4 C39 4 47 11 50 21 "
        "C53 11 61 4 72 4 C86 4 98 13 98 30 C98 52 78 70 50 94 Z"
    ),
    Suit.SPADES: (
        "M50 2 C78 28 98 44 98 62 C98 77 87 86 74 86 C65 86 57 82 53 75 "
        "C54 86 59 93 68 98 L32 98 C41 93 46 86 47 75 C43 82 35 86 26 86 "
        "C13 86 2 77 2 62 C2 44 22 28 50 2 Z"
    ),
    Suit.CLUBS: (
        "M50 4 A21 21 0 1 1 49.9 4 Z M26 38 A21 21 0 1 1 25.9 38 Z "
        "M74 38 A21 21 0 1 1 73.9 38 Z M46 55 C46 78 42 90 32 98 L68 98 "
        "C58 90 54 78 54 55 Z"
    ),
}
_STAR = "M50 4 L61 38 L97 38 L68 59 L79 94 L50 73 L21 94 L32 59 L3 38 L39 38 Z"


def _num(x: float) -> str:
    """A coordinate, short: ``12``, ``12.5``."""
    text = f"{x:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _color(card: Card) -> str:
    if card.suit is None:
        return RED if card.rank is Rank.BIG_JOKER else BLACK
    return RED if card.suit in (Suit.HEARTS, Suit.DIAMONDS) else BLACK


def _pip(suit: Suit | None, x: float, y: float, size: float, fill: str) -> str:
    """A suit shape (or a joker's star) in the ``size`` square at ``x``, ``y``."""
    path = _STAR if suit is None else _PIPS[suit]
    return (
        f'<path transform="translate({_num(x)},{_num(y)}) scale({size / 100:.3f})" '
        f'fill="{fill}" d="{path}"/>'
    )


def _text(
    x: float,
    y: float,
    text: str,
    *,
    size: float = 12,
    fill: str = INK,
    anchor: str = "start",
    weight: str = "normal",
    extra: str = "",
) -> str:
    attrs_ = f' text-anchor="{anchor}"' if anchor != "start" else ""
    if weight != "normal":
        attrs_ += f' font-weight="{weight}"'
    return (
        f'<text x="{_num(x)}" y="{_num(y)}" font-size="{_num(size)}" fill="{fill}"'
        f"{attrs_}{extra}>{escape(text)}</text>"
    )


# Advance widths (hundredths of an em) of the ASCII characters 32..126 in DejaVu
# Sans and DejaVu Sans Bold, the widest of the fonts the picture asks for: text
# is measured with them so that labels never run into each other.
_WIDTHS = (
    "32 40 46 84 64 95 78 27 39 39 50 84 32 36 32 34 64 64 64 64 64 64 64 64 64 64 34 34 84 84 "
    "84 53 100 68 69 70 77 63 58 77 75 29 29 66 56 86 75 79 60 79 69 63 61 73 68 99 69 61 69 39 "
    "34 39 84 50 50 61 63 55 63 62 35 63 63 28 28 58 28 97 63 61 63 63 41 52 39 63 59 82 59 59 "
    "52 64 34 64 84"
)
_BOLD_WIDTHS = (
    "35 46 52 84 70 100 87 31 46 46 52 84 38 42 38 37 70 70 70 70 70 70 70 70 70 70 40 40 84 84 "
    "84 58 100 77 76 73 83 68 68 82 84 37 37 77 64 100 84 85 73 85 77 72 68 81 77 110 77 72 73 "
    "46 37 46 84 50 50 67 72 59 72 68 44 72 71 34 34 67 34 104 71 69 72 72 49 60 48 71 65 92 65 "
    "65 58 71 37 71 84"
)
_ADVANCE = (
    tuple(int(w) / 100 for w in _WIDTHS.split()),
    tuple(int(w) / 100 for w in _BOLD_WIDTHS.split()),
)


def text_width(text: str, size: float, bold: bool = False) -> float:
    """The width of ``text`` at font ``size`` (in DejaVu Sans; other characters
    than ASCII count as a wide letter)."""
    table = _ADVANCE[bold]
    return size * sum(table[ord(ch) - 32] if 32 <= ord(ch) < 127 else 0.8 for ch in text)


# -- cards -------------------------------------------------------------------------


def _card_face(card: Card, x: float, y: float) -> list[str]:
    color = _color(card)
    out = [
        f'<g class="card" data-card="{card}">',
        f'<rect x="{_num(x)}" y="{_num(y)}" width="{CW}" height="{CH}" rx="3.5" '
        f'fill="#ffffff" stroke="#6b6b6b" stroke-width="0.8"/>',
    ]
    if card.suit is None:
        label = card.rank.letter
        out.append(_text(x + 3, y + 13, label, size=12, fill=color, weight="bold"))
        out.append(_pip(None, x + CW / 2 - 9, y + CH / 2 - 4, 18, color))
    else:
        label = rank_text(card)
        out.append(
            _text(
                x + 2.5,
                y + 13,
                label,
                size=13,
                fill=color,
                weight="bold",
                extra=' letter-spacing="-0.5"',
            )
        )
        width = 14.5 if len(label) == 2 else 9
        out.append(_pip(card.suit, x + 2.5 + width, y + 3.5, 9.5, color))
        out.append(_pip(card.suit, x + CW / 2 - 9, y + CH / 2 - 5, 18, color))
    out.append("</g>")
    return out


def _card_back(x: float, y: float) -> list[str]:
    return [
        '<g class="card back">',
        f'<rect x="{_num(x)}" y="{_num(y)}" width="{CW}" height="{CH}" rx="3.5" '
        f'fill="#ffffff" stroke="#6b6b6b" stroke-width="0.8"/>',
        f'<rect x="{_num(x + 3)}" y="{_num(y + 3)}" width="{CW - 6}" height="{CH - 6}" rx="2" '
        f'fill="{BACK}"/>',
        f'<path d="M{_num(x + CW / 2)} {_num(y + 8)} L{_num(x + CW - 8)} {_num(y + CH / 2)} '
        f'L{_num(x + CW / 2)} {_num(y + CH - 8)} L{_num(x + 8)} {_num(y + CH / 2)} Z" '
        f'fill="none" stroke="#ffffff" stroke-opacity="0.55" stroke-width="1.2"/>',
        "</g>",
    ]


def _outline(x: float, y: float, color: str, width: float = 2.6, kind: str = "") -> str:
    """A frame round the card at ``x``, ``y``; ``kind`` becomes its ``class``
    (``legal`` for the legal plays' frames)."""
    cls = f' class="{kind}"' if kind else ""
    return (
        f'<rect{cls} x="{_num(x - 1)}" y="{_num(y - 1)}" width="{CW + 2}" height="{CH + 2}" '
        f'rx="4.5" fill="none" stroke="{color}" stroke-width="{width}"/>'
    )


def _shade(x: float, y: float) -> str:
    return (
        f'<rect x="{_num(x)}" y="{_num(y)}" width="{CW}" height="{CH}" rx="3.5" '
        f'fill="#000000" fill-opacity="0.38"/>'
    )


# -- layout ------------------------------------------------------------------------


@attrs.frozen
class _Slot:
    """Where one seat sits: its hand's box, its label and its place in the trick."""

    box: tuple[float, float, float, float]
    """x0, y0, x1, y1 of the hand, in table units."""
    label: tuple[float, float]
    anchor: str
    """``middle`` (top and bottom rows, one label line) or ``start``/``end`` (columns, two lines)."""
    trick: tuple[float, float]
    """The top-left corner of the seat's card in the trick."""
    room: float
    """The widest the label's first line may be."""


CENTER = (WIDTH / 2, 220.0)
COLUMN_LABEL = 190.0
"""The widest a left or right seat's name line may be (it reaches over the felt)."""


def _slots(n: int) -> list[_Slot]:
    """The places of the seats, the bottom seat first, then clockwise."""
    bottom = (52.0, 366.0, 428.0, 416.0)
    rows: list[tuple[tuple[float, float, float, float], tuple[float, float], str]] = [
        (bottom, (WIDTH / 2, 434.0), "middle")
    ]
    if n == 2:
        rows.append(((52.0, 24.0, 428.0, 74.0), (WIDTH / 2, 16.0), "middle"))
    else:
        top_parts = n - 3
        side_top = 134.0 if top_parts <= 1 else 146.0
        left = ((6.0, side_top, 96.0, 356.0), (8.0, side_top - 22), "start")
        right = ((384.0, side_top, 474.0, 356.0), (472.0, side_top - 22), "end")
        rows.append(left)
        if top_parts:
            y1 = 74.0 if top_parts == 1 else 106.0
            width = 376.0 / top_parts
            for k in range(top_parts):
                x0 = 52.0 + k * width
                rows.append(((x0 + 2, 24.0, x0 + width - 2, y1), (x0 + width / 2, 16.0), "middle"))
        rows.append(right)
    slots = []
    cx, cy = CENTER
    for box, label, anchor in rows:
        bx, by = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        angle = math.atan2(by - cy, bx - cx)
        tx = cx + 74 * math.cos(angle) - CW / 2
        ty = cy + 50 * math.sin(angle) - CH / 2
        room = box[2] - box[0] - 6 if anchor == "middle" else COLUMN_LABEL
        slots.append(_Slot(box, label, anchor, (round(tx, 1), round(ty, 1)), room))
    return slots


def _fan(count: int, box: tuple[float, float, float, float]) -> list[tuple[float, float]]:
    """Top-left corners of ``count`` overlapping cards laid out in ``box``: in
    one row when the corners stay readable, else in several rows (a column
    at the narrowest), centred."""
    x0, y0, x1, y1 = box
    width, height = x1 - x0, y1 - y0
    if count == 0:
        return []
    best: tuple[int, float, float] | None = None
    for min_step in (27.0, 22.0, 16.0, 10.0, 4.0):
        for rows in range(1, count + 1):
            per_row = math.ceil(count / rows)
            if per_row > 1 and CW + (per_row - 1) * min_step > width:
                continue
            step_x = 30.0 if per_row == 1 else min(30.0, (width - CW) / (per_row - 1))
            step_y = 0.0 if rows == 1 else min(CH + 4, (height - CH) / (rows - 1))
            if rows > 1 and step_y < min(18.0, min_step):
                continue
            best = (per_row, step_x, step_y)
            break
        if best is not None:
            break
    if best is None:  # pragma: no cover - every layout of the game fits a column
        best = (count, (width - CW) / max(count - 1, 1), 0.0)
    per_row, step_x, step_y = best
    rows = math.ceil(count / per_row)
    used_h = CH + (rows - 1) * step_y
    top = y0 + max(0.0, (height - used_h) / 2) if rows > 1 else y0
    out = []
    for i in range(count):
        r, c = divmod(i, per_row)
        in_row = min(per_row, count - r * per_row)
        row_w = CW + (in_row - 1) * step_x
        out.append((x0 + (width - row_w) / 2 + c * step_x, top + r * step_y))
    return out


# -- the picture -------------------------------------------------------------------


def _highlights(
    highlight: Move | Card | Iterable[Move | Card] | None,
) -> tuple[set[Card], list[Move]]:
    if highlight is None:
        return set(), []
    items: Iterable[object]
    if isinstance(highlight, (Card, *_MOVE_TYPES)):
        items = [highlight]
    elif isinstance(highlight, Iterable) and not isinstance(highlight, str):
        items = list(highlight)
    else:
        raise SetupError(f"highlight: give a card, a move or several, not {highlight!r}")
    cards: set[Card] = set()
    calls: list[Move] = []
    for item in items:
        if isinstance(item, Card):
            cards.add(item)
        elif isinstance(item, Play):
            cards.add(item.card)
        elif isinstance(item, _MOVE_TYPES):
            calls.append(item)  # type: ignore[arg-type]
        else:
            raise SetupError(f"highlight: {item!r} is neither a card nor a move")
    return cards, calls


def board(
    position: StateOrView,
    *,
    size: float | None = None,
    bottom: int | None = None,
    highlight: Move | Card | Iterable[Move | Card] | None = None,
    legal: bool = False,
    players: Sequence[str] | None = None,
) -> str:
    """An SVG picture of ``position`` (a :class:`~backalley.GameState` or a
    :class:`~backalley.PlayerView`), as text.

    ``size``
        the picture's width in pixels (the height follows); default 480.  A
        narrower page or frame shrinks it to fit (``max-width: 100%``).
    ``bottom``
        the seat drawn at the bottom of the table; by default the view's own
        seat, or South (seat 2) in a four-player partnership game, else seat 0.
        The others follow clockwise (to the bottom seat's left, across, right).
    ``highlight``
        a card, a move or several (for instance the last move): cards are
        outlined in gold wherever they are shown (hand, trick, turn-up), and a
        call marks the seats that made that call.
    ``legal``
        outline the legal plays of the seat to act in green and shade its
        other cards (when its hand is shown), or list its legal calls in the
        middle of the table.
    ``players``
        who sits in each seat (one name per seat, e.g. a record's players),
        written beside the seat's name: ``North (heuristic)``; a name too long
        for its place is cut (``…``).  The seats keep their names.

    Raises :class:`~backalley.SetupError` for a seat that does not exist or a
    bad option.
    """
    table = table_of(position, players=players)
    n = len(table.seats)
    if bottom is None:
        if table.viewer is not None:
            bottom = table.viewer
        else:
            bottom = 2 if seat_names(position.rules) == COMPASS else 0
    if isinstance(bottom, bool) or not isinstance(bottom, int) or not 0 <= bottom < n:
        raise SetupError(f"bottom: there is no seat {bottom!r}; seats are 0 to {n - 1}")
    if size is not None and (
        isinstance(size, bool) or not isinstance(size, (int, float)) or not size > 0
    ):
        raise SetupError(f"size: a width in pixels, greater than 0, not {size!r}")
    width = WIDTH if size is None else size
    height = width * HEIGHT / WIDTH
    marked_cards, marked_calls = _highlights(highlight)
    slots = _slots(n)
    place = {(bottom + k) % n: slots[k] for k in range(n)}

    summary = f"{table.title}, deal {table.deal} of {table.deals}. {table.status}"
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" '
        f'width="{_num(width)}" height="{_num(height)}" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'role="img" style="max-width:100%;height:auto" font-family={quoteattr(FONT)}>',
        f"<title>{escape(summary)}</title>",
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="#f7f5ef"/>',
    ]
    out += _header(table)
    out.append(f'<g transform="translate(0,{HEADER})">')
    out.append(
        f'<rect x="1" y="1" width="{WIDTH - 2}" height="{TABLE - 2}" rx="14" fill="{FELT}" '
        f'stroke="{FELT_EDGE}" stroke-width="2"/>'
    )
    out += _corners(table, marked_cards)
    legal_plays = table.legal_cards if legal else frozenset()
    for seat in table.seats:
        playing = table.phase in ("playing", "game-over")
        out += _seat(seat, place[seat.seat], marked_cards, marked_calls, legal_plays, playing)
    out += _middle(table, place, marked_cards, marked_calls, legal)
    out.append("</g>")
    out += _footer(table)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _header(table: DiagramFacts) -> list[str]:
    title = f"{table.title} · deal {table.deal} of {table.deals} · {table.hand_size} cards"
    status = table.status
    if table.viewer is not None:
        status += f" — {table.seats[table.viewer].name}'s view"
    return [
        _text(10, 18, title, size=14, weight="bold"),
        _text(10, 35, status, size=12, fill="#3d4650"),
    ]


def _corners(table: DiagramFacts, marked: set[Card]) -> list[str]:
    """The turn-up (top left) and the trump (top right)."""
    out: list[str] = []
    if table.turn_up is not None:
        out += _card_face(table.turn_up, 8, 24)
        if table.turn_up in marked:
            out.append(_outline(8, 24, GOLD))
        out.append(_text(26, 88, "turn-up", size=10, fill="#e8efe9", anchor="middle"))
    x, y = WIDTH - 8 - CW, 24
    out.append(
        f'<rect x="{x}" y="{y}" width="{CW}" height="{CH}" rx="6" fill="#ffffff" '
        f'fill-opacity="0.92" stroke="{FELT_EDGE}"/>'
    )
    if table.trump is not None:
        color = RED if table.trump in (Suit.HEARTS, Suit.DIAMONDS) else BLACK
        out.append(_pip(table.trump, x + CW / 2 - 12, y + CH / 2 - 12, 24, color))
    else:
        word = "none" if table.trump_known else "?"
        out.append(
            _text(
                x + CW / 2,
                y + CH / 2 + 5,
                word,
                size=13 if word == "?" else 11,
                anchor="middle",
                weight="bold",
            )
        )
    out.append(_text(x + CW / 2, 88, "trump", size=10, fill="#e8efe9", anchor="middle"))
    return out


def _seat(
    seat: SeatFacts,
    slot: _Slot,
    marked: set[Card],
    calls: list[Move],
    legal_plays: frozenset[Card],
    playing: bool,
) -> list[str]:
    out: list[str] = [f'<g class="seat" data-seat="{seat.seat}">']
    out += _label(seat, slot, calls, playing)
    corners = _fan(seat.count, slot.box)
    if seat.hand is None:
        for x, y in corners:
            out += _card_back(x, y)
    else:
        dim = bool(legal_plays) and seat.to_act
        for card, (x, y) in zip(seat.hand, corners):
            out += _card_face(card, x, y)
            if dim and card not in legal_plays:
                out.append(_shade(x, y))
            if card in marked:
                out.append(_outline(x, y, GOLD))
            elif dim and card in legal_plays:
                out.append(_outline(x, y, GREEN, 2.2, kind="legal"))
    out.append("</g>")
    return out


def _fit(player: str, room: float) -> str:
    """`` (player)`` as written beside a seat's name in ``room`` pixels: whole,
    or cut (``…``) keeping at least three letters, or nothing."""
    text = f" ({player})"
    if text_width(text, PLAYER_SIZE) <= room:
        return text
    for keep in range(len(player) - 1, 2, -1):
        text = f" ({player[:keep].rstrip()}…)"
        if text_width(text, PLAYER_SIZE) <= room:
            return text
    return ""


PLAYER_SIZE = 12
"""The font size of a player's name beside the seat's name (13, bold)."""
BUTTON = 21.0
"""The room the dealer button takes beside a seat's name."""


def _label(seat: SeatFacts, slot: _Slot, calls: list[Move], playing: bool) -> list[str]:
    """The seat's name with its player beside it (on gold when it is to act),
    the dealer button, the call and the tricks won."""
    parts = [] if seat.call is None else [call_text(seat.call)]
    if seat.declarer:
        parts.insert(0, "declarer")
    if playing:
        parts.append(f"won {seat.won}")
    if seat.hand is None:
        parts.append(f"{seat.count} card{'s' if seat.count != 1 else ''}")
    detail = " · ".join(parts)
    call_marked = seat.call is not None and seat.call in calls
    x, y = slot.label
    seat_w = text_width(seat.name, 13, bold=True)
    detail_w = text_width(detail, 11)
    button = BUTTON if seat.dealer else 0.0
    room = slot.room - seat_w - button - (detail_w + 8 if slot.anchor == "middle" else 0)
    player = "" if seat.player is None else _fit(seat.player, room)
    name_w = seat_w + text_width(player, PLAYER_SIZE)
    out: list[str] = []
    if slot.anchor == "middle":
        total = button + name_w + 8 + detail_w
        start = x - total / 2 + button
        name_x, detail_x, line_y, detail_y = start, start + name_w + 8, y, y
    else:
        name_x = x if slot.anchor == "start" else x - name_w
        detail_x = x if slot.anchor == "start" else x - detail_w
        line_y, detail_y = y, y + 15
    if seat.to_act:
        out.append(
            f'<rect x="{_num(name_x - 4)}" y="{_num(line_y - 12)}" width="{_num(name_w + 8)}" '
            f'height="16" rx="8" fill="{GOLD}"/>'
        )
    fill = INK if seat.to_act else "#ffffff"
    beside = (
        f'<tspan class="player" font-size="{PLAYER_SIZE}" font-weight="normal">'
        f"{escape(player)}</tspan>"
        if player
        else ""
    )
    out.append(
        f'<text class="seat-name" x="{_num(name_x)}" y="{_num(line_y)}" font-size="13" '
        f'fill="{fill}" font-weight="bold">{escape(seat.name)}{beside}</text>'
    )
    if call_marked:
        out.append(
            f'<rect x="{_num(detail_x - 3)}" y="{_num(detail_y - 10)}" width="{_num(detail_w + 6)}" '
            f'height="14" rx="4" fill="none" stroke="{GOLD}" stroke-width="1.6"/>'
        )
    out.append(_text(detail_x, detail_y, detail, size=11, fill="#e8efe9"))
    if seat.dealer:
        if slot.anchor == "end":
            bx = name_x - 13
        elif slot.anchor == "start":
            bx = name_x + name_w + 13
        else:
            bx = name_x - 13
        out.append(
            f'<circle cx="{_num(bx)}" cy="{_num(line_y - 4.5)}" r="7.5" fill="#ffffff" '
            f'stroke="{INK}" stroke-width="0.8"/>'
        )
        out.append(_text(bx, line_y - 1, "D", size=10, weight="bold", anchor="middle"))
    return out


def _middle(
    table: DiagramFacts,
    place: dict[int, _Slot],
    marked: set[Card],
    calls: list[Move],
    legal: bool,
) -> list[str]:
    """The trick (or the last trick, or the calls) and its caption."""
    out: list[str] = []
    cx, cy = CENTER
    if table.trick:
        for seat, card in table.trick:
            x, y = place[seat].trick
            out += _card_face(card, x, y)
            if card in marked:
                out.append(_outline(x, y, GOLD))
        leader = table.trick[0][0]
        out += _beside(place[leader], leader, "led", "lead")
    elif table.last_trick is not None:
        plays, winner = table.last_trick
        out.append('<g opacity="0.55">')
        for seat, card in plays:
            x, y = place[seat].trick
            out += _card_face(card, x, y)
            if card in marked:
                out.append(_outline(x, y, GOLD))
        out.append("</g>")
        leader = plays[0][0]
        if leader == winner:
            out += _beside(place[leader], leader, "led · won", "lead won")
        else:
            out += _beside(place[leader], leader, "led", "lead")
            out += _beside(place[winner], winner, "won", "won")
        out.append(_text(cx, cy + 4, "last trick", size=11, fill="#e8efe9", anchor="middle"))
    elif table.phase in ("bidding", "naming-trump"):
        for facts in table.seats:
            if facts.call is None:
                continue
            x, y = place[facts.seat].trick
            out += _chip(x + CW / 2, y + CH / 2, call_text(facts.call), facts.call in calls)
    elif table.phase == "game-over":
        side = "a draw" if table.winner is None else f"{table.sides[table.winner]} won"
        out.append(
            _text(cx, cy - 4, "Game over", size=20, weight="bold", fill="#ffffff", anchor="middle")
        )
        out.append(_text(cx, cy + 18, side, size=14, fill="#ffffff", anchor="middle"))
    if legal and table.legal and not isinstance(table.legal[0], Play):
        out += _legal_calls(table.legal, cy + 84)
    return out


def _beside(slot: _Slot, seat: int, text: str, kind: str) -> list[str]:
    """A small tag (``led``, ``won``) just outside ``seat``'s card in the
    trick, on the side facing the seat: it marks that card, wherever the
    seat sits.  ``kind`` is the tag's ``class`` (``lead``, ``won``)."""
    cx, cy = CENTER
    x, y = slot.trick
    mx, my = x + CW / 2, y + CH / 2
    dx, dy = mx - cx, my - cy
    length = math.hypot(dx, dy)
    ux, uy = (dx / length, dy / length) if length else (0.0, 1.0)
    w, h = text_width(text, 10, bold=True) + 10, 15.0

    def reach(half_w: float, half_h: float) -> float:
        """How far from a box's centre the ray along (ux, uy) leaves it."""
        return min(half_w / abs(ux) if ux else math.inf, half_h / abs(uy) if uy else math.inf)

    step = reach(CW / 2, CH / 2) + reach(w / 2, h / 2) + 3
    tx, ty = mx + ux * step, my + uy * step
    fill = GOLD if "lead" in kind.split() else "#ffffff"
    return [
        f'<g class="{kind}" data-seat="{seat}">',
        f'<rect x="{_num(tx - w / 2)}" y="{_num(ty - h / 2)}" width="{_num(w)}" '
        f'height="{_num(h)}" rx="7.5" fill="{fill}" stroke="{INK}" stroke-width="0.6"/>',
        _text(tx, ty + 3.6, text, size=10, weight="bold", anchor="middle"),
        "</g>",
    ]


def _chip(
    x: float, y: float, text: str, marked: bool, small: bool = False, suit: Suit | None = None
) -> list[str]:
    """A rounded label centred on ``x``, ``y``; with ``suit``, the suit's shape
    follows the text."""
    size = 11 if small else 12
    pip = size * 0.95 if suit is not None else 0.0
    w = text_width(text, size, bold=True) + 12 + (pip + 3 if suit is not None else 0)
    h = 18 if small else 20
    out = [
        f'<rect x="{_num(x - w / 2)}" y="{_num(y - h / 2)}" width="{_num(w)}" height="{h}" '
        f'rx="{h / 2:g}" fill="#ffffff" stroke="{GOLD if marked else INK}" '
        f'stroke-width="{2.4 if marked else 0.8}"/>'
    ]
    left = x - w / 2 + 6
    out.append(_text(left, y + size * 0.36, text, size=size, weight="bold"))
    if suit is not None:
        color = RED if suit in (Suit.HEARTS, Suit.DIAMONDS) else BLACK
        px = left + text_width(text, size, bold=True) + 3
        out.append(_pip(suit, px, y - pip / 2, pip, color))
    return out


def _call_label(move: Move) -> tuple[str, Suit | None]:
    """A call as a chip shows it: ``3`` for ``bid 3``; ``trump`` and a suit shape."""
    if isinstance(move, NameTrump):
        return ("trump" if move.suit is not None else "no trump"), move.suit
    text = str(move)
    return (text[4:] if text.startswith("bid ") else text), None


def _legal_calls(moves: Sequence[Move], top: float) -> list[str]:
    """The legal calls (or trump suits) as rows of chips under the middle."""
    labels = [_call_label(m) for m in moves]
    out = [_text(WIDTH / 2, top - 10, "legal calls", size=10, fill="#e8efe9", anchor="middle")]
    widths = [
        text_width(t, 11, bold=True) + 12 + (13.5 if suit is not None else 0) for t, suit in labels
    ]
    rows: list[list[int]] = [[]]
    room = 270.0
    used = 0.0
    for i, w in enumerate(widths):
        if rows[-1] and used + w + 4 > room:
            rows.append([])
            used = 0.0
        rows[-1].append(i)
        used += w + 4
    for r, row in enumerate(rows):
        total = sum(widths[i] + 4 for i in row) - 4
        x = WIDTH / 2 - total / 2
        for i in row:
            text, suit = labels[i]
            out += _chip(x + widths[i] / 2, top + 4 + r * 21, text, False, small=True, suit=suit)
            x += widths[i] + 4
    return out


def _footer(table: DiagramFacts) -> list[str]:
    """One column per side: its score, and its contract and tricks this deal."""
    top = HEADER + TABLE
    k = len(table.sides)
    col = WIDTH / k
    narrow = col < 130
    out: list[str] = []
    for i, side in enumerate(table.sides):
        x = col * i + col / 2
        won = table.winner == i and table.phase == "game-over"
        if won:
            out.append(
                f'<rect x="{_num(col * i + 4)}" y="{top + 4}" width="{_num(col - 8)}" '
                f'height="{FOOTER - 8}" rx="6" fill="{GOLD}"/>'
            )
        score = str(table.scores[i]).replace("-", "\u2212")
        out.append(
            f'<text x="{_num(x)}" y="{top + 20}" font-size="13" fill="{INK}" '
            f'text-anchor="middle"><tspan font-weight="bold">{escape(side)}</tspan>'
            f'<tspan dx="6">{escape(score)}</tspan></text>'
        )
        detail = ""
        if table.phase == "game-over":
            detail = "winner" if won else ""
        elif table.contracts is not None:
            contract = table.contracts[i]
            detail = "no contract" if contract is None else f"contract {contract}"
            if not narrow:
                detail += f" · won {table.side_tricks[i]}"
        if detail:
            size = 9.5 if narrow else 10.5
            out.append(_text(x, top + 36, detail, size=size, fill="#3d4650", anchor="middle"))
    return out
