"""The observation tensor of many games at once, from a batch's arrays.

:func:`observe` gives, for one seat of every game of a
:class:`~backalley.batch.BatchGames`, the observation tensor of the research
adapters (:mod:`backalley.adapters.encoding`): the same numbers, entry for
entry, as ``encode(table_of_view(view))`` gives for the same position of the
one-game engine (the Gymnasium environments' tests compare them at every
step).  Needs NumPy only.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from backalley.adapters.encoding import DECK_SLOTS, Actions, observation_layout
from backalley.batch.engine import BIDDING, OVER, PLAYING, BatchGames
from backalley.errors import SetupError

__all__ = ["layout", "observe"]

F32 = np.ndarray[Any, np.dtype[np.float32]]
Ints = np.ndarray[Any, np.dtype[np.intp]]

_SHIFTS = np.arange(DECK_SLOTS, dtype=np.uint64)


def _unpack(bits: np.ndarray[Any, np.dtype[np.uint64]]) -> F32:
    """``(..., 54)``: the cards of bit sets (bit *i*: the card of index *i*) as 0/1 entries."""
    out: F32 = ((bits[..., None] >> _SHIFTS) & np.uint64(1)).astype(np.float32)
    return out


def layout(players: int, sides: int, actions: Actions) -> tuple[dict[str, int], int]:
    """Where each piece of the observation tensor begins (by name), and its length."""
    offsets: dict[str, int] = {}
    at = 0
    for name, size in observation_layout(players, sides, actions):
        offsets[name] = at
        at += size
    return offsets, at


def _call_slots(actions: Actions) -> Ints:
    """``(actions,)``: each call's slot among a seat's calls in the
    observation (pass, bids, board, counter, direct counters); -1 for the
    ids that are no call (cards, trump)."""
    out = np.full(actions.size, -1, dtype=np.intp)
    for action in range(actions.pass_id, actions.size):
        if not actions.trump_base <= action < actions.trump_base + 5:
            out[action] = actions.call_slot(actions.move_of(action))
    return out


# ------------------------------------------------------------- observations


def observe(games: BatchGames, seats: Sequence[int] | np.ndarray[Any, Any] | None = None) -> F32:
    """``(n, size)`` float32: the observation tensor of one seat of each game
    of ``games`` - the seat to act, or ``seats[i]`` for game ``i``.

    Entry for entry the numbers that
    ``encode(table_of_view(state.view(seat)), actions, row)``
    (:mod:`backalley.adapters.encoding`) writes for the same position of the
    one-game engine, in every phase (bidding, naming trump, playing, game
    over; a game over shows its last deal as the one-game engine does).
    Read from the batch's arrays for every game at once.

    A game that is over has no seat to act: without ``seats`` it raises
    :class:`~backalley.SetupError`, as do ``seats`` that are not one seat per game.
    """
    t = games.tables
    n, players, sides = games.n, t.players, t.sides
    actions = games.actions
    h = actions.max_bid
    at, size = layout(players, sides, actions)
    phase = games.phase
    over = phase == OVER
    to_act = games.to_act
    if seats is None:
        if over.any():
            first = int(np.flatnonzero(over)[0])
            raise SetupError(
                f"game {first} is over: it has no seat to act, so observe needs seats= "
                "(the seat of each game whose observation to make)"
            )
        seat = to_act
    else:
        seat = np.asarray(seats)
        if (
            seat.shape != (n,)
            or not np.issubdtype(seat.dtype, np.integer)
            or ((seat < 0) | (seat >= players)).any()
        ):
            raise SetupError(
                f"seats must be one seat (0..{players - 1}) per game ({n}), not {seats!r}"
            )
        seat = seat.astype(np.intp)
    out = np.zeros((n, size), dtype=np.float32)
    rows = np.arange(n)
    live = ~over
    playing = phase == PLAYING

    out[rows, at["seat"] + seat] = 1
    out[rows, at["phase"] + phase + 1] = 1  # the layout's phases begin with "dealing"
    out[rows[live], at["to_act"] + to_act[live]] = 1
    out[rows, at["dealer"] + games.dealer] = 1
    # a game over shows its last deal: its deal number has gone one past it
    hand_size = np.array(t.hand_sizes, dtype=np.intp)[np.minimum(games.deal, t.deals - 1)]
    sized = (hand_size >= 1) & (hand_size <= h)
    out[rows[sized], at["hand_size"] + hand_size[sized] - 1] = 1
    hands = games.hands
    out[:, at["hand"] : at["hand"] + DECK_SLOTS] = _unpack(hands[rows, seat])
    turn_up = games.turn_up
    turned = turn_up != DECK_SLOTS
    out[rows[turned], at["turn_up"] + turn_up[turned]] = 1
    out[:, at["discards"] : at["discards"] + DECK_SLOTS] = _unpack(games.discards)
    out[rows, at["trump"] + games.trump] = 1

    slots = _call_slots(actions)
    width = actions.call_slots
    calls = games.calls
    for q in range(players):
        call = calls[:, q]
        spoke = call >= 0
        out[rows[spoke], at["calls"] + q * width + slots[call[spoke]]] = 1

    decided = np.flatnonzero(phase != BIDDING)  # the outcome is this deal's from the naming on
    declarer = t.calls.declarer[games.outcome[decided]]
    named = declarer >= 0
    out[decided[named], at["declarer"] + declarer[named]] = 1

    leader = games.leader
    out[rows[playing], at["leader"] + leader[playing]] = 1
    in_trick = games.in_trick
    for q in range(players):
        # a seat's card of the trick in progress: it has played to it when
        # it is among the first in_trick seats from the leader
        card = games.trick_cards[:, q]
        mine = playing & ((q - leader) % players < in_trick) & (card >= 0)
        out[rows[mine], at["trick"] + q * DECK_SLOTS + card[mine]] = 1
    played = at["played"]
    out[:, played : played + players * DECK_SLOTS] = _unpack(games.seat_played).reshape(n, -1)

    won = at["tricks_won"]
    out[:, won : won + players] = games.tricks_won / h
    counts = np.where(over[:, None], 0, np.bitwise_count(hands))
    out[:, at["hand_counts"] : at["hand_counts"] + players] = counts / h
    out[:, at["trump_broken"]] = games.broken
    out[:, at["scores"] : at["scores"] + sides] = games.scores / 100
    out[:, at["deals_played"]] = games.deal / max(1, t.deals)
    return out
