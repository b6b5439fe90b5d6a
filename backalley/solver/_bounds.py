"""Sure tricks: bounds on the side's tricks without searching.

After Haglund's DDS ("quick tricks" and "later tricks"), for the plans whose
card order fits the model of :mod:`backalley.solver._plan` (groups ranked by
strength, an optional trump group, following compulsory).  Each bound comes
with the cards whose rank it depends on (its *relevant* cards, see
:mod:`backalley.solver._table`): a position with the same owners of those
cards and of every card above them in their groups, and the same lengths,
has the same bound.

- :func:`make_quick` - at the start of a trick, the tricks the leader surely
  takes by cashing from the top, trumps first, and by leading low to a
  partner's top card and cashing the partner's winners from there;
- :func:`make_sure_trumps` - each side's trumps that the other side's higher
  trumps cannot all cover (tricks for that side whoever leads);
- :func:`make_trick_sure` - during a trick, whether a seat still to play
  surely wins it for its side (the top card of the group led that nobody
  after it can ruff, or a ruff nobody after it can beat).
"""

from __future__ import annotations

from collections.abc import Callable

from backalley.solver._context import Context
from backalley.solver._table import MEMO_LIMIT

__all__ = ["make_quick", "make_sure_trumps", "make_trick_sure"]

Quick = Callable[[tuple[int, ...], int, bool, int, int], tuple[int, int, int]]
"""quick(hands, leader, broken, left, rem) -> (tricks, relevant cards, of
them the tricks won in plain groups)."""


def make_quick(ctx: Context) -> tuple[Quick, Callable[[tuple[int, ...], int, bool, int], tuple[int, int]]]:
    """The leader's quick tricks and its entries to a partner, as closures."""
    n = ctx.n
    is_max = ctx.is_max
    gmasks = ctx.gmasks
    tgroup = ctx.tgroup
    tmask = ctx.tmask
    legal_of = ctx.legal
    group_order = sorted(range(len(gmasks)), key=lambda g: g != tgroup)

    def quick(
        hands: tuple[int, ...], leader: int, broken: bool, left: int, union: int
    ) -> tuple[int, int, int]:
        """Tricks the leader surely takes by cashing cards from the lead, and
        the cards whose rank that depends on (``union``: the cards left).

        The leader leads each group's cards from the top; a round counts when
        no opponent still holding the group has a higher card, no opponent
        (or partner) already void in it holds a trump, and no partner still
        holding the group has a higher card (it could be made to overtake).
        Opponents keep their highest cards as long as they can, partners
        play their lowest, so the count holds whatever they do; rounds past
        the other hands' length are the leader's long cards, which count by
        length alone.  Trumps are cashed first: a hand whose trumps are all
        drawn by then cannot ruff.  Also returned: how many of the tricks
        are won in groups other than trumps (no trump is played in those).
        """
        hand = hands[leader]
        others = [h for s, h in enumerate(hands) if s != leader and h]
        leads = legal_of(hand, (), leader, broken, leader, union)
        total = 0
        plains = 0
        used = 0
        # trumps first: once the others' trumps are drawn, nobody ruffs
        ruffers = [bool(h & tmask) for h in others]
        for g in group_order:
            gm = gmasks[g]
            mine = hand & gm
            if not mine or not (leads >> (mine.bit_length() - 1)) & 1:
                continue
            plain = g != tgroup
            k = 0
            last = 0  # the lowest card cashed while another hand held the group
            while mine:
                top = 1 << (mine.bit_length() - 1)
                held_any = False
                for i, h in enumerate(others):
                    held = h & gm
                    if held.bit_count() > k:
                        held_any = True
                        if held > top:
                            break
                    elif plain and ruffers[i]:
                        break
                else:
                    k += 1
                    if held_any:
                        last = top
                    mine ^= top
                    continue
                break
            if k:
                total += k
                if plain:
                    plains += k
                else:
                    ruffers = [(h & tmask).bit_count() > k for h in others]
                if last:
                    used |= union & gm & ~(last - 1)
        return (total if total < left else left), used, plains

    def entries_to_partner(
        hands: tuple[int, ...], leader: int, broken: bool, left: int
    ) -> tuple[int, int]:
        """Tricks the leader's side surely takes by leading low to a partner's
        top card of a group and cashing the partner's quick tricks from there."""
        hand = hands[leader]
        rem = 0
        for h in hands:
            rem |= h
        leads = legal_of(hand, (), leader, broken, leader, rem)
        best, best_used = 0, 0
        side = is_max[leader]
        for p in range(n):
            if p == leader or is_max[p] != side:
                continue
            partner = hands[p]
            for g, gm in enumerate(gmasks):
                mine = hand & gm & leads
                theirs = partner & gm
                if not mine or not theirs:
                    continue
                others = 0
                for s in range(n):
                    if s != p:
                        others |= hands[s] & gm
                top = 1 << (theirs.bit_length() - 1)
                if others > top:
                    continue
                if g != tgroup and any(
                    hands[s] & tmask and not hands[s] & gm
                    for s in range(n)
                    if s != p and s != leader
                ):
                    continue
                low = mine & -mine
                c = low.bit_length() - 1
                if not legal_of(partner, (c,), leader, broken, p, rem) & top:
                    continue
                after = list(hands)
                after_rem = rem
                for s in range(n):
                    held = hands[s] & gm
                    if s == leader:
                        after[s] ^= low
                        after_rem ^= low
                    elif s == p:
                        after[s] ^= top
                        after_rem ^= top
                    elif held:
                        after[s] ^= held & -held
                        after_rem ^= held & -held
                q, used, _plain = quick(tuple(after), p, broken, left - 1, after_rem)
                if q + 1 > best:
                    best, best_used = q + 1, used | top
        return best, best_used

    return quick, entries_to_partner


def make_sure_trumps(ctx: Context) -> Callable[[tuple[int, ...]], tuple[list[int], list[int]]]:
    """The sure trump tricks of each side, remembered per trump holding."""
    n = ctx.n
    is_max = ctx.is_max
    memo = ctx.table.sure

    def sure_trumps(tparts: tuple[int, ...]) -> tuple[list[int], list[int]]:
        """The sure trump tricks of the minimising and the maximising side
        (``tparts``: each hand's trumps), and the trumps whose rank they
        depend on.

        Each trump of a hand lies in a trick of its own, which the other side
        takes only with a higher trump, each trump of the other side in one
        trick: the hand's trumps that the other side's higher trumps cannot
        all cover win tricks for its side.
        """
        found = memo.get(tparts)
        if found is not None:
            return found
        side_sure = [0, 0]
        side_rel = [0, 0]
        max_trumps = 0
        min_trumps = 0
        for s in range(n):
            if is_max[s]:
                max_trumps |= tparts[s]
            else:
                min_trumps |= tparts[s]
        trumps = max_trumps | min_trumps
        for s in range(n):
            mine = tparts[s]
            if not mine:
                continue
            m = is_max[s]
            theirs = max_trumps if not m else min_trumps
            above = theirs.bit_length()
            top = (mine >> above).bit_count()
            # cover the hand's trumps from the top, each with one of the
            # other side's trumps above it
            covered = free = seen = 0
            rest = mine
            while rest:
                t = rest.bit_length() - 1
                rest ^= 1 << t
                higher = (theirs >> t).bit_count()
                free += higher - seen
                seen = higher
                if free:
                    covered += 1
                    free -= 1
            sure = mine.bit_count() - covered
            if sure > side_sure[m]:
                side_sure[m] = sure
                if sure == top:
                    side_rel[m] = trumps & ~((1 << above) - 1)
                else:
                    side_rel[m] = trumps & ~((mine & -mine) - 1)
        if len(memo) >= MEMO_LIMIT:
            memo.clear()
        answer = (side_sure, side_rel)
        memo[tparts] = answer
        return answer

    return sure_trumps


def make_trick_sure(
    ctx: Context,
) -> Callable[[tuple[int, ...], int, tuple[int, ...], int, int, bool], int]:
    """Whether a seat still to play to the current trick surely wins it."""
    n = ctx.n
    is_max = ctx.is_max
    group = ctx.group
    strength = ctx.strength
    gmasks = ctx.gmasks
    tgroup = ctx.tgroup
    tmask = ctx.tmask
    free = ctx.plan.free_follow

    def trick_sure(
        hands: tuple[int, ...], leader: int, trick: tuple[int, ...], win: int, cards: int, side: bool
    ) -> int:
        """A card (as a bit: the answer's relevant card) with which a seat of
        the side ``side`` (``True``: the maximising side) still to play to
        ``trick`` surely wins it, or 0 (``win``: the trick's winning card so
        far; ``cards``: the legal plays of the seat to act).

        The card beats ``win`` and no other seat still to play could beat it:
        none holds a higher card of its group and, when it is not a trump,
        none void in the group led holds a trump.  Only the top card of the group
        led and a ruff with the seat's highest trump are tried.  The seat to
        act must be allowed to play it (``cards``); a later seat only counts
        when following is free in the rule set (the plan's ``free_follow``:
        a seat holding the group led may play any card of it, a seat void in
        it any card), so that it may play it whatever the seats before it
        play.
        """
        pos = len(trick)
        lg = group[trick[0]]
        lmask = gmasks[lg]
        wg = group[win]
        seats = [(leader + i) % n for i in range(pos, n)]
        led_left = 0
        for s in seats:
            led_left |= hands[s] & lmask
        for k, s in enumerate(seats):
            if is_max[s] != side:
                continue
            if k and not free & (1 << trick[0]):
                break
            hand = hands[s]
            others = [t for t in seats if t != s]
            mine = hand & lmask
            if mine:
                top = 1 << (mine.bit_length() - 1)
                c = top.bit_length() - 1
                if led_left >> (c + 1):
                    continue  # a later seat holds a higher card of the group led
                if wg == lg:
                    if strength[c] < strength[win]:
                        continue
                elif wg == tgroup:
                    continue  # already ruffed: the group led cannot win
                if lg != tgroup and tmask:
                    if any(not hands[t] & lmask and hands[t] & tmask for t in others):
                        continue  # another seat still to play may ruff
                if not k and not cards & top:
                    continue
                return top
            if lg == tgroup or not hand & tmask:
                continue
            # void in the group led: a ruff with the highest trump
            t = 1 << ((hand & tmask).bit_length() - 1)
            c = t.bit_length() - 1
            if wg == tgroup and strength[win] > strength[c]:
                continue
            other_trumps = 0
            for u in others:
                if not hands[u] & lmask:
                    other_trumps |= hands[u] & tmask
            if other_trumps > t:
                continue
            if not k and not cards & t:
                continue
            return t
        return 0

    return trick_sure
