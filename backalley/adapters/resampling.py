"""Positions a seat cannot tell from the true one: the cards it has not seen
dealt again (the OpenSpiel game's ``resample_from_infostate``).

:func:`resample` takes a :class:`~backalley.adapters.track.Track` and a seat
and returns a track with the same moves, and the same chance outcomes as far
as the seat saw them.  Within a deal the other seats' hands are drawn as the
sampling bots draw them (:func:`backalley.engine.lowlevel.sample_hands`: each
seat as many cards as it holds, from the cards it may still hold - the suits
it showed void in by failing to follow left out, the cards played and seen
left out), the deck order that deals them is asked of
:func:`backalley.engine.lowlevel.deck_for`, and the track is built at once:
that order dealt by the engine at the opening of the deal, and the deal's
moves applied to it - the deals before it, their chance outcomes and moves
are kept as they are, not dealt or replayed again.  No framework is
imported here.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Sequence

import attrs

from backalley.adapters.checks import is_whole
from backalley.adapters.track import Seen, Track, advance, deal, is_over, receivers
from backalley.engine import lowlevel
from backalley.engine.state import GameState
from backalley.errors import BackAlleyError, SetupError

__all__ = ["RESAMPLE_TRIES", "Uniform", "redealt", "resample"]


class Uniform:
    """Random draws from OpenSpiel's ``probability_sampler``: a callable that
    returns a float uniform in [0, 1) (``pyspiel.UniformProbabilitySampler``,
    ``random.Random(seed).random``).  ``randrange(n)`` is ``floor(u * n)``."""

    __slots__ = ("_sampler",)

    def __init__(self, sampler: Callable[[], float]) -> None:
        if not callable(sampler):
            raise SetupError(
                f"the probability sampler must be a callable returning a float in [0, 1), "
                f"not {sampler!r}"
            )
        self._sampler = sampler

    def randrange(self, stop: int, /) -> int:
        u = float(self._sampler())
        if not 0.0 <= u <= 1.0:
            raise SetupError(f"the probability sampler returned {u!r}, not a number in [0, 1)")
        return min(int(u * stop), stop - 1)


RESAMPLE_TRIES = 20
"""Draws of the hidden hands tried before :func:`resample` gives up (a draw
fails only when a rule's possible cards let through hands no deal gives)."""


def resample(track: Track, seat: int, rng: lowlevel.Draws) -> Track:
    """A track that ``seat`` cannot tell from ``track``: the same moves and
    the same chance outcomes as far as ``seat`` has seen them, the cards it
    has not seen drawn again with ``rng``.

    - In a deal's play or bidding, the other seats' hands are drawn as the
      ``montecarlo`` bot draws them (:func:`backalley.engine.lowlevel.sample_hands`:
      each seat as many cards as it holds, from the cards it may still hold),
      and the deal's chance outcomes become the deck order that deals them with
      the deal's turn-up and discards (:func:`backalley.engine.lowlevel.deck_for`):
      the track is the deal dealt from that order, its moves applied
      (:func:`redealt`).
    - While a deal is being dealt, every card drawn so far that did not go to
      ``seat`` is drawn again, uniformly among the cards ``seat`` does not hold.
    - Before the first dealer is drawn, and at the end, ``track`` itself.

    Finished deals are kept as they were: what ``seat`` never saw of them (the
    stock, the hands of a thrown-in deal) has no bearing on the rest of the
    game, each deal being dealt from a fresh deck.  Raises
    :class:`~backalley.SetupError` for a seat that is not one, and
    :class:`~backalley.BackAlleyError` when no deal fits what ``seat`` saw
    (possible cards a user's rule left unsound).
    """
    rules = track.rules
    if not is_whole(seat) and isinstance(seat, numbers.Integral) and not isinstance(seat, bool):
        seat = int(seat)  # a numpy integer
    if not is_whole(seat) or not 0 <= seat < rules.players:
        raise SetupError(f"player_id must be a seat 0..{rules.players - 1}, not {seat!r}")
    if track.first_dealer is None or is_over(track):
        return track
    if track.dealing:
        return _redraw(track, seat, rng)
    return _redeal(track, seat, rng)


def _redraw(track: Track, seat: int, rng: lowlevel.Draws) -> Track:
    """``track`` in the middle of a deal's chance nodes, the cards drawn so
    far that ``seat`` did not receive drawn again."""
    to = receivers(track)
    mine = {card for card, k in zip(track.drawn, to) if k == seat}
    pool = [card for card in track.deck if card not in mine]
    drawn = [
        card if k == seat else pool.pop(rng.randrange(len(pool)))
        for card, k in zip(track.drawn, to)
    ]
    begin = len(track.actions) - len(track.drawn)
    return _advance_all(attrs.evolve(track, actions=track.actions[:begin], drawn=()), drawn)


def _redeal(track: Track, seat: int, rng: lowlevel.Draws) -> Track:
    """``track`` within a deal, the other seats' hands drawn again and the
    deal dealt from them (:func:`redealt`)."""
    state = track.state
    assert state is not None
    view = state.view(seat)
    for _ in range(RESAMPLE_TRIES):
        hands = lowlevel.sample_hands(view, rng)
        if hands is None:
            break  # no cards fit the view: another draw cannot find any
        try:
            order, opening = lowlevel.deck_for(view, hands)
            # at the game's first deal the opening deck_for dealt is the game
            # the track would deal (a new game dealt from the order)
            first = opening if len(track.openings) == 1 else None
            return redealt(track, order, first)
        except BackAlleyError:
            continue  # cards that fit, but no deal of them (or a move refused on them)
    raise BackAlleyError(
        f"no deal of the hidden cards fits what seat {seat} has seen "
        "(a rule's possible cards are unsound?)"
    )


def redealt(track: Track, order: Sequence[int], dealt: GameState | None = None) -> Track:
    """``track`` (within a deal, not while it is dealt) with the current deal
    dealt from the deck ``order`` instead: the engine deals it at the deal's
    opening (:func:`backalley.adapters.track.deal`) and the deal's moves are
    applied to it, each checked; the chance outcomes become ``order`` (its
    last card follows without a node), the earlier deals' outcomes and moves
    stay as they are.  The same track as every action replayed from the start
    gives.  ``dealt`` is that deal at its opening when the caller has it
    already (for the game's first deal, the opening
    :func:`~backalley.engine.lowlevel.deck_for` returns with ``order``).
    Raises :class:`~backalley.IllegalMoveError` when a move of the deal is
    not legal with these cards."""
    state = track.state
    assert state is not None and not track.dealing
    opening, at = track.openings[-1]
    nodes = len(track.deck) - 1  # chance nodes per deal
    begin = (track.fixed_dealer is None) + (len(track.openings) - 1) * nodes + at
    first_dealer = track.first_dealer
    assert first_dealer is not None
    order = tuple(order)
    orders = (*track.orders[:-1], order)
    # the opening stands in for the state before the deal (the same dealer,
    # hand size and scores: the engine deals an order at either alike)
    if dealt is None:
        dealt = deal(
            track.rules, first_dealer, opening if len(track.openings) > 1 else None, orders
        )
    after = dealt
    for move in track.moves[at:]:
        after = after.apply(move)
    return attrs.evolve(
        track,
        actions=(*track.actions[:begin], *order[:-1], *track.actions[begin + nodes :]),
        orders=orders,
        state=after,
        openings=(*track.openings[:-1], (dealt, at)),
        current=Seen(dealt),
    )


def _advance_all(track: Track, actions: Sequence[int]) -> Track:
    for action in actions:
        track = advance(track, action)
    return track
