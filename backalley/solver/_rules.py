"""The solver's one door into the engine.

Everything the solver needs from the rules and from a state's raw facts
comes through this module, from the rule set's plan and the deal's
own :class:`~backalley.rules.DealContext` - the same decisions legality uses,
so a new rule is solved correctly without touching the solver:

- :func:`legal_mask`, :func:`trick_winner`, :func:`breaks_trump`: the play
  rules of the deal, on card indices and bit-set hands (:func:`legal_in`:
  the legal plays with a context made once by :func:`context`);
- :func:`card_order`: the card order the rule set's plan learned from the
  ranking part, under one trump;
- :func:`position`: a state's raw facts, a :class:`RawPosition` (hands as
  bit sets, the trick so far, who leads it, whether trump is broken, the
  effective trump, the seats that bid board, the cards played to the deal's
  earlier tricks, in all and seat by seat), read through
  :mod:`backalley.engine.lowlevel`.

The cards each seat played to the earlier tricks (the context's
``played_by``) are given to the plan as the share of the cards ``played``
that each seat *owned*: ``owners`` holds, per seat, the cards it held when
the deal opened (a search knows them: its root's hands, the root trick's
cards and the cards played before the root, seat by seat).

``trump`` is the effective trump: a suit index 0..3, or 4 in a deal without a
trump suit.  ``rules`` below is a :class:`DealRules`: the rule set with the
context of the deal being solved (hashable, so plans can be cached by it),
without the facts of the play (the cards played before the trick, whether
trump is broken): :func:`legal_mask` is given those of each position.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from backalley.cardset import CardSet
from backalley.engine import lowlevel
from backalley.engine.state import GameState
from backalley.rules.context import TRUMP_INDEX, TRUMP_OF_INDEX, DealContext
from backalley.rules.order import CardOrder
from backalley.rules.ruleset import RuleSet
from backalley.values import Phase

__all__ = [
    "DealRules",
    "RawPosition",
    "breaks_in",
    "breaks_trump",
    "card_order",
    "context",
    "deck_indices",
    "legal_in",
    "legal_mask",
    "position",
    "seat_teams",
    "trick_winner",
]


_TRUMP_AT = DealContext._fields.index("trump")
_PLAYED_AT = DealContext._fields.index("played")
_BROKEN_AT = DealContext._fields.index("broken")
_PLAYED_BY_AT = DealContext._fields.index("played_by")


class DealRules(NamedTuple):
    """A rule set and the context of the deal it is applied to."""

    rules: RuleSet
    ctx: DealContext


def _ctx(
    rules: DealRules, trump: int, played: int = 0, owners: tuple[int, ...] | None = None
) -> DealContext:
    """The deal's context with the raw trump ``trump`` (0..4) and the cards
    ``played`` to the deal's earlier tricks (a bit set); with ``owners`` (the
    cards each seat held when the deal opened), also the cards each seat
    played to them (trump not broken: see :func:`context`)."""
    return context(rules, trump, played, False, owners)


def context(
    rules: DealRules,
    trump: int,
    played: int = 0,
    broken: bool = False,
    owners: tuple[int, ...] | None = None,
) -> DealContext:
    """The deal's context as the rule set's plan is asked with it: the raw
    trump ``trump`` (0..4), the cards ``played`` to the earlier tricks (a
    bit set) - seat by seat too, given the ``owners`` of the cards -,
    whether trump is ``broken``; for :func:`legal_in`, which a search may
    call many times with one context (and the same ``broken``, so that the
    plan need not make another)."""
    ctx = rules.ctx
    suit = TRUMP_OF_INDEX[trump]
    if not played and ctx.trump is suit and ctx.broken is broken:
        return ctx
    # the deal's context with four fields set, built in one step (a
    # search builds one per set of cards played before a trick)
    fields = list(ctx)
    fields[_TRUMP_AT] = suit
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
    trump: int,
    broken: bool,
    seat: int,
    leader: int,
    board_bidders: frozenset[int],
    played: int = 0,
    owners: tuple[int, ...] | None = None,
) -> int:
    """The cards of ``hand`` (a bit set) that ``seat`` may play to ``trick``,
    ``played`` (a bit set) having been played to the deal's earlier tricks,
    by the seats that ``owners`` says held them (the board bidders are the
    deal's own, from its context)."""
    return rules.rules.plan.play_mask(
        context(rules, trump, played, broken, owners), seat, hand, tuple(trick), leader, broken
    )


def trick_winner(rules: DealRules, trick: Sequence[int], trump: int) -> int:
    """The position in ``trick`` (0 = the leader's card) of the card that wins it."""
    return rules.rules.plan.trick_position(_ctx(rules, trump), tuple(trick))


def breaks_trump(
    rules: DealRules,
    trick: Sequence[int],
    trump: int,
    played: int = 0,
    owners: tuple[int, ...] | None = None,
) -> bool:
    """Whether the completed ``trick`` breaks trump for the rest of the deal,
    ``played`` (a bit set) having been played to the deal's earlier tricks
    (by the seats that ``owners`` says held them) and trump not broken by
    them (the engine asks only then)."""
    return rules.rules.plan.breaks_trump(_ctx(rules, trump, played, owners), tuple(trick))


def breaks_in(rules: DealRules, ctx: DealContext, trick: tuple[int, ...]) -> bool:
    """:func:`breaks_trump` with the deal's context made by :func:`context`."""
    return rules.rules.plan.breaks_trump(ctx, trick)


def card_order(rules: DealRules, trump: int) -> CardOrder:
    """The rule set plan's card order under the raw trump ``trump`` (0..4):
    learned once from the ranking part's ``trick_winner`` and remembered by
    the plan (see :mod:`backalley.rules.order`)."""
    return rules.rules.plan.card_order(TRUMP_OF_INDEX[trump])


def deck_indices(rules: DealRules) -> tuple[int, ...]:
    """The card indices of the rule set's deck, in index order."""
    return rules.rules.plan.deck_cards


def seat_teams(rules: DealRules) -> tuple[int, ...]:
    """The side of each seat (its team, or the seat itself without partnerships)."""
    return tuple(rules.rules.seat_teams)


class RawPosition(NamedTuple):
    """The raw facts of a state in the playing phase."""

    rules: DealRules
    hands: tuple[int, ...]
    trick: tuple[int, ...]
    leader: int
    broken: bool
    trump: int
    board_bidders: frozenset[int]
    played: int = 0
    """The cards played to the deal's earlier tricks (a bit set)."""
    played_by: tuple[int, ...] = ()
    """The same cards seat by seat (bit sets; empty before the first trick is complete)."""

    def owners(self) -> tuple[int, ...]:
        """The cards each seat held when the deal opened (bit sets): its hand,
        its card in the trick, and the cards it played to the earlier tricks."""
        owned = list(self.hands)
        for s, cards in enumerate(self.played_by):
            owned[s] |= cards
        n = len(owned)
        for k, c in enumerate(self.trick):
            owned[(self.leader + k) % n] |= 1 << c
        return tuple(owned)


def position(state: GameState) -> RawPosition | None:
    """The raw facts of ``state``, or ``None`` when it is not in the playing phase."""
    if state.phase is not Phase.PLAYING:
        return None
    ctx = lowlevel.deal_context(state)
    played = int(ctx.played)
    played_by = tuple(map(int, ctx.played_by))
    if played or ctx.broken:  # the deal's context, the same for every position of the deal
        ctx = ctx._replace(played=CardSet(), broken=False, played_by=())
    return RawPosition(
        DealRules(state.rules, ctx),
        tuple(lowlevel.hand_bits(state, s) for s in range(state.players)),
        lowlevel.trick_cards(state),
        state.leader,
        lowlevel.broken(state),
        TRUMP_INDEX[ctx.trump],
        ctx.board_bidders,
        played,
        played_by,
    )
