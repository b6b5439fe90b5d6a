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
- :func:`make_later_tricks` - whether the side that needs every trick left
  must lose one (DDS's "later tricks");
- :func:`make_trick_sure` - during a trick, whether a seat still to play
  surely wins it for its side (the top card of the group led that nobody
  after it can ruff, or a ruff nobody after it can beat), and
  :func:`make_cash_after` - when no other hand holds a trump, the top
  cards that seat then cashes from the lead.

One module, one job: the quick and later tricks, which share the bookkeeping of
their relevant cards.
"""

from __future__ import annotations

from collections.abc import Callable

from backalley.solver._context import Context
from backalley.solver._table import MEMO_LIMIT

__all__ = [
    "make_cash_after",
    "make_later_tricks",
    "make_quick",
    "make_sure_trumps",
    "make_trick_sure",
]

Quick = Callable[[tuple[int, ...], int, bool, int, int], tuple[int, int, int]]
"""quick(hands, leader, broken, left, rem) -> (tricks, relevant cards, of
them the tricks won in plain groups)."""


def make_quick(
    ctx: Context,
) -> tuple[Quick, Callable[[tuple[int, ...], int, bool, int, int, int], tuple[int, int]]]:
    """The leader's quick tricks and its entries to a partner, as closures."""
    n = ctx.n
    is_max = ctx.is_max
    gmasks = ctx.gmasks
    tgroup = ctx.tgroup
    tmask = ctx.tmask
    legal_of = ctx.legal
    legal_at = ctx.legal_at
    group_order = sorted(range(len(gmasks)), key=lambda g: g != tgroup)
    partners = [[p for p in range(n) if p != s and is_max[p] == is_max[s]] for s in range(n)]

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
        ruff = True in ruffers
        for g in group_order:
            gm = gmasks[g]
            mine = hand & gm
            if not mine:
                continue
            high = mine.bit_length() - 1
            if not leads >> high & 1:
                continue
            plain = g != tgroup
            rest = union & gm & ~mine
            if not rest:
                # nobody else holds the group: long cards, unless someone ruffs
                if plain:
                    if not ruff:
                        k = mine.bit_count()
                        total += k
                        plains += k
                else:
                    total += mine.bit_count()
                continue
            if rest >> high:
                continue  # another hand holds a higher card
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
                    ruff = True in ruffers
                if last:
                    used |= union & gm & ~(last - 1)
        return (total if total < left else left), used, plains

    def entries_to_partner(
        hands: tuple[int, ...], leader: int, broken: bool, left: int, rem: int, need: int
    ) -> tuple[int, int]:
        """Tricks the leader's side surely takes by leading low to a partner's
        top card of a group and cashing the partner's quick tricks from there
        (``rem``: the cards left).  The other hands play their lowest card
        of the group (keeping their high cards); none of them void in it may
        hold a trump, so that their discards weaken nothing but themselves.
        Not tried when no partner holds the top card of a group the leader
        holds, or when even every card it holds in the groups whose top card
        it holds could not make ``need`` tricks."""
        hand = hands[leader]
        reach = 0
        for p in partners[leader]:
            partner = hands[p]
            count = 0
            entry = False
            for gm in gmasks:
                theirs = partner & gm
                if theirs and theirs.bit_length() == (rem & gm).bit_length():
                    count += theirs.bit_count()
                    if hand & gm:
                        entry = True
            if entry and count > reach:
                reach = count
        if reach + 1 < need:
            return 0, 0
        leads = legal_of(hand, (), leader, broken, leader, rem)
        best, best_used = 0, 0
        for p in partners[leader]:
            partner = hands[p]
            if not partner:
                continue
            for g, gm in enumerate(gmasks):
                mine = hand & gm & leads
                if not mine:
                    continue
                theirs = partner & gm
                if not theirs:
                    continue
                top = 1 << ((rem & gm).bit_length() - 1)
                if not theirs & top:
                    continue  # the partner must hold the group's top card
                if (
                    g != tgroup
                    and tmask
                    and any(
                        hands[s] & tmask and not hands[s] & gm
                        for s in range(n)
                        if s != p and s != leader
                    )
                ):
                    continue  # another hand may ruff
                low = mine & -mine
                c = low.bit_length() - 1
                if not legal_at(partner, (c,), leader, broken, p, rem) & top:
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
) -> Callable[[tuple[int, ...], int, tuple[int, ...], int, int, bool, bool, bool], int]:
    """Whether a seat still to play to the current trick surely wins it."""
    n = ctx.n
    is_max = ctx.is_max
    group = ctx.group
    strength = ctx.strength
    gmasks = ctx.gmasks
    tgroup = ctx.tgroup
    tmask = ctx.tmask
    unfree = ctx.lspecial | ctx.hmask
    history = ctx.history
    free_of = ctx.free_of

    def trick_sure(
        hands: tuple[int, ...],
        leader: int,
        trick: tuple[int, ...],
        win: int,
        cards: int,
        side: bool,
        broken: bool,
        first: bool,
    ) -> int:
        """A card (as a bit: the answer's relevant card) with which a seat of
        the side ``side`` (``True``: the maximising side) still to play to
        ``trick`` surely wins it, or 0 (``win``: the trick's winning card so
        far; ``cards``: the legal plays of the seat to act; ``first``:
        whether this is the deal's first trick).

        The card beats ``win`` and no other seat still to play could beat it:
        none holds a higher card of its group and, when it is not a trump,
        none void in the group led holds a trump.  Only the top card of the
        group led and a ruff with the seat's highest trump are tried.  The
        seat to act must be allowed to play it (``cards``); a later seat
        only counts when following the card led is free (see
        :meth:`~backalley.solver._plan.SearchPlan.free_follow`), so that it may
        play it whatever the seats before it play.
        """
        pos = len(trick)
        lead = trick[0]
        lg = group[lead]
        lmask = gmasks[lg]
        wg = group[win]
        seats = [(leader + i) % n for i in range(pos, n)]
        led_left = 0
        for s in seats:
            led_left |= hands[s] & lmask
        later_ok: bool | None = None
        for k, s in enumerate(seats):
            if is_max[s] != side:
                continue
            if k:
                if later_ok is None:
                    later_ok = not (first or history or unfree >> lead & 1) and free_of(lg, broken)
                if not later_ok:
                    break
            hand = hands[s]
            others = [t for t in seats if t != s]
            mine = hand & lmask
            if mine:
                top = 1 << (mine.bit_length() - 1)
                c = top.bit_length() - 1
                if led_left >> (c + 1):
                    continue  # another seat still to play holds a higher card of the group led
                if wg == lg:
                    if strength[c] < strength[win]:
                        continue
                elif wg == tgroup:
                    continue  # already ruffed: the group led cannot win
                if (
                    lg != tgroup
                    and tmask
                    and any(not hands[t] & lmask and hands[t] & tmask for t in others)
                ):
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


def make_later_tricks(ctx: Context) -> Callable[[tuple[int, ...], int, bool, int, int], int]:
    """Whether the leader's side, needing every trick left, must lose one."""
    n = ctx.n
    is_max = ctx.is_max
    gmasks = ctx.gmasks
    lspecial = ctx.lspecial
    tmask = ctx.tmask
    history = ctx.history
    free_of = ctx.free_of
    plain = [g for g in range(len(gmasks)) if g != ctx.tgroup]

    def later_tricks(
        hands: tuple[int, ...], leader: int, broken: bool, left: int, union: int
    ) -> int:
        """-1 when the leader's side can take every one of the ``left``
        tricks as far as this test tells, else the cards (a bit set) whose
        rank the answer "it cannot" depends on (``union``: the cards left).

        After DDS's "later tricks".  Say the other side plays the top card
        of a plain group whenever the group is led and it holds that card.
        If the side takes every trick, it leads every trick, and each trick
        led in a plain group takes one card of the group from each of its
        hands holding the group: it leads a group at most as often as its
        longest hand there has cards.  A group whose top card the other
        side holds, it may lead only by ruffing that card (or the other
        side's next one), and each ruff, like each trick led in trumps,
        takes one of its trumps.  So it takes at most: the longest lengths
        of the plain groups whose top card it holds, plus its trumps, plus
        for as many of the other groups as it has trumps, the longest
        length less the ruff already counted.  When that falls short of
        ``left``, it loses a trick (a hand of the other side holding
        nothing but top cards of other groups, to be squeezed out of one,
        does not arise while the count falls short, as DDS has it, without
        trumps).  Needs following free in every plain group left
        (:meth:`~backalley.solver._plan.SearchPlan.free_follow`), no card special
        on the lead, and a play that does not read the history.  Relevant:
        the other side's top cards of the plain groups.
        """
        if history or union & lspecial:
            return -1
        side = is_max[leader]
        trumps = 0
        if union & tmask:
            for s in range(n):
                if is_max[s] == side:
                    trumps += (hands[s] & tmask).bit_count()
            if trumps >= left:
                return -1
        total = trumps
        theirs: list[int] = []
        rel = 0
        for g in plain:
            cards = union & gmasks[g]
            if not cards:
                continue
            if not free_of(g, broken):
                return -1
            top = 1 << (cards.bit_length() - 1)
            owner = 0
            while not hands[owner] & top:
                owner += 1
            longest = 0
            for s in range(n):
                if is_max[s] == side:
                    k = (hands[s] & cards).bit_count()
                    if k > longest:
                        longest = k
            if is_max[owner] == side:
                total += longest
                if total >= left:
                    return -1
            elif cards != top:
                rel |= top
                if trumps and longest > 1:
                    theirs.append(longest - 1)
        if theirs:
            theirs.sort(reverse=True)
            total += sum(theirs[:trumps])
            if total >= left:
                return -1
        return rel

    return later_tricks


def make_cash_after(
    ctx: Context,
) -> Callable[[tuple[int, ...], int, int, bool, int], tuple[int, int]]:
    """The tricks the winner of the current trick surely cashes next, when no
    other hand holds a trump."""
    n = ctx.n
    gmasks = ctx.gmasks
    legal_of = ctx.legal

    def cash_after(
        hands: tuple[int, ...], card: int, rem: int, broken: bool, enough: int
    ) -> tuple[int, int]:
        """(tricks, relevant cards): the tricks the seat holding ``card`` (a
        bit; it surely wins the current trick with it) cashes from the lead
        of the next trick, no other hand holding a trump (``rem``: the cards
        at the start of the trick; counting stops at ``enough``).

        With no trump in another hand, a card above every other card of its
        group left in the other hands wins the trick it is led to, and its
        seat keeps the lead (its own trumps are a group nobody else holds):
        the seat's cards above the others' in each group are tricks (their
        rank relevant), and so are all its cards of a group nobody else
        holds (by length).  The other seats' cards still to be played to
        this trick count against it, as if they kept them; the seat must be
        allowed to lead the highest of each group.
        """
        seat = 0
        while not hands[seat] & card:
            seat += 1
        hand = hands[seat] ^ card
        others = 0
        for s in range(n):
            if s != seat:
                others |= hands[s]
        # the cards played by the next trick's lead: at least this one and
        # the cards on the table (the play does not read the history here)
        after = (rem & ~(others | hands[seat])) | card
        leads = legal_of(hand, (), seat, broken, seat, (rem & ~after))
        total = 0
        rel = 0
        for gm in gmasks:
            mine = hand & gm
            if not mine or not leads >> (mine.bit_length() - 1) & 1:
                continue
            theirs = others & gm
            if not theirs:
                total += mine.bit_count()
            else:
                above = mine >> theirs.bit_length()
                if not above:
                    continue
                k = above.bit_count()
                total += k
                # the lowest card counted: the seat's k-th card from the top
                low = mine
                for _ in range(mine.bit_count() - k):
                    low &= low - 1
                rel |= low & -low
            if total >= enough:
                break
        return total, rel

    return cash_after
