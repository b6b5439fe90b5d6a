"""OpenSpiel's information-set MCTS against the library's bots, on duplicate deals.

OpenSpiel's ISMCTS (``open_spiel.python.algorithms.ismcts``, random
rollouts) plays through the OpenSpiel game (``backalley.adapters.openspiel``)
and its ``resample_from_infostate``.  It is wrapped as a library bot: from
the seat's :class:`~backalley.PlayerView` alone it builds an OpenSpiel state
the seat cannot tell from the true one (one draw of the hidden hands, as
``resample_from_infostate`` draws them), and the search resamples from there.
So it knows what the other bots know, no more.

The match is :func:`backalley.bots.match.duplicate_match`: every deal twice
from the same cards, the bots' sides swapped; the figure is ISMCTS's points
per deal less its opponent's, with a 95 % confidence interval.  Each deal is
a one-deal game, so a rollout ends with the deal and the search maximises
the deal's returns for its side: with ``--returns zero-sum`` (the default)
its side's points less the other side's (the game's ``zero_sum`` parameter:
the measure the match reports and the library's sampling bots maximise),
with ``--returns scores`` its side's own points.  Bounded: ``--deals``
duplicate deals of ``--hand-size`` cards, ``--simulations`` per decision
(reproducible from ``--seed``), or as many as ``--budget`` seconds of CPU
time a decision allow (:class:`TimedISMCTS`; the ``montecarlo`` and ``pimc``
opponents then get the same CPU budget a decision and no limit on their
samples; ``benchmarks/strength_table.py`` runs it so against the other bots
at equal CPU per decision).

``--positions N`` plays no match: it times ISMCTS on ``N`` positions with a
choice drawn from heuristic games of one ``--hand-size``-card deal, and
prints the simulations it ran a decision in ``--budget`` seconds of CPU
(each simulation resamples the hidden cards through
``resample_from_infostate``, then plays at random to the deal's end).

Run from the project root, e.g.::

    python3 benchmarks/ismcts_vs.py --deals 20 --hand-size 4 --simulations 40
    python3 benchmarks/ismcts_vs.py --opponents heuristic --deals 100
    python3 benchmarks/ismcts_vs.py --opponents pimc --hand-size 13 --budget 0.1 --deals 40 \
        --simulations 1000000
    python3 benchmarks/ismcts_vs.py --positions 30 --hand-size 13 --budget 0.1
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np
from open_spiel.python.algorithms import ismcts, mcts

import backalley as ba
from backalley.adapters.encoding import describe, table_of_view
from backalley.adapters.openspiel import BackAlleyGame, load_game
from backalley.bots import HeuristicBot, MonteCarloBot, PimcBot, make_bot
from backalley.bots._base import Bot
from backalley.bots.match import duplicate_match
from backalley.cards import CARDS
from backalley.engine import lowlevel
from backalley.errors import BackAlleyError


class TimedISMCTS(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel's ISMCTS whose search stops on a CPU-time budget: simulations
    run until ``budget`` seconds of the process's CPU time (counted from
    ``start``) have passed, at most ``max_simulations``.  The simulation
    running when the budget runs out is finished, as the library's sampling
    bots finish their last sample, and the search always goes once through
    the root past its expansion (two simulations at least).  The loop is
    OpenSpiel's own ``run_search`` with the time check added (no
    inconsistent action sets)."""

    def __init__(self, *args: Any, budget: float, start: float, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.budget = budget
        self.start = start
        self.simulations_run = 0

    def run_search(self, state: Any) -> Any:
        self.reset()
        legal_actions = state.legal_actions()
        if len(legal_actions) == 1:
            return [(legal_actions[0], 1.0)]
        self._root_node = self.create_new_node(state)
        key = self.get_state_key(state)
        for _ in range(self._max_simulations):
            sampled = self.sample_root_state(state)
            assert key == self.get_state_key(sampled)
            self.run_simulation(sampled)
            self.simulations_run += 1
            # the first simulation only expands the root: OpenSpiel's final
            # policy needs one visit through it
            visited = self._root_node.total_visits > 0
            if visited and time.process_time() - self.start > self.budget:
                break
        return self.get_final_policy(state, self._root_node)


class IsmctsBot:
    """OpenSpiel's ISMCTS with random rollouts, as a library bot (``choose(view)``).

    ``simulations`` a decision; with ``budget`` (seconds of the process's CPU
    time a decision, building the seat's OpenSpiel state included) the search
    stops when the budget is spent, ``simulations`` then being only an upper
    bound (:class:`TimedISMCTS`)."""

    def __init__(
        self,
        seed: object,
        *,
        simulations: int,
        uct_c: float,
        budget: float | None = None,
        zero_sum: bool = True,
    ) -> None:
        self._rng = random.Random(str(seed))
        self._np = np.random.RandomState(self._rng.randrange(2**32))
        self.simulations = simulations
        self.uct_c = uct_c
        self.budget = budget
        self.zero_sum = zero_sum
        self._games: dict[tuple[ba.RuleSet, int], BackAlleyGame] = {}
        self.decisions = 0
        self.simulations_run = 0
        self.cpu = 0.0

    def _game(self, view: ba.PlayerView) -> BackAlleyGame:
        """The OpenSpiel game of the view's deal: its rule set's first deal, its dealer."""
        key = (view.rules, view.dealer)
        if key not in self._games:
            zero_sum = self.zero_sum
            try:
                self._games[key] = load_game(
                    view.rules, deals=1, dealer=view.dealer, zero_sum=zero_sum
                )
            except BackAlleyError:  # a rule set that needs its later deals
                self._games[key] = load_game(view.rules, dealer=view.dealer, zero_sum=zero_sum)
        return self._games[key]

    def _state(self, view: ba.PlayerView) -> Any:
        """An OpenSpiel state in the seat's information set: the deal dealt
        from one draw of the hidden hands, the deal's moves replayed."""
        game = self._game(view)
        hands = lowlevel.sample_hands(view, self._rng)
        if hands is None:
            raise BackAlleyError(f"no hands fit seat {view.seat}'s view")
        order, opening = lowlevel.deck_for(view, hands)
        state = game.state_of(order[:-1])
        codes = state.track.codes
        for move in _deal_moves(opening, view):
            state.apply_action(codes.id_of(move))
        assert state.current_player() == view.seat
        assert state.observation_string(view.seat) == describe(table_of_view(view))
        return state

    def choose(self, view: ba.PlayerView) -> ba.Move:
        moves = view.legal_moves()
        if len(moves) == 1:
            return moves[0]
        start = time.process_time()
        state = self._state(view)
        draws = self._rng.random
        evaluator = mcts.RandomRolloutEvaluator(1, self._np)
        bot: Any
        if self.budget is None:
            bot = ismcts.ISMCTSBot(
                state.get_game(), evaluator, self.uct_c, self.simulations, random_state=self._np
            )
        else:
            bot = TimedISMCTS(
                state.get_game(),
                evaluator,
                self.uct_c,
                self.simulations,
                random_state=self._np,
                budget=self.budget,
                start=start,
            )
        bot.set_resampler(lambda s, player: s.resample_from_infostate(player, draws))
        action = int(bot.step(state))
        self.decisions += 1
        self.simulations_run += bot.simulations_run if self.budget is not None else self.simulations
        self.cpu += time.process_time() - start
        return state.track.codes.move_of(action)


def _deal_moves(opening: ba.GameState, view: ba.PlayerView) -> list[ba.Move]:
    """The moves of the view's deal so far, in order: the calls, the trump
    named (if the declarer named one), the cards played."""
    moves: list[ba.Move] = list(view.calls)
    state = opening
    for move in moves:
        state = state.apply(move)
    if state.phase is ba.Phase.NAMING_TRUMP and view.phase is not ba.Phase.NAMING_TRUMP:
        assert view.trump is not None
        moves.append(ba.NameTrump(view.trump))
    for _lead, cards, _win in lowlevel.history(view):
        moves.extend(ba.Play(CARDS[card]) for card in cards)
    moves.extend(ba.Play(CARDS[card]) for card in lowlevel.trick_cards(view))
    return moves


def measure(args: argparse.Namespace) -> None:
    """Simulations a decision in ``--budget`` CPU seconds on ``--positions`` positions."""
    rules = ba.variants.get(args.rules).replace(schedule=ba.rules.Schedule((args.hand_size,)))
    views = []
    for g in range(max(3, args.positions // 10)):
        state = ba.new_game(rules, seed=args.seed + g)
        heuristic = HeuristicBot(g)
        while not state.is_over:
            assert state.to_act is not None
            view = state.view(state.to_act)
            if len(view.legal_moves()) > 1:
                views.append(view)
            state = state.apply(heuristic.choose(view))
    chosen = random.Random(args.seed).sample(views, min(len(views), args.positions))
    bot = IsmctsBot(
        args.seed,
        simulations=10**6,
        uct_c=args.uct_c,
        budget=args.budget or 0.1,
        zero_sum=args.returns == "zero-sum",
    )
    sims = []
    for view in chosen:
        before = bot.simulations_run
        bot.choose(view)
        sims.append(bot.simulations_run - before)
    sims.sort()
    print(
        f"{args.rules}, one {args.hand_size}-card deal: ISMCTS in {args.budget or 0.1:g} s CPU a "
        f"decision on {len(sims)} positions: {sum(sims) / len(sims):.1f} simulations a decision "
        f"(median {sims[len(sims) // 2]}, {sims[0]} .. {sims[-1]}), "
        f"{1000 * bot.cpu / bot.decisions:.0f} ms CPU a decision",
        flush=True,
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="gamerules")
    parser.add_argument("--deals", type=int, default=20, help="duplicate deals per opponent")
    parser.add_argument("--hand-size", type=int, default=4)
    parser.add_argument("--simulations", type=int, default=40, help="ISMCTS simulations a move")
    parser.add_argument(
        "--budget",
        type=float,
        default=0.0,
        help="ISMCTS CPU seconds a move (0: --simulations, no time limit)",
    )
    parser.add_argument(
        "--uct-c", type=float, default=20.0, help="UCT exploration (in points: rewards are points)"
    )
    parser.add_argument(
        "--returns",
        choices=["zero-sum", "scores"],
        default="zero-sum",
        help="what the search maximises: its side's points less the other's, or its own",
    )
    parser.add_argument("--positions", type=int, default=0, help="time N positions, no match")
    parser.add_argument("--opponents", default="heuristic,montecarlo")
    parser.add_argument("--mc-samples", type=int, default=20)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    if args.positions:
        measure(args)
        return
    rules = ba.variants.get(args.rules)
    made: list[IsmctsBot] = []
    zero_sum = args.returns == "zero-sum"

    def ismcts_bot(seed: object) -> Bot:
        bot = IsmctsBot(
            seed,
            simulations=args.simulations,
            uct_c=args.uct_c,
            budget=args.budget or None,
            zero_sum=zero_sum,
        )
        made.append(bot)
        return bot

    budget = args.budget or None
    unbounded = 10**6  # samples: the budget stops a sampling bot first

    def montecarlo(seed: object) -> Bot:
        if budget is None:
            return MonteCarloBot(seed, samples=args.mc_samples, budget=None)
        return MonteCarloBot(seed, samples=unbounded, budget=budget)

    def pimc(seed: object) -> Bot:
        if budget is None:
            return PimcBot(seed)
        return PimcBot(seed, samples=unbounded, budget=budget)

    factories = {
        "heuristic": lambda seed: make_bot("heuristic", seed),
        "montecarlo": montecarlo,
        "pimc": pimc,
        "random": lambda seed: make_bot("random", seed),
    }
    search = f"{args.simulations} simulations a move"
    if args.budget:
        search = f"{args.budget:g} s CPU a move (at most {args.simulations} simulations)"
    print(
        f"{args.rules}: {args.deals} duplicate deals of {args.hand_size} cards; ISMCTS "
        f"{search}, random rollouts, {args.returns} returns, uct_c {args.uct_c}; "
        f"seed {args.seed}",
        flush=True,
    )
    for name in args.opponents.split(","):
        made.clear()
        start = time.process_time()
        result = duplicate_match(
            rules,
            ismcts_bot,
            factories[name],
            deals=args.deals,
            seed=args.seed,
            hand_sizes=[args.hand_size],
        )
        cpu = time.process_time() - start
        decisions = sum(b.decisions for b in made)
        per = 1000 * sum(b.cpu for b in made) / max(1, decisions)
        lo, hi = result.interval
        opponent = name
        if name in ("montecarlo", "pimc"):
            opponent += f" ({budget:g} s CPU a decision)" if budget else ""
            if name == "montecarlo" and not budget:
                opponent += f" ({args.mc_samples} samples)"
        print(
            f"ISMCTS vs {opponent}: {result.mean:+.2f} points per deal "
            f"(95% CI {lo:+.2f} .. {hi:+.2f}) over {result.deals} deals; "
            f"{decisions} ISMCTS decisions, {per:.0f} ms CPU and "
            f"{sum(b.simulations_run for b in made) / max(1, decisions):.1f} simulations each; "
            f"{cpu:.0f} s CPU in all",
            flush=True,
        )


if __name__ == "__main__":
    main()
