"""What the deals of a rule set can amount to, asked of its parts: the longest
bidding of a deal and the most points one side can score on it.

A game framework needs bounds that hold for every game (OpenSpiel's
``max_game_length`` and its least and most utility).  Nothing here assumes
how many calls a bidding takes, which contracts or multipliers it makes, or
what a side scores:

- A part may **declare** them: the bidding part ``longest_bidding(hand_size,
  teams)`` (the most calls of a bidding) and ``contracts(hand_size, teams)``
  (every contract a side may hold after it, ``None`` for none); the scoring
  part ``points_bound(ctx, contracts)`` (the most points, in absolute value,
  one side may score on the deal of ``ctx`` when every side holds one of
  ``contracts``, bonuses included).  A declaration is trusted only when the
  part's own class makes it, or an ancestor below which no class defines a
  method of its own (:func:`~backalley.rules.plan.trusted_declaration`, the
  rule the plan applies to ``answer_key``): a subclass that changes a rule
  never inherits its parent's claim.
- Without a trusted declaration the parts are **asked**: the bidding is
  walked, every legal call at every point from every first bidder, through
  the plan's bidding nodes (at most :data:`WALK_LIMIT` points; beyond them a
  :class:`~backalley.RuleSetError` asks the part to declare), and the scoring
  part is asked for each side's points on the deal's own context (its deal
  index and hand size), each side holding each contract while the others
  hold none, the same, or the largest ones, for every split of the tricks,
  with hands holding a card of every suit and with announcements and without.

A bound that a game exceeds is a wrong declaration (or a scoring the probe
missed); the OpenSpiel game checks its returns against it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from backalley.cardset import CardSet
from backalley.errors import RuleSetError
from backalley.rules.context import DealContext
from backalley.rules.plan import trusted_declaration
from backalley.values import BiddingOutcome, Contract

if TYPE_CHECKING:
    from backalley.rules.ruleset import RuleSet

__all__ = ["WALK_LIMIT", "contracts", "longest_bidding", "points_bound"]

WALK_LIMIT = 50_000
"""The most points of a bidding the walk visits for one hand size."""

_RAINBOW = CardSet(1 | 1 << 13 | 1 << 26 | 1 << 39)
"""A hand of the probe: a card of every suit (what a bonus for the dealt hands may read)."""


def longest_bidding(rules: RuleSet, hand_size: int) -> int:
    """The most calls a bidding of ``hand_size`` cards can take under ``rules``:
    the bidding part's trusted ``longest_bidding``, else found by walking it."""
    declared = trusted_declaration(rules.bidding, "longest_bidding")
    if declared is None:
        return _walk(rules, hand_size)[0]
    answer = declared(hand_size, rules.teams)
    if type(answer) is not int or answer < 1:
        raise RuleSetError(
            [
                f"bidding: {type(rules.bidding).__name__}.longest_bidding must answer a whole "
                f"number of calls >= 1, not {answer!r}"
            ]
        )
    return answer


def contracts(rules: RuleSet, hand_size: int) -> tuple[Contract | None, ...]:
    """Every contract a side may hold after a bidding of ``hand_size`` cards
    (``None``: no contract): the bidding part's trusted ``contracts``, else the
    contracts of every bidding, found by walking it."""
    declared = trusted_declaration(rules.bidding, "contracts")
    if declared is None:
        return _walk(rules, hand_size)[1]
    answer = declared(hand_size, rules.teams)
    try:
        found = tuple(answer)
    except TypeError:
        found = ()  # refused below
    if not found or not all(c is None or isinstance(c, Contract) for c in found):
        raise RuleSetError(
            [
                f"bidding: {type(rules.bidding).__name__}.contracts must answer contracts "
                f"(Contract or None), not {answer!r}"
            ]
        )
    return found


def _walk(rules: RuleSet, hand_size: int) -> tuple[int, tuple[Contract | None, ...]]:
    """Every bidding of ``hand_size`` cards from every first bidder: the most
    calls, and the contracts of the biddings that are played."""
    plan = rules.plan
    longest = 0
    found: dict[Contract | None, None] = {}
    stack = [(plan.opening_node(hand_size, first), 0) for first in sorted(set(plan.first_bidders))]
    visited = 0
    while stack:
        node, depth = stack.pop()
        visited += 1
        if visited > WALK_LIMIT:
            name = type(rules.bidding).__name__
            raise RuleSetError(
                [
                    f"bidding: {name} has more than {WALK_LIMIT} points of a bidding of "
                    f"{hand_size} cards; to bound a game it must declare longest_bidding"
                    "(hand_size, teams) and contracts(hand_size, teams)"
                ]
            )
        if node.open:
            stack.extend((node.after(call), depth + 1) for call in node.legal)
            continue
        longest = max(longest, depth)
        outcome = node.outcome
        if not outcome.thrown_in:
            found.update(dict.fromkeys(outcome.contracts))
    return longest, tuple(found) or (None,)


def points_bound(rules: RuleSet, deal_index: int) -> int:
    """The most points, in absolute value, one side may score on deal
    ``deal_index`` (from 0) of ``rules``' schedule: the scoring part's trusted
    ``points_bound`` for the deal's context and :func:`contracts`, else its
    ``score`` asked as the module's description says."""
    plan = rules.plan
    hand_size = plan.hand_sizes[deal_index]
    ctx = plan.deal_context(deal_index, 0, hand_size)
    held = contracts(rules, hand_size)
    declared = trusted_declaration(rules.scoring, "points_bound")
    if declared is None:
        return _probe(rules, ctx, held)
    answer = declared(ctx, held)
    if type(answer) is not int or answer < 0:
        raise RuleSetError(
            [
                f"scoring: {type(rules.scoring).__name__}.points_bound must answer a whole "
                f"number of points >= 0, not {answer!r}"
            ]
        )
    return answer


def _probe(rules: RuleSet, ctx: DealContext, held: tuple[Contract | None, ...]) -> int:
    """The most points the scoring part gives one side on the deal of ``ctx``
    (see the module's description)."""
    plan = rules.plan
    sides = len(plan.teams)
    h = ctx.hand_size
    dealt = (_RAINBOW,) * plan.players
    numbers = [c for c in held if c is not None]
    largest = sorted(
        {
            max(numbers, key=lambda c: (c.tricks, c.multiplier), default=None),
            max(numbers, key=lambda c: (c.multiplier, c.tricks), default=None),
        },
        key=repr,
    )
    best = 0
    for side in range(sides):
        for mine in held:
            for theirs in dict.fromkeys([None, mine, *largest]):
                chosen = [theirs] * sides
                chosen[side] = mine
                for announced in ((), (0,) * sides):
                    outcome = BiddingOutcome(tuple(chosen), announcements=announced)
                    asked = ctx._replace(outcome=outcome)
                    for taken in range(h + 1):
                        tricks = [0] * sides
                        tricks[side] = taken
                        for k in range(h - taken):  # the others share the rest
                            tricks[(side + 1 + k % max(1, sides - 1)) % sides] += 1
                        points = plan.score(asked, tuple(tricks), dealt)
                        best = max(best, abs(points[side]))
    return best
