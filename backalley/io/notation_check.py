"""Checking a record's text against its replay (:mod:`backalley.io.notation`):
what the reader found in the text (:class:`GameText`: each deal's heading,
hands, tricks and result, each move with its seat) compared, word by word,
with what the replay gives; the first word that disagrees is refused with its
line and column."""

from __future__ import annotations

import attrs

from backalley.cards import parse_card
from backalley.engine.state import GameState
from backalley.errors import BackAlleyError
from backalley.io.notation_lines import DealPlayed, Word, deal_heading, result_words
from backalley.moves import Move
from backalley.rules.ruleset import RuleSet

__all__ = ["DealText", "GameText", "MoveText", "TrickText", "check_deals"]


@attrs.define
class MoveText:
    """A move as the text gives it: the seat's label, its first word, the move."""

    seat: Word
    word: Word
    move: Move


@attrs.define
class TrickText:
    """A trick's line: its word ``trick``, its number, the index of its
    first move in the game, its plays, its ``leads`` marks and its winner."""

    word: Word
    number: Word
    first: int
    """The index of its first move in the game."""
    plays: list[MoveText] = attrs.Factory(list)
    leads: list[Word] = attrs.Factory(list)
    """The ``leads`` words, a card's mark as the first of the trick."""
    winner: Word | None = None


@attrs.define
class DealText:
    """A deal as the text gives it: its heading (word, number, facts as
    key and value), its hands, its tricks and its result line."""

    word: Word
    number: Word
    facts: list[tuple[Word, Word]]
    hands: list[tuple[Word, list[Word]]] = attrs.Factory(list)
    tricks: list[TrickText] = attrs.Factory(list)
    result: list[Word] | None = None


@attrs.frozen
class GameText:
    """What a game's text says: its rules and seats' labels, its deals, its
    moves in order, and the index of the deal (of the text) of each move."""

    rules: RuleSet
    labels: tuple[str, ...]
    deals: list[DealText]
    moves: list[MoveText]
    deal_of: list[int]


def check_deals(
    game: GameText,
    deals: list[DealPlayed],
    last: GameState,
    before: tuple[int, int] | None = None,
) -> None:
    """Refuse the first word of ``game`` that disagrees with its replay
    (``deals`` and the ``last`` state); with ``before``, only words before
    it: the lines before a move the replay refused, checked by the replay of
    the moves before that move."""
    check = _Check(game.labels, before)
    seat_of: dict[int, tuple[int, int]] = {}
    for k, played in enumerate(deals):
        for seat, _, i in played.calls:
            seat_of[i] = (k, seat)
        for trick in played.tricks:
            for seat, _, i in trick.plays:
                seat_of[i] = (k, seat)
    for i, entry in enumerate(game.moves):
        if i not in seat_of:
            continue
        k, seat = seat_of[i]
        if game.deal_of[i] != k:
            number = deals[k].start.deals_played + 1
            check.fail(entry.word, f"the replay makes this move in deal {number}")
        if entry.seat.text != game.labels[seat]:
            check.fail(entry.seat, f"it is {game.labels[seat]}'s turn, not {entry.seat.text}'s")
    if before is None and len(game.deals) > len(deals):
        extra = game.deals[len(deals)]
        number = deals[-1].start.deals_played + 1 if deals else 0
        over = "the game is over" if last.is_over else f"deal {number} is not over"
        check.fail(extra.word, f"the replay deals no more: {over}")
    for deal, played in zip(game.deals, deals):
        _check_deal(game, check, deal, played)


def _check_deal(game: GameText, check: _Check, deal: DealText, played: DealPlayed) -> None:
    start = played.start
    check.same(deal.number, str(start.deals_played + 1))
    facts = dict(deal_heading(game.rules, start.deals_played + 1, start))
    for key, value in deal.facts:
        if key.text not in facts:
            check.fail(key, f"this deal's heading has {', '.join(facts)}, not {key.text!r}")
        else:
            check.same(value, facts[key.text])
    seen: set[str] = set()
    for label, cards in deal.hands:
        if label.text in seen:
            check.fail(label, f"a second hand for {label.text}")
        seen.add(label.text)
        dealt = start.hands[game.labels.index(label.text)]
        for word in cards:
            try:
                card = parse_card(word.text)
            except BackAlleyError as exc:
                check.fail(word, str(exc))
                continue
            if card not in dealt:
                check.fail(word, f"{label.text} is not dealt {card}")
        if len(cards) != len(dealt) or len(set(w.text for w in cards)) != len(cards):
            check.fail(label, f"{label.text} is dealt {len(dealt)} cards, once each")
    for count, trick in enumerate(deal.tricks):
        _check_trick(game, check, trick, count, played)
    if deal.result is not None:
        if played.result is None:
            check.fail(deal.result[0], "this deal is not scored (thrown in, or not over)")
        else:
            check.words(deal.result, result_words(game.rules, played.result))


def _check_trick(
    game: GameText, check: _Check, trick: TrickText, count: int, played: DealPlayed
) -> None:
    check.same(trick.number, str(count + 1))
    if count >= len(played.tricks):  # (a replay cut short has fewer)
        if check.before is None:
            check.fail(trick.word, f"the deal has {len(played.tricks)} tricks before this one")
        return
    done = played.tricks[count]
    indices = [i for _, _, i in done.plays]
    for k, entry in enumerate(trick.plays):
        if k >= len(indices) or trick.first + k != indices[k]:
            what = "leads the next trick" if k >= len(indices) else "is not this trick's"
            check.fail(entry.word, f"this card {what}: one trick a line")
    for word in trick.leads:
        if trick.plays and word.column > trick.plays[0].word.column:
            check.fail(word, "the first card of a trick leads it, no other")
    if trick.winner is not None:
        if done.winner is None or len(trick.plays) != len(indices):
            check.fail(trick.winner, "this trick is not complete: no one wins it yet")
        elif trick.winner.text != game.labels[done.winner]:
            winner = game.labels[done.winner]
            check.fail(trick.winner, f"{winner} wins this trick, not {trick.winner.text}")


class _Check:
    """Refuses a word that disagrees with the replay (only words before
    ``before``, when given: the lines before a move the replay refused)."""

    def __init__(self, labels: tuple[str, ...], before: tuple[int, int] | None) -> None:
        self.labels = labels
        self.before = before

    def fail(self, word: Word, message: str) -> None:
        if self.before is None or (word.line, word.column) < self.before:
            raise word.fail(message)

    def same(self, word: Word, want: str) -> None:
        if word.text != want:
            self.fail(word, f"the replay gives {want!r} here, not {word.text!r}")

    def words(self, got: list[Word], want: list[str]) -> None:
        for word, text in zip(got, want):
            self.same(word, text)
        if len(got) > len(want):
            self.fail(got[len(want)], f"the replay gives no more than {' '.join(want)!r}")
        elif len(got) < len(want):
            self.fail(got[-1], f"the replay gives {' '.join(want)!r}")
