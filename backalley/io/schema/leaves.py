"""The leaves of the documents' schema: cards, calls, moves, suits, phases
and reason codes, each stated from the library's own values (the ranks, the
suits and jokers of :mod:`backalley.cards`, the move types of
:mod:`backalley.moves`, :class:`~backalley.Phase`, the reasons given).

One job: the schema of a value that is text or a name in a document.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from backalley.cards import BIG_JOKER, LITTLE_JOKER, PLAIN_RANKS, SUITS
from backalley.moves import MAX_BID, Bid, BoardBid, Counter, NameTrump, Pass, Play
from backalley.values import Phase

__all__ = ["CALL", "CARD", "MOVE", "SUIT", "leaf_definitions", "nullable", "ref"]

Schema = dict[str, Any]


def ref(name: str) -> Schema:
    """A reference to the definition ``name`` (a JSON pointer: ``~`` and
    ``/``, as in a user's tag ``"ourclub/..."``, escaped)."""
    return {"$ref": "#/$defs/" + name.replace("~", "~0").replace("/", "~1")}


def nullable(schema: Schema) -> Schema:
    """``schema`` or null.  Plain leaves get a ``type`` list rather than an
    ``anyOf`` (``pattern``, ``minimum`` and ``maximum`` ignore a null), which
    reads as simply and validates faster."""
    plain = {"type", "pattern", "minimum", "maximum", "description"}
    if set(schema) <= plain and isinstance(schema.get("type"), str):
        return {**schema, "type": [schema["type"], "null"]}
    if set(schema) == {"enum"}:
        return {"enum": [*schema["enum"], None]}
    return {"anyOf": [schema, {"type": "null"}]}


def _letters(texts: Iterable[str]) -> str:
    """A regular expression character class of one-letter ``texts``, runs of
    three or more consecutive characters written as a range (``2-9``)."""
    chars = list(texts)
    out, i = [], 0
    while i < len(chars):
        j = i
        while j + 1 < len(chars) and ord(chars[j + 1]) == ord(chars[j]) + 1:
            j += 1
        out.append(f"{chars[i]}-{chars[j]}" if j - i >= 2 else "".join(chars[i : j + 1]))
        i = j + 1
    return "[" + "".join(out) + "]"


_RANKS = [rank.letter for rank in PLAIN_RANKS]
_SUITS = [suit.letter for suit in SUITS]
_JOKERS = sorted(str(card) for card in (BIG_JOKER, LITTLE_JOKER))
CARD_RE = f"(?:{_letters(_RANKS)}{_letters(_SUITS)}|{'|'.join(_JOKERS)})"
"""A card's canonical text: a plain rank then a suit letter, or a joker."""

_COUNTER_TIMES = "(?:[2-9]|[1-9][0-9])"  # a direct counter's multiplier: 2..99
_BID_DIGITS = len(str(MAX_BID)) - 1
_ARGUMENT = {
    Pass.kind: "",
    BoardBid.kind: "",
    Counter.kind: f"(?: x{_COUNTER_TIMES})?",
    Bid.kind: f" (?:0|[1-9][0-9]{{0,{_BID_DIGITS}}})",
    NameTrump.kind: f" (?:{_letters(_SUITS)}|NT)",
    Play.kind: f" {CARD_RE}",
}
"""What follows each move type's word (its ``kind``) in its canonical text."""
_CALL_KINDS = (Pass.kind, BoardBid.kind, Counter.kind, Bid.kind)
"""The move types that are bidding calls."""

CALL_RE = "(?:" + "|".join(f"{kind}{_ARGUMENT[kind]}" for kind in _CALL_KINDS) + ")"
MOVE_RE = (
    f"(?:{CALL_RE}|"
    + "|".join(f"{kind}{arg}" for kind, arg in _ARGUMENT.items() if kind not in _CALL_KINDS)
    + ")"
)

CARD: Schema = {"type": "string", "pattern": f"^{CARD_RE}$"}
CALL: Schema = {"type": "string", "pattern": f"^{CALL_RE}$"}
MOVE: Schema = {"type": "string", "pattern": f"^{MOVE_RE}$"}
# Arrays of cards and moves hold these leaves inline rather than a "$ref" to
# the "card" and "move" definitions: the same text, and validation is twice as fast.
SUIT: Schema = {"enum": _SUITS}


def leaf_definitions(reasons: Iterable[str]) -> dict[str, Schema]:
    """The ``$defs`` of the leaves; ``reasons`` are the reason codes, in order."""
    ranks = ", ".join([*(r for r in _RANKS if not r.isdigit()), ""]).rstrip(", ")
    digits = [r for r in _RANKS if r.isdigit()]
    return {
        "card": {
            "description": "A card in canonical notation: rank "
            f"({digits[0]}-{digits[-1]}, {ranks}) then suit ({', '.join(_SUITS)}), "
            f"or a joker: {BIG_JOKER} (Big Blooper), {LITTLE_JOKER} (Little Blooper).",
            **CARD,
        },
        "suit": {"description": "A suit letter.", **SUIT},
        "call": {"description": "A bidding call in canonical text.", **CALL},
        "move": {
            "description": "A move in canonical text: pass, bid N, board, counter, "
            f"counter xK, trump X (X one of {' '.join(_SUITS)}, or NT), play QS.",
            **MOVE,
        },
        "phase": {"enum": [phase.value for phase in Phase]},
        "reason": {
            "enum": list(reasons),
            "description": "The name of a backalley.Reason member.",
        },
    }
