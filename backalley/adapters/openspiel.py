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
  team's, or its own in a cutthroat game), and the game is general-sum, as
  OpenSpiel's scored trick-taking games are (Oh Hell, Spades with its
  partnerships).  With the parameter ``zero_sum=True`` each seat gets its side's
  score less the other side's (in a cutthroat game, less the mean of the
  others' scores), and the game is zero-sum: the measure the library's
  sampling bots maximise and its duplicate matches report
  (:func:`backalley.bots.match.duplicate_match`), so a search that plays
  to win the game, not to pile up its own score, plays what the bots play.
- **Resampling**: ``state.resample_from_infostate(player, sampler)`` is a
  state the player cannot tell from this one, the cards it has not seen
  drawn again from ``sampler``
  (:func:`backalley.adapters.resampling.resample`: the other seats' hands
  drawn consistently with what the player saw, the deal dealt from them and
  its moves applied - the game is not replayed from its start), with a
  history of its own that replays to it - what OpenSpiel's Python ISMCTS
  (``open_spiel.python.algorithms.ismcts``) needs.
- **The bookkeeping** - the chance outcomes and moves so far and the engine
  state they lead to - is a :class:`backalley.adapters.track.Track`, which
  imports no framework.

Game parameters (``pyspiel.load_game("python_backalley", {...})`` takes them
too), each checked where the game receives them (:func:`settings_of`):
``variant`` (a registered name), ``rules`` (a rule set's JSON text in
URL-safe base64 without padding, for rule sets that are not registered; not
together with ``variant``), ``deals`` (play only the first ``deals`` deals of
the schedule, 1 up to its number of deals; 0 = all), ``dealer`` (the first
dealer, a seat 0..players-1; -1 = a chance node), ``max_throw_ins``
(thrown-in deals counted in ``max_game_length``, 0..``MAX_THROW_INS`` = 100,
the most a game document holds: the rules set no limit, OpenSpiel needs
one), ``zero_sum`` (``False``, the default: each seat's return is its side's
score; ``True``: its side's score less the other side's, see Returns).  Any
other name, or a value out of its range, is refused with the
library's exception, which ``pyspiel.load_game`` lets through unchanged.

One module, one job: the game and state classes OpenSpiel's Python API asks
for, and their registration.
"""

from __future__ import annotations

import base64
import functools
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

from backalley.adapters.checks import first_deals, optional_whole, whole_number
from backalley.adapters.encoding import (
    Actions,
    SeatKnowledge,
    cards_text,
    describe,
    encode,
    info_state_layout,
    observation_layout,
    table_of_view,
)
from backalley.adapters.resampling import Uniform, resample
from backalley.adapters.track import (
    Track,
    advance,
    chance_outcomes,
    current_seat,
    deal_lines,
    dealing,
    is_over,
    receivers,
    start,
)
from backalley.cards import CARDS
from backalley.engine.state import GameState
from backalley.errors import RuleSetError, SerializationError, SetupError
from backalley.io.serialize import from_json, to_json
from backalley.io.serialize.limits import MAX_THROW_INS
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
    "zero_sum": False,
}


def _game_type(utility: Any) -> Any:
    return pyspiel.GameType(
        short_name=SHORT_NAME,
        long_name="Back Alley (backalley rules engine)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=8,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(_DEFAULTS),
    )


_GAME_TYPE = _game_type(pyspiel.GameType.Utility.GENERAL_SUM)
"""The game as registered (and its type with the default ``zero_sum=False``)."""
_ZERO_SUM_TYPE = _game_type(pyspiel.GameType.Utility.ZERO_SUM)
"""The type of a game loaded with ``zero_sum=True``."""


def load_game(
    variant: str | RuleSet = "gamerules",
    *,
    deals: int | None = None,
    dealer: int | None = None,
    max_throw_ins: int = MAX_THROW_INS,
    zero_sum: bool = False,
) -> BackAlleyGame:
    """The OpenSpiel game of ``variant`` (a registered name or a :class:`~backalley.RuleSet`).

    ``deals`` plays only the first ``deals`` deals of the schedule (the whole
    game by default); ``dealer`` fixes the first dealer (else a chance node);
    ``max_throw_ins`` (0..100) is the allowance of thrown-in deals in
    ``max_game_length``; ``zero_sum`` makes each seat's return its side's
    score less the other sides' (see the module docstring).  Raises
    :class:`~backalley.SetupError` (or
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
        "zero_sum": _zero_sum(zero_sum),
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
    the allowance of thrown-in deals, whether the returns are zero-sum, and
    every parameter by name."""

    rules: RuleSet
    dealer: int | None
    max_throw_ins: int
    params: dict[str, Any]
    zero_sum: bool = False


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
        zero_sum=_zero_sum(given["zero_sum"]),
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


def _zero_sum(value: object) -> bool:
    """Whether the returns are zero-sum: ``value`` must be ``True`` or ``False``."""
    if not isinstance(value, bool):
        raise SetupError(
            f"zero_sum must be True (each seat's return is its side's score less the "
            f"other sides') or False (its side's score), not {value!r}"
        )
    return value


def _throw_ins(value: object) -> int:
    """The allowance of thrown-in deals ``value`` asks for, 0..MAX_THROW_INS."""
    return whole_number(
        value,
        "max_throw_ins",
        0,
        MAX_THROW_INS,
        why="the most thrown-in deals a game document holds",
    )


def dealing_table(track: Track, seat: int) -> SeatKnowledge:
    """What ``seat`` knows while a deal is being dealt: its cards so far, the scores."""
    rules = track.rules
    n = rules.players
    previous = track.state
    dealer, hand_size = dealing(track)
    if previous is None:
        scores: tuple[int, ...] = (0,) * len(rules.teams)
        deals_played = 0
    else:
        scores, deals_played = previous.scores, previous.deals_played
    counts = [0] * n
    hand = []
    for card, to in zip(track.drawn, receivers(track)):
        if to is None:
            continue
        counts[to] += 1
        if to == seat:
            hand.append(CARDS[card])
    return SeatKnowledge(
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


def table(track: Track, seat: int) -> SeatKnowledge:
    """What ``seat`` knows at ``track``."""
    if track.dealing or track.state is None:
        return dealing_table(track, seat)
    return table_of_view(track.state.view(seat))


def recall(track: Track, seat: int, *, private: bool = True) -> str:
    """Everything ``seat`` has seen since the start (the information-state string)."""
    lines = [f"seat {seat}"]
    if track.fixed_dealer is None and track.first_dealer is not None:
        lines.append(f"first dealer {track.first_dealer}")
    lines.extend(deal_lines(track, seat, private=private))
    lines.append(describe(table(track, seat), private=private))
    return "\n".join(lines)


# ------------------------------------------------------------------ the returns


def seat_returns(rules: RuleSet, scores: Sequence[int], *, zero_sum: bool) -> list[float]:
    """Each seat's return from the sides' final ``scores``: its side's score,
    or with ``zero_sum`` its side's score less the other side's (with more
    than two sides, less the mean of the others', so the returns of the sides
    add up to 0, as the seats' do)."""
    teams = rules.teams
    side = {seat: k for k, team in enumerate(teams) for seat in team}
    values = [float(score) for score in scores]
    if zero_sum:
        total = sum(values)
        others = max(1, len(values) - 1)
        values = [v - (total - v) / others for v in values]
    return [values[side[seat]] for seat in range(rules.players)]


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
        self.zero_sum = settings.zero_sum
        # a side's score is within the bound either way, so its margin over
        # the others' (mean) score within twice the bound
        bound = utility_bound(rules) * (2 if self.zero_sum else 1)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.actions.size,
            max_chance_outcomes=max(54, rules.players),
            num_players=rules.players,
            min_utility=float(-bound),
            max_utility=float(bound),
            utility_sum=0.0 if self.zero_sum else None,
            max_game_length=max_game_length(rules, settings.max_throw_ins),
        )
        kind = _ZERO_SUM_TYPE if self.zero_sum else _GAME_TYPE
        super().__init__(kind, info, settings.params)

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
        self._zero_sum = game.zero_sum

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
        """Each seat's side's final score (zeros before the end) - with
        ``zero_sum``, that score less the other side's (with more than two
        sides, less the mean of the others'); a score beyond the game's
        utility bound raises :class:`~backalley.RuleSetError` naming the
        scoring part (a bound it declared, or missed by the probe)."""
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
        return seat_returns(rules, state.scores, zero_sum=self._zero_sum)

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
