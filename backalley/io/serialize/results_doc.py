"""Deal results and contracts as plain data.

A deal result is the same JSON object wherever it appears (its own document,
a view, a record, a conformance vector)::

    {"number": 3, "dealer": 2, "hand_size": 11, "turn_up": "QS", "trump": "S",
     "bids": ["bid 4", "bid 2", "pass", "bid 3"],
     "contracts": [{"tricks": 6, "board": false, "multiplier": 1, "declarer": null}, ...],
     "declarer": null, "tricks": [7, 4], "points": [60, -30]}

Past deals are public facts: reading them checks their form and their fit
with the rule set (numbers, seats and sides in range, a hand size from the
schedule, tricks that add up, scores that are their sum).  A view's past
deals, which have no moves to replay, also have their points asked of the
rule set's scoring part (:func:`check_points`); a record's results are
checked exactly when its moves are replayed.
"""

from __future__ import annotations

from itertools import product
from typing import Any

from backalley.errors import BackAlleyError
from backalley.io.serialize.common import (
    _bool,
    _card_or_none,
    _fail,
    _int,
    _list,
    _move,
    _object,
    _suit,
)
from backalley.moves import BoardBid, NameTrump, Play
from backalley.rules.ruleset import RuleSet
from backalley.values import BiddingOutcome, Contract, DealResult

__all__ = [
    "check_points",
    "check_results",
    "contract_from_data",
    "contract_to_data",
    "deal_result_from_data",
    "deal_result_to_data",
    "points_fit",
    "results_from_data",
]

MAX_SEATS = 16
"""The most seats a deal result may name (rule sets seat far fewer)."""


def contract_to_data(c: Contract | None) -> dict[str, Any] | None:
    if c is None:
        return None
    return {
        "tricks": c.tricks,
        "board": c.board,
        "multiplier": c.multiplier,
        "declarer": c.declarer,
    }


_CONTRACT_KEYS = {"tricks": True, "board": False, "multiplier": False, "declarer": False}


def contract_from_data(value: Any, path: str) -> Contract | None:
    """A contract, or ``null`` for no contract (``board``, ``multiplier`` and
    ``declarer`` may be left out: false, 1 and null)."""
    if value is None:
        return None
    obj = _object(value, path, _CONTRACT_KEYS, "a contract")
    declarer = obj.get("declarer")
    return Contract(
        tricks=_int(obj["tricks"], f"{path}.tricks", 0),
        board=_bool(obj.get("board", False), f"{path}.board"),
        multiplier=_int(obj.get("multiplier", 1), f"{path}.multiplier", 1),
        declarer=None if declarer is None else _int(declarer, f"{path}.declarer", 0, MAX_SEATS - 1),
    )


def contract_document(value: Any, path: str) -> Contract:
    """A contract as a document of its own: ``null`` (no contract) is not one."""
    contract = contract_from_data(value, path)
    if contract is None:
        raise _fail(path, "expected a contract (an object), got null")
    return contract


def deal_result_to_data(r: DealResult) -> dict[str, Any]:
    """A deal result as plain data."""
    return {
        "number": r.number,
        "dealer": r.dealer,
        "hand_size": r.hand_size,
        "turn_up": None if r.turn_up is None else str(r.turn_up),
        "trump": None if r.trump is None else r.trump.value,
        "bids": [None if b is None else str(b) for b in r.bids],
        "contracts": [contract_to_data(c) for c in r.contracts],
        "declarer": r.declarer,
        "tricks": list(r.tricks),
        "points": list(r.points),
    }


_RESULT_KEYS = {
    "number": True,
    "dealer": True,
    "hand_size": True,
    "turn_up": False,
    "trump": False,
    "bids": True,
    "contracts": True,
    "declarer": False,
    "tricks": True,
    "points": True,
}


def deal_result_from_data(value: Any, path: str) -> DealResult:
    """A deal result from plain data: its form only (:func:`check_results`
    checks it against a rule set); ``turn_up``, ``trump`` and ``declarer``
    may be left out (null)."""
    obj = _object(value, path, _RESULT_KEYS, "a deal result")
    declarer = obj.get("declarer")
    return DealResult(
        number=_int(obj["number"], f"{path}.number", 1),
        dealer=_int(obj["dealer"], f"{path}.dealer", 0, MAX_SEATS - 1),
        hand_size=_int(obj["hand_size"], f"{path}.hand_size", 1),
        turn_up=_card_or_none(obj.get("turn_up"), f"{path}.turn_up"),
        trump=_suit(obj.get("trump"), f"{path}.trump"),
        bids=tuple(
            None if b is None else _call(b, f"{path}.bids[{i}]")
            for i, b in enumerate(_list(obj["bids"], f"{path}.bids", most=MAX_SEATS))
        ),
        contracts=tuple(
            contract_from_data(c, f"{path}.contracts[{i}]")
            for i, c in enumerate(_list(obj["contracts"], f"{path}.contracts", most=MAX_SEATS))
        ),
        declarer=None if declarer is None else _int(declarer, f"{path}.declarer", 0, MAX_SEATS - 1),
        tricks=tuple(
            _int(t, f"{path}.tricks[{i}]", 0)
            for i, t in enumerate(_list(obj["tricks"], f"{path}.tricks", most=MAX_SEATS))
        ),
        points=tuple(
            _int(p, f"{path}.points[{i}]")
            for i, p in enumerate(_list(obj["points"], f"{path}.points", most=MAX_SEATS))
        ),
    )


def _call(value: Any, path: str) -> Any:
    move = _move(value, path)
    if isinstance(move, (Play, NameTrump)):
        raise _fail(path, f"{move} is not a call")
    return move


def results_from_data(values: Any, path: str, most: int | None = None) -> tuple[DealResult, ...]:
    """The deal results of a document (a list of at most ``most``)."""
    return tuple(
        deal_result_from_data(value, f"{path}[{i}]")
        for i, value in enumerate(_list(values, path, most=most))
    )


def check_results(
    rules: RuleSet,
    results: tuple[DealResult, ...],
    scores: tuple[int, ...] | None,
    path: str,
    key: str,
) -> None:
    """Refuse deal results that do not fit ``rules``' game: one per deal of
    the schedule at most, numbered in order with the schedule's hand sizes; a
    dealer, a declarer and a call per seat; contracts, tricks and points per
    side, tricks adding up to the hand size; a turn-up from the deck; and the sum of the points is ``scores``
    (when given)."""
    players = rules.players
    sides = len(rules.teams)
    schedule = rules.schedule.hand_sizes
    deck = rules.plan.deck_mask
    if len(results) > len(schedule):
        raise _fail(
            f"{path}.{key}",
            f"{len(results)} deal results, but the rules have {len(schedule)} deals",
        )
    totals = [0] * sides
    for i, r in enumerate(results):
        where = f"{path}.{key}[{i}]"
        if r.number != i + 1:
            raise _fail(f"{where}.number", f"deal {i + 1} of the schedule is numbered {r.number}")
        if r.hand_size != schedule[i]:
            raise _fail(
                f"{where}.hand_size",
                f"deal {i + 1} of the schedule has {schedule[i]} cards, not {r.hand_size}",
            )
        if r.dealer >= players:
            raise _fail(f"{where}.dealer", f"seat {r.dealer} does not exist")
        if r.declarer is not None and r.declarer >= players:
            raise _fail(f"{where}.declarer", f"seat {r.declarer} does not exist")
        if len(r.bids) != players:
            raise _fail(f"{where}.bids", f"expected a call (or null) for each of {players} seats")
        for name in ("contracts", "tricks", "points"):
            if len(getattr(r, name)) != sides:
                raise _fail(f"{where}.{name}", f"expected {name} for {sides} sides")
        if sum(r.tricks) != r.hand_size:
            raise _fail(f"{where}.tricks", "the tricks do not add up to the hand size")
        for k, c in enumerate(r.contracts):
            if c is not None and c.declarer is not None and c.declarer >= players:
                raise _fail(f"{where}.contracts[{k}].declarer", f"seat {c.declarer} does not exist")
        if r.turn_up is not None and not deck >> r.turn_up.index & 1:
            raise _fail(f"{where}.turn_up", f"{r.turn_up} is not in this rule set's deck")
        totals = [a + b for a, b in zip(totals, r.points)]
    if scores is not None:
        if len(scores) != sides:
            raise _fail(f"{path}.scores", f"expected {sides} scores, got {len(scores)}")
        if tuple(totals) != tuple(scores):
            raise _fail(
                f"{path}.scores",
                f"the scores {list(scores)} are not the sum of the deal results {totals}",
            )


def check_points(rules: RuleSet, results: tuple[DealResult, ...], path: str, key: str) -> None:
    """Refuse a deal result whose points the rule set's scoring part does not
    give for its contracts and tricks (:func:`points_fit`): what a view's
    past deals are checked by, having no moves to replay (a record's results
    are checked exactly by replaying its moves)."""
    for i, r in enumerate(results):
        if not points_fit(rules, r):
            raise _fail(
                f"{path}.{key}[{i}].points",
                f"the rules' scoring ({type(rules.scoring).__name__}) does not give "
                f"{list(r.points)} for contracts {[str(c) for c in r.contracts]} and tricks "
                f"{list(r.tricks)} on a {r.hand_size}-card deal",
            )


def points_fit(rules: RuleSet, result: DealResult) -> bool:
    """Whether the scoring part gives ``result``'s points for its contracts
    and tricks: asked through the plan, with the deal's facts as the result
    records them (its number, dealer, hand size, trump, contracts, declarer,
    and its board bidders read from its calls).

    Two facts a scoring part may read are not in a deal result: the hands as
    dealt (a bonus for a kind of hand) and each side's highest announcement
    (an auction's defenders may score their own).  The points fit when the
    scoring part gives them for some choice of these: each seat dealt no
    card or every card of the deck (what any bonus for holding cards reads
    at its extremes), each side announcing nothing or the tricks it took."""
    plan = rules.plan
    players, sides = rules.players, len(rules.teams)
    board = frozenset(seat for seat, bid in enumerate(result.bids) if type(bid) is BoardBid)
    announced_choices: tuple[tuple[int | None, ...], ...] = ((None,) * sides, result.tricks)
    tricks, points = tuple(result.tricks), tuple(result.points)
    for announced in product(*zip(*announced_choices)):
        outcome = BiddingOutcome(
            tuple(result.contracts),
            declarer=result.declarer,
            board_bidders=board,
            announcements=() if all(a is None for a in announced) else announced,
        )
        ctx = plan.deal_context(
            result.number - 1, result.dealer, result.hand_size, outcome, result.trump
        )
        for hands in product((0, plan.deck_mask), repeat=players):
            try:
                if plan.score(ctx, tricks, hands) == points:
                    return True
            except BackAlleyError:  # the part refuses these facts: not how the deal went
                continue
    return False
