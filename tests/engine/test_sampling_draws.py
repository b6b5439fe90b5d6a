"""The engine's draw of the hidden hands (backalley.engine.lowlevel.sample_hands):
the same hands from the same draws as the plain rejection draw it replaces
(Hall's condition checked afresh after every card), on positions of several
rule sets and with possible cards narrowed until few layouts are left; every
draw fits the view."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

import backalley as ba
from backalley.engine import lowlevel
from backalley.engine.lowlevel import _sampling as sampling
from backalley.engine.views import PlayerView

from ..helpers import short


def _fits(need: dict[int, int], possible: dict[int, int], avail: int) -> bool:
    seats = [s for s in need if need[s]]
    for group in range(1, 1 << len(seats)):
        pool = 0
        wanted = 0
        for k, seat in enumerate(seats):
            if group >> k & 1:
                pool |= possible[seat]
                wanted += need[seat]
        if (pool & avail).bit_count() < wanted:
            return False
    return True


Possible = Callable[[PlayerView, int], int]


def reference(view: PlayerView, rng: random.Random, possible: Possible) -> list[int] | None:
    """The plain draw: a card kept when Hall's condition holds after it."""
    rules = view.rules
    n = rules.players
    me = view.seat
    counts = view.hand_counts
    unseen = rules.plan.deck_mask & ~sampling._seen_bits(view)
    cards = {s: possible(view, s) & unseen for s in range(n) if s != me and counts[s]}
    need = {s: counts[s] for s in cards}
    avail = unseen
    if not _fits(need, cards, avail):
        return None
    hands = [0] * n
    hands[me] = lowlevel.hand_bits(view, me)
    for seat in sorted(cards, key=lambda s: (cards[s] & avail).bit_count() - need[s]):
        while need[seat]:
            pool = sampling._bits(cards[seat] & avail)
            while True:
                card = pool.pop(rng.randrange(len(pool)))
                need[seat] -= 1
                if _fits(need, cards, avail & ~(1 << card)):
                    break
                need[seat] += 1
            hands[seat] |= 1 << card
            avail &= ~(1 << card)
    return hands


def views(rules: ba.RuleSet, seed: int) -> list[tuple[ba.GameState, PlayerView]]:
    """Every seat's view at every decision of a random game."""
    rng = random.Random(seed)
    state = ba.new_game(rules, seed=seed)
    out: list[tuple[ba.GameState, PlayerView]] = []
    while not state.is_over:
        out.extend((state, state.view(seat)) for seat in range(rules.players))
        state = state.apply(rng.choice(state.legal_moves()))
    return out


@pytest.mark.parametrize(
    "rules",
    [
        short(ba.variants.GAMERULES, 7),
        short(ba.variants.VIETNAM, 6),
        short(ba.variants.get("cutthroat-3"), 6),
        short(ba.variants.get("bab-online"), 4),
    ],
    ids=["gamerules", "vietnam", "cutthroat-3", "bab-online"],
)
def test_the_draw_gives_the_plain_draws_hands_and_every_hand_fits(rules: ba.RuleSet) -> None:
    checked = 0
    for k, (state, view) in enumerate(views(rules, 11)[::3]):
        # narrowed possible cards: the true hand, half the other seats' cards
        # and a few more, so that Hall's condition binds and cards are refused
        extra = random.Random(k)
        held = [lowlevel.hand_bits(state, seat) for seat in range(rules.players)]
        narrowed = {}
        for seat in range(rules.players):
            theirs = sum(held) & ~held[seat]
            spare = lowlevel.possible_bits(view, seat) & ~held[seat]
            narrowed[seat] = held[seat] | sum(
                1 << c
                for c in sampling._bits(spare)
                if extra.random() < (0.5 if theirs >> c & 1 else 0.05)
            )

        def narrow(_view: PlayerView, seat: int, masks: dict[int, int] = narrowed) -> int:
            return masks[seat]

        for possible in (lowlevel.possible_bits, narrow):
            for seed in range(3):
                got = lowlevel.sample_hands(view, random.Random(seed), possible=possible)
                assert got == reference(view, random.Random(seed), possible)
                assert got is not None
                dealt = 0
                for seat in range(rules.players):
                    assert got[seat].bit_count() == view.hand_counts[seat]
                    assert not got[seat] & dealt  # no card twice
                    dealt |= got[seat]
                    if seat != view.seat:
                        assert not got[seat] & ~possible(view, seat)
                checked += 1
    assert checked > 100


def test_no_draw_when_no_hands_fit() -> None:
    state = ba.new_game(short(ba.variants.GAMERULES, 5), seed=3)
    view = state.view(0)
    assert lowlevel.sample_hands(view, random.Random(0), possible=lambda v, s: 0) is None
