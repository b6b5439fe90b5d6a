"""The ``pimc`` bot: perfect-information Monte Carlo, as the strongest bridge
programs play.

For each decision the bot deals the unseen cards to the other seats many
times, consistently with its view (each seat as many cards as it holds,
drawn from its :meth:`~backalley.PlayerView.possible_cards`: the suits it has
shown void in, the trumps a blooper lead showed it lacks, the turn-up and
discards; :func:`~backalley.bots.montecarlo.sample_hands`), solves every
layout with all hands known, and makes the move with the best weighted mean
of its side's points less the other side's.  It differs from the
``montecarlo`` bot in three ways:

**The calls weigh the layouts.**  A layout in which a seat that passed holds
two aces should count for less than one in which it holds nothing.  The bot
asks the library's own bidding model - the ``heuristic`` bot - what each
other seat would have called with the cards the layout gives it, after the
calls that came before (and, where a declarer named trump, which suit it
would have named).  Each call that the model would have made differently
costs the layout a factor ``exp(-call_weight * d)``, where ``d`` is the
distance between the two calls in tricks: a number bids its tricks, ``board``
the hand size, ``pass`` none once around the table (in an ascending auction:
the number it declined to raise); two calls that are not both numbers (a
counter, a suit) are 1 apart when they differ.  The likelihood of a layout is
the product over the seats' calls: a layout that explains every call has
weight 1, and one that misses a seat's bid by two tricks ``exp(-2)`` (with
the default ``call_weight`` of 1).  ``call_weight=0`` weighs every layout the
same.

**The cards played weigh them too.**  A layout in which another seat would
not have played a card it did counts for less (policy-based inference, as
Rebstock et al. 2019 weigh Skat layouts).  Each card the ``heuristic``
bot, asked with the cards the layout gives that seat at that point of the
play, would have played otherwise (outside its group of equivalent cards)
costs the layout a factor ``exp(-play_weight)``: the heuristic's play
softened, its card at odds ``exp(play_weight)`` to any other.
:mod:`backalley.bots.layouts` explains the play model; the heuristic's
cards are remembered per play and hand, a layout found far less likely
than another of its draws is weighed no further, and the weighing's time
is spent inside the decision's budget, as the drawing always was (on a
bounding budget the draws for one layout stop once they took
:data:`POOL_SHARE` of it).  ``play_weight=0``, the default
(:data:`PLAY_WEIGHT`), weighs the calls alone.  Measured at 0.1 s of CPU a
decision on the gamerules schedule, ``play_weight=2`` beats the
``heuristic`` bot by +4.5 a deal, about as the calls alone do, and plays
level with the bot weighing the calls alone (-0.5, -1.4 .. +0.4, over
1,000 deals); the docs' strength table has the figures.

**Sampling importance resampling.**  So that the solver's time goes to
plausible layouts, each sample is picked from ``draws`` layouts drawn at
random, with chances in proportion to their likelihoods, and counts with
the mean of those likelihoods (sampling importance resampling: the weighted
mean is the same estimate as weighing every layout drawn, with fewer
layouts solved).

**The play is solved.**  With at most ``solver_cards`` cards left in each
hand, every legal card is scored on each layout by
:func:`backalley.solver.analyse` (the tricks the bot's side then takes, every
seat playing its best with all hands known), turned into the deal's points
for each side by the rule set's own scoring.  With more cards left, each
card is scored by playing the deal out with the ``heuristic`` bot at every
seat (fast, and a lot weaker).  Rule sets without two sides (cutthroat) are
always rolled out, as the solver's tricks do not say how the others share
theirs.

**The bidding is solved.**  For a call, the candidates are the heuristic's
own call, every number within ``bid_reach`` tricks of it, and every call
that is not a number (pass, board - always, when it is legal - and
counters).  On each layout, each candidate is followed by the heuristic's
calls for the rest of the auction (and its choice of trump); the deal's
first tricks are then played by the heuristic until ``bid_solver_cards``
cards are left in each hand (7 by default: a call weighs several candidates
on every layout, so it solves from fewer cards than the play), and the rest
is solved, giving the deal's points for the contracts that candidate led
to.  Naming trump is scored the same way.

**A call needs evidence to overrule the heuristic.**  The heuristic's call
(and its choice of trump) is calibrated over many deals; a few layouts are
not.  So the bot makes another call only when the layouts scored show it
better than the heuristic's with confidence (:meth:`PimcBot.pick_call`):
on each layout ``j`` (weight ``w_j``) the difference ``d_j`` between the
candidate's value and the heuristic call's, their weighted mean ``D`` and
its standard error ``S`` (``S**2 = n/(n-1) * sum(w_j**2 * (d_j - D)**2) /
sum(w_j)**2`` over ``n`` layouts); the candidate qualifies when ``D -
call_z * S > 0`` (a one-sided test, ``call_z`` 1.65 by default: about 95 %
confidence on a normal curve) and the layouts count for at least
:data:`CALL_MIN_LAYOUTS` (the effective number ``sum(w_j)**2 /
sum(w_j**2)``).  Of the qualifying candidates the best weighted mean wins
(ties to the earliest: the calls that are not numbers, board before a
number that counts on a partner's board, then the numbers nearest the
heuristic's, then pass); with none, or with too few layouts, the bot makes
the heuristic's call.  The cards the solver scores keep the plain weighted
mean: its values for them are exact on each layout.  Of cards whose means
are equal (often, near a deal's end: the solver sees no difference between
two discards) the heuristic's card is played, so that where the layouts do
not tell the cards apart the bot plays as the model of its play, which the
cards-played inference of other seats reads, says it would.

**A card scored by rollouts needs evidence too.**  With more than
``solver_cards`` cards left (or in a rule set the solver does not play), a
card's value on a layout is one heuristic playout of the rest of the deal:
as noisy as a call's, and worth as little on a handful of layouts.  So there
the heuristic's own card is scored first (standing for its group of
equivalent cards) and the bot plays another only on the same test as a
call (:meth:`PimcBot.pick_card`, with ``card_z`` standard errors,
:data:`CALL_Z` by default, and :data:`CALL_MIN_LAYOUTS`); ``card_z=0``
plays the best mean.

**A call a partner still reads is the model's.**  A partner who speaks
later reads this seat's call by the same bidding model (the ``heuristic``
bot's, which every bot of the library bids by and weighs layouts by): a
call that departs from it tells the partner of a hand the seat does not
hold, and the partner's own call and its play then go astray.  So while a
partner of the seat is still to speak (the bidding part says who speaks,
every later seat making its quietest call), the bot makes the heuristic's
call without sampling; its layouts score the side's last call (and the
naming of trump), where no partner is misled.  The docs' *Players* page
measures the calls both ways (:ref:`pimc's calls <pimc-calls>`), and the
bot's strength against the other bots.

**Budgets.**  ``samples`` (the default budget) is the number of layouts
scored a decision, and the bot is then reproducible from its seed.
``budget`` adds a limit in seconds a decision, measured by ``clock``:
``"cpu"`` (the default: the process's CPU time, :func:`time.process_time`,
which a busy machine does not shorten), ``"wall"`` (the wall clock,
:func:`time.perf_counter`), or any function returning seconds.  A layout
is scored in full or not at all.  On the CPU or the wall clock the budget
holds within a layout too: every solve is given what is left of the budget
as its ``deadline`` (CPU seconds; the solver looks at its clock about every
millisecond), the clock is read again before each candidate is played out
or solved, and a layout the budget ran out in is left out (counted in
``stats.stopped``); so a decision overruns its budget by at most one
candidate's rollout, or the solver's time to notice its deadline; and a
layout is not begun with less than half a layout's mean time left (it would
mostly be cut short).  Python's cyclic garbage collector is held off while
the bot decides (:func:`gc.disable`, enabled again after): a full
collection of a process holding the solver's tables and the bidding memo
took 50 to 90 ms of a 0.1 s budget, and the garbage of one decision is
small; the collector runs after it.

**A plan that fits the budget.**  On such a budget the bot learns how long
its solving takes (a running mean of the clock's seconds, by the cards
solved: a play's solve, one candidate call's deal) and plans each decision
to fit (counted in ``stats.planned``): a play whose solve is expected to
take more than :data:`PLAN_SHARE` of the budget is scored by rollouts, as
with more than ``solver_cards`` cards; a call's deals are solved from fewer
cards than ``bid_solver_cards`` (the heuristic playing more of the deal
first) until its candidates' deals together are expected to fit.  The
first layout's solve of a play may take :data:`FIRST_SHARE` of the budget:
cut short there, the bot learns it and rolls its layouts out in the rest
of the budget rather than falling back.  When the budget runs out before
the first layout is scored, the bot makes the ``heuristic`` bot's move
(counted in ``stats.out_of_time``).  On a clock of the caller's own, the
clock is read only at the start and after each layout, at least one
layout is scored, each is finished and nothing is planned.  ``bot.stats``
(:class:`PimcStats`) counts what the sampling did.

One module, one job: the bot's decision - its plan, its layouts, their
solving and scoring, and the heuristic's fallback - within one budget.
"""

from __future__ import annotations

import gc
import math
import warnings
from collections.abc import Sequence
from typing import Any

import attrs

from backalley.bots import trick_model
from backalley.bots._base import check_weight, check_whole, choose_among, rng_from_seed
from backalley.bots.bidding_model import is_auction
from backalley.bots.heuristic import HeuristicBot
from backalley.bots.layouts import (
    CallMemo,
    call_distance,
    call_tricks,
    draw_layout,
    layout_likelihood,
    others_played,
)
from backalley.bots.montecarlo import (
    CLOCKS,
    Clock,
    _deal_over,
    _end_value,
    _solver_module,
    clock_of,
    distinct_cards,
    rollout_value,
)
from backalley.engine import lowlevel
from backalley.engine.legality import Phase
from backalley.engine.state import GameState
from backalley.engine.views import PlayerView
from backalley.errors import SetupError
from backalley.moves import Bid, Move, NameTrump, Pass

__all__ = [
    "CALL_MIN_LAYOUTS",
    "CALL_Z",
    "CallMemo",
    "PimcBot",
    "PLAY_WEIGHT",
    "PimcStats",
    "call_distance",
    "layout_likelihood",
]

_HEURISTIC = HeuristicBot()
CALL_Z = 1.65
"""The default ``call_z``: how many standard errors a call's mean gain over
the heuristic's call must clear for the bot to make it instead (one-sided;
1.65 is about 95 % confidence on a normal curve)."""
CALL_MIN_LAYOUTS = 4.0
"""The fewest layouts (the effective number, ``sum(w)**2 / sum(w**2)`` of
their weights) on which a call may overrule the heuristic's."""
SOLVER_TABLES = {"max_entries": 200_000, "max_tables": 4}
"""The size of each bot's solver tables (entries per table, tables kept)."""
PLAN_SHARE = 0.4
"""The share of a decision's budget that one layout's solving may be
expected to take (by the times the bot has measured) for the plan to solve
it: a play's solve, or a call's candidates together; past it the plan is
cheaper (see the module docstring's *Budgets*)."""
FIRST_SHARE = 0.6
"""The share of the budget the first layout's solve of a play may take
before it is cut short and the layouts are rolled out instead."""
PLAY_WEIGHT = 0.0
"""The default ``play_weight``: how much a card played other than the
heuristic's (its group of equivalent cards) costs a layout, ``exp(-play_weight)``
(see the module docstring's *The cards played weigh them too*); 0, the
calls alone, until a play model beats them against every bot (at 2 it
plays level with them against ``pimc`` and the heuristic)."""
POOL_SHARE = 0.15
"""The share of a decision's budget that weighing the ``draws`` layouts one
layout to score is picked from may take (on a bounding budget): past it,
the layout is picked from those drawn so far."""
GROWTH = 3.0
"""How much longer a solve is guessed to take with one more card in each
hand, before the bot has measured it."""


@attrs.define
class PimcStats:
    """What the bot's sampling did, counted over its decisions."""

    decisions: int = 0
    """Decisions made by sampling (a single legal move or candidate needs none)."""
    samples: int = 0
    """Layouts scored."""
    drawn: int = 0
    """Layouts drawn (and weighed) to pick the scored ones from."""
    failed: int = 0
    """Layouts that could not be drawn or built (a view no deal reproduces)."""
    unweighted: int = 0
    """Layouts whose calls could not be replayed, so counted with weight 1."""
    solved: int = 0
    """Positions given to the solver."""
    rollouts: int = 0
    """Deals (or their first tricks) played out by the heuristic."""
    fallbacks: int = 0
    """Decisions left to the heuristic bot because no layout could be scored."""
    overruled: int = 0
    """Calls, trumps named and cards scored by rollouts other than the
    heuristic's, made because the layouts showed them better with confidence
    (see :meth:`PimcBot.pick_call` and :meth:`PimcBot.pick_card`)."""
    stopped: int = 0
    """Layouts left unscored because the decision's budget ran out while they
    were scored (by the solver, or between two candidates)."""
    out_of_time: int = 0
    """Decisions whose budget ran out before their first layout was scored:
    the heuristic bot's move was made."""
    planned: int = 0
    """Decisions scored by a cheaper plan than the settings', to fit the
    budget: a play rolled out that the solver would have scored, or a
    call's deals solved from fewer cards (see the module docstring)."""


# ------------------------------------------------------------ the solver


class _NoSolver(Exception):
    """Never raised: what :func:`_limit_error` names without a solver."""


class _OutOfTime(Exception):
    """The decision's budget ran out between two candidates of a layout."""


def _limit_error() -> type[Exception]:
    """The solver's :class:`~backalley.solver.SearchLimitError` (the solver is
    imported only once a bot needs it)."""
    module = _solver_module()
    return _NoSolver if module is None else module.SearchLimitError


# ------------------------------------------------------------------- the bot


class PimcBot:
    """Perfect-information Monte Carlo with layouts weighed by the calls (see
    the module docstring).  ``call_z`` (:data:`CALL_Z`, 1.65) is the
    standard errors by which a call's gain over the heuristic's call must
    clear 0 for the bot to make it instead (:meth:`pick_call`): 0 takes any
    call whose mean is better on enough layouts, larger numbers keep the
    heuristic's call more often.  ``card_z`` (also 1.65) is the same for a
    card scored by rollouts (:meth:`pick_card`).  ``tricks`` names the trick
    model the heuristic bids from inside the bot's decisions (its calls,
    the calls that weigh the layouts, its playouts; see
    :mod:`backalley.bots.trick_model`; ``None``: the one in force)."""

    def __init__(
        self,
        seed: object = None,
        *,
        samples: int = 20,
        budget: float | None = None,
        clock: str | Clock = "cpu",
        solver_cards: int = 9,
        bid_solver_cards: int = 7,
        bid_reach: int = 1,
        call_weight: float = 1.0,
        draws: int = 4,
        call_z: float = CALL_Z,
        card_z: float = CALL_Z,
        play_weight: float = PLAY_WEIGHT,
        tricks: str | None = None,
    ) -> None:
        check_whole("samples", samples, 1)
        if budget is not None and not (
            isinstance(budget, (int, float)) and not isinstance(budget, bool) and budget > 0
        ):
            raise SetupError(f"budget must be a number of seconds > 0 or None, not {budget!r}")
        check_whole("solver_cards", solver_cards, 0)
        check_whole("bid_solver_cards", bid_solver_cards, 0)
        check_whole("bid_reach", bid_reach, 0)
        check_whole("draws", draws, 1)
        check_weight("call_weight", call_weight)
        check_weight("play_weight", play_weight)
        for name, z in (("call_z", call_z), ("card_z", card_z)):
            if not isinstance(z, (int, float)) or isinstance(z, bool) or not 0 <= z < math.inf:
                raise SetupError(
                    f"{name} must be a number of standard errors >= 0 (1.65 is about 95 % "
                    f"confidence), not {z!r}"
                )
        self._rng = rng_from_seed(seed)
        self.tricks = None if tricks is None else trick_model.check_name(tricks)
        self.samples = samples
        self.budget = budget
        self.clock = clock_of(clock)
        # the solver's deadlines are CPU seconds: a budget on the CPU or the
        # wall clock bounds each solve by what is left of it (CPU time never
        # runs ahead of the wall clock) and is read between candidates; a
        # clock of the caller's own is read only between layouts
        self._bounds_layouts = budget is not None and self.clock in CLOCKS.values()
        self._until: float | None = None
        """Past this reading of the clock, a layout stops (``None``: never)."""
        self._costs: dict[tuple[bool, int], float] = {}
        """The clock's seconds one layout's solving took, a running mean by
        (a call?, cards solved): a play's solve, or one candidate call's deal."""
        self._play_cards = solver_cards
        """The decision's plan: the most cards left for the solver to score a play."""
        self._bid_cards = bid_solver_cards
        """The decision's plan: the cards left when a call's deal is solved."""
        self.solver_cards = solver_cards
        self.bid_solver_cards = bid_solver_cards
        self.bid_reach = bid_reach
        self.call_weight = float(call_weight)
        self.play_weight = float(play_weight)
        self.draws = draws
        self.call_z = float(call_z)
        self.card_z = float(card_z)
        self._heuristic = HeuristicBot(seed)
        self._dd: Any = None
        self.memo = CallMemo()
        """The bidding model's answers this bot has asked for (bounded, its own)."""
        self.stats = PimcStats()
        """What the sampling did so far (see :class:`PimcStats`)."""
        self.last_values: dict[Move, float] = {}
        """The weighted mean value of each candidate at the last sampled decision."""
        self.last_layouts: list[tuple[float, list[float]]] = []
        """The last sampled decision's layouts: each one's weight and the value
        of each candidate on it (in the order of the candidates)."""

    # ------------------------------------------------------------ candidates

    def candidates(self, view: PlayerView, moves: Sequence[Move]) -> list[Move]:
        """The moves worth scoring: in the play one card of each group of
        equivalent cards (the heuristic's card first, standing for its
        group, when rollouts score them); in the bidding the heuristic's
        call first, then the numbers within ``bid_reach`` of it and every
        call that is not a number (the heuristic's call alone while a
        partner is still to speak); naming trump, the heuristic's suit
        first, then the others."""
        if view.phase is Phase.PLAYING:
            self._plan_play(view)
            return self._cards(view, moves)
        pick = self._heuristic.choose(view)
        if isinstance(moves[0], NameTrump):
            return [pick, *(m for m in moves if m != pick)]
        if lowlevel.partner_speaks_later(view, pick):
            return [pick]  # a partner still to speak reads the call by the model
        h = view.hand_size
        level = max((c.tricks for c in view.calls if isinstance(c, Bid)), default=0)
        aim = call_tricks(pick, h, level if is_auction(view) else 0)
        # ties go to the earliest: the heuristic's call, then the calls that
        # are not numbers (board, counters), the numbers nearest the heuristic's,
        # and pass last (a call that leaves the contract to the others)
        others = [m for m in moves if not isinstance(m, (Bid, Pass))]
        numbers = [
            m
            for m in moves
            if isinstance(m, Bid) and (aim is None or abs(m.tricks - aim) <= self.bid_reach)
        ]
        numbers.sort(key=lambda m: abs(m.tricks - (aim or 0)))
        out = [pick]
        for m in [*others, *numbers, *(m for m in moves if isinstance(m, Pass))]:
            if m not in out:
                out.append(m)
        return out

    def _cards(self, view: PlayerView, moves: Sequence[Move]) -> list[Move]:
        """The cards to score: one of each group of equivalent cards, the
        heuristic's card first, standing for its group (the yardstick of
        :meth:`pick_card` where rollouts score the cards; where the solver
        does, the card that wins ties of the best mean)."""
        pick = self._heuristic.choose(view)  # scored first: pick_card's yardstick
        cards = distinct_cards(view, moves, keep=pick)  # pick stands for its group
        return [pick, *(m for m in cards if m != pick)]

    # --------------------------------------------------------------- scoring

    def _points(self, state: GameState, seat: int, future: int) -> float:
        """The value for ``seat``'s side when the side of ``state.to_act``
        takes ``future`` of the tricks left (the current one included)."""
        rules = state.rules
        teams = rules.teams
        won = state.tricks_won
        have = [sum(won[s] for s in team) for team in teams]
        remaining = state.hand_size - len(state.tricks)
        actor = state.to_act
        assert actor is not None
        side = rules.seat_teams[actor]
        have[side] += future
        have[1 - side] += remaining - future
        points = lowlevel.deal_points(state, have)
        mine = rules.seat_teams[seat]
        return float(points[mine] - points[1 - mine])

    def _solvable(self, state: GameState | PlayerView) -> bool:
        return len(state.rules.teams) == 2 and _solver_module() is not None

    def _solves(self, state: GameState | PlayerView) -> bool:
        """Whether the solver scores the cards of this play position (at most
        ``solver_cards`` cards left in each hand - fewer when the decision's
        plan says so -, a rule set of two sides and the solver installed);
        rollouts score them otherwise."""
        return self._left(state) <= self._play_cards and self._solvable(state)

    # -------------------------------------------------------------- planning

    def _cost(self, call: bool, cards: int) -> float | None:
        """The seconds one layout's solving is expected to take (a call's:
        one candidate's deal), by the times measured, or guessed from the
        nearest number of cards measured (:data:`GROWTH` a card); ``None``
        before anything is known."""
        costs = self._costs
        known = costs.get((call, cards))
        if known is not None:
            return known
        near = [n for (c, n) in costs if c == call]
        if not near:
            return None
        n = min(near, key=lambda m: (abs(m - cards), m))
        return costs[(call, n)] * GROWTH ** (cards - n)

    def _learn(self, call: bool, cards: int, seconds: float, cut: bool = False) -> None:
        """Keep the seconds one layout's solving took (a running mean), or,
        ``cut`` short, at least ``seconds``."""
        key = (call, cards)
        old = self._costs.get(key)
        if old is None:
            self._costs[key] = seconds
        elif cut:
            self._costs[key] = max(old, seconds)
        else:
            self._costs[key] = 0.7 * old + 0.3 * seconds

    def _fits(self, call: bool, cards: int, times: int) -> bool:
        """Whether ``times`` solves of ``cards`` cards are expected to fit the
        budget's :data:`PLAN_SHARE` (always, without a bounding budget or
        before anything is measured)."""
        budget = self.budget
        if not self._bounds_layouts or budget is None:
            return True
        cost = self._cost(call, cards)
        return cost is None or times * cost <= PLAN_SHARE * budget

    def _plan_play(self, view: PlayerView) -> None:
        """The decision's plan for a play: the solver scores it when its
        solve is expected to fit the budget, else rollouts."""
        left = self._left(view)
        self._play_cards = self.solver_cards
        if left <= self.solver_cards and self._solvable(view) and not self._fits(False, left, 1):
            self._play_cards = left - 1
            self.stats.planned += 1

    def _plan_call(self, candidates: int) -> None:
        """The decision's plan for a call: its deals solved from the most
        cards, up to ``bid_solver_cards``, whose solves for every candidate
        are expected to fit the budget (none: the heuristic plays them out)."""
        cards = self.bid_solver_cards
        while cards > 0 and not self._fits(True, cards, candidates):
            cards -= 1
        if cards < self.bid_solver_cards:
            self.stats.planned += 1
        self._bid_cards = cards

    def _solver(self) -> Any:
        """The double-dummy solver: a :class:`backalley.solver.Solver` of the
        bot's own where the solver has one (its tables answer positions that
        recur between layouts and decisions), else the module's functions."""
        if self._dd is None:
            module = _solver_module()
            assert module is not None
            make = getattr(module, "Solver", None)
            self._dd = module if make is None else make(**SOLVER_TABLES)
        return self._dd

    def _deadline(self, share: float = 1.0) -> float | None:
        """The CPU seconds a solve may take now: what is left of the
        decision's budget, at most ``share`` of the budget (``None``: no
        limit)."""
        if self._until is None:
            return None
        left = self._until - self.clock()
        if share < 1.0 and self.budget is not None:
            left = min(left, share * self.budget)
        return max(0.0, left)

    def _check_time(self) -> None:
        """Raise :class:`_OutOfTime` once the decision's budget has run out
        (read only on the CPU or the wall clock, see the module docstring)."""
        if self._until is not None and self.clock() > self._until:
            raise _OutOfTime

    def _left(self, state: GameState | PlayerView) -> int:
        return state.hand_size - len(state.tricks)

    def _play_values(
        self, base: GameState, cands: Sequence[Move], seat: int, first: bool = False
    ) -> list[float]:
        if self._solves(base):
            # the first layout's solve may take FIRST_SHARE of the budget:
            # cut short, the decision rolls its layouts out in what is left
            deadline = self._deadline(FIRST_SHARE if first else 1.0)
            tricks = self._timed(
                False, self._left(base), self._solver().analyse, base, deadline=deadline
            )
            self.stats.solved += 1
            return [self._points(base, seat, tricks[m]) for m in cands]
        out = []
        for move in cands:
            self._check_time()
            after = base.apply(move)
            if _deal_over(base, after):
                out.append(_end_value(base, after, seat))
            else:
                self.stats.rollouts += 1
                out.append(rollout_value(after, seat))
        return out

    def _deal_value(self, state: GameState, seat: int) -> float:
        """The value for ``seat``'s side of the deal from ``state`` (after a
        candidate call): the heuristic finishes the bidding and plays the
        first tricks, the solver the last ``bid_solver_cards``."""
        played = False
        while state.phase is not Phase.PLAYING or (
            self._left(state) > self._bid_cards or not self._solvable(state)
        ):
            actor = state.to_act
            assert actor is not None
            if state.phase is Phase.PLAYING and not played:
                played = True
                self.stats.rollouts += 1
            after = state.apply_unchecked(_HEURISTIC.choose(state.view(actor)))
            if _deal_over(state, after):
                return _end_value(state, after, seat)
            state = after
        self.stats.solved += 1
        return self._points(
            state, seat, int(self._solver().solve(state, deadline=self._deadline()))
        )

    def _values(
        self, base: GameState, cands: Sequence[Move], seat: int, first: bool = False
    ) -> list[float]:
        if base.phase is Phase.PLAYING:
            return self._play_values(base, cands, seat, first)
        out = []
        for move in cands:
            self._check_time()
            after = base.apply(move)
            if _deal_over(base, after):
                out.append(_end_value(base, after, seat))
            else:
                out.append(self._timed(True, self._bid_cards, self._deal_value, after, seat))
        return out

    def _timed(self, call: bool, cards: int, work: Any, *args: Any, **kwargs: Any) -> Any:
        """``work(*args)``, its seconds learnt as one solve of ``cards``
        cards (on a bounding budget): twice them when the budget cut it short,
        as it would have taken longer."""
        if self._until is None:
            return work(*args, **kwargs)
        start = self.clock()
        try:
            out = work(*args, **kwargs)
        except (_limit_error(), _OutOfTime):
            self._learn(call, cards, 2 * (self.clock() - start), cut=True)
            raise
        self._learn(call, cards, self.clock() - start)
        return out

    # -------------------------------------------------------------- sampling

    def draw(
        self, view: PlayerView, ascending: bool | None = None
    ) -> tuple[GameState, float] | None:
        """One layout to score and its weight, drawn by
        :func:`backalley.bots.layouts.draw_layout` with the bot's ``draws``,
        ``call_weight``, ``play_weight`` and memo (see the module docstring),
        or ``None`` when no layout could be built this time; inside a
        decision on a bounding budget that weighs cards played, no more
        layouts are drawn for the pick once the drawing took
        :data:`POOL_SHARE` of the budget, or the budget ran out.  Raises
        :class:`LookupError` when no cards fit the view at all."""
        enough = None
        budget = self.budget
        if (
            self._until is not None
            and budget is not None
            and self.play_weight > 0
            and others_played(view)
        ):
            clock = self.clock
            limit = min(clock() + POOL_SHARE * budget, self._until)

            def enough() -> bool:
                return clock() > limit

        return draw_layout(
            view,
            self._rng,
            self.stats,
            draws=self.draws,
            call_weight=self.call_weight,
            ascending=ascending,
            memo=self.memo,
            play_weight=self.play_weight,
            enough=enough,
        )

    def choose(self, view: PlayerView) -> Move:
        """The bot's move (see the module docstring).  On a bounding budget,
        Python's cyclic garbage collector is held off for the decision."""
        with trick_model.using(self.tricks):
            return self._decide(view)

    def _decide(self, view: PlayerView) -> Move:
        if not self._bounds_layouts or not gc.isenabled():
            return choose_among(view, self.candidates, self._sample)
        gc.disable()
        try:
            return choose_among(view, self.candidates, self._sample)
        finally:
            gc.enable()

    def _sample(self, view: PlayerView, cands: Sequence[Move]) -> Move:
        """The candidate to make, from the layouts scored: a card with the best
        weighted mean value; a call by :meth:`pick_call`."""
        clock = self.clock
        start = clock()
        budget = self.budget
        self._until = start + budget if self._bounds_layouts and budget is not None else None
        if view.phase is not Phase.PLAYING:
            self._plan_call(len(cands))
        stats = self.stats
        stats.decisions += 1
        ascending = is_auction(view)
        totals = [0.0] * len(cands)
        weights = 0.0
        done = 0
        layouts: list[tuple[float, list[float]]] = []
        stopped = False
        begun = start  # when the layouts of the decision's plan began
        for _ in range(self.samples):
            try:
                picked = self.draw(view, ascending)
            except LookupError:
                stats.failed += 1
                break  # no cards fit the view: another draw cannot find any
            if picked is not None:
                layout, weight = picked
                try:
                    values = self._values(layout, cands, view.seat, first=not done)
                except (_limit_error(), _OutOfTime):
                    stats.stopped += 1  # the budget ran out inside this layout
                    replanned = None if done else self._replan(view)
                    if replanned is not None:
                        # the first layout's solve was cut short at its share
                        # of the budget: the plan is now to roll the layouts
                        # out, in what is left
                        cands = replanned
                        if len(cands) == 1:
                            break  # the heuristic's card alone
                        totals = [0.0] * len(cands)
                        begun = clock()
                        continue
                    stopped = True
                    break
                layouts.append((weight, values))
                for i, value in enumerate(values):
                    totals[i] += weight * value
                weights += weight
                done += 1
            if budget is not None:
                spent = clock() - start
                if spent > budget:
                    break
                # on a bounding clock, a layout is not begun with less than
                # half a layout's mean time left: it would mostly be cut short
                mean = (spent + start - begun) / done if done else 0.0
                if self._bounds_layouts and done and budget - spent < 0.5 * mean:
                    break
        self._until = None
        stats.samples += done
        if len(cands) == 1:
            return cands[0]  # replanned: the heuristic's card stands alone
        if stopped and not done:
            stats.out_of_time += 1  # no layout in the budget: the heuristic's move
            return self._heuristic.choose(view)
        if not done or weights <= 0:
            stats.fallbacks += 1
            warnings.warn(
                f"pimc: no deal fits seat {view.seat}'s view (a rule's possible "
                "cards are unsound?); the heuristic bot decides",
                RuntimeWarning,
                stacklevel=4,  # the caller of choose (through choose_among)
            )
            return self._heuristic.choose(view)
        self.last_values = {m: totals[i] / weights for i, m in enumerate(cands)}
        self.last_layouts = layouts
        if view.phase is not Phase.PLAYING:
            best = self.pick_call(layouts)
            stats.overruled += int(best != 0)
        elif not self._solves(view):
            best = self.pick_card(layouts)
            stats.overruled += int(best != 0)
        else:  # the best weighted mean; of equal means, the earliest: the heuristic's card
            best = max(range(len(cands)), key=lambda i: (totals[i], -i))
        return cands[best]

    def _replan(self, view: PlayerView) -> list[Move] | None:
        """After the first layout's solve of a play was cut short, with time
        left in the budget: the decision's new plan, to roll its layouts out,
        and the candidates for it; else ``None``."""
        if view.phase is not Phase.PLAYING or not self._solves(view) or self._until is None:
            return None
        if self.clock() >= self._until:
            return None
        self._play_cards = self._left(view) - 1
        self.stats.planned += 1
        return self._cards(view, view.legal_moves())

    def pick_call(self, layouts: Sequence[tuple[float, Sequence[float]]]) -> int:
        """Which candidate call to make (its index), given each scored
        layout's weight and the candidates' values on it, the heuristic's
        call first (index 0): another call only when its weighted mean gain
        over the heuristic's, less ``call_z`` standard errors, is above 0,
        on at least :data:`CALL_MIN_LAYOUTS` layouts' worth of weight (see
        the module docstring); of those, the best mean, the earliest on ties."""
        return _overrule(layouts, self.call_z)

    def pick_card(self, layouts: Sequence[tuple[float, Sequence[float]]]) -> int:
        """Which candidate card to play (its index) when rollouts scored
        them, the heuristic's card first (index 0): the test of
        :meth:`pick_call` with ``card_z`` standard errors."""
        return _overrule(layouts, self.card_z)


def _overrule(layouts: Sequence[tuple[float, Sequence[float]]], z: float) -> int:
    """The candidate (its index) whose weighted mean gain over candidate 0,
    less ``z`` standard errors, is the best above 0, on enough layouts
    (:meth:`PimcBot.pick_call`); 0 when none is."""
    n = len(layouts)
    total = sum(w for w, _ in layouts)
    squares = sum(w * w for w, _ in layouts)
    if n < 2 or total <= 0 or total * total < CALL_MIN_LAYOUTS * squares:
        return 0
    best, best_gain = 0, 0.0
    for i in range(1, len(layouts[0][1])):
        diffs = [(w, v[i] - v[0]) for w, v in layouts]
        gain = sum(w * d for w, d in diffs) / total
        spread = sum(w * w * (d - gain) ** 2 for w, d in diffs) / (total * total)
        error = math.sqrt(spread * n / (n - 1))
        if gain - z * error > 0 and gain > best_gain:
            best, best_gain = i, gain
    return best
