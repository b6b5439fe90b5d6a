"""What a part's answers depend on: the *keys* a part may declare, so that a
rule set's plan can remember its answers (see :ref:`custom-rules-keys`).

A lead or follow part answers ``restrictions`` from the whole deal: the
context, the seat, the hand, the trick.  Most of its answer depends on far
less - for the follow rule, the card led, whether the hand holds its suit and
the trump - and a part may say so with a :class:`PlayKey`: the plan then asks
the part once per key and gives the remembered answer to every position with
the same key.  A key is a claim the part makes, so the plan trusts it only
from the class that decides (a subclass that overrides a decision method does
not inherit its parent's key), and a checking mode
(``BACKALLEY_CHECK_KEYS=1``) asks the part again at every position and raises
:class:`~backalley.RuleSetError` naming the part when the remembered answer
differs.

With a key, a restriction's allowed cards must be the same for every hand
with that key: the rule's whole set (every card of the suit led, every card
that is not a trump), not the hand's cards of it.  The plan narrows each hand
by them.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum

import attrs

from backalley.cardset import CardSet

__all__ = ["PlayFact", "PlayKey"]


class PlayFact(Enum):
    """A fact of the position, beyond the hand and the trick, that a lead or
    follow part's ``restrictions`` may read (see :class:`PlayKey`)."""

    BROKEN = "broken"
    """Whether trump is broken (``ctx.broken``, the ``broken`` argument)."""
    FIRST_TRICK = "first-trick"
    """Whether this is the deal's first trick (``ctx.first_trick``)."""
    BOARD_BIDDER = "board-bidder"
    """Whether the seat bid board this deal (``seat in ctx.board_bidders``)."""
    LEADER_SIDE = "leader-side"
    """Whether the seat is an opponent of the trick's leader
    (``ctx.is_opponent(seat, leader)``)."""
    PLAYED = "played"
    """The cards played to the deal's earlier tricks (``ctx.played``)."""
    SHOWN = "shown"
    """The cards the deal's opening showed to be in no hand (``ctx.shown``)."""


def _card_sets(value: Iterable[int]) -> tuple[CardSet, ...]:
    return tuple(CardSet(int(s)) for s in value)


def _card_set(value: int) -> CardSet:
    return CardSet(int(value))


def _facts(value: Iterable[PlayFact]) -> frozenset[PlayFact]:
    return frozenset(value)


@attrs.frozen(slots=True)
class PlayKey:
    """What a lead or follow part's ``restrictions`` answer depends on in one
    situation - the trump and, for the follow part, the card led (the plan
    always tells those apart) - beyond which the answer is the same for every
    position:

    - ``holds``: whether the hand holds a card of each of these sets;
    - ``holds_exactly``: which cards of this set the hand holds;
    - ``trick_holds``: whether the trick so far holds a card of each of these
      sets (a follow part);
    - ``seat_played_holds``: whether the seat has played a card of each of
      these sets to the deal's earlier tricks (``ctx.seat_played(seat)``);
    - ``facts``: these facts of the position (:class:`PlayFact`).

    Nothing else of the context may change the answer: not the hand's other
    cards, the dealer, the deal's number, the contracts, ...  The allowed
    cards of each restriction must not depend on them either (see the
    module's description).
    """

    holds: tuple[CardSet, ...] = attrs.field(default=(), converter=_card_sets)
    holds_exactly: CardSet = attrs.field(default=CardSet(), converter=_card_set)
    trick_holds: tuple[CardSet, ...] = attrs.field(default=(), converter=_card_sets)
    seat_played_holds: tuple[CardSet, ...] = attrs.field(default=(), converter=_card_sets)
    facts: frozenset[PlayFact] = attrs.field(default=frozenset(), converter=_facts)
