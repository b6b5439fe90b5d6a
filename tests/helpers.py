"""Helpers for building exact positions and driving games in tests.

The deck-order helper follows the dealing procedure: with dealer ``d`` and hand size
``h``, card ``k`` of the order (``k < 4*h``) goes to seat ``(d + 1 + k) % 4``;
the remainder is the stock, whose first card is the turn-up.
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterable, Sequence
from typing import Any

import attrs
import pytest

import backalley as ba
from backalley import lowlevel
from backalley.cards import CARDS

Hand = str | Iterable[str | ba.Card]


def cards(text: Hand) -> list[ba.Card]:
    """``"AH 3C"`` (or an iterable of card texts / cards) as a list of cards."""
    if isinstance(text, str):
        return [ba.parse_card(t) for t in text.split()]
    return [ba.parse_card(t) for t in text]


def deck_order(
    hands: Sequence[Hand],
    turn_up: str | ba.Card | None = None,
    *,
    dealer: int = 0,
    hand_size: int | None = None,
    stock: Hand = (),
    deck: ba.rules.Deck | None = None,
) -> list[str]:
    """A deck order (card texts) that deals ``hands[seat]`` to each seat.

    ``turn_up`` is the first stock card, ``stock`` the cards right after it;
    the rest of the deck follows in card-index order.  When ``hand_size`` is
    given, hands may be shorter: they are filled, seat by seat, with the
    lowest unused plain cards, never jokers and never of the turn-up's suit
    (so filler cards never change who holds a trump).
    """
    wanted = [cards(h) for h in hands]
    assert len(wanted) == 4, "four hands, one per seat"
    mask = int((deck if deck is not None else ba.rules.Deck()).cards)
    pool = [c for c in CARDS if mask >> c.index & 1]
    top = [ba.parse_card(turn_up)] if turn_up is not None else []
    after = top + cards(stock)
    used = [c for h in wanted for c in h] + after
    assert len(set(used)) == len(used), f"a card is wanted twice: {used}"
    for c in used:
        assert c in pool, f"{c} is not in the deck"
    h = hand_size if hand_size is not None else len(wanted[0])
    if any(len(w) != h for w in wanted):
        assert hand_size is not None, "hands of different sizes need hand_size="
        avoid = {c.suit for c in top if not c.is_joker}
        spare = [c for c in pool if c not in used and not c.is_joker and c.suit not in avoid]
        for w in wanted:
            assert len(w) <= h
            while len(w) < h:
                w.append(spare.pop(0))
    order: list[ba.Card] = []
    for k in range(4 * h):
        seat = (dealer + 1 + k) % 4
        order.append(wanted[seat][k // 4])
    order += after
    order += [c for c in pool if c not in order]
    assert len(order) == len(pool)
    return [str(c) for c in order]


def short(rules: ba.RuleSet, *sizes: int) -> ba.RuleSet:
    """``rules`` with the schedule ``sizes`` (a short game)."""
    return rules.replace(schedule=ba.rules.Schedule(tuple(sizes)))


def position(
    hands: Sequence[Hand],
    turn_up: str | None = None,
    *,
    rules: ba.RuleSet | None = None,
    dealer: int = 0,
    hand_size: int | None = None,
    stock: Hand = (),
    more_decks: Sequence[Sequence[str]] = (),
    seed: int = 0,
) -> ba.GameState:
    """A new game whose first deal gives exactly ``hands`` (see :func:`deck_order`).

    By default the rules are gamerules with a one-deal schedule of the hand size.
    """
    h = hand_size if hand_size is not None else len(cards(hands[0]))
    if rules is None:
        rules = short(ba.variants.GAMERULES, h)
    deck = deck_order(
        hands, turn_up, dealer=dealer, hand_size=hand_size, stock=stock, deck=rules.deck
    )
    return ba.new_game(rules, dealer=dealer, decks=[deck, *more_decks], seed=seed)


def apply_all(state: ba.GameState, moves: Iterable[str | ba.Move]) -> ba.GameState:
    """Apply moves given as text (or Move values), in order."""
    for m in moves:
        state = state.apply(ba.parse_move(m) if isinstance(m, str) else m)
    return state


def bid_round(state: ba.GameState, bids: dict[int, str]) -> ba.GameState:
    """Make each seat's call (``{seat: "bid 3"}``) in the order the seats are to act."""
    assert state.phase is ba.Phase.BIDDING
    for _ in range(len(bids)):
        seat = state.to_act
        assert seat in bids, f"seat {seat} is to act but has no call in {bids}"
        state = state.apply(ba.parse_move(bids[seat]))
    return state


def team_tricks(state: ba.GameState) -> tuple[int, ...]:
    return tuple(sum(state.tricks_won[s] for s in team) for team in state.rules.teams)


class SearchBudgetExceeded(Exception):
    """:func:`play_to_tricks` gave up."""


def play_to_tricks(
    state: ba.GameState, target: Sequence[int], *, tries: int = 5000, seed: int = 0
) -> ba.GameState:
    """Play the current deal out so that side ``i`` takes exactly ``target[i]``
    tricks: seeded random playouts of legal moves, each abandoned as soon as a
    side has more tricks than its target (deterministic for a given ``seed``).

    Returns the state right after the deal's last card (the next deal, or the
    game over); raises :class:`SearchBudgetExceeded` after ``tries`` playouts.
    """
    assert state.phase is ba.Phase.PLAYING
    deals = state.deals_played
    target = tuple(target)
    rng = random.Random(seed)
    for _ in range(tries):
        s = state
        while s.deals_played == deals and not s.is_over:
            if any(w > t for w, t in zip(team_tricks(s), target)):
                break
            s = s.apply(rng.choice(s.legal_moves()))
        else:
            if s.deal_results[deals].tricks == target:
                return s
    raise SearchBudgetExceeded(f"no playout gave tricks {target}")


def bot_move(state: ba.GameState, bots: Sequence[Any]) -> ba.GameState:
    """The state after the seat to act's bot moves from its view; the move
    must be one of the view's legal moves."""
    seat = state.to_act
    assert seat is not None
    view = state.view(seat)
    move = bots[seat].choose(view)
    assert move in view.legal_moves()
    return state.apply(move)


def random_move(state: ba.GameState, rng: random.Random) -> ba.Move:
    return rng.choice(state.legal_moves())


def play_random_game(
    rules: ba.RuleSet, seed: int, *, move_seed: int | None = None
) -> tuple[ba.GameState, list[ba.Move]]:
    """A whole game with uniformly random legal moves; the final state and the moves."""
    rng = random.Random(seed if move_seed is None else move_seed)
    state = ba.new_game(rules, seed=seed)
    moves: list[ba.Move] = []
    while not state.is_over:
        move = rng.choice(state.legal_moves())
        moves.append(move)
        state = state.apply(move)
    return state, moves


# --------------------------------------------------------------- invariants


def state_fields(state: ba.GameState) -> tuple[object, ...]:
    """Every field of a state except the legal-moves cache (for "unchanged" checks)."""
    return tuple(getattr(state, f.name) for f in attrs.fields(type(state)) if f.name != "_legal")


def check_conservation(state: ba.GameState) -> None:
    """Hands + cards played this deal + stock + turn-up + discards == the deck,
    with no card in two places."""
    n = state.players
    parts = [
        *(lowlevel.hand_bits(state, s) for s in range(n)),
        lowlevel.played_bits(state),
        lowlevel.discard_bits(state),
    ]
    for i in lowlevel.stock_order(state):
        parts.append(1 << i)
    if lowlevel.turn_up_index(state) is not None:
        parts.append(1 << lowlevel.turn_up_index(state))  # type: ignore[operator]
    total = 0
    for p in parts:
        assert total & p == 0, f"a card is in two places: {state!r}"
        total |= p
    assert total == int((state.rules.deck).cards), "cards were lost or made up"


def deck_for(
    rules: ba.RuleSet, hands: Sequence[str], stock: str = "", dealer: int = 0
) -> list[str]:
    """A deck order dealing exactly ``hands[seat]`` to each seat of any number of
    players (card ``k`` to seat ``(dealer + 1 + k) % players``), then ``stock``
    top first, then the rest of the rule set's deck in card order."""
    n = rules.players
    assert len(hands) == n
    dealt = [ba.parse_cards(h) for h in hands]
    size = len(dealt[0])
    assert all(len(h) == size for h in dealt), [len(h) for h in dealt]
    order = [dealt[(dealer + 1 + k) % n][k // n] for k in range(n * size)]
    order += ba.parse_cards(stock) if stock else []
    mask = int((rules.deck).cards)
    assert len(set(order)) == len(order), "a card is used twice"
    assert all(mask >> c.index & 1 for c in order), "a card is not in the deck"
    order += [c for c in CARDS if mask >> c.index & 1 and c not in order]
    return [str(c) for c in order]


def calls(state: ba.GameState, *texts: str) -> ba.GameState:
    """Apply the moves ``texts`` in order (see :func:`apply_all`)."""
    return apply_all(state, texts)


def refused(state: ba.GameState, move: str | ba.Move) -> ba.Reason:
    """The reason ``move`` is refused (asserting that it is, by ``is_legal`` and ``apply``)."""
    move = ba.parse_move(move) if isinstance(move, str) else move
    assert not state.is_legal(move)
    with pytest.raises(ba.IllegalMoveError) as info:
        state.apply(move)
    return info.value.reason


def swapped_tricks_points(rules: Any, result: Any) -> tuple[list[int], list[int]] | None:
    """The first two sides' tricks of ``result`` swapped, and the points the
    scoring part gives for them (no hand-dependent bonus): a deal result the
    rules could have produced, though the game's moves did not (``None`` when
    the swap changes nothing)."""
    tricks = (result.tricks[1], result.tricks[0], *result.tricks[2:])
    if tricks == result.tricks:
        return None
    ctx = rules.plan.deal_context(
        result.number - 1,
        result.dealer,
        result.hand_size,
        ba.values.BiddingOutcome(result.contracts, declarer=result.declarer),
        4 if result.trump is None else result.trump.index,
    )
    return list(tricks), list(rules.scoring.score(ctx, tricks, (0,) * rules.players))


FUZZ_SCALE = max(1, int(os.environ.get("BACKALLEY_FUZZ_SCALE", "1") or 1))
"""How many times more examples the fuzz tests run: 1 in CI; a release runs
``BACKALLEY_FUZZ_SCALE=100 python -m pytest -q -k fuzz`` (see the integration guide)."""


QUICK = bool(os.environ.get("BACKALLEY_QUICK"))
"""Whether this is the contributor's quick loop (``nox -s quick`` sets
``BACKALLEY_QUICK=1``; ``conftest.py`` loads its Hypothesis profile)."""


def examples(n: int) -> int:
    """``n`` Hypothesis examples for a test that sets its own count: a tenth
    of them (at least 5) in the quick loop, all of them in the full run."""
    return max(5, n // 10) if QUICK else n


def fuzz_examples(n: int) -> int:
    """``n`` hypothesis examples, times :data:`FUZZ_SCALE` (a tenth in the quick loop)."""
    return examples(n) * FUZZ_SCALE
