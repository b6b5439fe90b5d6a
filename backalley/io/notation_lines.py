"""What the writer and the reader of the record notation share
(:mod:`backalley.io.notation`): the error with a line and a column, the
words of a line with their columns, the seats' labels, the walk through a
replay that cuts a game into its deals and tricks, and the lines a replay
gives (a deal's heading, a hand, a deal's result, the game's result), which
the writer writes and the reader compares with what it reads.

Every fact here comes from the replay: the seat to act, where a deal and a
trick end, who won a trick, the results and the scores.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, NamedTuple

import attrs

from backalley.cards import Card
from backalley.engine import lowlevel
from backalley.engine.state import GameState
from backalley.errors import NotationError, SerializationError
from backalley.io.record import GameRecord, replay
from backalley.moves import Move, Play
from backalley.rules.ruleset import RuleSet
from backalley.rules.seats import seat_names, side_names
from backalley.values import DealResult

__all__ = [
    "DealPlayed",
    "RecordNotationError",
    "TrickPlayed",
    "Word",
    "deal_heading",
    "deals_of",
    "hand_words",
    "is_metadata_tag",
    "result_words",
    "scores_after",
    "scores_text",
    "seat_labels",
    "side_labels",
    "words",
]


class RecordNotationError(SerializationError, NotationError):
    """A record's text that cannot be read, or that the replay refuses (a
    card not held, a trick that is not one, a result the moves do not give):
    ``line`` and ``column`` (both from 1) point at the offending word.

    Both a :class:`~backalley.SerializationError` (its ``path`` is
    ``"line L, column C"``, after ``"FILE: "`` when ``file`` names the file
    read) and a :class:`~backalley.NotationError`.
    """

    def __init__(self, message: str, line: int, column: int, file: str | None = None) -> None:
        self.line = line
        self.column = column
        self.file = file
        where = f"line {line}, column {column}"
        super().__init__(message, where if file is None else f"{file}: {where}")

    def __reduce__(self) -> Any:
        return (type(self), (self.message, self.line, self.column, self.file))


class Word(NamedTuple):
    """A word of a line and where it starts (line and column from 1)."""

    text: str
    line: int
    column: int

    def fail(self, message: str) -> RecordNotationError:
        """The error pointing at this word."""
        return RecordNotationError(message, self.line, self.column)


_WORD = re.compile(r"\S+")


def words(text: str, line: int, start: int = 0) -> list[Word]:
    """The words of ``text`` (line number ``line``) from character ``start`` on."""
    return [Word(m.group(), line, m.start() + 1) for m in _WORD.finditer(text, start)]


def seat_labels(rules: RuleSet) -> tuple[str, ...]:
    """Each seat's label, one word: its name without spaces (``North``, ``Seat1``)."""
    return tuple(name.replace(" ", "") for name in seat_names(rules))


def side_labels(rules: RuleSet) -> tuple[str, ...]:
    """Each side's label, one word (``N-S``, ``Seat1``, ``Seat1+Seat3``)."""
    return tuple(name.replace(" ", "") for name in side_names(rules))


@attrs.frozen
class TrickPlayed:
    """A trick as the replay played it: ``plays`` (seat, card, move index) in
    order, the leader first, and its ``winner`` (``None`` while it is going on)."""

    plays: tuple[tuple[int, Card, int], ...]
    winner: int | None


@attrs.frozen
class DealPlayed:
    """A deal as the replay played it: the state it starts from, its calls
    (seat, move, move index), its tricks, and what it ends with: the result
    it scored and the scores after it (``None`` if it was not scored: thrown
    in, or not over when the record ends)."""

    start: GameState
    calls: tuple[tuple[int, Move, int], ...]
    tricks: tuple[TrickPlayed, ...]
    result: DealResult | None
    scores: tuple[int, ...] | None

    def moves(self) -> list[int]:
        """The indices of the deal's moves, in order."""
        return sorted(
            [i for _, _, i in self.calls] + [i for t in self.tricks for _, _, i in t.plays]
        )


def _fresh(state: GameState) -> bool:
    """Whether ``state`` is a deal just dealt: no call, no card played."""
    return not state.is_over and not state.calls and not state.tricks and not state.trick


class _Deal:
    """A deal being walked through (the mutable form of :class:`DealPlayed`)."""

    def __init__(self, start: GameState) -> None:
        self.start = start
        self.calls: list[tuple[int, Move, int]] = []
        self.tricks: list[TrickPlayed] = []
        self.trick: list[tuple[int, Card, int]] = []
        self.result: DealResult | None = None
        self.scores: tuple[int, ...] | None = None

    def done(self) -> DealPlayed:
        tricks = [*self.tricks, TrickPlayed(tuple(self.trick), None)] if self.trick else self.tricks
        return DealPlayed(self.start, tuple(self.calls), tuple(tricks), self.result, self.scores)


def deals_of(record: GameRecord) -> tuple[list[DealPlayed], GameState]:
    """The record's deals as its replay plays them (a thrown-in deal is one
    of them, and so is a deal just dealt when the record ends), and the last
    state.  Raises :class:`~backalley.ReplayError` as :func:`~backalley.replay` does."""
    states = replay(record)
    before = next(states)
    deals: list[DealPlayed] = []
    deal = _Deal(before)
    for index, (move, after) in enumerate(zip(record.moves, states)):
        seat = before.to_act
        assert seat is not None  # the replay took the move
        if isinstance(move, Play):
            deal.trick.append((seat, move.card, index))
            if not after.trick:  # the trick is complete: the ranking says who won it
                winner = lowlevel.winner_if(before, move.card.index)
                deal.tricks.append(TrickPlayed(tuple(deal.trick), winner))
                deal.trick = []
        else:
            deal.calls.append((seat, move, index))
        if after.deals_played != before.deals_played:
            deal.result = after.deal_results[-1]
            deal.scores = after.scores
        if after.deals_played != before.deals_played or (_fresh(after) and not _fresh(before)):
            deals.append(deal.done())
            deal = _Deal(after)
        before = after
    for _ in states:  # the results check after the last move
        pass
    if not before.is_over:
        deals.append(deal.done())
    return deals, before


def _trump_text(state: GameState) -> str:
    return "NT" if state.trump is None else str(state.trump)


def deal_heading(rules: RuleSet, number: int, start: GameState) -> list[tuple[str, str]]:
    """The facts of a deal's heading line after ``deal N``, as (key, value):
    its dealer, the size of the hands, the turn-up and the trump where they
    are known once the cards are dealt."""
    facts = [("dealer", seat_labels(rules)[start.dealer]), ("cards", str(start.hand_size))]
    if start.turn_up is not None:
        facts.append(("turn-up", str(start.turn_up)))
    if start.trump_known:
        facts.append(("trump", _trump_text(start)))
    return facts


def hand_words(state: GameState, seat: int) -> list[str]:
    """A hand as dealt, card by card."""
    return [str(card) for card in state.hands[seat]]


def result_words(rules: RuleSet, result: DealResult) -> list[str]:
    """A deal's result line: ``result tricks N-S 10 E-W 3 points N-S 26 E-W -30``."""
    sides = side_labels(rules)
    out = ["result", "tricks"]
    for side, count in zip(sides, result.tricks):
        out += [side, str(count)]
    out.append("points")
    for side, points in zip(sides, result.points):
        out += [side, str(points)]
    return out


def scores_text(rules: RuleSet, scores: Sequence[int]) -> str:
    """The game's result: ``N-S 160, E-W 240``, each side's score."""
    return ", ".join(f"{side} {score}" for side, score in zip(side_labels(rules), scores))


def scores_after(record: GameRecord, deals: Sequence[DealPlayed]) -> tuple[int, ...]:
    """The scores after the record's results (the first deals scored): the
    game's ``Result``."""
    count = len(record.results or ())
    scored = [d.scores for d in deals if d.scores is not None]
    if count == 0:
        return deals[0].start.scores if deals else record.start().scores
    return scored[count - 1]


_TAG_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-")


def is_metadata_tag(name: str) -> bool:
    """Whether a tag of this name holds metadata (its name starts with a
    small letter): a metadata key that is such a name is written as its own tag."""
    return name[:1].isascii() and name[:1].islower() and _TAG_CHARS.issuperset(name)
