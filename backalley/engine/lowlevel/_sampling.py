"""Drawing the cards a seat cannot see: the hidden hands of a deal in
progress, consistent with a player's view, and the deck order that deals them.

What a sampling bot (the ``montecarlo`` bot's determinisation) and a framework
that resamples a position from a player's information state (the OpenSpiel
game's ``resample_from_infostate``) both need, in one place:

- :func:`sample_hands`: one random assignment of the unseen cards to the other
  seats, each seat getting as many cards as it holds, each card one the seat
  may still hold (:meth:`~backalley.PlayerView.possible_cards`);
- :func:`deck_for`: the deck order that deals chosen hands as the view's deal
  (the turn-up and discards the view's, after the trump part's opening), and
  the state at the opening of that deal: candidate orders built by the
  kernel's inverse of its dealing, each dealt through the kernel and opened
  by the trump part itself, the first that gives the view's deal kept.

Cards are engine indices and hands bit sets (see :mod:`backalley.engine.lowlevel`).  The
functions ask the view and the rule set's plan; they hold no rule.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence
from typing import Protocol

from backalley.engine import kernel
from backalley.engine.lowlevel import _dealing, _reading
from backalley.engine.state import GameState
from backalley.engine.views import PlayerView
from backalley.errors import BackAlleyError

__all__ = ["Draws", "deck_for", "sample_hands"]


class Draws(Protocol):
    """A source of random draws: ``randrange(n)`` is a whole number 0..n-1
    (``random.Random`` is one)."""

    def randrange(self, stop: int, /) -> int: ...


def _bits(mask: int) -> list[int]:
    """The card indices of a bit set, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _seen_bits(view: PlayerView) -> int:
    """The cards ``view``'s seat knows where they are this deal: its own hand,
    the turn-up, the discards and the cards played to tricks."""
    seen = _reading.hand_bits(view, view.seat) | _reading.out_of_play_bits(view)
    return seen | _reading.played_bits(view)


def sample_hands(
    view: PlayerView,
    rng: Draws,
    *,
    possible: Callable[[PlayerView, int], int] = _reading.possible_bits,
) -> list[int] | None:
    """One random assignment of the unseen cards to the other seats (bit
    sets, the cards each seat holds now) consistent with the view: each seat
    gets as many cards as it holds, each from ``possible(view, seat)`` (by
    default :meth:`~backalley.PlayerView.possible_cards`; a caller that knows
    more may narrow it).  The view's own seat keeps its hand.  ``None`` only
    when no assignment exists (possible cards that a user's rule left unsound).

    The cards are drawn one at a time with ``rng.randrange``, a card kept only
    when the seats can still be filled after it (so the draw never fails
    half-way); the same draws give the same hands.  Whether they can is
    Hall's condition (every group of the other seats may hold at least as
    many of the cards left as it needs), kept as each group's slack and
    brought up to date as each card is dealt: a card dealt to a seat costs a
    unit of slack to each group without that seat that may hold it, so it is
    refused exactly when one of those groups has none to spare.
    """
    rules = view.rules
    n = rules.players
    me = view.seat
    counts = view.hand_counts
    unseen = rules.plan.deck_mask & ~_seen_bits(view)
    cards = {s: possible(view, s) & unseen for s in range(n) if s != me and counts[s]}
    need = {s: counts[s] for s in cards}
    avail = unseen
    seats = list(cards)
    # every group of the seats (a bit per seat): the cards it may hold, its slack
    pools = [0] * (1 << len(seats))
    slack = [0] * (1 << len(seats))
    for group in range(1, 1 << len(seats)):
        wanted = 0
        for k, seat in enumerate(seats):
            if group >> k & 1:
                pools[group] |= cards[seat]
                wanted += need[seat]
        slack[group] = (pools[group] & avail).bit_count() - wanted
        if slack[group] < 0:
            return None
    groups = range(1, 1 << len(seats))
    hands = [0] * n
    hands[me] = _reading.hand_bits(view, me)
    for seat in sorted(cards, key=lambda s: (cards[s] & avail).bit_count() - need[s]):
        bit = 1 << seats.index(seat)
        others = [g for g in groups if not g & bit]
        left = _bits(cards[seat] & avail)
        while need[seat]:
            # the cards no group without this seat can spare
            tight = 0
            for g in others:
                if not slack[g]:
                    tight |= pools[g]
            pool = left.copy()
            while True:
                card = pool.pop(rng.randrange(len(pool)))
                if not tight >> card & 1:
                    break
            need[seat] -= 1
            left.remove(card)
            for g in others:
                if pools[g] >> card & 1:
                    slack[g] -= 1
            hands[seat] |= 1 << card
            avail &= ~(1 << card)
    return hands


def deck_for(view: PlayerView, hands: Sequence[int]) -> tuple[tuple[int, ...], GameState]:
    """The deck order (card indices, top first) that deals ``hands`` as the
    view's current deal, and the state at the opening of the deal dealt from
    it (:func:`~backalley.engine.lowlevel.opening`: the view's rule set,
    scores and deal results, so the same deal context).

    ``hands`` are the cards each seat holds *now* (bit sets; the view's own
    seat must hold its own hand); the order deals each seat those cards plus
    the ones it has played this deal.  Where the cards the trump part's
    opening put aside (the turn-up, the discards) were before it is not
    known: the candidate layouts (:func:`_layouts`) are dealt in turn through
    the kernel's one way to start a deal (:func:`~backalley.engine.kernel.deck_order`
    builds each order), and the first whose opening by the trump part gives
    the view's hands, turn-up and discards is kept.  The undealt cards follow
    in a fixed order: no seat ever sees them.  Raises
    :class:`~backalley.BackAlleyError` when no such deal exists.
    """
    rules = view.rules
    n = rules.players
    # the hands as dealt: the hands now plus each seat's played cards
    dealt = list(hands)
    for lead, cards, _win in _reading.history(view):
        for k, card in enumerate(cards):
            dealt[(lead + k) % n] |= 1 << card
    for k, card in enumerate(_reading.trick_cards(view)):
        dealt[(view.leader + k) % n] |= 1 << card
    used = 0
    for h in dealt:
        used |= h
    turn_up = _reading.turn_up_index(view)
    discards = _reading.discard_bits(view)
    rest = rules.plan.deck_mask & ~used & ~discards
    if turn_up is not None:
        rest &= ~(1 << turn_up)
    goal = tuple(dealt)
    for before, stock in _layouts(goal, turn_up, discards, _bits(rest)):
        order = kernel.deck_order(before, stock, view.dealer, view.hand_size)
        try:
            state = _dealing.opening(view, order)
        except BackAlleyError:  # pragma: no cover - the order is a whole deck
            continue
        if (
            _reading.dealt_bits(state) == goal
            and _reading.turn_up_index(state) == turn_up
            and _reading.discard_bits(state) == discards
        ):
            return order, state
    raise BackAlleyError("no deal reproduces this view's turn-up and discards")


LAYOUTS = 96
"""The most layouts :func:`deck_for` deals before it gives up."""


def _layouts(
    dealt: tuple[int, ...], turn_up: int | None, discards: int, rest: list[int]
) -> Iterator[tuple[tuple[int, ...], list[int]]]:
    """Where the cards an opening put aside may have been before it (the
    hands before the opening, the stock top first), the simplest first, at
    most :data:`LAYOUTS`: the turn-up and each discard on top of the stock
    (in each order), or a discard held by a seat in place of one of its
    cards, which the opening gave it from the stock - from just below the
    cards turned, from the bottom, then from each place between.  Nothing
    here says which layout a trump part makes: each is dealt and opened by
    the part itself."""
    up = [] if turn_up is None else [turn_up]
    disc = _bits(discards)
    seats = range(len(dealt))
    assignments: list[tuple[tuple[int, ...], list[int], list[int]]] = []
    for held in range(len(disc) + 1):
        for kept in itertools.combinations(disc, held):
            turned = [c for c in disc if c not in kept] + up
            for holders in itertools.product(seats, repeat=held):
                before = list(dealt)
                drawn: list[int] = []
                for card, seat in zip(kept, holders):
                    mine = before[seat] & ~discards
                    if not mine:
                        break
                    swap = mine.bit_length() - 1  # the card it was given for the discard
                    before[seat] = (before[seat] & ~(1 << swap)) | 1 << card
                    drawn.append(swap)
                else:
                    assignments.append((tuple(before), drawn, turned))
    count = 0
    for depth in dict.fromkeys([0, len(rest), *range(1, len(rest))]):
        for hands, given, aside in assignments:
            if depth and not given:
                continue
            for top in itertools.permutations(aside):
                yield hands, [*top, *rest[:depth], *given, *rest[depth:]]
                count += 1
                if count >= LAYOUTS:
                    return
