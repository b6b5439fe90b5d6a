"""Player views as documents: what one seat may know, and what it may do.

A view document holds the seat's own hand and the public facts of the game
(calls in order and per seat, contracts per side, trump and turn-up, whether
trump is broken, the tricks played and who won them, tricks per seat and per
side, the counts of every hand, scores, the results of past deals, whose
turn, the winner once the game is over) - and, as answers a user interface
can show without knowing the rules, the seat's legal moves and, for each card
of its hand and for each call the bidding knows, whether it may be made now
and if not the rule that refuses it (a :class:`~backalley.Reason` name) and
why::

    "legal_moves": ["play 2H", "play 9H"],
    "cards": [{"card": "2H", "playable": true, "reason": null, "message": null},
              {"card": "QS", "playable": false, "reason": "MUST_FOLLOW_SUIT",
               "message": "you hold a heart, so you must follow hearts"}, ...],
    "call_answers": [{"call": "bid 3", "legal": false, "reason": "BID_MAKES_TOTAL",
                      "message": "the bids may not add up to the hand size (5); ..."}, ...]

Every answer is the engine's: the facts are the view's own properties, the
calls are :meth:`~backalley.PlayerView.known_calls` (the bidding part's), and
each answer is :meth:`~backalley.PlayerView.check` - no rule is restated here.

Loading checks the document's form and counts first, then rebuilds the
current deal through the rules' own decisions in the engine
(:func:`~backalley.engine.view_replay.replay_view`: the bidding outcome, the
first leader, the trick winners, trump broken, the seat's own plays) and refuses a
view that contradicts itself; the results of past deals are public facts,
checked for their form only.  The facts worked out from the rest (see
:data:`OUTPUT_KEYS`), the legal moves and the answers are outputs: when a
document has them, they must be what the loaded view answers (documents
written before they existed load without them).
"""

from __future__ import annotations

from typing import Any

import attrs

from backalley.engine.view_replay import replay_view
from backalley.engine.views import PlayerView
from backalley.errors import IllegalMoveError
from backalley.io.serialize.common import CARD_TEXT, _fail, _list, _show, _texts
from backalley.io.serialize.limits import CALL_ROUNDS
from backalley.io.serialize.results_doc import (
    check_points,
    check_results,
    contract_to_data,
    deal_result_of,
    deal_result_to_data,
)
from backalley.io.serialize.rules_doc import rules_to_data
from backalley.io.serialize.structure import structure
from backalley.io.shapes import ViewShape
from backalley.moves import PLAYS, Move
from backalley.plain import check_length, read_int, same_data
from backalley.rules.ruleset import RuleSet
from backalley.values import DealResult, Phase

__all__ = [
    "OUTPUT_KEYS",
    "call_answers",
    "card_answers",
    "view_from_data",
    "view_to_data",
]


def view_to_data(view: PlayerView) -> dict[str, Any]:
    """A view's document (without ``format`` and ``version``)."""
    return {
        "rules": rules_to_data(view.rules),
        "seat": view.seat,
        "phase": view.phase.value,
        "to_act": view.to_act,
        "dealer": view.dealer,
        "hand_size": view.hand_size,
        "hand": _texts(view._hand_bits),
        "hand_counts": list(view.hand_counts),
        "turn_up": None if view.turn_up is None else str(view.turn_up),
        "discards": _texts(view._discard_bits),
        "trump": None if view.trump is None else view.trump.value,
        "calls": [str(c) for c in view.calls],
        **public_facts(view),
        "tricks": [
            {"leader": lead, "cards": [CARD_TEXT[c] for c in cards], "winner": winner}
            for lead, cards, winner in view._history
        ],
        "trick": [CARD_TEXT[c] for c in view._trick_cards],
        "leader": view.leader,
        "scores": list(view.scores),
        "deal_results": [deal_result_to_data(r) for r in view.deal_results],
        "legal_moves": [str(m) for m in view.legal_moves()],
        "cards": card_answers(view),
        "call_answers": call_answers(view),
    }


def public_facts(view: PlayerView) -> dict[str, Any]:
    """The facts a view document states beside its history, each the view's
    own property: ``bids`` (the calls per seat, ``null`` before a seat
    speaks), ``declarer``, ``contracts`` (per side once the bidding is over,
    else ``null``), ``trump_known``, ``trump_broken``, ``tricks_won`` (per
    seat) and ``side_tricks`` (per side) this deal, ``side_seats`` (the seats
    of each side, in the order of the scores), ``deals_played``, ``deals``
    (of the whole game) and ``winner`` (the winning side, or seat in a
    cutthroat game, once the game is over; ``null`` for a draw or before)."""
    contracts = view.contracts
    return {
        "bids": [None if b is None else str(b) for b in view.bids],
        "declarer": view.declarer,
        "contracts": None if contracts is None else [contract_to_data(c) for c in contracts],
        "trump_known": view.trump_known,
        "trump_broken": view.trump_broken,
        "tricks_won": list(view.tricks_won),
        "side_tricks": list(view.side_tricks),
        "side_seats": [list(seats) for seats in view.rules.teams],
        "deals_played": view.deals_played,
        "deals": view.rules.schedule.deals,
        "winner": view.winner,
    }


OUTPUT_KEYS = (
    "bids",
    "declarer",
    "contracts",
    "trump_known",
    "trump_broken",
    "tricks_won",
    "side_tricks",
    "side_seats",
    "deals_played",
    "deals",
    "winner",
)
"""The keys of :func:`public_facts`: worked out from the rest of the document,
so optional when read, and checked against the loaded view when given."""


def _answer(view: PlayerView, move: Move) -> tuple[str, str] | None:
    """The view's own answer to ``move``: ``None`` when its seat may make it
    now, else the :class:`~backalley.Reason` name and the sentence."""
    try:
        view.check(move)
    except IllegalMoveError as exc:
        return exc.reason.name, str(exc)
    return None


def call_answers(view: PlayerView) -> list[dict[str, Any]]:
    """For each call the bidding knows at this point
    (:meth:`~backalley.PlayerView.known_calls`, in the bidding part's order;
    none outside the bidding): whether the seat may call it now, and if not
    the :class:`~backalley.Reason` (its name) and the sentence of the refusal
    - the view's own :meth:`~backalley.PlayerView.check`."""
    out: list[dict[str, Any]] = []
    for call in view.known_calls():
        why = _answer(view, call)
        out.append(
            {
                "call": str(call),
                "legal": why is None,
                "reason": None if why is None else why[0],
                "message": None if why is None else why[1],
            }
        )
    return out


def card_answers(view: PlayerView) -> list[dict[str, Any]]:
    """For each card of the seat's hand: whether it may be played now, and
    if not the :class:`~backalley.Reason` (its name) and the sentence of the
    refusal - the view's own :meth:`~backalley.PlayerView.check`."""
    out: list[dict[str, Any]] = []
    for card in view.hand:
        why = _answer(view, PLAYS[card.index])
        out.append(
            {
                "card": str(card),
                "playable": why is None,
                "reason": None if why is None else why[0],
                "message": None if why is None else why[1],
            }
        )
    return out


def view_from_data(value: Any, path: str = "$") -> PlayerView:
    """The view of a document (without ``format`` and ``version``).
    Raises :class:`~backalley.SerializationError`."""
    doc = structure(value, ViewShape, path)
    rules = doc.rules
    _Bounds.of(rules, doc.hand_size).check(doc, path)
    results = tuple(
        deal_result_of(r, f"{path}.deal_results[{i}]") for i, r in enumerate(doc.deal_results)
    )
    _check_place(rules, doc, results, path)
    view = replay_view(
        rules=rules,
        seat=doc.seat,
        phase=doc.phase,
        to_act=doc.to_act,
        dealer=doc.dealer,
        hand_size=doc.hand_size,
        hand=doc.hand,
        hand_counts=doc.hand_counts,
        turn_up=doc.turn_up,
        discards=doc.discards,
        trump=doc.trump,
        calls=doc.calls,
        history=tuple((t.leader, tuple(c.index for c in t.cards), t.winner) for t in doc.tricks),
        trick=tuple(c.index for c in doc.trick),
        leader=doc.leader,
        scores=doc.scores,
        deal_results=results,
        path=path,
    )
    _check_answers(view, value, path)
    return view


@attrs.frozen
class _Bounds:
    """What a view of ``rules`` on a deal of ``hand_size`` cards can hold."""

    players: int
    hand_size: int
    deck_size: int
    deals: int
    largest: int

    @classmethod
    def of(cls, rules: RuleSet, hand_size: int) -> _Bounds:
        sizes = rules.schedule.hand_sizes
        return cls(rules.players, hand_size, rules.deck.size, len(sizes), max(sizes))

    def lengths(self) -> dict[str, int]:
        """The most items of each list of the document."""
        players, hand_size = self.players, self.hand_size
        return {
            "tricks": hand_size,
            "hand_counts": players,
            "deal_results": self.deals,
            "hand": hand_size,
            "discards": self.deck_size,
            "calls": players * CALL_ROUNDS * (hand_size + 2),
            "trick": players - 1,
            "scores": players,
        }

    def check(self, doc: ViewShape, path: str) -> None:
        """Refuse a deal larger than the schedule's largest, a list longer
        than the view can hold, a seat that does not sit at the table, a trick
        of more cards than players, a hand count over the hand size (the
        codec refused a card twice)."""
        read_int(doc.hand_size, f"{path}.hand_size", 1, self.largest)
        for key, most in self.lengths().items():
            check_length(getattr(doc, key), f"{path}.{key}", most)
        top = self.players - 1
        for key in ("seat", "to_act", "dealer", "leader"):
            seat = getattr(doc, key)
            if seat is not None:
                read_int(seat, f"{path}.{key}", 0, top)
        for i, trick in enumerate(doc.tricks):
            where = f"{path}.tricks[{i}]"
            read_int(trick.leader, f"{where}.leader", 0, top)
            check_length(trick.cards, f"{where}.cards", self.players)
            read_int(trick.winner, f"{where}.winner", 0, top)
        for i, count in enumerate(doc.hand_counts):
            read_int(count, f"{path}.hand_counts[{i}]", 0, self.hand_size)


def _check_place(
    rules: RuleSet, doc: ViewShape, results: tuple[DealResult, ...], path: str
) -> None:
    """The game's place: the phase, the deal's size and the past deals'
    results fit the schedule, and the scores are the results' sum."""
    schedule = rules.schedule.hand_sizes
    over = doc.phase is Phase.GAME_OVER
    if over != (len(results) == len(schedule)):
        raise _fail(
            f"{path}.phase", f"phase {doc.phase.value!r} does not fit {len(results)} scored deals"
        )
    current = len(results) - 1 if over else len(results)
    if doc.hand_size != schedule[current]:
        raise _fail(
            f"{path}.hand_size",
            f"deal {current + 1} has {schedule[current]} cards, not {doc.hand_size}",
        )
    check_results(rules, results, doc.scores, path, "deal_results")
    check_points(rules, results, path, "deal_results")


def _check_answers(view: PlayerView, obj: dict[str, Any], path: str) -> None:
    """The facts worked out from the rest, the legal moves and the answers of
    a document, when it has them, must be the loaded view's own."""
    facts = public_facts(view)
    for key in OUTPUT_KEYS:
        if key in obj and not same_data(obj[key], facts[key]):
            raise _fail(
                f"{path}.{key}", f"the view's {key} is {_show(facts[key])}, not {_show(obj[key])}"
            )
    if "legal_moves" in obj:
        legal = [str(m) for m in view.legal_moves()]
        given = _list(obj["legal_moves"], f"{path}.legal_moves", most=len(legal))
        if given != legal:
            raise _fail(
                f"{path}.legal_moves",
                f"the view's legal moves are {_show(legal)}, not {_show(given)}",
            )
    for key, answers, what, name in (
        ("cards", card_answers, "cards", "card"),
        ("call_answers", call_answers, "calls", "call"),
    ):
        if key not in obj:
            continue
        mine = answers(view)
        given = _list(obj[key], f"{path}.{key}", most=len(mine))
        if len(given) != len(mine):
            raise _fail(f"{path}.{key}", f"expected an answer for each of {len(mine)} {what}")
        for i, (ours, theirs) in enumerate(zip(mine, given)):
            if not same_data(theirs, ours):
                raise _fail(
                    f"{path}.{key}[{i}]",
                    f"the view answers {_show(ours)} for {ours[name]}, not {_show(theirs)}",
                )
