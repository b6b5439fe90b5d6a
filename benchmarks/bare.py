"""The reference loops the library's performance targets are ratios of.

- The *bare loop* (``bare_game``, ``bare_games_per_s``) is the reference
  measurement the project's throughput targets were first stated against,
  kept here unchanged in behaviour: one 25-deal Back Alley-sized game (hand
  sizes 13..1..13; each deal a ``random.shuffle`` of a 52-card deck, 4 random
  bids that are drawn and thrown away, and a trick per card of a hand, of
  random plays that follow suit, spades trump, the winner leading the next;
  mutable lists, no validation, no scoring, no record), timed with
  ``time.perf_counter`` for a fixed number of seconds, whole games only.  It
  is what "the same game with no rules engine at all" costs in pure Python.
  Do not optimise it or change what it does: it is the floor, and the ratio
  ``bare games/s / library games/s`` is only meaningful against this exact
  loop.
- The *OpenSpiel* measurements (``openspiel_*``) time ``oh_hell`` (4 players,
  12 tricks; C++ through the ``pyspiel`` binding).  The playout loop is the
  reference measurement's: from ``new_initial_state()`` to the end, each
  chance outcome drawn in Python with ``randrange`` over ``chance_outcomes()``,
  each player action with ``random.choice`` of ``legal_actions()``, only
  player actions counted as decisions.  The serialize+deserialize and
  information-state measurements are this suite's own.  Every function
  returns ``None`` when ``pyspiel`` is not importable (``pip install
  open-spiel``; it is *not* a dependency of the project).

Measure the library in the same run (same process, alternating runs) and quote
ratios: absolute figures drift from run to run on shared machines.
"""

from __future__ import annotations

import random
import time
import timeit
from collections.abc import Callable
from typing import Any

# --------------------------------------------------------------------------
# The bare loop: the reference measurement, unchanged in behaviour (keep it so).
# --------------------------------------------------------------------------

# fmt: off
HAND_SIZES = tuple(list(range(13, 0, -1)) + list(range(2, 14)))
SUIT = tuple(c // 13 for c in range(52))
TRUMP = 3
DECISIONS_PER_GAME = 4 * len(HAND_SIZES) + 4 * sum(HAND_SIZES)  # 824


def bare_game(rng: random.Random) -> None:
    deck = list(range(52))
    choice, randrange = rng.choice, rng.randrange
    for h in HAND_SIZES:
        rng.shuffle(deck)
        hands = [deck[0:h], deck[h:2 * h], deck[2 * h:3 * h], deck[3 * h:4 * h]]
        bids = [randrange(h + 1) for _ in range(4)]
        tricks = [0, 0, 0, 0]
        leader = 0
        for _ in range(h):
            hand = hands[leader]
            best = choice(hand)
            hand.remove(best)
            led, winner, p = SUIT[best], leader, leader
            for _k in range(3):
                p = (p + 1) % 4
                hand = hands[p]
                follow = [c for c in hand if SUIT[c] == led]
                card = choice(follow) if follow else choice(hand)
                hand.remove(card)
                if SUIT[card] == SUIT[best]:
                    if card > best:
                        best, winner = card, p
                elif SUIT[card] == TRUMP:
                    best, winner = card, p
            tricks[winner] += 1
            leader = winner
        del bids


def bare_games_per_s(seconds: float) -> float:
    rng, n, t0 = random.Random(1), 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        bare_game(rng)
        n += 1
    return n / (time.perf_counter() - t0)
# fmt: on


def bare_games_per_s_clock(seconds: float, clock: Callable[[], float] = time.perf_counter) -> float:
    """``bare_games_per_s`` with a choice of clock (``time.process_time`` counts
    only this process's CPU time, which is steadier on a busy machine).  With
    the default clock it is ``bare_games_per_s`` exactly."""
    rng, n, t0 = random.Random(1), 0, clock()
    while clock() - t0 < seconds:
        bare_game(rng)
        n += 1
    return n / (clock() - t0)


# --------------------------------------------------------------------------
# OpenSpiel oh_hell (skipped gracefully without pyspiel).
# --------------------------------------------------------------------------

OPENSPIEL_GAME = "oh_hell"
OPENSPIEL_PARAMS = {"players": 4, "num_tricks_fixed": 12}


def _pyspiel() -> Any:
    try:
        import pyspiel
    except ImportError:
        return None
    return pyspiel


def have_openspiel() -> bool:
    """Whether ``pyspiel`` is importable."""
    return _pyspiel() is not None


def openspiel_version() -> str | None:
    """The installed ``open_spiel`` distribution's version, if any."""
    if not have_openspiel():
        return None
    try:
        from importlib.metadata import version

        return version("open_spiel")
    except Exception:  # pragma: no cover - metadata missing
        return "unknown"


def openspiel_game() -> Any:
    """The ``oh_hell`` game object (``None`` without pyspiel)."""
    pyspiel = _pyspiel()
    if pyspiel is None:
        return None
    return pyspiel.load_game(OPENSPIEL_GAME, dict(OPENSPIEL_PARAMS))


def openspiel_decisions_per_s(
    seconds: float, clock: Callable[[], float] = time.perf_counter
) -> float | None:
    """Random playouts of oh_hell, chance handled in Python (as in the reference measurement):
    player decisions per second (chance outcomes are not counted as decisions)."""
    game = openspiel_game()
    if game is None:
        return None
    rng, n, t0 = random.Random(1), 0, clock()
    while clock() - t0 < seconds:
        st = game.new_initial_state()
        while not st.is_terminal():
            if st.is_chance_node():
                outs = st.chance_outcomes()
                st.apply_action(outs[rng.randrange(len(outs))][0])
            else:
                st.apply_action(rng.choice(st.legal_actions()))
                n += 1
    return n / (clock() - t0)


def openspiel_decisions_per_game() -> int | None:
    """Player decisions in one oh_hell game with these parameters (bids + plays)."""
    game = openspiel_game()
    if game is None:
        return None
    rng, st, n = random.Random(1), game.new_initial_state(), 0
    while not st.is_terminal():
        if st.is_chance_node():
            outs = st.chance_outcomes()
            st.apply_action(outs[rng.randrange(len(outs))][0])
        else:
            st.apply_action(rng.choice(st.legal_actions()))
            n += 1
    return n


def openspiel_midgame_state(seed: int = 1) -> Any:
    """An oh_hell state halfway through its player decisions (mid-play of the deal)."""
    game = openspiel_game()
    if game is None:
        return None
    total = openspiel_decisions_per_game()
    assert total is not None
    rng, st, n = random.Random(seed), game.new_initial_state(), 0
    while not st.is_terminal() and n < total // 2:
        if st.is_chance_node():
            outs = st.chance_outcomes()
            st.apply_action(outs[rng.randrange(len(outs))][0])
        else:
            st.apply_action(rng.choice(st.legal_actions()))
            n += 1
    return st


def openspiel_serde_timers(
    seconds: float, clock: Callable[[], float] = time.perf_counter
) -> dict[str, float] | None:
    """Seconds per call of ``state.serialize()``, ``game.deserialize_state(text)``
    and of the two together, for a mid-game oh_hell state (``None`` without pyspiel)."""
    game = openspiel_game()
    if game is None:
        return None
    st = openspiel_midgame_state()
    text = st.serialize()
    back = game.deserialize_state(text)
    assert back.serialize() == text and str(back) == str(st)
    share = seconds / 3
    ns = {"st": st, "game": game, "text": text}
    return {
        "serialize": per_call("st.serialize()", share, ns, clock),
        "deserialize": per_call("game.deserialize_state(text)", share, ns, clock),
        "roundtrip": per_call("game.deserialize_state(st.serialize())", share, ns, clock),
    }


def openspiel_information_state_timer(
    seconds: float, clock: Callable[[], float] = time.perf_counter
) -> float | None:
    """Seconds per ``state.information_state_string(player)`` of the player to
    act in a mid-game oh_hell state (what the library's ``view(seat)`` is
    compared with); ``None`` without pyspiel."""
    st = openspiel_midgame_state()
    if st is None:
        return None
    return per_call(
        "st.information_state_string(p)", seconds, {"st": st, "p": st.current_player()}, clock
    )


# --------------------------------------------------------------------------
# A small timer shared with run.py.
# --------------------------------------------------------------------------


def per_call(
    stmt: Any,
    seconds: float,
    namespace: dict[str, Any] | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> float:
    """Seconds per execution of ``stmt`` (a callable, or statement text run with
    ``namespace`` as globals, which avoids a function call's overhead), run for
    about ``seconds`` in batches of doubling size.  Garbage collection stays
    enabled, as in real use (``timeit`` turns it off by default)."""
    timer = timeit.Timer(stmt, setup="import gc; gc.enable()", timer=clock, globals=namespace)
    total_t, total_n, batch = 0.0, 0, 1
    while total_t < seconds:
        dt = timer.timeit(batch)
        total_t += dt
        total_n += batch
        if dt < seconds / 20:
            batch *= 2
    return total_t / total_n
