"""The play's rule answers on raw forms, asked of the rule set's plan with
the deal's own context: the card order under a trump, the cards a seat may
play, the trick winner, whether a trick breaks trump, what a declarer may
name.  Each is the plan's answer (the parts' methods, remembered), never a
rule of its own; the trump is a :class:`~backalley.Suit` or ``None``."""

from __future__ import annotations

from collections.abc import Sequence

from backalley.cards import SUITS, Suit
from backalley.cardset import CardSet
from backalley.engine.lowlevel._reading import DealRules
from backalley.engine.public import PublicFacts
from backalley.errors import SetupError
from backalley.rules.context import DealContext
from backalley.rules.order import CardOrder
from backalley.rules.ruleset import RuleSet

__all__ = [
    "TRUMPS",
    "CardOrder",
    "breaks_in",
    "breaks_trump",
    "card_order",
    "context",
    "legal_in",
    "legal_mask",
    "order_of",
    "trick_winner",
    "trump_choices",
    "winner_if",
]

TRUMPS: tuple[Suit | None, ...] = (*SUITS, None)
"""Every trump a deal may have: the four suits (clubs, diamonds, hearts,
spades) and ``None`` (no trump suit), in this order - for a tool that keeps
an array with one row per trump (its row is the trump's place here)."""

_TRUMP_AT = DealContext._fields.index("trump")
_PLAYED_AT = DealContext._fields.index("played")
_BROKEN_AT = DealContext._fields.index("broken")
_PLAYED_BY_AT = DealContext._fields.index("played_by")


def card_order(rules: RuleSet, trump: Suit | None) -> CardOrder:
    """The card order of ``rules`` under ``trump`` (which cards are trumps,
    the suits, which card is higher, which cards would win a trick): learned
    once from the ranking part's ``trick_winner`` and remembered by the plan
    (:meth:`Plan.card_order <backalley.rules.plan.Plan.card_order>`), checked
    against it; a tool falls back to :func:`trick_winner` where
    ``order.standard`` is false."""
    return rules.plan.card_order(trump)


def order_of(position: PublicFacts) -> CardOrder:
    """The card order of the position's deal under its trump."""
    return position.rules.plan.card_order(position._ctx.trump)


def trump_choices(position: PublicFacts) -> tuple[Suit | None, ...]:
    """The trumps (a suit, or ``None`` for no trump suit) the declarer may
    name this deal: the trump part's ``choices`` (none once trump is settled)."""
    return tuple(position.rules.plan.trump_choices(position._ctx))


def context(
    rules: DealRules,
    trump: Suit | None,
    played: int = 0,
    broken: bool = False,
    owners: tuple[int, ...] | None = None,
) -> DealContext:
    """The deal's context as the plan is asked with it: the deal's, with
    ``trump``, the cards ``played`` to the earlier tricks (a bit set) - seat
    by seat too, given the ``owners`` of the cards (the cards each seat held
    when the deal opened) - and whether trump is ``broken``.  For
    :func:`legal_in` and :func:`breaks_in`, which a search may call many
    times with one context."""
    ctx = rules.ctx
    if not played and ctx.trump is trump and ctx.broken is broken:
        return ctx
    # the deal's context with four fields set, built in one step (a
    # search builds one per set of cards played before a trick)
    fields = list(ctx)
    fields[_TRUMP_AT] = trump
    fields[_BROKEN_AT] = broken
    if played:
        fields[_PLAYED_AT] = CardSet(played)
        if owners is not None:
            fields[_PLAYED_BY_AT] = tuple([CardSet(o & played) for o in owners])
    return DealContext._make(fields)


def legal_in(
    rules: DealRules,
    ctx: DealContext,
    hand: int,
    trick: tuple[int, ...],
    broken: bool,
    seat: int,
    leader: int,
) -> int:
    """:func:`legal_mask` with the deal's context made by :func:`context`."""
    return rules.rules.plan.play_mask(ctx, seat, hand, trick, leader, broken)


def legal_mask(
    rules: DealRules,
    hand: int,
    trick: Sequence[int],
    trump: Suit | None,
    broken: bool,
    seat: int,
    leader: int,
    played: int = 0,
    owners: tuple[int, ...] | None = None,
) -> int:
    """The cards of ``hand`` (a bit set) that ``seat`` may play to ``trick``
    (led by ``leader``) under ``trump``, ``played`` (a bit set) having been
    played to the deal's earlier tricks by the seats that ``owners`` says
    held them (see :func:`context`)."""
    return rules.rules.plan.play_mask(
        context(rules, trump, played, broken, owners), seat, hand, tuple(trick), leader, broken
    )


def trick_winner(
    rules: DealRules,
    trick: Sequence[int],
    trump: Suit | None,
    played: int = 0,
    owners: tuple[int, ...] | None = None,
) -> int:
    """The position in the completed ``trick`` (0 = the leader's card) of the
    card that wins it under ``trump``: the ranking part's ``trick_winner``,
    asked with the deal's context (see :func:`context`)."""
    return rules.rules.plan.trick_position(
        context(rules, trump, played, False, owners), tuple(trick)
    )


def winner_if(position: PublicFacts, card: int) -> int:
    """The seat that wins the current trick if the seat to act plays ``card``
    (a card index) and so completes it: the ranking part's answer for the
    position's own deal context.  (A deal's last trick is no longer shown
    once it is scored; this is how a tool learns who took it.)"""
    trick = (*position._trick_cards, card)
    leader = position.leader if position._trick_cards else position.to_act
    if leader is None:
        raise SetupError("the game is over: there is no trick to complete")
    at = position.rules.plan.trick_position(position._ctx, trick)
    return (leader + at) % position.players


def breaks_trump(
    rules: DealRules,
    trick: Sequence[int],
    trump: Suit | None,
    played: int = 0,
    owners: tuple[int, ...] | None = None,
) -> bool:
    """Whether the completed ``trick`` breaks trump for the rest of the deal,
    ``played`` (a bit set) having been played to the deal's earlier tricks
    (by the seats that ``owners`` says held them) and trump not broken by
    them (the engine asks only then)."""
    return rules.rules.plan.breaks_trump(context(rules, trump, played, False, owners), tuple(trick))


def breaks_in(rules: DealRules, ctx: DealContext, trick: tuple[int, ...]) -> bool:
    """:func:`breaks_trump` with the deal's context made by :func:`context`."""
    return rules.rules.plan.breaks_trump(ctx, trick)
