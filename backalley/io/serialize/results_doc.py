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
from backalley.io.serialize.common import _fail
from backalley.io.serialize.structure import structure
from backalley.io.shapes import ContractShape, DealResultShape
from backalley.moves import BoardBid, Move, NameTrump, Play
from backalley.plain import check_length, read_int
from backalley.rules.ruleset import RuleSet
from backalley.values import BiddingOutcome, Contract, DealResult

__all__ = [
    "check_points",
    "check_results",
    "contract_from_data",
    "contract_of",
    "contract_to_data",
    "deal_result_from_data",
    "deal_result_of",
    "deal_result_to_data",
    "points_fit",
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


def contract_from_data(value: Any, path: str) -> Contract | None:
    """A contract, or ``null`` for no contract (``board``, ``multiplier`` and
    ``declarer`` may be left out: false, 1 and null)."""
    if value is None:
        return None
    return contract_of(structure(value, ContractShape, path), path)


def contract_of(shape: ContractShape, path: str) -> Contract:
    """The contract a document's shape says, its numbers in range."""
    declarer = shape.declarer
    return Contract(
        tricks=read_int(shape.tricks, f"{path}.tricks", 0),
        board=shape.board,
        multiplier=read_int(shape.multiplier, f"{path}.multiplier", 1),
        declarer=None
        if declarer is None
        else read_int(declarer, f"{path}.declarer", 0, MAX_SEATS - 1),
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


def deal_result_from_data(value: Any, path: str) -> DealResult:
    """A deal result from plain data: its form only (:func:`check_results`
    checks it against a rule set); ``turn_up``, ``trump`` and ``declarer``
    may be left out (null)."""
    return deal_result_of(structure(value, DealResultShape, path), path)


def deal_result_of(shape: DealResultShape, path: str) -> DealResult:
    """The deal result a document's shape says: its numbers in range, its
    lists no longer than a table seats, its calls calls (not plays)."""
    declarer = shape.declarer
    for key in ("bids", "contracts", "tricks", "points"):
        check_length(getattr(shape, key), f"{path}.{key}", MAX_SEATS)
    return DealResult(
        number=read_int(shape.number, f"{path}.number", 1),
        dealer=read_int(shape.dealer, f"{path}.dealer", 0, MAX_SEATS - 1),
        hand_size=read_int(shape.hand_size, f"{path}.hand_size", 1),
        turn_up=shape.turn_up,
        trump=shape.trump,
        bids=tuple(
            None if b is None else _call(b, f"{path}.bids[{i}]") for i, b in enumerate(shape.bids)
        ),
        contracts=tuple(
            None if c is None else contract_of(c, f"{path}.contracts[{i}]")
            for i, c in enumerate(shape.contracts)
        ),
        declarer=None
        if declarer is None
        else read_int(declarer, f"{path}.declarer", 0, MAX_SEATS - 1),
        tricks=tuple(read_int(t, f"{path}.tricks[{i}]", 0) for i, t in enumerate(shape.tricks)),
        points=shape.points,
    )


def _call(move: Move, path: str) -> Move:
    if isinstance(move, (Play, NameTrump)):
        raise _fail(path, f"{move} is not a call")
    return move


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
