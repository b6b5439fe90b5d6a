"""Back Alley for Gymnasium: batch self-play, one game, one seat against bots.

Needs the ``gym`` extra (Gymnasium and NumPy): ``pip install 'backalley[gym]'``;
without it, importing this module raises :class:`~backalley.SetupError`
saying so.

Every environment here shows a seat what the research adapters show it: the
observation tensor of :mod:`backalley.adapters.encoding` (float32, laid out
as :func:`~backalley.adapters.encoding.observation_layout` says), the legal
actions as a mask over the action ids of
:class:`~backalley.adapters.encoding.Actions` (``info["action_mask"]``, bool),
and per step the points scored (non-zero only at the step that ends a deal).

- :func:`observe`: the observation of one seat of every game of a
  :class:`~backalley.batch.BatchGames` at once, from the batch's arrays: the
  same numbers, entry for entry, as ``encode(table_of_view(view))`` gives
  for the same position of the one-game engine.
- :class:`BatchEnv`: a :class:`gymnasium.vector.VectorEnv` of ``num_envs``
  games played in lock-step by the batch engine; the agent acts for the seat
  to act in every game (self-play).
- :class:`SelfPlayEnv`: one such game on the one-game engine
  (:class:`~backalley.GameState`), dealt exactly as the batch game of the
  same game seed: the reference :class:`BatchEnv` is tested against.
- :class:`SeatEnv`: one seat (the agent) against the library's bots
  (:func:`backalley.bots.make_bot`) at the other seats, on the one-game engine.

**Rewards** are the points of the side (team, or the seat itself in a
cutthroat game) of the seat that acted, scored at that step: at the step
whose move ends a deal, the side's points of that deal, else 0 (a thrown-in
deal scores nothing).  :class:`SeatEnv` gives the agent's side's points of
every deal that ends during its step (its move and the bots' that follow).
``info["points"]`` has every side's points of the step.

**Game seeds.**  Each game has a seed of its own from which all its chance
comes (:func:`backalley.batch.seeds.game_seed`, :func:`~backalley.batch.seeds.first_dealer`,
:func:`~backalley.batch.seeds.deck_order`), so a game deals the same in any
of these environments.  An environment with seed ``S`` plays the games of
seeds ``game_seed(S, 0)``, ``game_seed(S, 1)``, ... in the order it starts
them: :class:`BatchEnv` games ``0 .. num_envs - 1`` at ``reset(seed=S)``, then
one number more for each game it restarts (in the order of the games'
places); :class:`SelfPlayEnv` and :class:`SeatEnv` one per ``reset``.
``reset(options={"game_seed": g})`` of the one-game environments plays the
game of seed ``g`` itself.

One module, one job: the Gymnasium environments, three views of one observation
and one action mask.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, SupportsFloat

try:
    import gymnasium
    import numpy as np
    from gymnasium.vector.utils import batch_space
except ModuleNotFoundError as exc:  # the extra is not installed: say which to install
    from backalley.errors import SetupError

    raise SetupError(
        "backalley.batch.gym needs Gymnasium and NumPy: pip install 'backalley[gym]' "
        f"({exc.name} is missing)"
    ) from None
try:
    from gymnasium.vector import AutoresetMode
except ImportError:  # a Gymnasium before 1.1: its vector API differs
    from backalley.errors import SetupError

    raise SetupError(
        "backalley.batch.gym needs Gymnasium 1.1 or later (its vector API), not "
        f"{gymnasium.__version__}: pip install -U 'backalley[gym]' 'gymnasium>=1.1'"
    ) from None

from backalley.adapters.checks import first_deals, is_whole
from backalley.adapters.encoding import (
    Actions,
    encode,
    observation_layout,
    table_of_view,
)
from backalley.batch.compiled_tables import Tables, compile
from backalley.batch.engine import (
    OVER,
    BatchGames,
    deck_order,
    first_dealer,
    game_seed,
)
from backalley.batch.observe import layout, observe
from backalley.bots import Bot, make_bot
from backalley.cards import CARDS, Card
from backalley.engine import lowlevel
from backalley.engine.legality import Phase
from backalley.engine.setup import new_game
from backalley.engine.state import GameState
from backalley.errors import SetupError
from backalley.rules import RuleSet, Schedule
from backalley.variants import get as get_variant

__all__ = ["DECKS_AHEAD", "BatchEnv", "SeatEnv", "SelfPlayEnv", "observe"]


F32 = np.ndarray[Any, np.dtype[np.float32]]
Bools = np.ndarray[Any, np.dtype[np.bool_]]
Ints = np.ndarray[Any, np.dtype[np.intp]]
Action = int | np.integer[Any]
"""An action id: a whole number (a Python ``int`` or a NumPy integer)."""

DECKS_AHEAD = 4
"""The deck orders a one-game environment gives its game up front, per deal
of the schedule (thrown-in deals need more than one per deal); a deal beyond
them is dealt from its batch deck order when it opens."""

_SEED_LIMIT = 1 << 64


# ----------------------------------------------------------------- helpers


def _bounds(players: int, sides: int, actions: Actions) -> tuple[F32, F32]:
    """The least and greatest value of each entry of the observation tensor:
    0 and 1 (one-hot entries, counts and fractions), and for the scores (in
    hundreds of points, unbounded by the rules) the float32 range."""
    biggest = float(np.finfo(np.float32).max)
    low: list[float] = []
    high: list[float] = []
    for name, size in observation_layout(players, sides, actions):
        low += [-biggest if name == "scores" else 0.0] * size
        high += [biggest if name == "scores" else 1.0] * size
    return np.array(low, np.float32), np.array(high, np.float32)


def _rules_of(rules: object, deals: object) -> RuleSet:
    """The rule set of an environment: ``rules`` (a registered variant's name
    or a :class:`~backalley.RuleSet`), cut to its first ``deals`` deals."""
    if isinstance(rules, str):
        rules = get_variant(rules)
    if not isinstance(rules, RuleSet):
        raise SetupError(
            f"rules must be a RuleSet or a variant's name (e.g. 'gamerules'), not {rules!r}"
        )
    count = first_deals(deals, rules)
    if count is not None:
        rules = rules.replace(schedule=Schedule(rules.schedule.hand_sizes[:count]), name=rules.name)
    return rules


def _env_seed(seed: object) -> int | None:
    """``seed`` when it is ``None`` or a whole number from 0 to 2**64 - 1;
    else :class:`~backalley.SetupError`."""
    if seed is None:
        return None
    if not is_whole(seed) or not 0 <= seed < _SEED_LIMIT:
        raise SetupError(f"seed must be None or a whole number from 0 to 2**64 - 1, not {seed!r}")
    return seed


def _action_id(action: object, size: int) -> int | None:
    """``action`` as an ``int`` when it is a whole number (``int`` or NumPy
    integer, not a ``bool``) from 0 to ``size - 1``, else ``None``."""
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        return None
    a = int(action)
    return a if 0 <= a < size else None


# --------------------------------------------------------------- batch env


class BatchEnv(
    gymnasium.vector.VectorEnv[np.ndarray[Any, Any], np.ndarray[Any, Any], np.ndarray[Any, Any]]
):
    """``num_envs`` games of Back Alley played in lock-step by the batch engine,
    as a Gymnasium vector environment: the agent acts for the seat to act in
    every game (self-play).

    - ``rules``: a registered variant's name, a :class:`~backalley.RuleSet`,
      or its compiled :class:`~backalley.batch.Tables`; ``deals`` plays only
      the first ``deals`` deals of the schedule.
    - **Observations** ``(num_envs, size)`` float32: :func:`observe` of the
      seat to act (``single_observation_space``: a ``Box`` of the tensor's
      bounds, the scores unbounded); at the step that ends a game, the
      observation of the seat that acted.
    - **Actions** ``(num_envs,)``: one action id per game
      (``single_action_space = Discrete(actions)``, ``action_space`` a
      ``MultiDiscrete``).  An action that is not legal in its game raises
      :class:`~backalley.SetupError` and changes nothing.
    - **Info**: ``action_mask`` ``(num_envs, actions)`` bool, the legal
      actions (all false for a game just over); ``seat`` ``(num_envs,)``,
      whose observation each row is; ``points`` ``(num_envs, sides)``, each
      side's points scored at the step.
    - **Rewards** ``(num_envs,)`` float32: the points the acting seat's side
      scored at the step; ``terminated`` once a game is over; never truncated.
    - **Autoreset** in Gymnasium's next-step mode
      (``metadata["autoreset_mode"] = AutoresetMode.NEXT_STEP``): the step
      after a game's ``terminated`` ignores its action and starts a new game
      in its place (reward 0, not terminated), whose seed is the next of the
      environment's game seeds (see the module's description).

    ``seed`` is the environment's seed when ``reset`` is given none (a random
    one when neither is).  The games start at :meth:`reset`.
    """

    # Gymnasium reads an environment's metadata from its class
    metadata: dict[str, Any] = {  # noqa: RUF012
        "autoreset_mode": AutoresetMode.NEXT_STEP,
        "render_modes": [],
    }

    def __init__(
        self,
        rules: str | RuleSet | Tables = "gamerules",
        num_envs: int = 1,
        seed: int | None = None,
        *,
        deals: int | None = None,
    ) -> None:
        if not is_whole(num_envs) or num_envs < 1:
            raise SetupError(f"num_envs must be a whole number >= 1, not {num_envs!r}")
        if isinstance(rules, Tables):
            if deals is not None:
                raise SetupError("deals cuts a rule set's schedule: give the rules, not tables")
            tables = rules
        else:
            tables = compile(_rules_of(rules, deals))
        self.tables = tables
        self.rules: RuleSet = tables.rules
        self.actions: Actions = tables.actions
        self.num_envs = num_envs
        self.render_mode = None
        self._seed = _env_seed(seed)
        players, sides = tables.players, tables.sides
        low, high = _bounds(players, sides, self.actions)
        self.single_observation_space = gymnasium.spaces.Box(low, high, low.shape, np.float32)
        self.single_action_space = gymnasium.spaces.Discrete(self.actions.size)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._rows = np.arange(num_envs)
        self._base = 0
        self._started = 0
        self._games: BatchGames | None = None
        self._restart = np.zeros(num_envs, dtype=bool)

    @property
    def games(self) -> BatchGames:
        """The games in play (:class:`~backalley.batch.BatchGames`); :class:`~backalley.SetupError`
        before the first :meth:`reset`."""
        if self._games is None:
            raise SetupError("the games start at reset(): call reset() first")
        return self._games

    @property
    def game_seeds(self) -> np.ndarray[Any, np.dtype[np.uint64]]:
        """``(num_envs,)``: the seed of the game in play at each place."""
        out: np.ndarray[Any, np.dtype[np.uint64]] = self.games.seeds.copy()
        return out

    def _next_seeds(self, count: int) -> list[int]:
        """The seeds of the next ``count`` games this environment starts."""
        first = self._started
        self._started += count
        return [game_seed(self._base, first + i) for i in range(count)]

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[F32, dict[str, Any]]:
        """Start ``num_envs`` new games: with ``seed``, the environment's games
        from that seed (see the module's description); without, the next of
        its games.  No ``options`` are taken."""
        seed = _env_seed(seed)
        if options:
            raise SetupError(f"BatchEnv.reset takes no options, not {options!r}")
        super().reset(seed=seed)
        if seed is None and self._games is None:
            seed = self._seed
            if seed is None:
                seed = int(self.np_random.integers(0, 2**63))
        if seed is not None:
            self._base, self._started = seed, 0
        self._games = BatchGames(
            self.tables, self.num_envs, seeds=self._next_seeds(self.num_envs), records=False
        )
        self._restart[:] = False
        games = self._games
        points = np.zeros((self.num_envs, self.tables.sides), dtype=np.int64)
        return observe(games), self._info(games, games.to_act.copy(), points)

    def _info(self, games: BatchGames, seats: Ints, points: np.ndarray[Any, Any]) -> dict[str, Any]:
        return {"action_mask": games.legal(), "seat": seats, "points": points}

    def step(
        self, actions: np.ndarray[Any, Any]
    ) -> tuple[F32, np.ndarray[Any, Any], Bools, Bools, dict[str, Any]]:
        """Play one action per game (see the class's description): each game
        just over starts anew instead; an illegal action in any other game
        raises :class:`~backalley.SetupError` and changes nothing."""
        games = self.games
        n = self.num_envs
        acts = np.asarray(actions)
        if acts.shape != (n,) or not np.issubdtype(acts.dtype, np.integer):
            raise SetupError(f"step takes one whole-number action per game ({n}), not {actions!r}")
        acts = acts.astype(np.intp)
        restart = self._restart
        playing = np.flatnonzero(~restart)  # a game over is always one to restart
        a = acts[playing]
        size = self.actions.size
        if len(playing):
            legal = games.legal()
            ok = (a >= 0) & (a < size) & legal[playing, np.clip(a, 0, size - 1)]
            if not ok.all():
                first = int(playing[np.flatnonzero(~ok)[0]])
                raise SetupError(
                    f"illegal action in {int((~ok).sum())} game(s), the first game {first}: "
                    f"{int(acts[first])} is not among its legal actions "
                    f"{np.flatnonzero(legal[first]).tolist()}"
                )
        seats = games.to_act.copy()
        before = games.scores.copy()
        if len(playing):
            games.step_unchecked(playing, a)
        points = games.scores - before
        points[restart] = 0
        side = self.tables.seat_teams[np.maximum(seats, 0)]
        rewards = np.where(restart, 0, points[self._rows, side]).astype(np.float32)
        terminated = (games.phase == OVER) & ~restart
        if restart.any():
            self._start_anew(games, np.flatnonzero(restart))
        shown = np.where(games.to_act >= 0, games.to_act, seats)
        self._restart = terminated.copy()
        truncated = np.zeros(n, dtype=bool)
        return (
            observe(games, shown),
            rewards,
            terminated,
            truncated,
            self._info(games, shown, points),
        )

    def _start_anew(self, games: BatchGames, places: Ints) -> None:
        """New games at ``places`` (their seeds the environment's next)."""
        games.restart(places, self._next_seeds(len(places)))

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release."""


# --------------------------------------------------------- one-game envs


class _OneGame:
    """What the one-game environments share: a game of the one-game engine
    dealt as the batch game of its seed, its observation, mask and points."""

    def __init__(self, rules: str | RuleSet, seed: int | None, deals: int | None) -> None:
        self.rules = _rules_of(rules, deals)
        self.actions = Actions.for_rules(self.rules)
        players, sides = self.rules.players, len(self.rules.teams)
        self.size = layout(players, sides, self.actions)[1]
        self.seed = _env_seed(seed)
        self.side = tuple(self.rules.seat_teams)
        self.deck = np.array(self.rules.plan.deck_cards, dtype=np.intp)
        self.base: int | None = None
        self.started = 0
        self.game_seed = 0
        self.decks: tuple[tuple[Card, ...], ...] = ()
        self.state: GameState | None = None

    def next_seed(self, seed: int | None, options: dict[str, Any] | None, draw: int) -> int:
        """The seed of the game a ``reset`` starts (see the module's description)."""
        chosen: object = None
        for key, value in (options or {}).items():
            if key != "game_seed":
                raise SetupError(f"reset takes the option game_seed only, not {key!r}")
            chosen = value
        if chosen is not None:
            if not is_whole(chosen) or not 0 <= chosen < _SEED_LIMIT:
                raise SetupError(
                    f"game_seed must be a whole number from 0 to 2**64 - 1, not {chosen!r}"
                )
            return chosen
        if seed is not None:
            self.base, self.started = seed, 0
        elif self.base is None:
            self.base = self.seed if self.seed is not None else draw
        self.started += 1
        return game_seed(self.base, self.started - 1)

    def start(self, seed: int) -> GameState:
        """The game of seed ``seed``: its first dealer and deck orders the batch's."""
        self.game_seed = seed
        count = DECKS_AHEAD * self.rules.schedule.deals * self.rules.plan.shuffles_per_deal
        self.decks = self.deck_orders(seed, count)
        state = new_game(
            self.rules,
            seed=seed,
            dealer=int(first_dealer(np.array([seed], np.uint64), self.rules.players)[0]),
            decks=self.decks,
        )
        return self.dealt(state)

    def deck_orders(self, seed: int, count: int, first: int = 0) -> tuple[tuple[Card, ...], ...]:
        """The batch's deck orders ``first .. first + count - 1`` of the game of seed ``seed``."""
        if count <= 0:
            return ()
        orders = deck_order(
            np.full(count, seed, dtype=np.uint64), np.arange(first, first + count), self.deck
        )
        return tuple(tuple(CARDS[c] for c in order) for order in orders.tolist())

    def dealt(self, state: GameState) -> GameState:
        """``state``, its deal dealt from the batch's deck order when it is a
        deal beyond the deck orders given up front, just opened."""
        if state.phase is not Phase.BIDDING or state.calls:
            return state
        if self.rules.plan.shuffles_per_deal != 1:  # pragma: no cover - the batch refuses them
            return state
        index = lowlevel.deals_over(state)
        if index < len(self.decks):
            return state
        return lowlevel.deal_order(state, self.deck_orders(self.game_seed, 1, index)[0])

    def observation(self, state: GameState, seat: int) -> F32:
        out = np.zeros(self.size, dtype=np.float32)
        encode(table_of_view(state.view(seat)), self.actions, out)
        return out

    def mask(self, state: GameState) -> Bools:
        out = np.zeros(self.actions.size, dtype=bool)
        for move in state.legal_moves():
            out[self.actions.id_of(move)] = True
        return out

    def spaces(self) -> tuple[gymnasium.spaces.Box, gymnasium.spaces.Discrete]:
        low, high = _bounds(self.rules.players, len(self.rules.teams), self.actions)
        box = gymnasium.spaces.Box(low, high, low.shape, np.float32)
        return box, gymnasium.spaces.Discrete(self.actions.size)


def _illegal_mode(illegal: object) -> str:
    if illegal not in ("raise", "replace"):
        raise SetupError(f"illegal must be 'raise' or 'replace', not {illegal!r}")
    return str(illegal)


class _OneGameEnv:
    """What the one-game environments share: the game they hold (``_game``)."""

    _game: _OneGame

    @property
    def state(self) -> GameState:
        """The game in play (:class:`~backalley.GameState`)."""
        state = self._game.state
        if state is None:
            raise SetupError("the game starts at reset(): call reset() first")
        return state

    @property
    def game_seed(self) -> int:
        """The seed of the game in play."""
        return self._game.game_seed


class SelfPlayEnv(_OneGameEnv, gymnasium.Env[np.ndarray[Any, Any], Action]):
    """One game of Back Alley on the one-game engine, the agent acting for
    every seat: :class:`BatchEnv`'s game, one at a time.

    The observation is the seat to act's (at the step that ends the game,
    the seat that acted), the info's ``action_mask`` its legal actions,
    ``seat`` whose observation it is and ``points`` every side's points of
    the step; the reward is the points the acting seat's side scored at the
    step, ``terminated`` the game over (a step after it raises
    :class:`~backalley.SetupError`: call ``reset``).

    A game of seed ``g`` deals exactly as the batch game of seed ``g``
    (:class:`~backalley.batch.BatchGames`): same first dealer, same deck
    order for every shuffle, thrown-in deals included.  ``reset(seed=S)``
    plays the environment's games from ``S`` (see the module's description),
    ``reset(options={"game_seed": g})`` the game of seed ``g``.

    ``illegal``: ``"raise"`` (the default) raises :class:`~backalley.SetupError`
    for an action that is not legal, changing nothing; ``"replace"`` plays
    the lowest legal action id instead and says so in ``info["illegal"]``.
    """

    metadata: dict[str, Any] = {"render_modes": []}  # noqa: RUF012 (read from the class)

    def __init__(
        self,
        rules: str | RuleSet = "gamerules",
        seed: int | None = None,
        *,
        deals: int | None = None,
        illegal: str = "raise",
    ) -> None:
        self._game = _OneGame(rules, seed, deals)
        self._illegal = _illegal_mode(illegal)
        self.rules = self._game.rules
        self.actions = self._game.actions
        self.observation_space, self.action_space = self._game.spaces()

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[F32, dict[str, Any]]:
        """Start a new game (see the class's description)."""
        seed = _env_seed(seed)
        super().reset(seed=seed)
        game = self._game
        state = game.start(game.next_seed(seed, options, int(self.np_random.integers(0, 2**63))))
        game.state = state
        seat = state.to_act
        assert seat is not None
        points = np.zeros(len(self.rules.teams), dtype=np.int64)
        return game.observation(state, seat), self._info(state, seat, points, False)

    def _info(self, state: GameState, seat: int, points: Any, illegal: bool) -> dict[str, Any]:
        info: dict[str, Any] = {
            "action_mask": self._game.mask(state),
            "seat": seat,
            "points": points,
        }
        if self._illegal == "replace":
            info["illegal"] = illegal
        return info

    def step(self, action: Action) -> tuple[F32, SupportsFloat, bool, bool, dict[str, Any]]:
        """Play ``action`` for the seat to act (see the class's description)."""
        game = self._game
        before = self.state
        seat = before.to_act
        if seat is None:
            raise SetupError("the game is over: call reset() to start another")
        after, illegal = _play(before, action, game.actions, self._illegal)
        after = game.dealt(after)
        game.state = after
        points = np.array(after.scores, dtype=np.int64) - np.array(before.scores, dtype=np.int64)
        reward = float(points[game.side[seat]])
        shown = seat if after.to_act is None else after.to_act
        info = self._info(after, shown, points, illegal)
        return game.observation(after, shown), reward, after.is_over, False, info


def _play(
    state: GameState, action: object, actions: Actions, illegal: str
) -> tuple[GameState, bool]:
    """``state`` after the action ``action`` of its seat to act, and whether
    the action was illegal (then replaced by the lowest legal action id, or
    refused with :class:`~backalley.SetupError`)."""
    legal = sorted(actions.id_of(move) for move in state.legal_moves())
    a = _action_id(action, actions.size)
    if a is not None and a in legal:
        return state.apply(actions.move_of(a)), False
    whole = not isinstance(action, (bool, np.bool_)) and isinstance(action, (int, np.integer))
    if illegal == "raise" or not whole:
        raise SetupError(
            f"action {action!r} is not a legal action of seat {state.to_act}: "
            f"the legal action ids are {legal}"
        )
    return state.apply(actions.move_of(legal[0])), True


class SeatEnv(_OneGameEnv, gymnasium.Env[np.ndarray[Any, Any], Action]):
    """One seat of Back Alley (the agent's, ``seat``), the library's bots
    playing the other seats, on the one-game engine.

    - ``bots``: a bot's name (:func:`backalley.bots.bot_names`; the
      ``"heuristic"`` bot by default) for every other seat, or one name per
      other seat in seat order.  Each game's bots are made afresh, seeded by
      the game's seed and their seat, so a game is reproducible.
    - **Observations**: the agent's seat's observation tensor, always (also
      while the bots play and once the game is over).  ``info["action_mask"]``:
      its legal actions; ``info["points"]``: every side's points of the step.
    - **A step** plays the agent's action, then the bots' moves until the
      agent is to act again or the game is over; the **reward** is the
      points the agent's side scored in that time (the deals that ended).
    - ``illegal``: ``"replace"`` (the default, so that learners that read no
      mask, and Gymnasium's environment checker, can step it) plays the
      lowest legal action id for an action that is not legal and sets
      ``info["illegal"]``; ``"raise"`` raises :class:`~backalley.SetupError`
      instead, changing nothing.  An action that is not a whole number is
      always refused.

    Games and their seeds as for :class:`SelfPlayEnv`.
    """

    metadata: dict[str, Any] = {"render_modes": []}  # noqa: RUF012 (read from the class)

    def __init__(
        self,
        rules: str | RuleSet = "gamerules",
        seat: int = 0,
        bots: str | Sequence[str] = "heuristic",
        seed: int | None = None,
        *,
        deals: int | None = None,
        illegal: str = "replace",
    ) -> None:
        self._game = _OneGame(rules, seed, deals)
        self.rules = self._game.rules
        players = self.rules.players
        if not is_whole(seat) or not 0 <= seat < players:
            raise SetupError(f"there is no seat {seat!r}; seats are 0 to {players - 1}")
        self.seat = seat
        others = [s for s in range(players) if s != seat]
        names = [bots] * len(others) if isinstance(bots, str) else list(bots)
        if len(names) != len(others) or not all(isinstance(x, str) for x in names):
            raise SetupError(
                f"bots must be a bot's name or {len(others)} names (one per other seat), "
                f"not {bots!r}"
            )
        for name in set(names):
            make_bot(name)  # an unknown name is refused here, not at the first game
        self._bot_names = dict(zip(others, names))
        self._bots: dict[int, Bot] = {}
        self._illegal = _illegal_mode(illegal)
        self.actions = self._game.actions
        self.observation_space, self.action_space = self._game.spaces()

    def _bots_play(self, state: GameState) -> GameState:
        """``state`` after the bots' moves until the agent's seat is to act or the game is over."""
        game = self._game
        while state.to_act is not None and state.to_act != self.seat:
            seat = state.to_act
            state = game.dealt(state.apply(self._bots[seat].choose(state.view(seat))))
        return state

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[F32, dict[str, Any]]:
        """Start a new game and let the bots play up to the agent's first turn."""
        seed = _env_seed(seed)
        super().reset(seed=seed)
        game = self._game
        state = game.start(game.next_seed(seed, options, int(self.np_random.integers(0, 2**63))))
        self._bots = {s: make_bot(name, (game.game_seed, s)) for s, name in self._bot_names.items()}
        before = state
        state = self._bots_play(state)
        game.state = state
        observation, _reward, _over, _cut, info = self._outcome(before, state, False)
        return observation, info

    def _outcome(
        self, before: GameState, after: GameState, illegal: bool
    ) -> tuple[F32, SupportsFloat, bool, bool, dict[str, Any]]:
        game = self._game
        points = np.array(after.scores, dtype=np.int64) - np.array(before.scores, dtype=np.int64)
        info: dict[str, Any] = {"action_mask": game.mask(after), "points": points}
        if self._illegal == "replace":
            info["illegal"] = illegal
        reward = float(points[game.side[self.seat]])
        return game.observation(after, self.seat), reward, after.is_over, False, info

    def step(self, action: Action) -> tuple[F32, SupportsFloat, bool, bool, dict[str, Any]]:
        """Play ``action`` for the agent's seat, then the bots (see the class's description)."""
        game = self._game
        before = self.state
        if before.to_act is None:
            raise SetupError("the game is over: call reset() to start another")
        after, illegal = _play(before, action, game.actions, self._illegal)
        after = self._bots_play(game.dealt(after))
        game.state = after
        return self._outcome(before, after, illegal)
