"""Reading the record notation (:mod:`backalley.io.notation`): the text cut
into games, each game's tags read into a :class:`~backalley.GameRecord`'s
rules, seed, deck orders, first dealer, players and metadata, its deals'
calls and tricks into its moves; then the game replayed, and every line the
replay gives (a deal's heading, the hands, who leads and wins each trick, the
results) compared with what the text says.  Whatever is refused is refused
with the line and column of the word at fault
(:class:`~backalley.io.notation.RecordNotationError`).
"""

from __future__ import annotations

import json
import re
from typing import Any

import attrs

from backalley import variants
from backalley.cards import parse_card
from backalley.errors import BackAlleyError, SetupError
from backalley.io.notation_check import DealText, GameText, MoveText, TrickText, check_deals
from backalley.io.notation_lines import (
    DealPlayed,
    RecordNotationError,
    Word,
    deals_of,
    is_metadata_tag,
    scores_after,
    scores_text,
    seat_labels,
    words,
)
from backalley.io.record import GameRecord, ReplayError
from backalley.io.serialize import common
from backalley.io.serialize.limits import check_decks, check_moves
from backalley.io.serialize.record_file import third_person
from backalley.io.serialize.rules_doc import rules_from_data
from backalley.moves import Move, Play, parse_move
from backalley.rules.ruleset import RuleSet
from backalley.rules.seats import parse_seat
from backalley.values import DealResult

__all__ = ["records_from_text"]

_TAG = re.compile(r"\s*\[([A-Za-z][A-Za-z0-9_.-]*)\s+(.*)\]\s*$")
_ONE_EACH = ("Variant", "Rules", "Seed", "Dealer", "Result")


def records_from_text(text: str) -> list[GameRecord]:
    """Every game record of ``text``, in order (none for an empty text).
    Raises :class:`~backalley.io.notation.RecordNotationError`."""
    if not isinstance(text, str):
        raise RecordNotationError(f"a record's text is a str, not {type(text).__name__}", 1, 1)
    if len(text) > common.MAX_DOCUMENT_SIZE:
        most = common.MAX_DOCUMENT_SIZE
        raise RecordNotationError(f"the text is longer than {most} characters", 1, 1)
    return [_Game(lines).record() for lines in _games(text)]


def _games(text: str) -> list[list[tuple[int, str]]]:
    """The lines of each game (number, text), comments and blank lines left out."""
    games: list[list[tuple[int, str]]] = []
    in_tags = False
    for number, line in enumerate(text.split("\n"), 1):
        line = line.removesuffix("\r")
        stripped = line.lstrip()
        if not stripped or stripped.startswith("%"):
            continue
        tag = stripped.startswith("[")
        if tag and not in_tags:
            games.append([])
        elif not games:
            raise RecordNotationError(
                "a game starts with its tags ([Variant ...])", number, len(line) - len(stripped) + 1
            )
        in_tags = tag
        games[-1].append((number, line))
    return games


@attrs.define
class _Tag:
    name: Word
    value: Any
    at: Word
    """Where the value starts."""


class _Game:
    """One game's lines, read and checked by its replay."""

    def __init__(self, lines: list[tuple[int, str]]) -> None:
        first = lines[0][1]
        self.first = Word(first.strip(), lines[0][0], len(first) - len(first.lstrip()) + 1)
        self.tags: dict[str, _Tag] = {}
        self.decks: list[_Tag] = []
        self.metadata: dict[str, str] = {}
        body = [(n, line) for n, line in lines if not line.lstrip().startswith("[")]
        for number, line in lines:
            if line.lstrip().startswith("["):
                self._tag(number, line)
        self.rules = self._rules()
        self.labels = seat_labels(self.rules)
        self.deals: list[DealText] = []
        self.moves: list[MoveText] = []
        self.deal_of: list[int] = []
        """The index of the text's deal of each move."""
        for number, line in body:
            self._line(words(line, number))

    # -------------------------------------------------------------- the tags

    def _tag(self, number: int, line: str) -> None:
        match = _TAG.match(line)
        if match is None:
            raise RecordNotationError('expected a tag: [Name "value"]', number, line.index("[") + 1)
        name = Word(match.group(1), number, match.start(1) + 1)
        at = Word(match.group(2), number, match.start(2) + 1)
        try:
            value = json.loads(match.group(2))
        except json.JSONDecodeError as exc:
            raise RecordNotationError(
                f"the value of [{name.text}] is not JSON: {exc.msg}", number, at.column + exc.pos
            ) from None
        tag = _Tag(name, value, at)
        if name.text == "Deck":
            self.decks.append(tag)
        elif is_metadata_tag(name.text) or name.text == "Meta":
            self._metadata(tag)
        elif name.text in self.tags:
            raise name.fail(f"a second [{name.text}] tag")
        else:
            self.tags[name.text] = tag

    def _metadata(self, tag: _Tag) -> None:
        if tag.name.text == "Meta":
            value = tag.value
            if not (
                isinstance(value, list)
                and len(value) == 2
                and all(isinstance(v, str) for v in value)
            ):
                raise tag.at.fail('[Meta] holds a key and its value: [Meta ["key", "value"]]')
            key, text = value
        else:
            key, text = tag.name.text, self._text(tag)
        if key in self.metadata:
            raise tag.name.fail(f"a second metadata key {key!r}")
        self.metadata[key] = text

    @staticmethod
    def _text(tag: _Tag) -> str:
        if not isinstance(tag.value, str):
            raise tag.at.fail(f'the value of [{tag.name.text}] is text in quotes ("...")')
        return tag.value

    def _rules(self) -> RuleSet:
        variant, rules = self.tags.get("Variant"), self.tags.get("Rules")
        if variant is not None and rules is not None:
            raise rules.name.fail("a game gives [Variant] or [Rules], not both")
        if rules is not None:
            try:
                return rules_from_data(rules.value)
            except BackAlleyError as exc:
                raise rules.at.fail(f"not a rule set: {exc}") from None
        if variant is None:
            raise self.first.fail('a game names its rules: [Variant "name"] or [Rules {...}]')
        try:
            return variants.get(self._text(variant))
        except BackAlleyError as exc:
            raise variant.at.fail(str(exc)) from None

    def _known_tags(self) -> None:
        known = {*_ONE_EACH, *self.labels}
        for name, tag in self.tags.items():
            if name not in known:
                raise tag.name.fail(
                    f"unknown tag [{name}]; a game's tags are {', '.join(_ONE_EACH)}, Deck, "
                    f"Meta, its seats' players ({', '.join(self.labels)}) and metadata "
                    "(a name that starts with a small letter)"
                )

    def _seed(self) -> int | None:
        tag = self.tags.get("Seed")
        if tag is None:
            return None
        text = self._text(tag)
        if not text.isascii() or not text.isdigit():
            raise tag.at.fail(f"a seed is a whole number, not {text!r}")
        return int(text)

    def _deck_orders(self) -> tuple[tuple[str, ...], ...]:
        check_decks(self.rules, len(self.decks), f"line {self.first.line}")
        orders = []
        for tag in self.decks:
            text = self._text(tag)
            cards = []
            for word in words(text, tag.at.line):
                try:
                    cards.append(str(parse_card(word.text)))
                except BackAlleyError as exc:
                    raise RecordNotationError(
                        str(exc), word.line, tag.at.column + word.column
                    ) from None
            orders.append(tuple(cards))
        return tuple(orders)

    def _dealer(self) -> int:
        tag = self.tags.get("Dealer")
        if tag is None:
            raise self.first.fail('a game names its first dealer: [Dealer "North"]')
        try:
            return parse_seat(self.rules, self._text(tag))
        except SetupError as exc:
            raise tag.at.fail(str(exc)) from None

    def _players(self) -> tuple[str, ...] | None:
        given = [self.tags.get(label) for label in self.labels]
        if all(tag is None for tag in given):
            return None
        if any(tag is None for tag in given):
            tag = next(t for t in given if t is not None)
            missing = [label for label, t in zip(self.labels, given) if t is None]
            raise tag.name.fail(
                f'give every seat\'s player or none: [{missing[0]} "..."] is missing'
            )
        return tuple(self._text(tag) for tag in given if tag is not None)

    # ------------------------------------------------------------ the deals

    def _line(self, line: list[Word]) -> None:
        head = line[0]
        if head.text == "deal":
            number = self._number(line, 1, "deal")
            rest = line[2:]
            if len(rest) % 2:
                raise rest[-1].fail(f"{rest[-1].text!r} has no value")
            self.deals.append(DealText(head, number, list(zip(rest[::2], rest[1::2]))))
            return
        if not self.deals:
            raise head.fail("a deal starts with its line 'deal N'")
        deal = self.deals[-1]
        if head.text == "calls":
            for seat, said in self._groups(line[1:], head):
                move = self._move(said)
                if isinstance(move, Play):
                    raise said[0].fail("a card is played on a trick's line, not among the calls")
                self._add(seat, said[0], move)
        elif head.text == "trick":
            number = self._number(line, 1, "trick")
            trick = TrickText(head, number, len(self.moves))
            deal.tricks.append(trick)
            self._trick(trick, line[2:])
        elif head.text == "result":
            if deal.result is not None:
                raise head.fail("a second result for this deal")
            deal.result = line
        elif head.text in self.labels:
            deal.hands.append((head, line[1:]))
        else:
            raise head.fail(
                f"expected 'deal', a seat's hand ({', '.join(self.labels)}), 'calls', "
                f"'trick' or 'result', not {head.text!r}"
            )

    @staticmethod
    def _number(line: list[Word], at: int, what: str) -> Word:
        if len(line) <= at or not line[at].text.isascii() or not line[at].text.isdigit():
            where = line[at] if len(line) > at else line[0]
            raise where.fail(f"expected the number of the {what} after {what!r}")
        return line[at]

    def _groups(self, line: list[Word], head: Word) -> list[tuple[Word, list[Word]]]:
        """The words after a line's head cut at each seat's label: (seat, its words)."""
        groups: list[tuple[Word, list[Word]]] = []
        for word in line:
            if word.text in self.labels:
                groups.append((word, []))
            elif not groups:
                raise word.fail(f"expected a seat ({', '.join(self.labels)}), not {word.text!r}")
            else:
                groups[-1][1].append(word)
        for seat, said in groups:
            if not said:
                raise seat.fail(f"{seat.text} and then what? (a call or a card)")
        return groups

    def _trick(self, trick: TrickText, line: list[Word]) -> None:
        for seat, said in self._groups(line, trick.word):
            if [w.text for w in said] == ["wins"]:
                if trick.winner is not None or not trick.plays:
                    raise said[0].fail("one seat wins a trick, after its cards")
                trick.winner = seat
                continue
            if trick.winner is not None:
                raise seat.fail("a trick's cards come before who wins it")
            if said[0].text == "leads":
                trick.leads.append(said[0])
                said = said[1:]
                if not said:
                    raise seat.fail(f"{seat.text} leads what card?")
            move = self._move(said)
            if not isinstance(move, Play):
                raise said[0].fail(f"a trick holds cards, not {move}")
            trick.plays.append(self._add(seat, said[0], move))

    def _move(self, said: list[Word]) -> Move:
        try:
            return parse_move(" ".join(w.text for w in said))
        except BackAlleyError as exc:
            raise said[0].fail(str(exc)) from None

    def _add(self, seat: Word, word: Word, move: Move) -> MoveText:
        entry = MoveText(seat, word, move)
        self.moves.append(entry)
        self.deal_of.append(len(self.deals) - 1)
        return entry

    # ------------------------------------------------------- the record

    def record(self) -> GameRecord:
        """The game's record, once its replay agrees with every line."""
        self._known_tags()
        seed, decks, dealer = self._seed(), self._deck_orders(), self._dealer()
        players = self._players()
        if seed is None and not decks:
            raise self.first.fail('a game gives a seed ([Seed "7"]) or its deck orders ([Deck])')
        check_moves(self.rules, len(self.moves), f"line {self.first.line}")
        record = GameRecord(
            rules=self.rules,
            first_dealer=dealer,
            seed=seed,
            decks=decks,
            moves=tuple(m.move for m in self.moves),
            players=players,
            metadata=self.metadata,
        )
        try:
            record.start()
        except SetupError as exc:
            raise self._setup_failure(exc) from None
        try:
            deals, last = deals_of(record)
        except ReplayError as exc:
            assert exc.index is not None  # the record has no results to differ
            self._check_prefix(record, exc.index)
            bad = self.moves[exc.index]
            message = exc.message.removeprefix(f"move {exc.index} ({exc.move}): ")
            message = third_person(message, bad.seat.text)
            raise bad.word.fail(f"{exc.move} is refused: {exc.reason.name}: {message}") from None
        check_deals(self.text(), deals, last)
        results = self._results(record, deals)
        return attrs.evolve(record, results=results)

    def _setup_failure(self, exc: SetupError) -> RecordNotationError:
        found = re.match(r"decks\[(\d+)\]", str(exc))
        if found and int(found.group(1)) < len(self.decks):
            return self.decks[int(found.group(1))].at.fail(str(exc))
        where = self.tags.get("Seed") or self.tags.get("Dealer")
        return (where.at if where is not None else self.first).fail(str(exc))

    def text(self) -> GameText:
        """What the text says of the game's deals and moves."""
        return GameText(self.rules, self.labels, self.deals, self.moves, self.deal_of)

    def _check_prefix(self, record: GameRecord, index: int) -> None:
        """Before the refusal of move ``index``: the lines before it, checked
        by the replay of the moves before it (a seat at fault is told as such)."""
        deals, last = deals_of(attrs.evolve(record, moves=record.moves[:index]))
        bad = self.moves[index]
        if last.to_act is not None and bad.seat.text != self.labels[last.to_act]:
            raise bad.seat.fail(f"it is {self.labels[last.to_act]}'s turn, not {bad.seat.text}'s")
        check_deals(self.text(), deals, last, before=(bad.seat.line, bad.seat.column))

    def _results(
        self, record: GameRecord, deals: list[DealPlayed]
    ) -> tuple[DealResult, ...] | None:
        """The record's results: those of the deals with a ``result`` line,
        which must be the first deals scored, under the game's ``Result``."""
        scored = [(deal, played) for deal, played in zip(self.deals, deals) if played.result]
        given = [deal.result for deal, _ in scored]
        count = sum(line is not None for line in given)
        if None in given[:count]:
            missing = given.index(None)
            later = next(line for line in given[missing:] if line is not None)
            number = scored[missing][1].start.deals_played + 1
            raise later[0].fail(
                f"the result of deal {number} is missing: the record's results are those of "
                "its first deals"
            )
        tag = self.tags.get("Result")
        if tag is None:
            if count:
                first = next(line for line in given if line is not None)
                raise first[0].fail("deal results need the game's [Result] tag")
            return None
        results = tuple(played.result for _, played in scored[:count] if played.result)
        want = scores_text(self.rules, scores_after(attrs.evolve(record, results=results), deals))
        if " ".join(self._text(tag).split()) != want:
            raise tag.at.fail(f"the replay gives the result {want!r}")
        return results
