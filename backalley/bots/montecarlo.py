"""The ``montecarlo`` bot: determinisation.

For each decision the bot samples hidden hands consistent with its view -
every other seat gets as many cards as it holds, drawn from the cards it may
still hold (:meth:`~backalley.PlayerView.possible_cards`: the unseen cards,
less the suits it has shown void in, the trumps a blooper lead showed it
lacks) - builds the full deal for each sample (dealt so that the turn-up and
discards are the view's, with the calls and plays so far replayed), and
scores each candidate move on every sample with an *evaluator*.  It makes the
move with the best mean value.  Every candidate is scored on the same samples,
so the comparison is not drowned by the luck of the deal.

A move's value is the deal's points for the bot's side less the mean points
of the other sides, at the end of the deal.  Evaluators:

- ``"rollout"`` (the default today): every seat plays the deal out with the
  ``heuristic`` bot;
- ``"solver"``: in the play, the double-dummy result of
  :mod:`backalley.solver` (when that module is installed) turned into points;
  in the bidding, rollouts;
- ``"auto"``: the solver for play positions with at most ``solver_tricks``
  tricks left when :mod:`backalley.solver` exists, else rollouts;
- any callable ``(state, seat) -> float`` giving the value for ``seat``'s
  side of a full :class:`~backalley.GameState` within the deal (a move that
  ends the deal is valued from its result, without the evaluator).

Settings: ``samples`` (most samples per decision), ``budget`` (seconds per
decision: sampling stops when it is spent), ``clock`` (what the budget's
seconds are: ``"cpu"``, the default, the process's CPU time -
:func:`time.process_time`, which a busy machine does not shorten - or
``"wall"``, the wall clock, or any function returning seconds) and
``bid_candidates`` (how many of the heuristic's best calls are tried).  On
the CPU or the wall clock the budget holds within a sample too: the clock is
read before each candidate is scored, and a sample the budget runs out in is
left out (``stats.stopped``), so a decision overruns its budget by at most
one candidate's evaluation; when that happens to the first sample, the bot
makes the ``heuristic`` bot's move (``stats.out_of_time``).  On a clock of
the caller's own, the clock is read at the start and after each sample, and
at least one sample is scored.
With ``play_weight`` above 0, the samples are weighed by the cards played
(:mod:`backalley.bots.layouts`: each card another seat played that the
``heuristic`` bot, with that seat's cards in the sample, would have played
otherwise costs the sample a factor ``exp(-play_weight)``; the calls are
not weighed): each sample is picked from ``draws`` drawn at random, with
chances in proportion to their weights, counts with their mean weight, and
a move's value is its weighted mean.  ``play_weight=0`` (the default) draws
every sample at random with weight 1.
Equivalent cards (touching ranks of a suit, no unseen card between them) are
tried once.  The draw of a sample never fails when some deal fits the view;
``bot.stats`` (:class:`SamplingStats`) counts the decisions, the samples
scored and any sample that could not be built, and a decision that no sample
could inform is left to the heuristic bot with a :class:`RuntimeWarning`.
The bot is reproducible from its seed when the budget does not cut sampling
short (a budget of ``None`` never does; a CPU-time budget cuts it at about
the same sample from run to run, a wall-clock one wherever the machine's load
puts it).
"""

from __future__ import annotations

import importlib
import time
import warnings
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from backalley.bots._base import check_weight, check_whole, choose_among, rng_from_seed
from backalley.bots.heuristic import HeuristicBot
from backalley.bots.layouts import CallMemo, card_groups, draw_layout, sample_hands
from backalley.engine import lowlevel
from backalley.engine.legality import Phase
from backalley.engine.state import GameState
from backalley.engine.views import PlayerView
from backalley.errors import BackAlleyError, SetupError
from backalley.moves import Bid, Move, NameTrump, Play

__all__ = ["MonteCarloBot", "SamplingStats", "distinct_cards", "rollout_value", "sample_hands"]

Evaluator = Callable[[GameState, int], float]
Clock = Callable[[], float]
CLOCKS: dict[str, Clock] = {"cpu": time.process_time, "wall": time.perf_counter}
"""The clocks a bot's budget may be measured by, by name."""


def clock_of(clock: object) -> Clock:
    """The clock named ``clock`` (``"cpu"`` or ``"wall"``, see :data:`CLOCKS`),
    or ``clock`` itself when it is a function returning seconds."""
    if isinstance(clock, str) and clock in CLOCKS:
        return CLOCKS[clock]
    if callable(clock):
        return clock
    raise SetupError(f"clock must be 'cpu', 'wall' or a function returning seconds, not {clock!r}")


@attrs.define
class SamplingStats:
    """What the bot's sampling did, counted over its decisions (none is hidden)."""

    decisions: int = 0
    """Decisions made by sampling (a single legal move or candidate needs none)."""
    samples: int = 0
    """Samples scored."""
    failed: int = 0
    """Samples that could not be drawn or built (a view no deal reproduces)."""
    fallbacks: int = 0
    """Decisions left to the heuristic bot because no sample could be scored."""
    stopped: int = 0
    """Samples left out because the decision's budget ran out while their
    candidates were scored."""
    out_of_time: int = 0
    """Decisions whose budget ran out before their first sample was scored:
    the heuristic bot's move was made."""
    drawn: int = 0
    """Layouts drawn and weighed by the cards played (with ``play_weight``)."""
    unweighted: int = 0
    """Layouts whose play could not be replayed, so counted with weight 1."""


def _deal_over(before: GameState, after: GameState) -> bool:
    """Whether the move from ``before`` to ``after`` ended the deal, scored or
    thrown in (the kernel's count of the deals over went up)."""
    return lowlevel.deals_over(after) > lowlevel.deals_over(before)


def _end_value(before: GameState, after: GameState, seat: int) -> float:
    """The value for ``seat``'s side of the deal that the move from ``before``
    to ``after`` ended: its points less the other sides' mean (0 when the
    deal was thrown in)."""
    if len(after.deal_results) == len(before.deal_results):
        return 0.0
    points = after.deal_results[-1].points
    side = after.rules.seat_teams[seat]
    if len(points) == 1:
        return float(points[0])
    others = sum(p for s, p in enumerate(points) if s != side) / (len(points) - 1)
    return points[side] - others


_HEURISTIC = HeuristicBot()


def rollout_value(state: GameState, seat: int) -> float:
    """Play the current deal out with the heuristic bot at every seat; the
    value of its end for ``seat``'s side (see the module docstring)."""
    if state.is_over:
        raise SetupError("the game is over: there is no deal to play out")
    while True:
        actor = state.to_act
        assert actor is not None
        move = _HEURISTIC.choose(state.view(actor))
        after = state.apply_unchecked(move)
        if _deal_over(state, after):
            return _end_value(state, after, seat)
        state = after


def _solver_module() -> Any | None:
    try:
        return importlib.import_module("backalley.solver")
    except ImportError:
        return None


def solver_value(state: GameState, seat: int) -> float:
    """The value for ``seat``'s side when the rest of the deal is played
    double-dummy (by :mod:`backalley.solver`); rollouts where the solver does
    not answer (no solver installed, the bidding, a game without sides of
    its own for the seat to act)."""
    solver = _solver_module()
    if solver is None or state.phase is not Phase.PLAYING:
        return rollout_value(state, seat)
    rules = state.rules
    teams = rules.teams
    actor = state.to_act
    assert actor is not None
    if len(teams) != 2:
        return rollout_value(state, seat)
    won = state.tricks_won
    have = [sum(won[s] for s in team) for team in teams]
    remaining = state.hand_size - len(state.tricks)
    best = int(solver.solve(state))
    side = rules.seat_teams[actor]
    future = [0, 0]
    future[side] = best
    future[1 - side] = remaining - best
    tricks = [have[s] + future[s] for s in range(2)]
    points = lowlevel.deal_points(state, tricks)
    mine = rules.seat_teams[seat]
    return float(points[mine] - points[1 - mine])


def distinct_cards(view: PlayerView, moves: Sequence[Move], keep: Move | None = None) -> list[Move]:
    """The plays worth scoring: one card of each group of equivalent cards.

    Cards are equivalent when they touch: of the same suit of the card
    order, one next above the other with no unseen card between (the
    plan's order, learned from the ranking part; every play when its
    answers fit no order).  A group is played by its lowest card, or by
    ``keep`` when ``keep`` is one of its cards, so that a card chosen
    elsewhere (the heuristic's, say) is scored as itself and never beside
    an equivalent card."""
    plays = {m.card.index: m for m in moves if isinstance(m, Play)}
    legal = 0
    for c in plays:
        legal |= 1 << c
    groups: list[list[Move]] = [
        [plays[c] for c in range(g.bit_length()) if g >> c & 1] for g in card_groups(view, legal)
    ]
    out = [keep if keep in group else group[0] for group in groups]
    return out or list(moves)


class MonteCarloBot:
    """Chooses by sampling the hidden hands and scoring each move on every
    sample (see the module docstring)."""

    def __init__(
        self,
        seed: object = None,
        *,
        samples: int = 40,
        budget: float | None = 0.8,
        clock: str | Clock = "cpu",
        evaluator: str | Evaluator = "auto",
        solver_tricks: int = 5,
        bid_candidates: int = 4,
        play_weight: float = 0.0,
        draws: int = 4,
    ) -> None:
        if not isinstance(samples, int) or samples < 1:
            raise SetupError(f"samples must be a whole number >= 1, not {samples!r}")
        if budget is not None and not (isinstance(budget, (int, float)) and budget > 0):
            raise SetupError(f"budget must be a number of seconds > 0 or None, not {budget!r}")
        if not callable(evaluator) and evaluator not in ("auto", "rollout", "solver"):
            raise SetupError(
                f"evaluator must be 'auto', 'rollout', 'solver' or a callable, not {evaluator!r}"
            )
        check_weight("play_weight", play_weight)
        check_whole("draws", draws, 1)
        self._rng = rng_from_seed(seed)
        self.samples = samples
        self.budget = budget
        self.clock = clock_of(clock)
        self.evaluator = evaluator
        self.play_weight = float(play_weight)
        self.draws = draws
        self.memo = CallMemo()
        """The heuristic's cards this bot has asked for, to weigh its samples
        by the cards played (bounded, its own)."""
        self.solver_tricks = solver_tricks
        self.bid_candidates = bid_candidates
        self._heuristic = HeuristicBot(seed)
        self.stats = SamplingStats()
        """What the sampling did so far (see :class:`SamplingStats`)."""

    def _evaluate(self, state: GameState, seat: int) -> float:
        ev = self.evaluator
        if callable(ev):
            return ev(state, seat)
        if ev == "rollout":
            return rollout_value(state, seat)
        if ev == "solver":
            return solver_value(state, seat)
        left = state.hand_size - len(state.tricks)
        if (
            state.phase is Phase.PLAYING
            and left <= self.solver_tricks
            and _solver_module() is not None
        ):
            return solver_value(state, seat)
        return rollout_value(state, seat)

    def candidates(self, view: PlayerView, moves: Sequence[Move]) -> list[Move]:
        """The moves worth scoring: one card of each group of equivalent cards;
        in the bidding, the calls around the heuristic's choice."""
        if view.phase is Phase.PLAYING:
            return distinct_cards(view, moves)
        if isinstance(moves[0], NameTrump):
            return list(moves)
        pick = self._heuristic.choose(view)
        out = [pick]
        numbers = [m for m in moves if isinstance(m, Bid)]
        if isinstance(pick, Bid):
            numbers.sort(key=lambda m: abs(m.tricks - pick.tricks))
        else:
            numbers = numbers[:1]
        others = [m for m in moves if not isinstance(m, Bid)]
        for m in [*numbers, *others]:
            if len(out) >= self.bid_candidates:
                break
            if m not in out:
                out.append(m)
        return out

    def choose(self, view: PlayerView) -> Move:
        return choose_among(view, self.candidates, self._sample)

    def _sample(self, view: PlayerView, cands: Sequence[Move]) -> Move:
        """The candidate with the best mean value over the samples drawn."""
        clock = self.clock
        start = clock()
        budget = self.budget
        # on the CPU or the wall clock the budget is read before each
        # candidate; a clock of the caller's own only after each sample
        until = start + budget if budget is not None and clock in CLOCKS.values() else None
        totals = [0.0] * len(cands)
        weights = 0.0
        done = 0
        stopped = False
        stats = self.stats
        stats.decisions += 1
        for _ in range(self.samples):
            try:
                picked = self._draw(view)
            except LookupError:
                stats.failed += 1
                break  # no cards fit the view: another draw cannot find any
            if picked is None:
                continue
            base, weight = picked
            values = []
            for move in cands:
                if until is not None and clock() > until:
                    stopped = True  # the budget ran out inside this sample
                    break
                after = base.apply(move)
                if _deal_over(base, after):  # the deal's last move (or a throw-in: 0)
                    values.append(_end_value(base, after, view.seat))
                else:
                    values.append(self._evaluate(after, view.seat))
            if stopped:
                stats.stopped += 1
                break
            for i, value in enumerate(values):
                totals[i] += weight * value
            weights += weight
            done += 1
            if budget is not None and clock() - start > budget:
                break
        stats.samples += done
        if stopped and not done:
            stats.out_of_time += 1  # no sample in the budget: the heuristic's move
            return self._heuristic.choose(view)
        if not done or weights <= 0:
            stats.fallbacks += 1
            warnings.warn(
                f"montecarlo: no deal fits seat {view.seat}'s view (a rule's possible "
                "cards are unsound?); the heuristic bot decides",
                RuntimeWarning,
                stacklevel=4,  # the caller of choose (through choose_among)
            )
            return self._heuristic.choose(view)
        # the first candidate wins ties (the heuristic's call in the bidding)
        best = max(range(len(cands)), key=lambda i: (totals[i], -i))
        return cands[best]

    def _draw(self, view: PlayerView) -> tuple[GameState, float] | None:
        """One sample and its weight: drawn at random with weight 1, or, with
        ``play_weight`` above 0, one of ``draws`` layouts picked by their
        likelihood under the cards played
        (:func:`backalley.bots.layouts.draw_layout`, the calls not weighed);
        ``None`` when none could be built this time (counted in
        ``stats.failed``); raises :class:`LookupError` when no cards fit the
        view at all."""
        if self.play_weight > 0:
            return draw_layout(
                view,
                self._rng,
                self.stats,
                draws=self.draws,
                call_weight=0.0,
                memo=self.memo,
                play_weight=self.play_weight,
            )
        hands = sample_hands(view, self._rng)
        if hands is None:
            raise LookupError("no cards fit the view")
        try:
            return lowlevel.determinise(view, hands), 1.0
        except BackAlleyError:
            self.stats.failed += 1  # these hands fit, but no deal of them gives the view
            return None
