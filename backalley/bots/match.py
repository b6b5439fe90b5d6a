"""Measuring bots against each other: duplicate deals and whole games.

**Duplicate deals** (:func:`duplicate_match`) take the luck of the cards
out: every deal is played twice from the same deck order and dealer, with the
bots' seats swapped, so each bot holds each side's cards once.  The result is
the mean, over deals, of bot A's points per deal less bot B's (both tables
counted), with a 95 % confidence interval (normal approximation).  In a game
without partnerships (cutthroat) bot A takes one seat against copies of bot B
and the deal is played once with A in each seat, the difference then being
A's points less the mean of the others'.

**Whole games** (:func:`play_games`) play complete games of the rule set,
A's side against B's, alternating seats from game to game, and count wins.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from functools import lru_cache

import attrs

from backalley.bots._base import Bot, check_throw_ins, tell_game_over
from backalley.cards import CARDS, Card
from backalley.engine.legality import Phase
from backalley.engine.setup import new_game
from backalley.engine.state import GameState
from backalley.errors import BackAlleyError, SetupError
from backalley.rules.ruleset import RuleSet
from backalley.rules.schedule import Schedule

__all__ = ["GamesResult", "MatchResult", "duplicate_match", "play_games"]


@lru_cache(maxsize=256)
def one_deal(rules: RuleSet, hand_size: int) -> RuleSet:
    """``rules`` with a schedule whose first deal has ``hand_size`` cards (a
    duplicate deal's game): one deal when the rule set allows it (the game
    then ends, and is scored, with the deal), else that deal before the rule
    set's own schedule."""
    try:
        return rules.replace(schedule=Schedule((hand_size,)))
    except BackAlleyError:
        return rules.replace(schedule=Schedule((hand_size, *rules.schedule.hand_sizes)))


BotSpec = Callable[[object], Bot]
"""A bot factory: seed -> bot (e.g. ``lambda seed: make_bot("heuristic", seed)``)."""


@attrs.frozen(slots=True)
class MatchResult:
    """The outcome of a duplicate match: per-deal differences (bot A less bot B)."""

    rules_name: str
    deals: int
    differences: tuple[float, ...]

    @property
    def mean(self) -> float:
        """Mean points per deal, bot A less bot B."""
        return sum(self.differences) / len(self.differences) if self.differences else 0.0

    @property
    def stderr(self) -> float:
        k = len(self.differences)
        if k < 2:
            return math.inf
        m = self.mean
        var = sum((d - m) ** 2 for d in self.differences) / (k - 1)
        return math.sqrt(var / k)

    @property
    def interval(self) -> tuple[float, float]:
        """The 95 % confidence interval of :attr:`mean`."""
        half = 1.96 * self.stderr
        return (self.mean - half, self.mean + half)

    def __str__(self) -> str:
        lo, hi = self.interval
        return f"{self.mean:+.2f} points per deal (95% CI {lo:+.2f} .. {hi:+.2f}) over {self.deals} deals"


@attrs.frozen(slots=True)
class GamesResult:
    """The outcome of whole games between two bots: wins, losses and draws of A."""

    games: int
    wins: int
    losses: int
    draws: int
    mean_difference: float
    """A's final score less B's, averaged over the games."""

    @property
    def win_rate(self) -> float:
        """A's share of the games, a draw counting half."""
        return (self.wins + 0.5 * self.draws) / self.games if self.games else 0.0

    def __str__(self) -> str:
        return (
            f"{self.wins} wins, {self.losses} losses, {self.draws} draws in {self.games} games "
            f"({100 * self.win_rate:.1f}%), mean score difference {self.mean_difference:+.1f}"
        )


def _check(rules: object, count: int, what: str) -> RuleSet:
    if not isinstance(rules, RuleSet):
        raise SetupError(f"rules must be a RuleSet, not {rules!r}")
    if not isinstance(count, int) or isinstance(count, bool) or count < 1:
        raise SetupError(f"{what} must be a whole number >= 1, not {count!r}")
    return rules


def _play_out(state: GameState, bots: Sequence[Bot]) -> GameState:
    while state.phase is not Phase.GAME_OVER:
        seat = state.to_act
        assert seat is not None
        state = state.apply(bots[seat].choose(state.view(seat)))
        check_throw_ins(state)
    tell_game_over(bots, state)
    return state


def _deal_points(
    rules: RuleSet, order: Sequence[Card], dealer: int, bots: Sequence[Bot]
) -> tuple[int, ...]:
    """Play one deal (a one-deal game; thrown-in deals are redealt from a
    fixed seed) and return its points per side."""
    state = new_game(rules, seed=dealer, dealer=dealer, decks=[order])
    while not state.deal_results:
        seat = state.to_act
        assert seat is not None
        state = state.apply(bots[seat].choose(state.view(seat)))
        check_throw_ins(state)
    tell_game_over(bots, state)
    return state.deal_results[0].points


def duplicate_match(
    rules: RuleSet,
    bot_a: BotSpec,
    bot_b: BotSpec,
    *,
    deals: int = 100,
    seed: int = 0,
    hand_sizes: Sequence[int] | None = None,
) -> MatchResult:
    """Play ``deals`` duplicate deals of ``rules`` between bot A and bot B.

    Deal ``k`` has the hand size ``hand_sizes[k % len(hand_sizes)]`` (by
    default the rule set's schedule, in order), a dealer and deck order drawn
    from ``seed``; with partnerships it is played once with A's bots in the
    first side's seats and once with them in the other side's, and the
    deal's difference is A's points less B's over both tables.  Bots are
    built from the factories with a seed per deal and seat.  Each deal is
    played as a game of its own, so it is the first deal of its game: a rule
    that reads the deal's number (rotating trump) plays every deal as the
    first.
    """
    rules = _check(rules, deals, "deals")
    sizes = tuple(hand_sizes) if hand_sizes is not None else rules.schedule.hand_sizes
    if not sizes or any(not isinstance(h, int) or h < 1 for h in sizes):
        raise SetupError(f"hand_sizes must be whole numbers >= 1, not {hand_sizes!r}")
    rng = random.Random(seed)
    n = rules.players
    teams = rules.teams
    one_deal_of = {h: one_deal(rules, h) for h in set(sizes)}
    deck = [CARDS[i] for i in range(54) if rules.plan.deck_mask >> i & 1]
    diffs: list[float] = []
    for k in range(deals):
        size = sizes[k % len(sizes)]
        order = deck[:]
        rng.shuffle(order)
        dealer = rng.randrange(n)
        deal_rules = one_deal_of[size]
        if len(teams) == 2 and all(len(t) > 1 for t in teams):
            diff = 0.0
            for a_side in (0, 1):
                bots = [
                    (bot_a if rules.seat_teams[s] == a_side else bot_b)((seed, k, a_side, s))
                    for s in range(n)
                ]
                pts = _deal_points(deal_rules, order, dealer, bots)
                diff += pts[a_side] - pts[1 - a_side]
            diffs.append(diff)
        else:
            diff = 0.0
            for a_seat in range(n):
                bots = [(bot_a if s == a_seat else bot_b)((seed, k, a_seat, s)) for s in range(n)]
                pts = _deal_points(deal_rules, order, dealer, bots)
                mine = rules.seat_teams[a_seat]
                rest = [p for side, p in enumerate(pts) if side != mine]
                diff += pts[mine] - sum(rest) / len(rest)
            diffs.append(diff / n)
    return MatchResult(rules.name or "custom", deals, tuple(diffs))


def play_games(
    rules: RuleSet, bot_a: BotSpec, bot_b: BotSpec, *, games: int = 20, seed: int = 0
) -> GamesResult:
    """Play ``games`` whole games of ``rules``: bot A's copies take one side
    (one seat, in a cutthroat game), bot B's the others, the side (seat)
    changing from game to game; game ``g`` is dealt from seed ``seed + g``."""
    rules = _check(rules, games, "games")
    n = rules.players
    teams = rules.teams
    wins = losses = draws = 0
    total = 0.0
    for g in range(games):
        a_side = g % len(teams)
        bots = [(bot_a if rules.seat_teams[s] == a_side else bot_b)((seed, g, s)) for s in range(n)]
        state = _play_out(new_game(rules, seed=seed + g), bots)
        scores = state.scores
        mine = scores[a_side]
        best_other = max(p for side, p in enumerate(scores) if side != a_side)
        total += mine - sum(p for side, p in enumerate(scores) if side != a_side) / (
            len(scores) - 1
        )
        if mine > best_other:
            wins += 1
        elif mine < best_other:
            losses += 1
        else:
            draws += 1
    return GamesResult(games, wins, losses, draws, total / games)
