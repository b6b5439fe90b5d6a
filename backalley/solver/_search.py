"""The search: a zero-window alpha-beta over the play, one card at a time.

``Search(position, seat)`` answers questions about one deal position for one
side (``seat``'s side, the *maximising* side; every other seat minimises its
tricks).  :meth:`Search.value` finds the number of tricks by a binary search
on zero-window tests "can the side take at least ``t`` of the remaining
tricks?", which share one transposition table.

Techniques (after Bo Haglund's double-dummy solver):

- **Transposition table**, consulted at the start of each trick and keyed by
  the leader, whether trump is broken, and the hands with ranks made
  relative (for each group, the owners of its remaining cards in strength
  order), so positions that differ only in cards already played are one
  entry.  An entry holds a lower and an upper bound on the side's tricks.
- **Rank equivalence**: cards of one group in one hand with no card of
  another hand (or on the table) between them are one move.
- **Quick tricks**: at the start of a trick, the leader's sure winners (top
  cards of a group, capped where an opponent could trump) give a lower bound
  for the leader's side, or an upper bound for the other.
- **Move ordering**: winners and leads towards a partner's winner first; in
  second to last seat, the cheapest card that wins when the trick is not
  already the side's, else the cheapest card.

Legality always comes from the rule set (:func:`backalley.solver._rules.legal_mask`);
trick winners from the rule set's trick winner, through the groups of
:mod:`backalley.solver._plan` when those fit (else by asking it per trick).
"""

from __future__ import annotations

from collections.abc import Callable

from backalley.solver import _rules
from backalley.solver._plan import plan_for

__all__ = ["Search"]

_MEMO_LIMIT = 1 << 20
_RELATIVE: dict[tuple[int, ...], int] = {}
"""Relative-rank codes of one group's holdings (bounded; shared, pure)."""


def _relative(parts: tuple[int, ...]) -> int:
    """The owners of the remaining cards of one group, lowest first, as one number."""
    code = _RELATIVE.get(parts)
    if code is not None:
        return code
    n = len(parts)
    union = 0
    for part in parts:
        union |= part
    code = 1
    while union:
        low = union & -union
        union ^= low
        owner = 0
        while not parts[owner] & low:
            owner += 1
        code = code * n + owner
    if len(_RELATIVE) >= _MEMO_LIMIT:
        _RELATIVE.clear()
    _RELATIVE[parts] = code
    return code


class Search:
    """Exact search of one position for the side of ``seat``."""

    def __init__(self, position: _rules.Position, seat: int) -> None:
        rules = position.rules
        trump = position.trump
        plan = plan_for(rules, trump)
        teams = _rules.seat_teams(rules)
        self.position = position
        self.players = len(teams)
        self.is_max = tuple(team == teams[seat] for team in teams)
        self.nodes = 0
        self.test: Callable[[tuple[int, ...], int, bool, tuple[int, ...], int, int], bool]
        self.test = _make_test(position, plan, self.is_max, self)

    def value(
        self, hands: tuple[int, ...], leader: int, broken: bool, trick: tuple[int, ...]
    ) -> int:
        """The side's tricks among the remaining ones (the current trick included)."""
        n = self.players
        left = hands[(leader + len(trick)) % n].bit_count()
        lo, hi = 0, left
        while lo < hi:
            target = (lo + hi + 1) // 2
            if self.test(hands, leader, broken, trick, left, target):
                lo = target
            else:
                hi = target - 1
        return lo

    def after(
        self, hands: tuple[int, ...], leader: int, broken: bool, trick: tuple[int, ...], card: int
    ) -> int:
        """The side's tricks among the remaining ones once ``card`` is played now."""
        n = self.players
        seat = (leader + len(trick)) % n
        left = hands[seat].bit_count()
        new = list(hands)
        new[seat] ^= 1 << card
        hands = tuple(new)
        trick = (*trick, card)
        if len(trick) < n:
            return self.value(hands, leader, broken, trick)
        position = self.position
        rules, trump = position.rules, position.trump
        winner = (leader + _rules.trick_winner(rules, trick, trump)) % n
        broken = broken or _rules.breaks_trump(rules, trick, trump)
        won = 1 if self.is_max[winner] else 0
        if left == 1:
            return won
        return won + self.value(hands, winner, broken, ())


def _make_test(
    position: _rules.Position, plan: object, is_max: tuple[bool, ...], counter: Search
) -> Callable[[tuple[int, ...], int, bool, tuple[int, ...], int, int], bool]:
    """The zero-window test, as closures over the position's constants."""
    from backalley.solver._plan import Plan

    assert isinstance(plan, Plan)
    rules = position.rules
    trump = position.trump
    bidders = position.board_bidders
    n = len(is_max)
    legal = _rules.legal_mask
    rule_winner = _rules.trick_winner
    rule_breaks = _rules.breaks_trump
    standard = plan.standard
    fast = plan.standard and plan.monotone
    quick_ok = fast and plan.follows
    group = plan.group
    strength = plan.strength
    gmasks = tuple(plan.group_masks)
    tgroup = plan.trump_group
    tmask = plan.trump_mask
    relative = _relative
    tt: dict[tuple[object, ...], list[int]] = {}
    lead_found = [-1]

    def key_of(hands: tuple[int, ...], leader: int, broken: bool) -> tuple[object, ...]:
        if fast:
            return (
                leader,
                broken,
                *[relative(tuple(map(gm.__and__, hands))) for gm in gmasks],
            )
        return (leader, broken, *hands)

    def quick(hands: tuple[int, ...], leader: int, broken: bool, left: int) -> int:
        """Tricks the leader surely takes by cashing top cards from the lead."""
        hand = hands[leader]
        leads = legal(rules, hand, (), trump, broken, leader, leader, bidders)
        ruffers = [hands[s] for s in range(n) if s != leader and hands[s] & tmask]
        total = 0
        for g, gm in enumerate(gmasks):
            mine = hand & gm
            if not mine:
                continue
            others = 0
            for s in range(n):
                if s != leader:
                    others |= hands[s] & gm
            above = others.bit_length()
            top = mine >> above
            if not top:
                continue
            if not (leads >> (top.bit_length() - 1 + above)) & 1:
                continue
            count = top.bit_count()
            if g != tgroup:
                for other in ruffers:
                    length = (other & gm).bit_count()
                    if length < count:
                        count = length
            total += count
        return total if total < left else left

    def order(
        cards: int, hands: tuple[int, ...], seat: int, leader: int, trick: tuple[int, ...], win: int
    ) -> list[int]:
        """The legal cards, one per class of equivalent cards, best guesses first."""
        if not fast:
            out = []
            while cards:
                low = cards & -cards
                cards ^= low
                out.append(low.bit_length() - 1)
            return out
        others = 0
        for s in range(n):
            if s != seat:
                others |= hands[s]
        for c in trick:
            others |= 1 << c
        reps: list[tuple[int, int]] = []
        prev = -1
        mine_side = is_max[seat]
        if not trick:
            # leads: winners first, then leads towards the side's winners, then low cards
            while cards:
                low = cards & -cards
                cards ^= low
                c = low.bit_length() - 1
                g = group[c]
                if prev >= 0 and group[prev] == g and not (others & gmasks[g] & (low - (2 << prev))):
                    prev = c
                    continue
                prev = c
                gm = gmasks[g]
                higher = others & gm & ~((low << 1) - 1)
                if not higher:
                    score = 0 if g != tgroup else 1
                else:
                    top = 1 << (higher.bit_length() - 1)
                    owner = 0
                    while not hands[owner] & top:
                        owner += 1
                    score = 2 if is_max[owner] == mine_side else 3
                reps.append((score * 64 + strength[c], c))
        else:
            wg = group[win]
            ws = strength[win]
            pos = len(trick)
            # who holds the current winner
            wseat = (leader + trick.index(win)) % n
            ours = is_max[wseat] == mine_side
            while cards:
                low = cards & -cards
                cards ^= low
                c = low.bit_length() - 1
                g = group[c]
                if prev >= 0 and group[prev] == g and not (others & gmasks[g] & (low - (2 << prev))):
                    prev = c
                    continue
                prev = c
                if g == wg:
                    beats = strength[c] > ws
                else:
                    beats = g == tgroup
                s = strength[c] + (32 if g == tgroup else 0)
                if ours:
                    score = 0 if not beats else 1
                else:
                    score = 0 if beats else 1
                reps.append((score * 64 + s, c))
            del pos
        reps.sort()
        return [c for _k, c in reps]

    def start(hands: tuple[int, ...], leader: int, broken: bool, left: int, target: int) -> bool:
        """Can the side take ``target`` of the ``left`` tricks, ``leader`` to lead?"""
        if target <= 0:
            return True
        if target > left:
            return False
        if left == 1:
            trick = tuple(
                hands[(leader + i) % n].bit_length() - 1 for i in range(n)
            )
            w = (leader + rule_winner(rules, trick, trump)) % n
            return is_max[w]
        key = key_of(hands, leader, broken)
        entry = tt.get(key)
        if entry is not None:
            if entry[0] >= target:
                return True
            if entry[1] < target:
                return False
        else:
            entry = [0, left, -1]
            tt[key] = entry
        if quick_ok:
            q = quick(hands, leader, broken, left)
            if q:
                if is_max[leader]:
                    if q > entry[0]:
                        entry[0] = q
                    if q >= target:
                        return True
                else:
                    if left - q < entry[1]:
                        entry[1] = left - q
                    if left - q < target:
                        return False
        hint = -1
        best = entry[2]
        if best >= 0:
            # the best lead found before, stored as (group, how many of the
            # leader's cards of that group lie above it)
            gm = gmasks[best >> 6]
            mine = hands[leader] & gm
            for _ in range(best & 63):
                mine ^= 1 << (mine.bit_length() - 1)
            if mine:
                hint = mine.bit_length() - 1
        result = play(hands, leader, broken, (), left, target, hint)
        found = lead_found[0]
        if found >= 0:
            g = group[found]
            above = hands[leader] & gmasks[g] & ~((2 << found) - 1)
            entry[2] = g * 64 + above.bit_count()
        if result:
            if target > entry[0]:
                entry[0] = target
        elif target - 1 < entry[1]:
            entry[1] = target - 1
        return result

    def play(
        hands: tuple[int, ...],
        leader: int,
        broken: bool,
        trick: tuple[int, ...],
        left: int,
        target: int,
        win: int,
    ) -> bool:
        """The same test with ``trick`` on the table (``win``: its winning card so far)."""
        counter.nodes += 1
        pos = len(trick)
        seat = (leader + pos) % n
        hand = hands[seat]
        cards = legal(rules, hand, trick, trump, broken, seat, leader, bidders)
        maximising = is_max[seat]
        last = pos + 1 == n
        moves = order(cards, hands, seat, leader, trick, win)
        if pos == 0:
            lead_found[0] = -1
            if win >= 0 and win in moves:
                moves.remove(win)
                moves.insert(0, win)
        for c in moves:
            bit = 1 << c
            new = list(hands)
            new[seat] = hand ^ bit
            after = tuple(new)
            played = (*trick, c)
            if standard:
                if pos == 0:
                    w = c
                else:
                    gc, gw = group[c], group[win]
                    if gc == gw:
                        w = c if strength[c] > strength[win] else win
                    else:
                        w = c if gc == tgroup else win
            else:
                w = -1
            if last:
                if standard:
                    winner = (leader + played.index(w)) % n
                else:
                    winner = (leader + rule_winner(rules, played, trump)) % n
                now = broken or rule_breaks(rules, played, trump)
                result = start(after, winner, now, left - 1, target - is_max[winner])
            else:
                result = play(after, leader, broken, played, left, target, w)
            if result is maximising:
                if pos == 0:
                    lead_found[0] = c
                return result
        if pos == 0:
            lead_found[0] = -1
        return not maximising

    def test(
        hands: tuple[int, ...],
        leader: int,
        broken: bool,
        trick: tuple[int, ...],
        left: int,
        target: int,
    ) -> bool:
        if not trick:
            return start(hands, leader, broken, left, target)
        if target <= 0:
            return True
        if target > left:
            return False
        win = -1
        if standard:
            win = trick[rule_winner(rules, trick, trump)]
        return play(hands, leader, broken, trick, left, target, win)

    return test
