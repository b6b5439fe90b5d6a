"""What a call or a deal's tricks would lead to, asked of the rule set's
own bidding and scoring parts with the deal's own context (its deal index,
dealer, hand size, trump and calls): the bidding's outcome if a seat makes a
call and every later seat its quietest (:func:`outcome_if`), and the points
each side scores for a number of tricks (:func:`deal_points`)."""

from __future__ import annotations

from collections.abc import Sequence

from backalley.engine.public import PublicFacts
from backalley.engine.views import PlayerView
from backalley.moves import Bid, Move, Pass
from backalley.rules.context import BiddingContext
from backalley.values import BiddingOutcome, Contract, Phase

__all__ = [
    "QUIET_CALLS",
    "calls_to_act",
    "contracts_if",
    "deal_points",
    "outcome_if",
    "partner_speaks_later",
]


def deal_points(
    position: PublicFacts, tricks: Sequence[int], outcome: BiddingOutcome | None = None
) -> tuple[int, ...]:
    """The points of each side if the position's deal ends with ``tricks``
    per side: the scoring part's answer for the deal's own context (its deal
    index, dealer, hand size and trump) and the bidding's ``outcome`` (by
    default the position's own), every side's tricks and contract together.
    Bonuses that depend on the hands as dealt are left out (a seat does not
    know the other hands)."""
    ctx = position._ctx
    if outcome is not None:
        ctx = ctx._replace(outcome=outcome)
    plan = position.rules.plan
    return plan.score(ctx, tuple(tricks), (0,) * plan.players)


QUIET_CALLS = 1_000
"""The most quiet calls :func:`outcome_if` makes (the bidding part's
``speaker`` ends the bidding; this only stops a part that never does)."""


def _quiet_bidding(view: PlayerView, call: Move) -> tuple[BiddingContext, tuple[int, ...]]:
    """The bidding part's context once this seat makes ``call`` and every
    later seat makes its quietest call (a pass where offered, else the lowest
    bid), and the seats that spoke after this one, in turn."""
    plan = view.rules.plan
    deal = view._ctx
    calls: tuple[Move, ...] = (*view.calls, call)
    later: list[int] = []
    for _ in range(QUIET_CALLS):
        ctx = plan.bidding_context(deal, calls)
        legal = plan.legal_calls(ctx)  # none once the bidding part's speaker ends the bidding
        if not legal:
            return ctx, tuple(later)
        later.append(ctx.seat)
        quiet = Pass() if Pass() in legal else min(legal, key=_call_size)
        calls = (*calls, quiet)
    return plan.bidding_context(deal, calls), tuple(later)


def calls_to_act(view: PlayerView) -> tuple[Move, ...]:
    """The calls the seat to act may make now, asked of the bidding part from
    the public history, so any seat's view may ask (its own legal moves are
    these on its turn); none outside the bidding."""
    if view.phase is not Phase.BIDDING:
        return ()
    plan = view.rules.plan
    return tuple(plan.legal_calls(plan.bidding_context(view._ctx, view.calls)))


def _call_size(call: Move) -> int:
    return call.tricks if isinstance(call, Bid) else 1000


def outcome_if(view: PlayerView, call: Move) -> BiddingOutcome | None:
    """The bidding's outcome if this seat makes ``call`` and every later seat
    makes its quietest call (a pass where offered, else the lowest bid);
    ``None`` when the deal would be thrown in.  Asked of the bidding part."""
    ctx, _ = _quiet_bidding(view, call)
    outcome = view.rules.plan.bidding_outcome(ctx)
    return None if outcome.thrown_in else outcome


def contracts_if(view: PlayerView, call: Move) -> tuple[Contract | None, ...] | None:
    """The contracts of the sides in :func:`outcome_if` (``None`` for a deal thrown in)."""
    outcome = outcome_if(view, call)
    return None if outcome is None else outcome.contracts


def partner_speaks_later(view: PlayerView, call: Move) -> bool:
    """Whether a partner of this seat still speaks after it makes ``call``
    (every later seat making its quietest call): the bidding part's
    ``speaker`` asked, as calls go round the table."""
    teams = view.rules.seat_teams
    side = teams[view.seat]
    _, later = _quiet_bidding(view, call)
    return any(s != view.seat and teams[s] == side for s in later)
