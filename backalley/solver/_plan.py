"""What the solver learns about a rule set's card play, once per (rules, trump).

Nothing here knows a card order: it is read off the rule set's own trick
winner (through :mod:`backalley.solver._rules`) by playing every pair of
cards of the deck against each other, in both orders.

- Card ``a`` *dominates* ``b`` when ``a`` wins the two-card trick whether it
  is led or played second.  Two cards are *ordered* when one dominates the
  other (cards of one suit, or a trump against a plain card); cards of two
  plain suits are not (the card led wins).
- Cards fall into *groups* (the suits as far as winning goes): ``a`` and ``b``
  are in one group when they are ordered and every third card is ordered
  with both or with neither of them.  Within a group domination must be a
  strict total order: a card's *strength* is how many of its group it beats.
- The *trump group* is the group whose every card dominates every card
  outside it (there is none in a deal without trumps and without jokers).
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
  never one entry).

When all of that holds (``standard``), the solver computes trick winners
with the rule "the strongest trump played, else the strongest card of the
group led" and uses its fast techniques (rank equivalence, relative ranks in
the transposition table, quick tricks).  When it does not hold, the solver
still gives exact answers, by asking the rule set's trick winner for every
trick and searching without those shortcuts.
"""

from __future__ import annotations

import functools
import itertools

from backalley.solver import _rules
from backalley.solver._rules import DealRules

__all__ = ["Plan", "plan_for"]


class Plan:
    """The tables derived for one rule set and one effective trump."""

    __slots__ = (
        "_cards",
        "_free",
        "_groups",
        "_rules",
        "_trump",
        "follows",
        "group",
        "group_masks",
        "history",
        "history_mask",
        "lead_special",
        "monotone",
        "standard",
        "strength",
        "trump_group",
        "trump_mask",
    )

    def __init__(self, rules: DealRules, trump: int) -> None:
        cards = _rules.deck_indices(rules)
        group = [-1] * 54
        strength = [0] * 54
        self.group = group
        self.strength = strength
        self.group_masks: list[int] = []
        self.trump_group = -1
        self.trump_mask = 0
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
        groups = _groups(rules, trump, cards)
        if groups is None:
            return
        self.history_mask = _reads_history(rules, trump, cards, groups)
        self.history = bool(self.history_mask)
        for g, members in enumerate(groups):
            mask = 0
            for rank, card in enumerate(members):
                group[card] = g
                strength[card] = rank
                mask |= 1 << card
            self.group_masks.append(mask)
        trumps = [
            g for g, members in enumerate(groups) if _dominates_all(rules, trump, members, cards)
        ]
        if len(trumps) > 1:
            return
        if trumps:
            self.trump_group = trumps[0]
            self.trump_mask = self.group_masks[trumps[0]]
        self.standard = True
        self.monotone = all(list(members) == sorted(members) for members in groups)
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


def _winner(rules: DealRules, trump: int, a: int, b: int) -> int:
    return _rules.trick_winner(rules, (a, b), trump)


def _groups(rules: DealRules, trump: int, cards: tuple[int, ...]) -> list[list[int]] | None:
    """The groups, each in ascending strength, or ``None`` when the rule set's
    trick winner does not fit the model described in the module docstring."""
    n = len(cards)
    # beats[i][j]: card i beats card j whether led or played second
    beats = [[False] * n for _ in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            a, b = cards[i], cards[j]
            first = _winner(rules, trump, a, b)  # a led
            second = _winner(rules, trump, b, a)  # b led
            if first == 0 and second == 1:
                beats[i][j] = True
            elif first == 1 and second == 0:
                beats[j][i] = True
            elif not (first == 0 and second == 0):
                return None  # the second card wins whatever: not a trick-taking order
    ordered = [[beats[i][j] or beats[j][i] for j in range(n)] for i in range(n)]
    assigned = [-1] * n
    groups_idx: list[list[int]] = []
    for i in range(n):
        if assigned[i] >= 0:
            continue
        members = [i]
        assigned[i] = len(groups_idx)
        for j in range(i + 1, n):
            if assigned[j] < 0 and ordered[i][j] and _same_signature(ordered, i, j):
                members.append(j)
                assigned[j] = len(groups_idx)
        groups_idx.append(members)
    out: list[list[int]] = []
    for members in groups_idx:
        for x in members:
            for y in members:
                if x != y and not ordered[x][y]:
                    return None
        ranked = sorted(members, key=lambda x: sum(beats[x][y] for y in members))
        size = len(ranked)
        for r, x in enumerate(ranked):
            if sum(beats[x][y] for y in members) != r:
                return None  # not a strict total order
            for y in ranked[r + 1 : size]:
                if not beats[y][x]:
                    return None
        out.append([cards[x] for x in ranked])
    # cards of two different groups: either one group's cards all dominate the
    # other's (a trump group), or the card led wins (two plain groups)
    for g, gm in enumerate(groups_idx):
        for h, hm in enumerate(groups_idx):
            if g >= h:
                continue
            kinds = {(beats[x][y], beats[y][x]) for x in gm for y in hm}
            if len(kinds) != 1:
                return None
    return out


def _same_signature(ordered: list[list[bool]], i: int, j: int) -> bool:
    row_i, row_j = ordered[i], ordered[j]
    return all(row_i[k] == row_j[k] for k in range(len(row_i)) if k != i and k != j)


def _dominates_all(
    rules: DealRules, trump: int, members: list[int], cards: tuple[int, ...]
) -> bool:
    inside = set(members)
    outside = [c for c in cards if c not in inside]
    if not outside:
        return False
    return all(
        _winner(rules, trump, t, c) == 0 and _winner(rules, trump, c, t) == 1
        for t in members
        for c in outside
    )


def _must_follow(rules: DealRules, trump: int, groups: list[list[int]], trump_group: int) -> bool:
    """Whether a player holding a card of the group led must play one (checked
    on a hand with a card of the group, a trump and a card of another group)."""
    for g, members in enumerate(groups):
        if len(members) < 2:
            continue
        led, held = members[0], members[-1]
        hand = 1 << held
        for h, others in enumerate(groups):
            if h != g:
                hand |= 1 << others[0]
        for seat, leader in ((1, 0), (0, 1)):
            allowed = _rules.legal_mask(rules, hand, (led,), trump, True, seat, leader, frozenset())
            if allowed != 1 << held:
                return False
    return True


def _reads_history(
    rules: DealRules, trump: int, cards: tuple[int, ...], groups: list[list[int]]
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
    none = frozenset[int]()
    found = 0
    for members in groups:
        below = 0
        for led in members:
            if below and _reads_below(rules, trump, deck, led, below, none):
                for c in members:
                    found |= 1 << c
                break
            below |= 1 << led
    return found


def _reads_below(
    rules: DealRules, trump: int, deck: int, led: int, below: int, none: frozenset[int]
) -> bool:
    """Whether leading ``led``, or answering it, depends on whether the cards
    ``below`` it were played before the trick (see :func:`_reads_history`)."""
    hand = deck & ~below
    leads = _rules.legal_mask(rules, hand, (), trump, True, 0, 0, none)
    if leads != _rules.legal_mask(rules, hand, (), trump, True, 0, 0, none, below):
        return True
    hand &= ~(1 << led)
    for seat, leader in ((1, 0), (0, 1)):
        trick = (led,)
        before = _rules.legal_mask(rules, hand, trick, trump, True, seat, leader, none)
        if before != _rules.legal_mask(rules, hand, trick, trump, True, seat, leader, none, below):
            return True
    return False


def _lead_special(
    rules: DealRules,
    trump: int,
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
    seats = len(_rules.seat_teams(rules))
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
                _rules.legal_mask(rules, hand, (a, *fill[: s - 1]), trump, True, s, 0, frozenset())
                == _rules.legal_mask(
                    rules, hand, (b, *fill[: s - 1]), trump, True, s, 0, frozenset()
                )
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
    trump: int,
    cards: tuple[int, ...],
    groups: list[list[int]],
    g: int,
    plan: Plan,
    broken: bool,
) -> bool:
    """See :meth:`Plan.free_follow`: the group's lowest, middle and highest
    ordinary cards led, each following seat asked with the cards before it
    low cards of another group, high cards of the group led, or a trump
    then low cards; with a hand holding every other card, and with one
    void in the group led; after a first trick (one card of another group
    played before)."""
    members = [c for c in groups[g] if not plan.lead_special >> c & 1]
    if not members:
        return False
    seats = len(_rules.seat_teams(rules))
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
    none = frozenset[int]()
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
                allowed = _rules.legal_mask(rules, hold, trick, trump, broken, pos, 0, none, played)
                if allowed != hold & gm:
                    return False
                void = hold & ~gm
                allowed = _rules.legal_mask(rules, void, trick, trump, broken, pos, 0, none, played)
                if void and allowed != void:
                    return False
    return True


@functools.lru_cache(maxsize=64)
def plan_for(rules: DealRules, trump: int) -> Plan:
    """The (cached) plan of ``rules`` with effective trump ``trump``."""
    return Plan(rules, trump)
