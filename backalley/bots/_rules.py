"""The bots' one adapter to the engine's internals.

Everything the bots need beyond the public :class:`~backalley.PlayerView` and
:class:`~backalley.GameState` API goes through this module, so that when the
engine moves (the rule set's plan, the raw ``*_bits`` fields), only this
file changes.  Every rule answer comes from the rule set's plan:

- the card order (:func:`card_order`: which cards are trumps, the suits,
  which card is higher, which cards would win a trick), learned from the
  ranking part's trick winner and remembered by the plan
  (:meth:`Plan.card_order <backalley.rules.plan.Plan.card_order>`), checked
  against it, with a fallback to its answers card by card;
- a view's raw facts as bit sets (:func:`hand_bits`, :func:`possible_bits`, ...);
- the bidding's outcome a call would leave (:func:`outcome_if`) and the
  points each side scores (:func:`deal_points`), asked of the rule set's own
  bidding and scoring parts with the deal's own context (its deal index,
  dealer, hand size, trump and calls);
- :func:`determinise`: a full :class:`~backalley.GameState` that deals
  chosen hands and replays the view's public calls and plays.

Cards are engine indices (0..53, see :mod:`backalley.cards`) and hands bit
sets.  ``t`` is the effective trump: a suit index 0..3, or 4 for a deal
without a trump suit.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from backalley.cards import CARDS
from backalley.engine import lowlevel, sampling
from backalley.engine.public import PublicFacts
from backalley.engine.state import GameState
from backalley.engine.views import PlayerView
from backalley.errors import BackAlleyError
from backalley.moves import Bid, Move, NameTrump, Pass, Play
from backalley.rules.context import TRUMP_INDEX, TRUMP_OF_INDEX, BiddingContext
from backalley.rules.order import CardOrder
from backalley.rules.ruleset import RuleSet
from backalley.rules.schedule import Schedule
from backalley.values import BiddingOutcome, Contract, Phase

__all__ = [
    "CardOrder",
    "card_order",
    "contracts_if",
    "deal_points",
    "determinise",
    "order_of",
    "outcome_if",
    "trump_of",
]


# ------------------------------------------------------------------ card order


def trump_of(view: PublicFacts) -> int:
    """The effective trump of the deal: 0..3, or 4 without a trump suit."""
    return lowlevel.trump_index(view)


def card_order(rules: RuleSet, t: int) -> CardOrder:
    """The card order of ``rules`` when ``t`` is the effective trump (the
    plan's, learned from the ranking part's answers)."""
    return rules.plan.card_order(TRUMP_OF_INDEX[t])


def order_of(view: PublicFacts) -> CardOrder:
    """The card order of the position's deal under its effective trump."""
    return view.rules.plan.card_order(lowlevel.deal_context(view).trump)


# ---------------------------------------------------------------- view facts


def hand_bits(view: PlayerView) -> int:
    """The view's own hand as a bit set."""
    return lowlevel.hand_bits(view, view.seat)


def deck_bits(rules: RuleSet) -> int:
    return rules.plan.deck_mask


def out_of_play_bits(view: PlayerView) -> int:
    """Cards no hand can hold: the turn-up and the discards."""
    bits = lowlevel.discard_bits(view)
    turn_up = lowlevel.turn_up_index(view)
    if turn_up is not None:
        bits |= 1 << turn_up
    return bits


def played_bits(view: PlayerView) -> int:
    """The cards played to tricks this deal (the current trick included)."""
    return lowlevel.played_bits(view)


def trick_cards(view: PlayerView) -> tuple[int, ...]:
    return lowlevel.trick_cards(view)


def history(view: PlayerView) -> tuple[tuple[int, tuple[int, ...], int], ...]:
    """This deal's completed tricks: (leader, card indices, winner)."""
    return lowlevel.history(view)


def possible_bits(view: PlayerView, seat: int) -> int:
    """The cards ``seat`` may still hold (see :meth:`PlayerView.possible_cards`)."""
    return lowlevel.possible_bits(view, seat)


def teams(rules: RuleSet) -> tuple[tuple[int, ...], ...]:
    """The seats of each side."""
    return rules.teams


def side_of(rules: RuleSet, seat: int) -> int:
    return rules.seat_teams[seat]


def trump_named_later(view: PlayerView) -> bool:
    """Whether the declarer names trump after the bidding (so that the trump
    during the bidding is still open)."""
    return not view.trump_known


def trump_choices(view: PublicFacts) -> tuple[int, ...]:
    """The trumps (0..3, 4: no trump suit) the declarer may name this deal
    (the trump part's ``choices``)."""
    ctx = lowlevel.deal_context(view)
    return tuple(TRUMP_INDEX[suit] for suit in view.rules.plan.trump_choices(ctx))


# ------------------------------------------------------------ calls and points


def deal_points(
    position: PublicFacts, tricks: Sequence[int], outcome: BiddingOutcome | None = None
) -> tuple[int, ...]:
    """The points of each side if the position's deal ends with ``tricks``
    per side: the scoring part's answer for the deal's own context (its deal
    index, dealer, hand size and trump) and the bidding's ``outcome`` (by
    default the position's own), every side's tricks and contract together.
    Bonuses that depend on the hands as dealt are left out (a seat does not
    know the other hands)."""
    ctx = lowlevel.deal_context(position)
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
    deal = lowlevel.deal_context(view)
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


def outcome_if(view: PlayerView, call: Move) -> BiddingOutcome | None:
    """The bidding's outcome if this seat makes ``call`` and every later seat
    makes its quietest call (a pass where offered, else the lowest bid);
    ``None`` when the deal would be thrown in.  Asked of the bidding part."""
    ctx, _ = _quiet_bidding(view, call)
    outcome = view.rules.plan.bidding_outcome(ctx)
    return None if outcome.thrown_in else outcome


def partner_speaks_later(view: PlayerView, call: Move) -> bool:
    """Whether a partner of this seat still speaks after it makes ``call``
    (every later seat making its quietest call): the bidding part's
    ``speaker`` asked, as calls go round the table."""
    rules = view.rules
    side = side_of(rules, view.seat)
    _, later = _quiet_bidding(view, call)
    return any(s != view.seat and side_of(rules, s) == side for s in later)


def contracts_if(view: PlayerView, call: Move) -> tuple[Contract | None, ...] | None:
    """The contracts of the sides in :func:`outcome_if`."""
    outcome = outcome_if(view, call)
    return None if outcome is None else outcome.contracts


def _call_size(call: Move) -> int:
    return call.tricks if isinstance(call, Bid) else 1000


# --------------------------------------------------------------- determinise


@lru_cache(maxsize=256)
def one_deal(rules: RuleSet, hand_size: int) -> RuleSet:
    """``rules`` with a schedule whose first deal has ``hand_size`` cards:
    one deal when the rule set allows it (the game then ends, and is scored,
    with the deal), else that deal before the rule set's own schedule."""
    try:
        return rules.replace(schedule=Schedule((hand_size,)))
    except BackAlleyError:
        return rules.replace(schedule=Schedule((hand_size, *rules.schedule.hand_sizes)))


def determinise(view: PlayerView, hands: Sequence[int]) -> GameState:
    """A full game state that agrees with ``view`` and in which the seats hold
    ``hands`` (bit sets, the cards each seat holds *now*; the view's own seat
    must hold its own hand).

    The state is the view's game at the opening of its current deal (the
    same rule set, scores and deal results, so the same deal index and deal
    context: :func:`backalley.engine.lowlevel.opening`), dealt from a deck order
    built so that the trump part's turn-up handling reproduces the view's
    turn-up and discards (:func:`backalley.engine.sampling.deck_for`), with
    the view's calls, trump and plays replayed.
    When the deal is scored, its result is the one after the view's
    ``deal_results``.  Raises :class:`~backalley.BackAlleyError` when no
    such deal exists.
    """
    return _replay(sampling.deck_for(view, hands)[1], view)


def _replay(state: GameState, view: PlayerView) -> GameState:
    for call in view.calls:
        state = state.apply(call)
    if state.phase is Phase.NAMING_TRUMP and view.phase is not Phase.NAMING_TRUMP:
        state = state.apply(NameTrump(view.trump))
    for _lead, cards, _win in lowlevel.history(view):
        for card in cards:
            state = state.apply_unchecked(Play(CARDS[card]))
    for card in lowlevel.trick_cards(view):
        state = state.apply_unchecked(Play(CARDS[card]))
    return state
