"""A game in progress as one immutable value, as a framework that deals
through chance nodes of its own sees it (the OpenSpiel game's bookkeeping).

A :class:`Track` holds the chance outcomes and moves so far - the first
dealer (when a chance node draws it), every deal's deck order drawn one card
at a time, every call and card - and the engine state they lead to.  It asks
the engine for everything: a deck order is dealt by the kernel's dealing
(:func:`backalley.engine.lowlevel.deal_order`, or ``new_game(decks=...)`` for
the first deal), a move is the engine's checked ``apply``, and which seat a
card drawn goes to is the kernel's :func:`~backalley.engine.lowlevel.receiver`.

Nothing here imports a framework: :mod:`backalley.adapters.openspiel` wraps a
track in ``pyspiel`` states, and a track can be built and tested without
OpenSpiel installed::

    from backalley.adapters.track import advance, start
    track = start(rules, dealer=0)          # the first dealer fixed
    for card in order[:-1]:                 # every card but the last one drawn
        track = advance(track, card)        # (the last follows without a node)
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import attrs

from backalley.adapters.encoding import Actions, cards_text
from backalley.cards import CARDS
from backalley.engine import lowlevel
from backalley.engine.setup import new_game
from backalley.engine.state import GameState
from backalley.errors import SetupError
from backalley.io.serialize import from_json, to_json
from backalley.moves import Move
from backalley.rules import RuleSet

__all__ = [
    "Seen",
    "Track",
    "advance",
    "chance_outcomes",
    "current_seat",
    "deal_lines",
    "dealing",
    "is_over",
    "receivers",
    "start",
]


# ------------------------------------------------------------ the engine hook


def deal(
    rules: RuleSet,
    first_dealer: int,
    previous: GameState | None,
    orders: tuple[tuple[int, ...], ...],
) -> GameState:
    """The game once the newest deck order ``orders[-1]`` is dealt.

    ``previous`` is the state whose next deal waits for that order (``None``
    for the first deal; any state at the opening of the deal, or at the end of
    the deal before it, deals the same); ``orders`` holds every deal's order
    so far (thrown-in deals included).  This is the one place that deals a
    known order into a game: the first deal through ``new_game(decks=...)``,
    every later one through :func:`backalley.engine.lowlevel.deal_order` at
    the opening of the deal.
    """
    if previous is None:
        return new_game(rules, seed=0, dealer=first_dealer, decks=[[CARDS[i] for i in orders[0]]])
    return lowlevel.deal_order(previous, orders[-1])


def _deal_ended(before: GameState, after: GameState) -> bool:
    """Whether the move from ``before`` to ``after`` ended a deal, scored or
    thrown in (the kernel's count of the deals over went up)."""
    return lowlevel.deals_over(after) > lowlevel.deals_over(before)


# ------------------------------------------------------------------ the track


@attrs.frozen(slots=True)
class Seen:
    """A deal as the seats saw it: its state as dealt and its moves (none
    yet for the deal in progress).  Each seat's line (:meth:`line`) and the
    deal's facts that start it (:meth:`header`) are written when first asked
    for and kept with the deal, so a deal that ends costs nothing until
    someone reads it, and the deal in progress writes its facts once."""

    opening: GameState
    moves: tuple[Move, ...] = ()
    _lines: dict[tuple[int, bool], str] = attrs.field(
        factory=dict, init=False, eq=False, repr=False
    )

    def header(self, seat: int, private: bool) -> str:
        """The deal's facts as ``seat`` saw them: its hand as dealt (``?``
        when not ``private``), the turn-up, the discards."""
        key = (-1 - seat, private)
        text = self._lines.get(key)
        if text is None:
            view = self.opening.view(seat)
            hand = cards_text(view.hand) if private else "?"
            turn = "-" if view.turn_up is None else str(view.turn_up)
            text = self._lines[key] = (
                f"deal {view.deals_played + 1}: dealer {view.dealer}, {view.hand_size} cards, "
                f"hand {hand}, turn-up {turn}, discards {cards_text(view.discards)}; "
            )
        return text

    def line(self, seat: int, private: bool, moves: Sequence[Move] | None = None) -> str:
        """The deal as ``seat`` saw it: :meth:`header`, then every move (the
        deal's own, or ``moves`` for a deal in progress)."""
        if moves is not None:
            return self.header(seat, private) + (" ".join(map(str, moves)) or "-")
        key = (seat, private)
        text = self._lines.get(key)
        if text is None:
            text = self._lines[key] = self.line(seat, private, self.moves)
        return text


@attrs.frozen(slots=True)
class Track:
    """A game in progress as one immutable value: the chance outcomes and moves
    so far, and the engine state they lead to.  States share it when cloned
    (``copy.deepcopy`` returns it as is) and pickle it as its action list."""

    rules: RuleSet
    fixed_dealer: int | None
    actions: tuple[int, ...] = ()
    first_dealer: int | None = None
    orders: tuple[tuple[int, ...], ...] = ()
    drawn: tuple[int, ...] = ()
    moves: tuple[Move, ...] = ()
    state: GameState | None = None
    dealing: bool = True
    openings: tuple[tuple[GameState, int], ...] = ()
    """Each deal's state as dealt, with the number of moves made before it."""
    recalled: tuple[Seen, ...] = ()
    """Each finished deal as the seats saw it."""
    current: Seen | None = attrs.field(default=None, kw_only=True, eq=False, repr=False)
    """The deal in progress as the seats see it (its facts written once)."""
    deck: tuple[int, ...] = attrs.field(kw_only=True, eq=False, repr=False)
    """The rule set's deck (card indices) and action ids, looked up once per
    game (hashing a rule set for a cache look-up on every action costs more
    than the action)."""
    codes: Actions = attrs.field(kw_only=True, eq=False, repr=False)

    def __deepcopy__(self, memo: dict[int, Any]) -> Track:
        return self

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return (_restore, (to_json(self.rules), self.fixed_dealer, list(self.actions)))


def _restore(rules_json: str, fixed_dealer: int | None, actions: list[int]) -> Track:
    track = start(from_json(rules_json, RuleSet), fixed_dealer)
    for action in actions:
        track = advance(track, action)
    return track


def start(rules: RuleSet, dealer: int | None) -> Track:
    """The track of a new game (``dealer`` fixed, or ``None`` for a chance node)."""
    return Track(
        rules=rules,
        fixed_dealer=dealer,
        first_dealer=dealer,
        deck=_deck(rules),
        codes=_actions(rules),
    )


@functools.lru_cache(maxsize=32)
def _deck(rules: RuleSet) -> tuple[int, ...]:
    return tuple(c.index for c in rules.deck.cards)


@functools.lru_cache(maxsize=32)
def _actions(rules: RuleSet) -> Actions:
    return Actions.for_rules(rules)


def chance_outcomes(track: Track) -> list[tuple[int, float]]:
    """The outcomes of the chance node at ``track`` and their probabilities."""
    if track.first_dealer is None:
        n = track.rules.players
        return [(seat, 1.0 / n) for seat in range(n)]
    drawn = set(track.drawn)
    left = [c for c in track.deck if c not in drawn]
    return [(c, 1.0 / len(left)) for c in left]


def advance(track: Track, action: int) -> Track:
    """The track after ``action`` (a chance outcome or a move id).

    Raises :class:`~backalley.IllegalMoveError` (or
    :class:`~backalley.NotationError`) for an action that is not legal here,
    :class:`~backalley.SetupError` for a chance outcome that is not one.
    """
    actions = (*track.actions, action)
    if track.first_dealer is None:
        if not 0 <= action < track.rules.players:
            raise SetupError(
                f"the first dealer is a seat 0..{track.rules.players - 1}, not {action}"
            )
        return attrs.evolve(track, actions=actions, first_dealer=action)
    if track.dealing:
        deck = track.deck
        if action not in deck or action in track.drawn:
            raise SetupError(f"{CARDS[action] if 0 <= action < 54 else action} cannot be drawn now")
        drawn = (*track.drawn, action)
        if len(drawn) == len(deck) - 1:
            drawn = (*drawn, *(c for c in deck if c not in drawn))
        if len(drawn) < len(deck):
            return attrs.evolve(track, actions=actions, drawn=drawn)
        orders = (*track.orders, drawn)
        state = deal(track.rules, track.first_dealer, track.state, orders)
        return attrs.evolve(
            track,
            actions=actions,
            orders=orders,
            drawn=(),
            state=state,
            dealing=False,
            openings=(*track.openings, (state, len(track.moves))),
            current=Seen(state),
        )
    before = track.state
    assert before is not None
    move = track.codes.move_of(action)
    after = before.apply(move)
    moves = (*track.moves, move)
    recalled = track.recalled
    ended = _deal_ended(before, after)
    if after.is_over or ended:
        opening, at = track.openings[-1]
        recalled = (*recalled, Seen(opening, moves[at:]))
    # built field by field: the step of every move of a search's playouts
    # (attrs.evolve looks the fields up again each time)
    return Track(
        track.rules,
        track.fixed_dealer,
        actions,
        track.first_dealer,
        track.orders,
        track.drawn,
        moves,
        after,
        not after.is_over and ended,
        track.openings,
        recalled,
        current=track.current,
        deck=track.deck,
        codes=track.codes,
    )


def current_seat(track: Track) -> int | None:
    """The seat to act, or ``None`` at a chance node or the end."""
    if track.dealing or track.state is None:
        return None
    return track.state.to_act


def is_over(track: Track) -> bool:
    """Whether the game at ``track`` is over."""
    return track.state is not None and not track.dealing and track.state.is_over


def receivers(track: Track) -> tuple[int | None, ...]:
    """While a deal is being dealt: the seat each card drawn so far goes to
    (``None`` for a card of the stock), as the engine deals the order - one
    card at a time, clockwise from the dealer's left."""
    n = track.rules.players
    dealer, hand_size = dealing(track)
    if dealer is None:
        return ()
    return tuple(lowlevel.receiver(k, dealer, n, hand_size) for k in range(len(track.drawn)))


def dealing(track: Track) -> tuple[int | None, int]:
    """The dealer and hand size of the deal being dealt (or the next one)."""
    previous = track.state
    if previous is None:
        return track.first_dealer, track.rules.schedule.hand_sizes[0]
    # the engine has moved on to the next deal's dealer and hand size
    return previous.dealer, previous.hand_size


def deal_lines(track: Track, seat: int, *, private: bool = True) -> list[str]:
    """Every deal so far as ``seat`` saw it, one line each (see
    :meth:`Seen.line`): the finished deals, then the deal in progress."""
    lines = [seen.line(seat, private) for seen in track.recalled]
    if len(track.openings) > len(track.recalled):
        opening, at = track.openings[-1]
        current = track.current
        if current is None or current.opening is not opening:
            current = Seen(opening)
        lines.append(current.line(seat, private, track.moves[at:]))
    return lines
