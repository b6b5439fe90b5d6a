"""The transposition table: positions at the start of a trick, by relative ranks.

A :class:`TranspositionTable` holds everything a search may remember between positions
and between calls: the entries of the transposition table and the memos of
pure facts (the rule set's answers - legal plays, trick winners - and
codes of holdings, classes of equivalent cards, sure trump tricks).  A
:class:`~backalley.solver.Solver` keeps one table per (rule set with its
deal context, trump, maximising side), so the leads of
one deal and the sampled layouts of one decision share what was learnt.

The entries (after Haglund's DDS, and Ginsberg's partition search):

- a *bucket* is the part of a position that is compared exactly: the
  leader, whether trump is broken, the number of cards of each group in
  each hand, and which cards special on the lead (or of a group whose plays
  read the history) remain;
- within a bucket, an entry applies to the positions whose groups have the
  same owners of their remaining cards, highest first, down to the lowest
  *relevant* card of each group (a card whose rank the answer depended on):
  relative ranks, so that positions differing only in low cards, or in
  cards played before, share an entry;
- an entry holds a lower and an upper bound on the side's tricks and the
  lead found best there (tried first when the position comes back).

The entries of a bucket are indexed by their mask of relevant cards, then by
the owners under it, so a lookup costs one probe per distinct mask; the
masks with the fewest relevant cards (the most general entries) come first.
An entry is one int (``lo | hi << 6 | (best + 1) << 12``), so that the
table holds no object the garbage collector must visit.  The table is
bounded: past ``max_entries`` entries it is emptied (DDS does the same).
"""

from __future__ import annotations

__all__ = ["MEMO_LIMIT", "Slot", "TranspositionTable", "holding", "kept", "store"]

MEMO_LIMIT = 1 << 19
"""The size at which a memo of pure facts is emptied."""

Slot = tuple[int, tuple[tuple[int, int], ...], dict[int, int]]
"""One mask of a bucket: (the mask over the bucket's owner code, for each
group (its mask, how many of its remaining cards are relevant), the entries
under it: owner code & mask -> packed entry)."""


class TranspositionTable:
    """What a search remembers: the transposition table and the memos."""

    __slots__ = (
        "buckets",
        "classes",
        "entries",
        "holdings",
        "legal",
        "max_entries",
        "mode",
        "summaries",
        "sure",
        "tops",
        "winners",
    )

    def __init__(self, max_entries: int = 1_000_000) -> None:
        self.max_entries = max_entries
        self.buckets: dict[object, tuple[list[Slot], dict[int, Slot]]] = {}
        """bucket -> (its slots, in order of the masks' sizes; mask -> slot)."""
        self.entries = 0
        self.holdings: dict[tuple[int, ...], tuple[int, int, int]] = {}
        self.tops: dict[tuple[int, int], int] = {}
        self.legal: dict[tuple[object, ...], int] = {}
        self.winners: dict[tuple[int, ...], int] = {}
        """The rule set's trick winner (a position in the trick) by full trick."""
        self.mode: object = None
        """The plan the entries were found with (whether it was standard):
        a search with another one empties the table first."""
        self.classes: dict[
            tuple[int, int], tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]
        ] = {}
        self.sure: dict[tuple[int, ...], tuple[list[int], list[int]]] = {}
        self.summaries: dict[
            tuple[int, int, int, int], tuple[int, int, int, int, int, tuple[int, int, int, int]]
        ] = {}

    def clear(self) -> None:
        """Forget everything (the entries and the memos)."""
        self.buckets.clear()
        self.entries = 0
        self.holdings.clear()
        self.tops.clear()
        self.legal.clear()
        self.winners.clear()
        self.classes.clear()
        self.sure.clear()
        self.summaries.clear()


def holding(
    memo: dict[tuple[int, ...], tuple[int, int, int]], parts: tuple[int, ...], bits: int
) -> tuple[int, int, int]:
    """One group's cards in the hands ``parts``: (the owners of its remaining
    cards, highest first, ``bits`` bits each; ``bits`` times how many remain;
    the number of cards of each hand, packed 6 bits each), remembered."""
    union = 0
    lengths = 0
    for part in parts:
        union |= part
        lengths = (lengths << 6) | part.bit_count()
    code = 0
    total = 0
    while union:
        top = 1 << (union.bit_length() - 1)
        union ^= top
        owner = 0
        while not parts[owner] & top:
            owner += 1
        code = (code << bits) | owner
        total += 1
    if len(memo) >= MEMO_LIMIT:
        memo.clear()
    answer = (code, bits * total, lengths)
    memo[parts] = answer
    return answer


def kept(memo: dict[tuple[int, int], int], union: int, keep: tuple[tuple[int, int], ...]) -> int:
    """The relevant cards of an entry, in a position (``union``: its remaining
    cards): for each (group mask, k) of ``keep``, the group's ``k`` highest
    remaining cards (remembered per holding)."""
    out = 0
    for gm, k in keep:
        rem = union & gm
        key = (rem, k)
        top = memo.get(key)
        if top is None:
            top = rem
            for _ in range(rem.bit_count() - k):
                top &= top - 1
            if len(memo) >= MEMO_LIMIT:
                memo.clear()
            memo[key] = top
        out |= top
    return out


def store(
    table: TranspositionTable,
    slots: list[Slot],
    masks: dict[int, Slot],
    full: int,
    union: int,
    gmasks: tuple[int, ...],
    hmask: int,
    bits: int,
    rel: int,
    reached: bool,
    target: int,
    left: int,
    best: int,
    fast: bool,
) -> None:
    """Record an answer in its bucket (``slots``, ``masks``).

    ``full``: the position's owner code; ``union``: its remaining cards;
    ``rel``: the answer's relevant cards; ``reached``: whether the side
    reached ``target`` of the ``left`` tricks; ``best``: the lead found
    best, as (group << 6 | how many of the leader's cards of that group lie
    above it), or -1.  The entry keeps, for each group, its cards from the
    lowest relevant one up (every card of a group whose plays read the
    history); without the fast techniques (``fast`` false) the bucket is
    the exact position and the mask is empty.
    """
    mask = 0
    keep: list[tuple[int, int]] = []
    if fast:
        for gm in gmasks:
            rem = union & gm
            total = rem.bit_count()
            r = rel & gm
            k = (rem & ~((r & -r) - 1)).bit_count() if r else 0
            if gm & hmask:
                k = total  # every owner of the group's cards counts
            if k:
                keep.append((gm, k))
            width = bits * total
            mask = (mask << width) | (((1 << (bits * k)) - 1) << (width - bits * k))
    value = full & mask
    slot = masks.get(mask)
    if slot is None:
        slot = (mask, tuple(keep), {})
        masks[mask] = slot
        # the slots stay in order of their masks' sizes
        size = mask.bit_count()
        i = len(slots)
        while i and slots[i - 1][0].bit_count() > size:
            i -= 1
        slots.insert(i, slot)
    entries = slot[2]
    e = entries.get(value)
    if e is not None:
        # the same class of positions: narrow its bounds
        lo, hi, hint = e & 63, e >> 6 & 63, e >> 12
        if reached:
            if target > lo:
                lo = target
        elif target - 1 < hi:
            hi = target - 1
        if best >= 0:
            hint = best + 1
        entries[value] = lo | hi << 6 | hint << 12
        return
    if table.entries >= table.max_entries:
        table.buckets.clear()
        table.entries = 0
    table.entries += 1
    if reached:
        entries[value] = target | left << 6 | (best + 1) << 12
    else:
        entries[value] = (target - 1) << 6 | (best + 1) << 12
