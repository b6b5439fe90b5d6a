"""Back Alley as an OpenSpiel game (the ``backalley[openspiel]`` extra).

``load_game("gamerules")`` returns a ``pyspiel`` game written with OpenSpiel's
Python game API, registered as ``python_backalley``, so OpenSpiel's
algorithms and tests run on it::

    from backalley.adapters.openspiel import load_game
    game = load_game("vietnam")
    state = game.new_initial_state()     # a chance node: the first dealer

- **Chance** is explicit: the first dealer is a chance node (uniform over the
  seats) unless ``dealer=`` is given; every deal - thrown-in deals included -
  is dealt from a deck order drawn one card per chance node, each uniform over
  the cards not yet drawn (the last card follows without a node).  The deck
  order is dealt as the rules say (one card at a time from the left of the
  dealer, the rest is the stock), so every deal, turn-up and stock has its
  true probability.  A chance outcome is the seat (first dealer) or the card
  index (0..53).
- **Actions** are the ids of :class:`backalley.adapters.encoding.Actions`: cards
  0..53 by index, then pass, bid 0..13, board, counter, trump C/D/H/S/NT (76 ids).
- **Observations**: per seat, from the seat's :class:`~backalley.PlayerView`
  (:mod:`backalley.adapters.encoding`).  The observation string and tensor are the
  current position; the information-state string is everything the seat has
  seen since the start (its hand, turn-up and discards at each deal, and
  every call and card); the information-state tensor is the observation plus
  the order of this deal's tricks.
- **Returns** come at the end: each seat gets its side's final score (its
  team's, or its own in a cutthroat game).  The game is general-sum.
- **Resampling**: ``state.resample_from_infostate(player, sampler)`` is a
  state the player cannot tell from this one, the cards it has not seen
  drawn again from ``sampler`` (:func:`resample`), with a history of its own
  that replays to it - what OpenSpiel's Python ISMCTS
  (``open_spiel.python.algorithms.ismcts``) needs.

Game parameters (``pyspiel.load_game("python_backalley", {...})`` takes them
too), each checked where the game receives them (:func:`settings_of`):
``variant`` (a registered name), ``rules`` (a rule set's JSON text in
URL-safe base64 without padding, for rule sets that are not registered; not
together with ``variant``), ``deals`` (play only the first ``deals`` deals of
the schedule, 1 up to its number of deals; 0 = all), ``dealer`` (the first
dealer, a seat 0..players-1; -1 = a chance node), ``max_throw_ins``
(thrown-in deals counted in ``max_game_length``, 0..``MAX_THROW_INS`` = 100,
the most a game document holds: the rules set no limit, OpenSpiel needs
one).  Any other name, or a value out of its range, is refused with the
library's exception, which ``pyspiel.load_game`` lets through unchanged.
"""

from __future__ import annotations

import base64
import functools
import numbers
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

try:
    import numpy as np
    import pyspiel
except ModuleNotFoundError as exc:  # the extra is not installed: say which to install
    raise ModuleNotFoundError(
        "the OpenSpiel adapter needs its extra: pip install 'backalley[openspiel]' "
        f"({exc.name} is missing)",
        name=exc.name,
    ) from None

from backalley.adapters.checks import first_deals, is_whole, optional_whole, whole_number
from backalley.adapters.encoding import (
    Actions,
    Table,
    cards_text,
    describe,
    encode,
    info_state_layout,
    observation_layout,
    table_of_view,
)
from backalley.cards import CARDS
from backalley.engine import lowlevel, sampling
from backalley.engine.setup import new_game
from backalley.engine.state import GameState
from backalley.errors import BackAlleyError, RuleSetError, SerializationError, SetupError
from backalley.io.serialize import from_json, to_json
from backalley.io.serialize.limits import MAX_THROW_INS
from backalley.moves import Move
from backalley.rules import RuleSet, Schedule, bounds
from backalley.variants import get as get_variant

__all__ = ["SHORT_NAME", "BackAlleyGame", "BackAlleyState", "Settings", "load_game", "settings_of"]

SHORT_NAME = "python_backalley"
"""The name the game is registered under in ``pyspiel``."""

_DEFAULTS: dict[str, Any] = {
    "variant": "gamerules",
    "rules": "",
    "deals": 0,
    "dealer": -1,
    "max_throw_ins": MAX_THROW_INS,
}

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Back Alley (backalley rules engine)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=8,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=dict(_DEFAULTS),
)


def load_game(
    variant: str | RuleSet = "gamerules",
    *,
    deals: int | None = None,
    dealer: int | None = None,
    max_throw_ins: int = MAX_THROW_INS,
) -> BackAlleyGame:
    """The OpenSpiel game of ``variant`` (a registered name or a :class:`~backalley.RuleSet`).

    ``deals`` plays only the first ``deals`` deals of the schedule (the whole
    game by default); ``dealer`` fixes the first dealer (else a chance node);
    ``max_throw_ins`` (0..100) is the allowance of thrown-in deals in
    ``max_game_length``.  Raises :class:`~backalley.SetupError` (or
    :class:`~backalley.UnknownVariantError`, :class:`~backalley.RuleSetError`)
    for arguments that make no game, before OpenSpiel sees them.
    """
    rules = variant if isinstance(variant, RuleSet) else get_variant(variant)
    fixed = _first_dealer(dealer, rules, unset=None)
    params: dict[str, Any] = {
        **_rules_parameters(variant, rules),
        "deals": first_deals(deals, rules) or 0,
        "dealer": -1 if fixed is None else fixed,
        "max_throw_ins": _throw_ins(max_throw_ins),
    }
    game = pyspiel.load_game(SHORT_NAME, params)
    assert isinstance(game, BackAlleyGame)
    return game


def _rules_parameters(variant: object, rules: RuleSet) -> dict[str, str]:
    """The ``variant`` (a registered rule set) or ``rules`` (any other) parameter of ``rules``."""
    if not isinstance(variant, RuleSet):
        return {"variant": rules.name or ""}
    registered = None
    if variant.name:
        try:
            registered = get_variant(variant.name)
        except KeyError:
            registered = None
    if registered == variant:
        return {"variant": variant.name or ""}
    return {"rules": base64.urlsafe_b64encode(to_json(variant).encode()).decode().rstrip("=")}


@attrs.frozen
class Settings:
    """Game parameters once checked: the rule set they describe (cut to its
    first deals), the fixed first dealer (``None``: a chance node draws it),
    the allowance of thrown-in deals, and every parameter by name."""

    rules: RuleSet
    dealer: int | None
    max_throw_ins: int
    params: dict[str, Any]


def settings_of(params: Mapping[str, Any] | None) -> Settings:
    """The game that OpenSpiel game parameters describe, every parameter
    checked (a missing one takes its default).

    The one check of the parameters: the game's constructor calls it, so
    :func:`load_game` and ``pyspiel.load_game`` both go through it.  Raises
    :class:`~backalley.SetupError` for an unknown name or a value out of its
    range, :class:`~backalley.UnknownVariantError` for an unknown variant,
    :class:`~backalley.SerializationError` or :class:`~backalley.RuleSetError`
    for a ``rules`` parameter that is no rule set.
    """
    given = _given(params)
    rules = rules_of(given)
    if rules.plan.shuffles_per_deal != 1:
        raise SetupError(
            "the OpenSpiel game deals each deal from one deck order, through its chance "
            "nodes; rules whose trump is drawn from a shuffle of its own before each deal "
            f"({rules.trump.tag}) are not supported there"
        )
    return Settings(
        rules=rules,
        dealer=_first_dealer(given["dealer"], rules, unset=-1),
        max_throw_ins=_throw_ins(given["max_throw_ins"]),
        params=given,
    )


def _given(params: Mapping[str, Any] | None) -> dict[str, Any]:
    """Every parameter: those given, the defaults for the others.

    Raises :class:`~backalley.SetupError` for a name the game does not take.
    """
    if params is None:
        params = {}
    if not isinstance(params, Mapping):
        raise SetupError(f"the game parameters must be a mapping, not {type(params).__name__}")
    unknown = sorted(str(name) for name in params if name not in _DEFAULTS)
    if unknown:
        raise SetupError(
            f"unknown game parameter {', '.join(map(repr, unknown))}; "
            f"the parameters are {', '.join(_DEFAULTS)}"
        )
    return {**_DEFAULTS, **params}


def rules_of(params: Mapping[str, Any] | None) -> RuleSet:
    """The rule set that game parameters describe (``variant``/``rules`` and ``deals``).

    Raises as :func:`settings_of` does for those parameters.
    """
    given = _given(params)
    rules = _variant_or_rules(given["variant"], given["rules"])
    deals = first_deals(given["deals"], rules, unset=0)
    if deals is None:
        return rules
    return rules.replace(schedule=Schedule(rules.schedule.hand_sizes[:deals]))


def _variant_or_rules(variant: object, text: object) -> RuleSet:
    """The rule set of the ``variant`` parameter, or of the ``rules`` parameter if given."""
    if not isinstance(variant, str):
        raise SetupError(f"variant must be a registered variant's name, not {variant!r}")
    if not isinstance(text, str):
        raise SetupError(f"rules must be an encoded rule set (text), not {text!r}")
    if not text:
        return get_variant(variant)
    if variant != _DEFAULTS["variant"]:
        raise SetupError(f"give variant or rules, not both (variant={variant!r} with rules)")
    return _decoded_rules(text)


def _decoded_rules(text: str) -> RuleSet:
    """The rule set of a ``rules`` parameter: its JSON text in URL-safe base64 without padding.

    Raises :class:`~backalley.SerializationError` naming the ``rules``
    parameter (or :class:`~backalley.RuleSetError` for parts that do not fit).
    """
    try:
        data = base64.urlsafe_b64decode((text + "=" * (-len(text) % 4)).encode()).decode()
    except ValueError:
        raise SerializationError("the rules parameter is not URL-safe base64") from None
    try:
        return from_json(data, RuleSet)
    except SerializationError as error:
        raise SerializationError(
            f"the rules parameter is not a rule set: {error.message}", error.path
        ) from None


def _first_dealer(value: object, rules: RuleSet, *, unset: int | None) -> int | None:
    """The fixed first dealer ``value`` asks for: a seat, or ``None`` when it is
    ``unset`` (``None`` for :func:`load_game`'s argument, ``-1`` for the parameter)."""
    return optional_whole(
        value,
        "dealer",
        0,
        rules.players - 1,
        unset=unset,
        meaning="a chance node draws the first dealer",
    )


def _throw_ins(value: object) -> int:
    """The allowance of thrown-in deals ``value`` asks for, 0..MAX_THROW_INS."""
    return whole_number(
        value,
        "max_throw_ins",
        0,
        MAX_THROW_INS,
        why="the most thrown-in deals a game document holds",
    )


# ------------------------------------------------------------ the engine hook


def _deal(
    rules: RuleSet,
    first_dealer: int,
    previous: GameState | None,
    orders: tuple[tuple[int, ...], ...],
    moves: tuple[Move, ...],
) -> GameState:
    """The game once the newest deck order ``orders[-1]`` is dealt.

    ``previous`` is the state whose next deal waits for that order (``None``
    for the first deal); ``orders`` holds every deal's order so far (thrown-in
    deals included) and ``moves`` every move of the game.  This is the one
    place that deals a known order into a game: the first deal through
    ``new_game(decks=...)``, every later one through
    :func:`backalley.engine.lowlevel.deal_order` at the opening of the deal.
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
    recalled: tuple[tuple[tuple[str, str], ...], ...] = ()
    """Each finished deal as each seat saw it: (with its hand, without)."""
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
    :class:`~backalley.NotationError`) for an action that is not legal here.
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
        state = _deal(track.rules, track.first_dealer, track.state, orders, track.moves)
        return attrs.evolve(
            track,
            actions=actions,
            orders=orders,
            drawn=(),
            state=state,
            dealing=False,
            openings=(*track.openings, (state, len(track.moves))),
        )
    before = track.state
    assert before is not None
    move = track.codes.move_of(action)
    after = before.apply(move)
    moves = (*track.moves, move)
    recalled = track.recalled
    if after.is_over or _deal_ended(before, after):
        opening, at = track.openings[-1]
        seen = tuple(
            (
                _deal_line(opening, seat, moves[at:], True),
                _deal_line(opening, seat, moves[at:], False),
            )
            for seat in range(track.rules.players)
        )
        recalled = (*recalled, seen)
    return attrs.evolve(
        track,
        actions=actions,
        moves=moves,
        state=after,
        dealing=not after.is_over and _deal_ended(before, after),
        recalled=recalled,
    )


def current_seat(track: Track) -> int | None:
    """The seat to act, or ``None`` at a chance node or the end."""
    if track.dealing or track.state is None:
        return None
    return track.state.to_act


def is_over(track: Track) -> bool:
    return track.state is not None and not track.dealing and track.state.is_over


def _receivers(track: Track) -> tuple[int | None, ...]:
    """While a deal is being dealt: the seat each card drawn so far goes to
    (``None`` for a card of the stock), as the engine deals the order - one
    card at a time, clockwise from the dealer's left."""
    n = track.rules.players
    dealer, hand_size = _dealing(track)
    if dealer is None:
        return ()
    return tuple(lowlevel.receiver(k, dealer, n, hand_size) for k in range(len(track.drawn)))


def _dealing(track: Track) -> tuple[int | None, int]:
    """The dealer and hand size of the deal being dealt."""
    previous = track.state
    if previous is None:
        return track.first_dealer, track.rules.schedule.hand_sizes[0]
    # the engine has moved on to the next deal's dealer and hand size
    return previous.dealer, previous.hand_size


def dealing_table(track: Track, seat: int) -> Table:
    """What ``seat`` knows while a deal is being dealt: its cards so far, the scores."""
    rules = track.rules
    n = rules.players
    previous = track.state
    dealer, hand_size = _dealing(track)
    if previous is None:
        scores: tuple[int, ...] = (0,) * len(rules.teams)
        deals_played = 0
    else:
        scores, deals_played = previous.scores, previous.deals_played
    counts = [0] * n
    hand = []
    for card, to in zip(track.drawn, _receivers(track)):
        if to is None:
            continue
        counts[to] += 1
        if to == seat:
            hand.append(CARDS[card])
    return Table(
        players=n,
        sides=len(rules.teams),
        total_deals=rules.schedule.deals,
        seat=seat,
        phase="dealing",
        to_act=None,
        dealer=dealer,
        hand_size=hand_size,
        hand=tuple(sorted(hand, key=lambda c: c.index)),
        hand_counts=tuple(counts),
        scores=scores,
        deals_played=deals_played,
    )


def table(track: Track, seat: int) -> Table:
    """What ``seat`` knows at ``track``."""
    if track.dealing or track.state is None:
        return dealing_table(track, seat)
    return table_of_view(track.state.view(seat))


def recall(track: Track, seat: int, *, private: bool = True) -> str:
    """Everything ``seat`` has seen since the start (the information-state string)."""
    lines = [f"seat {seat}"]
    if track.fixed_dealer is None and track.first_dealer is not None:
        lines.append(f"first dealer {track.first_dealer}")
    lines.extend(seen[seat][0 if private else 1] for seen in track.recalled)
    if len(track.openings) > len(track.recalled):
        opening, at = track.openings[-1]
        lines.append(_deal_line(opening, seat, track.moves[at:], private))
    lines.append(describe(table(track, seat), private=private))
    return "\n".join(lines)


def _deal_line(opening: GameState, seat: int, moves: Sequence[Move], private: bool) -> str:
    """One deal as ``seat`` saw it: its hand as dealt, the turn-up, every move."""
    view = opening.view(seat)
    hand = cards_text(view.hand) if private else "?"
    turn = "-" if view.turn_up is None else str(view.turn_up)
    return (
        f"deal {view.deals_played + 1}: dealer {view.dealer}, {view.hand_size} cards, "
        f"hand {hand}, turn-up {turn}, discards {cards_text(view.discards)}; "
        + (" ".join(map(str, moves)) or "-")
    )


# ------------------------------------------------------------- resampling


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


def resample(track: Track, seat: int, rng: sampling.Draws) -> Track:
    """A track that ``seat`` cannot tell from ``track``: the same moves and
    the same chance outcomes as far as ``seat`` has seen them, the cards it
    has not seen drawn again with ``rng``.

    - In a deal's play or bidding, the other seats' hands are drawn as the
      ``montecarlo`` bot draws them (:func:`backalley.engine.sampling.sample_hands`:
      each seat as many cards as it holds, from the cards it may still hold),
      and the deal's chance outcomes become the deck order that deals them with
      the deal's turn-up and discards (:func:`backalley.engine.sampling.deck_for`);
      the moves of the deal are replayed on it.
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


def _redraw(track: Track, seat: int, rng: sampling.Draws) -> Track:
    """``track`` in the middle of a deal's chance nodes, the cards drawn so
    far that ``seat`` did not receive drawn again."""
    receivers = _receivers(track)
    mine = {card for card, to in zip(track.drawn, receivers) if to == seat}
    pool = [card for card in track.deck if card not in mine]
    drawn = [
        card if to == seat else pool.pop(rng.randrange(len(pool)))
        for card, to in zip(track.drawn, receivers)
    ]
    start = len(track.actions) - len(track.drawn)
    return _advance_all(attrs.evolve(track, actions=track.actions[:start], drawn=()), drawn)


def _redeal(track: Track, seat: int, rng: sampling.Draws) -> Track:
    """``track`` within a deal, the deal dealt again with the other seats'
    hands drawn again, and the deal's moves replayed."""
    state = track.state
    assert state is not None
    opening, at = track.openings[-1]
    nodes = len(track.deck) - 1  # chance nodes per deal
    start = (track.fixed_dealer is None) + (len(track.openings) - 1) * nodes + at
    later = track.actions[start + nodes :]
    # the track as this deal's dealing began; the opening stands in for the
    # state before it (the same dealer, hand size and scores; dealt again by
    # lowlevel.deal_order as that state would be)
    base = attrs.evolve(
        track,
        actions=track.actions[:start],
        orders=track.orders[:-1],
        drawn=(),
        moves=track.moves[:at],
        state=opening if len(track.openings) > 1 else None,
        dealing=True,
        openings=track.openings[:-1],
    )
    view = state.view(seat)
    for _ in range(RESAMPLE_TRIES):
        hands = sampling.sample_hands(view, rng)
        if hands is None:
            break  # no cards fit the view: another draw cannot find any
        try:
            order, _opening = sampling.deck_for(view, hands)
            return _advance_all(base, (*order[:-1], *later))
        except BackAlleyError:
            continue  # cards that fit, but no deal of them (or a move refused on them)
    raise BackAlleyError(
        f"no deal of the hidden cards fits what seat {seat} has seen "
        "(a rule's possible cards are unsound?)"
    )


def _advance_all(track: Track, actions: Sequence[int]) -> Track:
    for action in actions:
        track = advance(track, action)
    return track


# ------------------------------------------------------------------ the bounds


@functools.lru_cache(maxsize=32)
def utility_bound(rules: RuleSet) -> int:
    """A bound on any side's score at the end of a game under ``rules``: the
    sum over the schedule's deals of the most points one side may score on
    each, asked of the scoring part with the deal's own context and the
    contracts the bidding part can make (or declared by the parts:
    :func:`backalley.rules.bounds.points_bound`).  A game whose returns
    exceed it raises (:meth:`BackAlleyState.returns`)."""
    deals = len(rules.plan.hand_sizes)
    return max(1, sum(bounds.points_bound(rules, k) for k in range(deals)))


@functools.lru_cache(maxsize=32)
def max_game_length(rules: RuleSet, max_throw_ins: int) -> int:
    """The most player moves in a game with at most ``max_throw_ins`` thrown-in
    deals: per deal its longest bidding (asked of the bidding part, or
    declared by it: :func:`backalley.rules.bounds.longest_bidding`), a trump
    call and every card; per thrown-in deal the longest bidding of any hand size."""
    sizes = rules.plan.hand_sizes
    n = rules.players
    longest = {h: bounds.longest_bidding(rules, h) for h in set(sizes)}
    return sum(longest[h] + 1 + n * h for h in sizes) + max_throw_ins * max(longest.values())


# ------------------------------------------------------------------ pyspiel


class BackAlleyGame(pyspiel.Game):  # type: ignore[misc]
    """A Back Alley game for OpenSpiel (see the module docstring)."""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        """The game of ``params``, checked by :func:`settings_of` (which raises for bad ones)."""
        settings = settings_of(params)
        rules = settings.rules
        self.rules = rules
        self.fixed_dealer = settings.dealer
        self.actions = Actions.for_rules(rules)
        bound = utility_bound(rules)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.actions.size,
            max_chance_outcomes=max(54, rules.players),
            num_players=rules.players,
            min_utility=float(-bound),
            max_utility=float(bound),
            utility_sum=None,
            max_game_length=max_game_length(rules, settings.max_throw_ins),
        )
        super().__init__(_GAME_TYPE, info, settings.params)

    def new_initial_state(self) -> BackAlleyState:
        return BackAlleyState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> Observer:
        if params:
            raise ValueError(f"the Back Alley observer takes no parameters, got {params}")
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        private = iig_obs_type.private_info
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("the Back Alley observer shows one seat's cards or none, not all")
        return Observer(
            self,
            perfect_recall=bool(iig_obs_type.perfect_recall),
            private=private == pyspiel.PrivateInfoType.SINGLE_PLAYER,
        )

    def state_of(self, actions: Sequence[int]) -> BackAlleyState:
        """The state after ``actions`` (chance outcomes and move ids) from the start."""
        state = self.new_initial_state()
        for action in actions:
            state.apply_action(int(action))
        return state


class BackAlleyState(pyspiel.State):  # type: ignore[misc]
    """A position of a Back Alley game for OpenSpiel.

    ``engine_state`` is the library's :class:`~backalley.GameState` (``None``
    before the first deal is dealt; between deals, while the next deck is
    drawn, the state of the deal just finished has moved on to the next
    dealer and hand size).
    """

    _script: list[int] | None = None
    """While :meth:`_at` rebuilds OpenSpiel's history: the player of each action."""
    _step = 0

    def __init__(self, game: BackAlleyGame) -> None:
        super().__init__(game)
        self.track = start(game.rules, game.fixed_dealer)

    @property
    def engine_state(self) -> GameState | None:
        return None if self.track.dealing else self.track.state

    def current_player(self) -> int:
        if self._script is not None:
            return self._script[self._step]
        track = self.track
        if is_over(track):
            return int(pyspiel.PlayerId.TERMINAL)
        seat = current_seat(track)
        if seat is None:
            return int(pyspiel.PlayerId.CHANCE)
        return seat

    def _legal_actions(self, player: int) -> list[int]:
        state = self.track.state
        if state is None or self.track.dealing or player != state.to_act:
            return []
        ids = self.track.codes.id_of
        return sorted(ids(m) for m in state.legal_moves())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return chance_outcomes(self.track)

    def _apply_action(self, action: int) -> None:
        if self._script is not None:
            self._step += 1
            return
        self.track = advance(self.track, int(action))

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> BackAlleyState:
        """A state that ``player_id`` cannot tell from this one, the cards it
        has not seen drawn again (OpenSpiel's ``ResampleFromInfostate``, which
        ``open_spiel.python.algorithms.ismcts`` and other information-set
        algorithms call).

        ``probability_sampler`` is a callable returning a float uniform in
        [0, 1) (``pyspiel.UniformProbabilitySampler(seed, 0., 1.)``, or
        ``random.Random(seed).random``); every draw comes from it, so the same
        numbers give the same state.  The state has the same information-state
        string and tensor for ``player_id``, the same current player and legal
        actions, and a history of its own: this one with the dealing chance
        outcomes of the current deal changed to deal the cards drawn, which
        replays to it (:func:`resample` says what is drawn again).
        """
        return self._at(resample(self.track, player_id, Uniform(probability_sampler)))

    def _at(self, track: Track) -> BackAlleyState:
        """A new state at ``track``, a track of as many actions by the same
        players as this state's (OpenSpiel keeps the history itself, so each
        action is applied again; the track is not moved on action by action)."""
        if track is self.track:
            clone: BackAlleyState = self.clone()
            return clone
        players = [int(step.player) for step in self.full_history()]
        assert len(players) == len(track.actions)
        state = BackAlleyState(self.get_game())
        state._script, state._step = players, 0
        try:
            for action in track.actions:
                state.apply_action(action)
        finally:
            del state._script, state._step
        state.track = track
        return state

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self.track.first_dealer is None:
                return f"first dealer {action}"
            return f"draw {CARDS[action]}"
        try:
            return str(self.track.codes.move_of(int(action)))
        except ValueError:
            return f"action {action}"

    def is_terminal(self) -> bool:
        return is_over(self.track)

    def returns(self) -> list[float]:
        """Each seat's side's final score (zeros before the end); a score beyond
        the game's utility bound raises :class:`~backalley.RuleSetError`
        naming the scoring part (a bound it declared, or missed by the probe)."""
        rules = self.track.rules
        state = self.track.state
        if state is None or not is_over(self.track):
            return [0.0] * rules.players
        bound = utility_bound(rules)
        if any(abs(score) > bound for score in state.scores):
            raise RuleSetError(
                [
                    f"scoring: {type(rules.scoring).__name__} scored {state.scores}, beyond the "
                    f"bound {bound} of the game's utility (its points_bound, or the points "
                    "asked of it, for each deal)"
                ]
            )
        side = {seat: k for k, team in enumerate(rules.teams) for seat in team}
        return [float(state.scores[side[seat]]) for seat in range(rules.players)]

    def __str__(self) -> str:
        track = self.track
        if track.dealing:
            dealer = "?" if track.first_dealer is None else track.first_dealer
            return (
                f"dealing deal {len(track.orders) + 1} (first dealer {dealer}): "
                f"{len(track.drawn)} cards drawn; moves {len(track.moves)}"
            )
        assert track.state is not None
        hands = " / ".join(cards_text(h) for h in track.state.hands)
        return f"{track.state!r} hands {hands}; moves {len(track.moves)}"


class Observer:
    """OpenSpiel's observer for Back Alley: the tensor and string of one seat."""

    def __init__(self, game: BackAlleyGame, *, perfect_recall: bool, private: bool) -> None:
        rules = game.rules
        self.actions = game.actions
        self.perfect_recall = perfect_recall
        self.private = private
        layout = (info_state_layout if perfect_recall else observation_layout)(
            rules.players, len(rules.teams), self.actions
        )
        self.tensor = np.zeros(sum(size for _name, size in layout), np.float32)
        self.dict: dict[str, Any] = {}
        at = 0
        for name, size in layout:
            self.dict[name] = self.tensor[at : at + size]
            at += size

    def set_from(self, state: BackAlleyState, player: int) -> None:
        self.tensor.fill(0)
        encode(
            table(state.track, player),
            self.actions,
            self.tensor,
            private=self.private,
            trick_order=self.perfect_recall,
        )

    def string_from(self, state: BackAlleyState, player: int) -> str:
        if self.perfect_recall:
            return recall(state.track, player, private=self.private)
        return describe(table(state.track, player), private=self.private)


pyspiel.register_game(_GAME_TYPE, BackAlleyGame)
