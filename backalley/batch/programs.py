"""The mask algebra evaluated on many positions at once (NumPy).

A part's expression (:mod:`backalley.masks`) is split once into a *template*
- its shape, with each fixed set of cards (:class:`~backalley.masks.Cards`)
replaced by a numbered parameter - and the parameters themselves.  Positions
whose expressions share a template (the follow rule after any plain lead
under any trump, say) are evaluated together, each with its own parameters:
one pass of array operations for a whole group of games.  Nothing here knows
a rule; it evaluates the expressions the parts returned.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, NamedTuple

import attrs
import numpy as np

from backalley import masks
from backalley.errors import RuleSetError

__all__ = [
    "ALL_BITS",
    "CARD_BITS",
    "Env",
    "Programs",
    "Template",
    "pack",
    "split",
    "unpack",
    "uses",
]

Template = tuple[Any, ...]
"""An expression's shape: nested tuples, ``("param", i)`` for its i-th fixed set."""

Bools = np.ndarray[Any, np.dtype[np.bool_]]
Ints = np.ndarray[Any, np.dtype[np.intp]]


_OPS: dict[type, str] = {
    masks.Meet: "and",
    masks.Join: "or",
    masks.Without: "minus",
    masks.Highest: "highest",
    masks.Lowest: "lowest",
    masks.Heads: "heads",
    masks.Choose: "choose",
    masks.Some: "some",
    masks.Both: "both",
    masks.Either: "either",
    masks.Negate: "not",
}
"""The template operation of each expression made of expressions (its
fields, in order, are its operands)."""
_LEAVES: dict[type, str] = {masks.Source: "source", masks.Fact: "fact", masks.Bool: "bool"}
"""The template operation of each leaf that is not a fixed set (its one field kept as is)."""


def split(expr: masks.CardExpr | masks.Cond, params: list[int]) -> Template:
    """The template of ``expr``; its fixed sets are appended to ``params`` (bit sets)."""
    if isinstance(expr, masks.Cards):
        params.append(int(expr.cards))
        return ("param", len(params) - 1)
    kind = type(expr)
    op = _OPS.get(kind)
    if op is not None:
        fields = attrs.fields(kind)  # type: ignore[arg-type]
        return (op, *(split(getattr(expr, f.name), params) for f in fields))
    leaf = _LEAVES.get(kind)
    if leaf is not None:
        (field,) = attrs.fields(kind)  # type: ignore[arg-type]
        return (leaf, getattr(expr, field.name))
    raise RuleSetError([f"{expr!r} is not an expression of the mask algebra"])


U64 = np.ndarray[Any, np.dtype[np.uint64]]

ALL_BITS = np.uint64((1 << 54) - 1)
"""Every card, as a bit set."""
CARD_BITS: U64 = np.array([1 << i for i in range(54)], dtype=np.uint64)
"""The bit of each card."""


def unpack(bits: U64) -> Bools:
    """``(n, 54)`` booleans of ``n`` bit sets."""
    raw = np.ascontiguousarray(bits, dtype=np.uint64).view(np.uint8).reshape(-1, 8)
    out: Bools = np.unpackbits(raw, axis=1, bitorder="little")[:, :54].astype(bool)
    return out


def pack(rows: Bools) -> U64:
    """The bit sets of ``(n, 54)`` booleans."""
    raw = np.packbits(rows, axis=1, bitorder="little")
    padded = np.zeros((len(rows), 8), dtype=np.uint8)
    padded[:, : raw.shape[1]] = raw
    out: U64 = padded.view(np.uint64).reshape(-1)
    return out


class Env(NamedTuple):
    """The positions a template is evaluated on (``n`` of them): each set of
    cards an ``(n,)`` array of bit sets, each fact an ``(n,)`` boolean array."""

    params: U64
    """``(n, parameters)``: each position's fixed sets."""
    hand: U64
    trick: U64
    played: U64
    shown: U64
    seat_played: U64
    broken: Bools
    first_trick: Bools
    board_bidder: Bools
    opponent: Bools
    strength: Ints
    """``(n, 54)``: each card's strength within its suit under the position's trump."""
    beats: U64
    """The cards that would win the trick so far (none before a lead)."""


_SOURCES = {
    masks.PositionSet.HAND: "hand",
    masks.PositionSet.TRICK: "trick",
    masks.PositionSet.PLAYED: "played",
    masks.PositionSet.SHOWN: "shown",
    masks.PositionSet.SEAT_PLAYED: "seat_played",
}
_FACTS = {
    masks.PositionFact.BROKEN: "broken",
    masks.PositionFact.FIRST_TRICK: "first_trick",
    masks.PositionFact.BOARD_BIDDER: "board_bidder",
    masks.PositionFact.OPPONENT: "opponent",
}


def cards(t: Template, env: Env) -> U64:
    """The set of cards the template ``t`` stands for at each position."""
    op = t[0]
    if op == "param":
        out: U64 = env.params[:, t[1]]
        return out
    if op == "source":
        out = getattr(env, _SOURCES[t[1]])
        return out
    if op == "and":
        return cards(t[1], env) & cards(t[2], env)
    if op == "or":
        return cards(t[1], env) | cards(t[2], env)
    if op == "minus":
        return cards(t[1], env) & ~cards(t[2], env)
    if op == "choose":
        out = np.where(holds(t[1], env), cards(t[2], env), cards(t[3], env))
        return out
    if op == "highest" or op == "lowest":
        of = unpack(cards(t[1], env))
        if op == "highest":
            pick = np.where(of, env.strength, -1).argmax(axis=1)
        else:
            pick = np.where(of, env.strength, 1 << 20).argmin(axis=1)
        out = np.where(of.any(axis=1), CARD_BITS[pick], np.uint64(0))
        return out
    if op == "heads":
        return cards(t[1], env) & env.beats
    raise RuleSetError([f"{t!r} is not a set of cards of the mask algebra"])


def holds(t: Template, env: Env) -> Bools:
    """Whether the condition template ``t`` holds at each position."""
    op = t[0]
    if op == "some":
        some: Bools = cards(t[1], env) != 0
        return some
    if op == "fact":
        out: Bools = getattr(env, _FACTS[t[1]])
        return out
    if op == "both":
        return holds(t[1], env) & holds(t[2], env)
    if op == "either":
        return holds(t[1], env) | holds(t[2], env)
    if op == "not":
        return ~holds(t[1], env)
    if op == "bool":
        return np.full(len(env.params), bool(t[1]))
    raise RuleSetError([f"{t!r} is not a condition of the mask algebra"])


class Programs:
    """The expressions of many situations (a situation: a trump, a card led),
    grouped by template: :attr:`template_of` each situation's template
    number, :attr:`params` its fixed sets ``(situations, parameters)`` (bit sets)."""

    def __init__(self, exprs: Sequence[masks.CardExpr | masks.Cond]) -> None:
        templates: dict[Hashable, int] = {}
        self.templates: list[Template] = []
        rows: list[list[int]] = []
        template_of = []
        for expr in exprs:
            params: list[int] = []
            shape = split(expr, params)
            number = templates.get(shape)
            if number is None:
                number = templates[shape] = len(self.templates)
                self.templates.append(shape)
            template_of.append(number)
            rows.append(params)
        width = max((len(r) for r in rows), default=0) or 1
        self.template_of: Ints = np.array(template_of, dtype=np.intp)
        self.uses: list[frozenset[str]] = [uses(t) for t in self.templates]
        """What each template reads of the positions."""
        self.params: U64 = np.zeros((len(rows), width), dtype=np.uint64)
        for s, row in enumerate(rows):
            for j, bits in enumerate(row):
                self.params[s, j] = bits

    def groups(self, situations: Ints) -> list[tuple[Template, frozenset[str], Ints]]:
        """Each template met, what it reads (:func:`uses`), and its positions
        (indices into ``situations``)."""
        if len(self.templates) == 1:
            return [(self.templates[0], self.uses[0], np.arange(len(situations)))]
        numbers = self.template_of[situations]
        present = np.flatnonzero(np.bincount(numbers, minlength=len(self.templates)))
        if len(present) == 1:
            u = int(present[0])
            return [(self.templates[u], self.uses[u], np.arange(len(situations)))]
        return [
            (self.templates[int(u)], self.uses[int(u)], np.flatnonzero(numbers == u))
            for u in present
        ]


def uses(template: Template) -> frozenset[str]:
    """What a template reads of the positions: the names of its sources and
    facts (:class:`~backalley.masks.PositionSet`,
    :class:`~backalley.masks.PositionFact` values), ``"strength"`` for a
    highest or lowest card, ``"beats"`` for the cards that would win."""
    names: set[str] = set()
    todo: list[Any] = [template]
    while todo:
        node = todo.pop()
        if isinstance(node, tuple) and node:
            op = node[0]
            if op in ("source", "fact"):
                names.add(node[1].value)
            elif op in ("highest", "lowest"):
                names.add("strength")
            elif op == "heads":
                names.add("beats")
            todo.extend(node[1:])
    return frozenset(names)
