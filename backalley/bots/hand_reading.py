"""Reading a hand for the bidding: what it is worth in tricks.

A hand is read as the :data:`FEATURES` (the one definition of them: the
heuristic bot reads them with :func:`features_of`, and
``benchmarks/fit_bidding.py`` fits the trick table over the same function):
trump honours by how many higher trumps are unseen, trump length, plain
masters and guarded kings and queens, long suits, voids and singletons with
trumps.  Its *sure tricks* (:func:`sure_tricks`) bound its side's tricks from
below; :func:`hand_chances` gives a chance per card for bots that want one.
Every card order is the rule set plan's (asked through
:mod:`backalley.engine.lowlevel`); nothing here restates a rule.  What the
features are worth, and which call is worth the most, is
:mod:`backalley.bots.bidding_model`'s.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from backalley.cards import Suit
from backalley.engine import lowlevel
from backalley.engine.views import PlayerView
from backalley.rules.order import CardOrder

__all__ = [
    "FEATURES",
    "cards_of",
    "features_of",
    "hand_chances",
    "hand_features",
    "sure_tricks",
    "trick_distribution",
    "unseen_bits",
]


def cards_of(mask: int) -> list[int]:
    """Card indices of a bit set, the highest index first."""
    out = []
    while mask:
        top = mask.bit_length() - 1
        out.append(top)
        mask ^= 1 << top
    return out


def _ranked(mask: int, order: CardOrder) -> list[int]:
    """The cards of a bit set of one suit, the strongest first (by ``order``)."""
    return sorted(cards_of(mask), key=order.strength.__getitem__, reverse=True)


def _void_chance(rounds: int, mean: float) -> float:
    """The chance that a hand holding on average ``mean`` cards of a suit holds
    fewer than ``rounds`` of them (Poisson)."""
    if rounds <= 0:
        return 0.0
    term = total = math.exp(-mean)
    for k in range(1, rounds):
        term *= mean / k
        total += term
    return min(1.0, total)


def hand_chances(view: PlayerView, order: CardOrder, hand: int | None = None) -> list[float]:
    """For each card of ``hand`` (the view's hand by default), the chance that
    it takes a trick under the card ``order`` (its trump): a trump with no higher trump
    unseen is a sure trick, a lower one wins when the higher trumps are out of
    play (small deals leave many cards undealt) or when it is guarded by
    enough smaller trumps; a plain card likewise by the higher cards of its
    suit, less the chance that an opponent is void by the round it wins and
    ruffs; spare trumps add ruffs for voids and singletons.  (The bidding
    before the trick table; kept for bots that want a chance per card.)"""
    rules = view.rules
    n = rules.players
    me = view.seat
    hand = lowlevel.hand_bits(view, view.seat) if hand is None else hand
    unseen = rules.plan.deck_mask & ~(
        hand | lowlevel.out_of_play_bits(view) | lowlevel.played_bits(view)
    )
    u = unseen.bit_count()
    others = sum(view.hand_counts[s] for s in range(n) if s != me)
    q = others / u if u else 0.0
    tm = order.trumps
    above = order.above
    mine_t = hand & tm
    unseen_t = unseen & tm
    chances: list[float] = []
    spare: list[int] = []
    for a, card in enumerate(_ranked(mine_t, order)):
        k = (unseen_t & above[card]).bit_count()
        below = mine_t.bit_count() - 1 - a
        if k == 0:
            p = 1.0
        else:
            out = (1.0 - q) ** k
            guard = 0.6 if below >= k else (0.3 if below >= k - 1 else 0.03)
            p = out + (1.0 - out) * guard
        if p < 0.5:
            spare.append(len(chances))
        chances.append(p)
    opp_trump = 1.0 - math.exp(-unseen_t.bit_count() * q / max(1, n - 1))
    # in a small deal a plain suit is often never led while the card is held
    lead = min(1.0, 0.5 + view.hand_size / 12)
    shortness = 0.0
    for suit in order.plain:
        mine_s = hand & suit
        length = mine_s.bit_count()
        unseen_s = unseen & suit
        mean = unseen_s.bit_count() * q / max(1, n - 1)
        if length == 0:
            shortness += 1.0 if mean >= 0.7 else 0.3
        elif length == 1:
            shortness += 0.5 if mean >= 1.5 else 0.1
        for j, card in enumerate(_ranked(mine_s, order)):
            k = (unseen_s & above[card]).bit_count()
            if k == 0:
                p, rnd = 1.0, j + 1
            else:
                out = (1.0 - q) ** k
                guarded = length - j - 1 >= k
                guard = (0.5 if k == 1 else 0.25) if guarded else 0.02
                p, rnd = out + (1.0 - out) * guard, j + 1 + (k if guarded else 0)
            ruff = 1.0 - (1.0 - _void_chance(rnd, mean) * opp_trump) ** (n - 1)
            chances.append(p * (1.0 - ruff) * lead)
    # spare trumps ruff in the short suits
    ruffs = min(len(spare), int(shortness + 0.5)) if view.hand_size >= 3 else 0
    for i in spare[-ruffs:] if ruffs else ():
        chances[i] = max(chances[i], 0.55)
    # in a long deal low cards win some tricks too: late in the play, or when
    # the others have to discard
    low = max(0.0, 0.012 * (view.hand_size - 3))
    return [p + (1.0 - p) * low for p in chances]


FEATURES: tuple[str, ...] = (
    "const",
    "lead",
    "trump_top",
    "trump_k1",
    "trump_k2",
    "trumps",
    "trump_long",
    "plain_top",
    "plain_k1",
    "king_guarded",
    "queen_guarded",
    "plain_long",
    "ruffs",
    "voids",
)
"""The hand features the fitted trick table weighs (:func:`hand_features`), in
order: a constant; whether the seat's side leads (the bidder uses the chance
of it); its trumps with no, at most one and at most two higher trumps unseen,
all its trumps and the trumps past the third; its plain cards with no and at
most one higher card of their suit unseen, the guarded kings and queens (one
or two higher cards unseen, with as many smaller ones), the plain cards past
the third of a suit; the ruffs (voids count two, singletons one, at most one a
trump held) and the voids held with a trump.  "Unseen" is every card of the
deck the seat cannot see: in the other hands or left in the stock."""


def unseen_bits(view: PlayerView, hand: int | None = None) -> int:
    """The cards of the deck the seat cannot see (``hand``: the view's hand by default)."""
    hand = lowlevel.hand_bits(view, view.seat) if hand is None else hand
    return view.rules.plan.deck_mask & ~(
        hand | lowlevel.out_of_play_bits(view) | lowlevel.played_bits(view)
    )


def features_of(hand: int, unseen: int, order: CardOrder, lead: float = 0.0) -> tuple[float, ...]:
    """The :data:`FEATURES` of ``hand`` (a bit set) under the card ``order``
    (its trumps and suits) when the cards ``unseen`` are out of sight;
    ``lead`` fills the lead feature."""
    tm = order.trumps
    above = order.above
    mine_t = hand & tm
    unseen_t = unseen & tm
    top = k1 = k2 = 0
    for card in cards_of(mine_t):
        k = (unseen_t & above[card]).bit_count()
        top += k == 0
        k1 += k <= 1
        k2 += k <= 2
    trumps = mine_t.bit_count()
    p_top = p_k1 = kings = queens = long = short = voids = 0
    for suit in order.plain:
        mine_s = hand & suit
        length = mine_s.bit_count()
        if length == 0:
            short += 2
            voids += 1
        elif length == 1:
            short += 1
        long += max(0, length - 3)
        unseen_s = unseen & suit
        for card in cards_of(mine_s):
            k = (unseen_s & above[card]).bit_count()
            p_top += k == 0
            p_k1 += k <= 1
            kings += k == 1 and length >= 2
            queens += k == 2 and length >= 3
    return (
        1.0,
        lead,
        float(top),
        float(k1),
        float(k2),
        float(trumps),
        float(max(0, trumps - 3)),
        float(p_top),
        float(p_k1),
        float(kings),
        float(queens),
        float(long),
        float(min(trumps, short)),
        float(voids if trumps else 0),
    )


def hand_features(view: PlayerView, trump: Suit | None, lead: float = 0.0) -> tuple[float, ...]:
    """The :data:`FEATURES` of the view's hand under ``trump`` (``None``: no trump suit)."""
    hand = lowlevel.hand_bits(view, view.seat)
    return features_of(hand, unseen_bits(view, hand), lowlevel.card_order(view.rules, trump), lead)


def sure_tricks(hand: int, unseen: int, order: CardOrder, hand_size: int) -> int:
    """The tricks ``hand`` takes whoever holds the unseen cards, when it is on
    lead or every card of it wins: its trumps with no higher trump unseen and,
    when those are enough to draw every unseen trump one opponent may hold, its
    other trumps and its plain cards with no higher card of their suit unseen."""
    tm = order.trumps
    above = order.above
    mine_t = hand & tm
    unseen_t = unseen & tm
    top = sum(1 for card in cards_of(mine_t) if not unseen_t & above[card])
    if top < min(unseen_t.bit_count(), hand_size):
        return top
    sure = mine_t.bit_count()
    for suit in order.plain:
        unseen_s = unseen & suit
        sure += sum(1 for card in cards_of(hand & suit) if not unseen_s & above[card])
    return min(sure, hand_size)


def trick_distribution(chances: Sequence[float]) -> list[float]:
    """The distribution of the number of tricks taken (``dist[k]`` = chance of
    ``k``) when each card takes a trick independently with its chance."""
    dist = [1.0]
    for p in chances:
        nxt = [0.0] * (len(dist) + 1)
        for k, v in enumerate(dist):
            nxt[k] += v * (1.0 - p)
            nxt[k + 1] += v * p
        dist = nxt
    return dist
