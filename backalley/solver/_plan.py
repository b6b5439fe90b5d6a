"""What the solver learns about a rule set's card play, and how it checks it.

Nothing here knows a card order or a rule of play: everything is read off
the rule set's own answers, through its plan (asked through :mod:`backalley.engine.lowlevel`).

The card order is the rule set plan's own
(:meth:`Plan.card_order <backalley.rules.plan.Plan.card_order>`, learned
once per rule set and trump from the ranking part's ``trick_winner`` and
checked on longer tricks there; see :mod:`backalley.rules.order`).  The
solver reads it as :class:`CardGroups`: its suits as far as winning goes
(*groups*, each in ascending strength, numbered from the group of the lowest
card index), a card's strength in its group and the trump group (the
order's trumps; none in a deal without trumps and without jokers).  The
order *predicts* a trick's winner (:func:`predict`): its strongest trump,
else the strongest card of the group led.  Only a standard order (one the
ranking part's answers fit) is used; otherwise the plan is plain.  The
search checks the prediction again at every trick it completes, whose
winner it always asks of the rule set (remembered): a disagreement there
*refutes* the order for the plan (:func:`refute`), and the search starts
again without it.

What the deal's legal plays allow (a :class:`SearchPlan`, once per rule set
with the deal's context and trump; each found by asking the lead and follow
parts about chosen hands, in a trick early in the deal and in the deal's
last tricks, with as many cards played before as a real deal has then):

- Following is *compulsory* (``follows``) when a player holding a card of
  the group led must play one.
- A card is *special on the lead* when leading it restricts the following
  seats otherwise than leading the other cards of its group (a led joker
  that forces the highest or lowest trump): such a card is never one move
  with its neighbours at the lead, its presence is part of the table's key,
  and no other card is taken as refuted by its refutation.
- The play *reads the history* when what a seat may play to a trick depends
  on the cards played to the deal's earlier tricks (a lead that forces only
  as the lowest trump still out), checked for each card of each group,
  led and answered, with the cards of its group below it played before the
  trick and not (trump broken: a rule of the first trick alone does not
  count, since the hands' lengths tell that trick apart).
  Then the search keys its legal plays by those cards too, and treats the
  cards of the groups that read it exactly: each is a move of its own (no
  rank equivalence), never taken as refuted by another's refutation, and
  the table's entries compare which of them remain and who holds each (so
  positions that differ in the cards of those groups already played are
  never one entry).  A plan without a standard card order takes the play
  as reading the history.
- The play *reads the seats* (``by_seat``) when what a seat may lead or
  play depends on who played the cards of the earlier tricks (a trump lead
  allowed only to a player who has trumped before), checked for each card
  of the deck played before the trick by the seat to play or by another.
  Then the play reads the history too (those cards' groups), and a
  :class:`~backalley.solver.Solver` keeps a table of its own for each
  layout of the cards (who held which card when the deal opened), since
  the same cards left tell who played the others only within one layout.
- Following a group is *free* (:meth:`SearchPlan.free_follow`) when a seat
  holding it may play any card of it and a seat void in it any card.

When all of that holds (``standard``), the solver uses its fast techniques
(rank equivalence, relative ranks in the transposition table, quick
tricks), and checks at every trick what it can see of their grounds: the
winner of every completed trick against the order's prediction, and each
legal set answered to a seat following against ``follows`` and the free
groups.  When a check fails (:class:`Refuted`), the plan is made plain
(:func:`refute`) and the search starts again.  A plain plan still gives
exact answers: the search asks the rule set for every trick winner and
searches without those shortcuts.

One module, one job: the card groups the solver reads off the plan, and the
checks that refute them.
"""

from __future__ import annotations

import functools
import itertools

from backalley.cards import Suit
from backalley.engine import lowlevel
from backalley.engine.lowlevel import DealRules
from backalley.rules.order import CardOrder

__all__ = ["CardGroups", "Refuted", "SearchPlan", "plan_for", "predict", "refute"]


class Refuted(Exception):
    """Raised by a search when the rule set's answer at a trick contradicts
    what its plan derived (the card order's prediction of the winner, or
    what following allows): the plan is made plain (:func:`refute`) and the
    search starts again."""

    def __init__(self, plan: SearchPlan, order: bool, why: str) -> None:
        super().__init__(why)
        self.plan = plan
        self.order = order
        """Whether the card order was refuted (a trick winner), not only the
        deal's legal plays."""


class CardGroups:
    """The rule set plan's card order under one trump (a
    :class:`~backalley.rules.order.CardOrder`) as the search reads it: per
    card index its group and strength, the groups' masks, the trump group
    (see the module's description).

    ``groups`` (each in ascending strength) is ``None`` when the order is
    not standard (its ranking part's answers fit no order of suits); then
    each card is a group of its own, so that the plain search's tables
    still have a group for every card.
    """

    __slots__ = (
        "group",
        "group_masks",
        "groups",
        "monotone",
        "standard",
        "strength",
        "trump_group",
        "trump_mask",
    )

    def __init__(self, order: CardOrder, cards: tuple[int, ...]) -> None:
        self.group = [-1] * 54
        self.strength = [0] * 54
        self.group_masks: list[int] = []
        self.trump_group = -1
        self.trump_mask = 0
        self.standard = order.standard
        self.groups: list[list[int]] | None = None
        members: list[list[int]]
        if order.standard:
            suits = sorted({order.suit[c] for c in cards}, key=lambda s: s & -s)
            strength = order.strength
            members = [
                sorted((c for c in cards if s >> c & 1), key=strength.__getitem__) for s in suits
            ]
            self.groups = members
            if order.trumps:
                self.trump_group = suits.index(order.trumps)
                self.trump_mask = order.trumps
        else:
            members = [[c] for c in cards]
        for g, ranked in enumerate(members):
            mask = 0
            for rank, card in enumerate(ranked):
                self.group[card] = g
                self.strength[card] = rank
                mask |= 1 << card
            self.group_masks.append(mask)
        self.monotone = self.standard and all(ranked == sorted(ranked) for ranked in members)
        """Whether each group's strength follows its cards' indices (the
        fast techniques' relative ranks need it)."""


def predict(order: CardGroups, trick: tuple[int, ...]) -> int:
    """The position in ``trick`` of the card the order says wins it: the
    strongest of the trump group, else the strongest of the group led."""
    group, strength, tgroup = order.group, order.strength, order.trump_group
    at = 0
    w = trick[0]
    for i in range(1, len(trick)):
        c = trick[i]
        gc, gw = group[c], group[w]
        if (strength[c] > strength[w]) if gc == gw else gc == tgroup:
            at, w = i, c
    return at


class SearchPlan:
    """The tables derived for one rule set with its deal's context and one
    effective trump: the card order's (:class:`CardGroups`, read off the
    rule set plan's order) and the deal's play's."""

    __slots__ = (
        "_cards",
        "_free",
        "_groups",
        "_rules",
        "_trump",
        "by_seat",
        "follows",
        "group",
        "group_masks",
        "history",
        "history_mask",
        "lead_special",
        "monotone",
        "order",
        "standard",
        "strength",
        "trump_group",
        "trump_mask",
    )

    def __init__(self, rules: DealRules, trump: Suit | None) -> None:
        cards = rules.rules.plan.deck_cards
        order = CardGroups(lowlevel.card_order(rules.rules, trump), cards)
        self.order = order
        self.group = order.group
        self.strength = order.strength
        self.group_masks: list[int] = order.group_masks
        self.trump_group = order.trump_group
        self.trump_mask = order.trump_mask
        self.lead_special = 0
        self.standard = False
        self.monotone = False
        self.follows = False
        self._rules = rules
        self._trump = trump
        self._cards = cards
        self._groups: list[list[int]] = []
        self._free: dict[int, bool] = {}
        self.history = True  # until the probe below says otherwise
        self.history_mask = 0
        seats = _reads_seats(rules, trump, cards)
        self.by_seat = bool(seats)
        groups = order.groups
        if groups is None:
            return
        self.history_mask = _reads_history(rules, trump, cards, groups)
        for members in groups:
            if any(seats >> c & 1 for c in members):
                for c in members:
                    self.history_mask |= 1 << c
        self.history = bool(self.history_mask)
        self.standard = True
        self.monotone = order.monotone
        self.follows = _must_follow(rules, trump, groups, self.trump_group)
        self.lead_special = _lead_special(rules, trump, cards, groups, self.trump_group)
        self._groups = groups

    def free_follow(self, g: int, broken: bool) -> bool:
        """Whether following a lead of group ``g`` is free, trump broken or
        not: a seat holding cards of the group may play any of them, and a
        seat void in it any card, whatever the cards played to the trick
        before it (checked, once per group, by :func:`_free_follow`; after
        the first trick, and for the cards of the group not special on the
        lead)."""
        key = 2 * g + broken
        known = self._free.get(key)
        if known is None:
            known = bool(self.standard) and _free_follow(
                self._rules, self._trump, self._cards, self._groups, g, self, broken
            )
            self._free[key] = known
        return known


def refute(plan: SearchPlan, order: bool) -> None:
    """Make ``plan`` plain after a search met an answer of the rule set that
    contradicts it (``order``: a trick winner the card order mispredicts;
    else a legal set).  Every later search of the plan's deal asks every
    trick winner and uses no shortcut (another deal of the rule set meets
    the same answer in its own search, and is made plain then)."""
    plan.standard = False
    plan.monotone = False
    plan.follows = False
    plan._free.clear()


def _before(rules: DealRules, cards: tuple[int, ...], used: int, k: int) -> int:
    """Cards played before a trick late in the deal, at which each hand
    still to play holds ``k`` cards: as many as the deal's hand size makes
    (a card a seat for each trick played), the highest cards of the deck
    outside ``used``; -1 when the deal's hands are shorter than ``k``."""
    need = rules.rules.players * (rules.ctx.hand_size - k)
    if need < 0:
        return -1
    out = 0
    for c in reversed(cards):
        if not need:
            break
        if not used >> c & 1:
            out |= 1 << c
            need -= 1
    return -1 if need else out


def _must_follow(
    rules: DealRules, trump: Suit | None, groups: list[list[int]], trump_group: int
) -> bool:
    """Whether a player holding a card of the group led must play one.

    Checked early in the deal (nothing played before; a hand with a card of
    the group, a trump and a card of each other group) and in the deal's
    last tricks (a hand of two or three cards: the card of the group, a
    trump, a card of another group; as many cards played before as a deal
    of the rule set's hand size has then)."""
    cards = rules.rules.plan.deck_cards
    for g, members in enumerate(groups):
        if len(members) < 2:
            continue
        led, held = members[0], members[-1]
        hand = 1 << held
        rest: list[int] = []
        if trump_group >= 0 and trump_group != g:
            rest.append(groups[trump_group][0])
        for h, others in enumerate(groups):
            if h != g:
                hand |= 1 << others[0]
                if h != trump_group:
                    rest.append(others[0])
        stages = [(hand, 0)]
        for k in (2, 3):
            small = 1 << held
            for c in rest[: k - 1]:
                small |= 1 << c
            if small.bit_count() == k:
                played = _before(rules, cards, small | 1 << led, k)
                if played >= 0:
                    stages.append((small, played))
        for held_cards, played in stages:
            for seat, leader in ((1, 0), (0, 1)):
                allowed = lowlevel.legal_mask(
                    rules, held_cards, (led,), trump, True, seat, leader, played
                )
                if allowed != 1 << held:
                    return False
    return True


def _reads_history(
    rules: DealRules, trump: Suit | None, cards: tuple[int, ...], groups: list[list[int]]
) -> int:
    """The cards of the groups (a bit set) whose leads are answered - or which
    are led - otherwise depending on the cards played to the deal's earlier
    tricks (with trump broken: a rule of the first trick alone, before trump
    can be broken, does not count; the search's keys tell the first trick
    apart by the hands' lengths): for each card of each group, a hand of
    every card but those of its group below it may lead the same cards, and
    a hand of every other card may answer its lead with the same cards,
    whether those lower cards were played before the trick or not."""
    deck = 0
    for c in cards:
        deck |= 1 << c
    found = 0
    for members in groups:
        below = 0
        for led in members:
            if below and _reads_below(rules, trump, deck, led, below):
                for c in members:
                    found |= 1 << c
                break
            below |= 1 << led
    return found


def _reads_seats(rules: DealRules, trump: Suit | None, cards: tuple[int, ...]) -> int:
    """The cards (a bit set) whose playing to an earlier trick by the seat to
    play, rather than by another seat, changes what that seat may lead or
    play (trump broken or not): for each card ``c`` of the deck, a hand of
    every other card leading, and answering the lead of another card, with
    ``c`` played before the trick by seat 0 or by seat 1."""
    deck = 0
    for c in cards:
        deck |= 1 << c
    seats = rules.rules.players
    if seats < 2:
        return 0
    found = 0
    for c in cards:
        bit = 1 << c
        hand = deck & ~bit
        by_me = (bit,) + (0,) * (seats - 1)
        by_other = (0, bit) + (0,) * (seats - 2)
        other = next(x for x in cards if x != c)
        for broken in (False, True):
            if lowlevel.legal_mask(
                rules, hand, (), trump, broken, 0, 0, bit, by_me
            ) != lowlevel.legal_mask(rules, hand, (), trump, broken, 0, 0, bit, by_other):
                found |= bit
                break
            answer = hand & ~(1 << other)
            if lowlevel.legal_mask(
                rules, answer, (other,), trump, broken, 0, 1, bit, by_me
            ) != lowlevel.legal_mask(rules, answer, (other,), trump, broken, 0, 1, bit, by_other):
                found |= bit
                break
    return found


def _reads_below(rules: DealRules, trump: Suit | None, deck: int, led: int, below: int) -> bool:
    """Whether leading ``led``, or answering it, depends on whether the cards
    ``below`` it were played before the trick (see :func:`_reads_history`)."""
    hand = deck & ~below
    leads = lowlevel.legal_mask(rules, hand, (), trump, True, 0, 0)
    if leads != lowlevel.legal_mask(rules, hand, (), trump, True, 0, 0, below):
        return True
    hand &= ~(1 << led)
    for seat, leader in ((1, 0), (0, 1)):
        trick = (led,)
        before = lowlevel.legal_mask(rules, hand, trick, trump, True, seat, leader)
        if before != lowlevel.legal_mask(rules, hand, trick, trump, True, seat, leader, below):
            return True
    return False


def _lead_special(
    rules: DealRules,
    trump: Suit | None,
    cards: tuple[int, ...],
    groups: list[list[int]],
    trump_group: int,
) -> int:
    """The cards special on the lead (a bit set).

    Two neighbours of a group (in strength order) lead alike when, for each
    following seat, a hand of every other card (but for low cards of another
    plain group that fill the trick up to that seat) may play the same cards
    after either is led: with neither card in the hand, leading one or the
    other differs by their names alone.  The longest chain of neighbours that
    lead alike is the group's ordinary cards; the rest are special.
    """
    deck = 0
    for c in cards:
        deck |= 1 << c
    seats = rules.rules.players
    special = 0
    for g, members in enumerate(groups):
        plain = [m for h, m in enumerate(groups) if h != g and h != trump_group]
        fillers = max(plain, key=len) if plain else []
        fill = tuple(fillers[: seats - 2])
        base = deck
        for f in fill:
            base &= ~(1 << f)
        answering = range(1, 1 + min(seats - 1, len(fill) + 1))
        chains: list[list[int]] = [[members[0]]]
        for a, b in itertools.pairwise(members):
            hand = base & ~(1 << a) & ~(1 << b)
            alike = all(
                lowlevel.legal_mask(rules, hand, (a, *fill[: s - 1]), trump, True, s, 0)
                == lowlevel.legal_mask(rules, hand, (b, *fill[: s - 1]), trump, True, s, 0)
                for s in answering
            )
            if alike:
                chains[-1].append(b)
            else:
                chains.append([b])
        ordinary = max(chains, key=len)
        for chain in chains:
            if chain is not ordinary:
                for c in chain:
                    special |= 1 << c
    return special


def _free_follow(
    rules: DealRules,
    trump: Suit | None,
    cards: tuple[int, ...],
    groups: list[list[int]],
    g: int,
    plan: SearchPlan,
    broken: bool,
) -> bool:
    """See :meth:`SearchPlan.free_follow`: the group's lowest, middle and highest
    ordinary cards led, each following seat asked with the cards before it
    low cards of another group, high cards of the group led, or a trump
    then low cards; early in the deal (after a first trick: one card of
    another group played before) with a hand holding every other card and
    with one void in the group led; and in the deal's last tricks (as many
    cards played before as the deal's hand size makes then) with hands of
    two and three cards, holding the group (its high cards, then a trump or
    a low card of another group) or void in it."""
    members = [c for c in groups[g] if not plan.lead_special >> c & 1]
    if not members:
        return False
    seats = rules.rules.players
    gm = plan.group_masks[g]
    tg = plan.trump_group
    plain = [h for h in range(len(groups)) if h != g and h != tg]
    filler = groups[plain[0]] if plain else []
    # a card played to an earlier trick: the last plain group's lowest card
    spare = [c for h in reversed(plain) for c in groups[h] if c not in filler[: seats - 1]]
    if not spare:
        return False
    played = 1 << spare[0]
    deck = 0
    for c in cards:
        deck |= 1 << c
    # the cards a short hand holds besides the group: a trump, then low cards of other groups
    besides = [groups[tg][0]] if tg >= 0 and g != tg else []
    besides += [groups[h][0] for h in plain] + [groups[h][-1] for h in plain]
    for lead in {members[0], members[len(members) // 2], members[-1]}:
        for pos in range(1, seats):
            need = pos - 1
            variants: list[tuple[int, ...]] = []
            if not need:
                variants.append(())
            else:
                if len(filler) >= need:
                    variants.append(tuple(filler[:need]))
                high = [c for c in reversed(groups[g]) if c != lead][:need]
                if len(high) == need:
                    variants.append(tuple(high))
                if tg >= 0 and g != tg and len(filler) >= need - 1:
                    variants.append((groups[tg][0], *filler[: need - 1]))
            for fill in variants:
                trick = (lead, *fill)
                used = played
                for c in trick:
                    used |= 1 << c
                hold = deck & ~used
                allowed = lowlevel.legal_mask(rules, hold, trick, trump, broken, pos, 0, played)
                if allowed != hold & gm:
                    return False
                void = hold & ~gm
                allowed = lowlevel.legal_mask(rules, void, trick, trump, broken, pos, 0, played)
                if void and allowed != void:
                    return False
                on_table = used ^ played
                mine = [c for c in reversed(groups[g]) if not on_table >> c & 1]
                other = [c for c in besides if not on_table >> c & 1]
                for k in (2, 3):
                    for hand_cards in (mine[: k - 1] + other, other):
                        short = 0
                        for c in hand_cards[:k]:
                            short |= 1 << c
                        if short.bit_count() != k:
                            continue
                        late = _before(rules, cards, on_table | short, k)
                        if late < 0:
                            continue
                        allowed = lowlevel.legal_mask(
                            rules, short, trick, trump, broken, pos, 0, late
                        )
                        if allowed != (short & gm or short):
                            return False
    return True


@functools.lru_cache(maxsize=64)
def plan_for(rules: DealRules, trump: Suit | None) -> SearchPlan:
    """The (cached) plan of ``rules`` with effective trump ``trump`` (made
    plain by :func:`refute` when a search refuted it)."""
    return SearchPlan(rules, trump)
