"""The ``heuristic`` bot: bids from a trick table fitted to double-dummy play,
plays by card-play rules.

It reads only its :class:`~backalley.PlayerView`, asks the view what is legal,
and learns what each call would contract and what each trick is worth from the
rule set's own bidding and scoring parts (through :mod:`backalley.engine.lowlevel`),
so it plays every rule set without knowing which one it is.

**Bidding.**  The bidding model is :mod:`backalley.bots.bidding_model`: the
hand's tricks estimated from a trick table fitted to the double-dummy solver
(:mod:`backalley.bots._tricks_table`, made by ``benchmarks/fit_bidding.py``)
over the hand's :data:`FEATURES` - or, where each player is alone and the
scoring part says a trick beyond one's contract costs points, fitted to the
bots' own play (:mod:`backalley.bots._tricks_exact`) - and every legal call scored by the
expected points the rule set's scoring part gives the contract the bidding
part says it leaves; in an ascending auction each call is weighed once the
later seats have answered it, counters included, and the other side's
numbers are read as evidence of its tricks.  Naming trump, the declarer
names the suit in which its hand is strongest.

**Play.** A trick is worth, to the bot's side, the points one more trick adds
for it plus the points it keeps from the others (the latter left out where
an overtrick costs; :func:`trick_worth`: per
trick up to the number beyond which one more trick would cost the side, or
all the tricks still to come where none would): positive while a contract
is in doubt, zero when the contract is made, or set, and the other side's
fate is settled under a scoring without overtrick points, and negative once
the contract is made where an overtrick costs (the bot then sheds its tricks).  When the trick is worth taking the bot
wins it as cheaply as it safely can (a winner no later seat can beat,
the lowest trump to ruff), lets a partner's sure winner stand, and plays
second hand low; when it is not, it ducks with its highest losing card.  Playing the trick's last card, it asks the
ranking part who takes the trick with each of its cards.
Leading, it cashes its masters (top trumps first while opponents may hold
trumps, then plain masters no void opponent can ruff), else leads low from
its longest plain suit; following rules are the view's legal moves.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from backalley.bots import bidding_model, trick_model
from backalley.bots._base import legal_moves_of, rng_from_seed
from backalley.bots.bidding_model import (
    PointsRow,
    TrickEstimate,
    estimate,
    points_table,
    side_distribution,
    table_row,
)
from backalley.bots.hand_reading import (
    FEATURES,
    cards_of,
    features_of,
    hand_chances,
    hand_features,
    sure_tricks,
    trick_distribution,
    unseen_bits,
)
from backalley.engine import lowlevel
from backalley.engine.legality import Phase
from backalley.engine.views import PlayerView
from backalley.moves import Move, NameTrump, Play
from backalley.rules.order import CardOrder

__all__ = [
    "FEATURES",
    "HeuristicBot",
    "TrickEstimate",
    "estimate",
    "features_of",
    "hand_chances",
    "hand_features",
    "PointsRow",
    "points_table",
    "side_distribution",
    "sure_tricks",
    "table_row",
    "trick_distribution",
    "trick_worth",
    "unseen_bits",
]


def trick_worth(points: Sequence[int], have: int, top: int) -> float:
    """What one more trick is worth to a side holding ``have`` tricks that
    may take up to ``top``, by its points for each number of tricks: the
    points per trick up to the first number beyond which one more trick
    would cost it (its contract, where an overtrick costs; else ``top``);
    where ``have`` is that number already, what one more trick costs."""
    k = have
    while k < top and points[k + 1] >= points[k]:
        k += 1
    if k > have:
        return (points[k] - points[have]) / (k - have)
    return float(points[have + 1] - points[have]) if have < top else 0.0


class HeuristicBot:
    """Bids from hand strength and plays by card-play rules (see the module
    docstring).  Its choices depend on the view alone (the seed is accepted
    for the bot factory protocol; the same view always gets the same move).
    ``tricks`` names the trick model it bids from (:mod:`backalley.bots.trick_model`:
    ``"table"``, ``"selfplay"``); ``None``, the one in force around it (a search
    bot's), else :data:`~backalley.bots.trick_model.DEFAULT`."""

    def __init__(self, seed: object = None, *, tricks: str | None = None) -> None:
        self._rng = rng_from_seed(seed)
        self.tricks = None if tricks is None else trick_model.check_name(tricks)

    def choose(self, view: PlayerView) -> Move:
        if self.tricks is None:
            return self._choose(view)
        with trick_model.using(self.tricks):
            return self._choose(view)

    def _choose(self, view: PlayerView) -> Move:
        moves = legal_moves_of(view)
        if len(moves) == 1:
            return moves[0]
        if view.phase is Phase.PLAYING:
            return self._play(view, moves)
        if isinstance(moves[0], NameTrump):
            return self._name_trump(view, moves)
        return self._call(view, moves)

    # ------------------------------------------------------------- bidding

    def _name_trump(self, view: PlayerView, moves: Sequence[Move]) -> Move:
        return bidding_model.name_trump(view, moves)

    def bidding_estimate(self, view: PlayerView) -> TrickEstimate:
        """The trick table's estimate of the view's hand for the bidding (see
        :func:`backalley.bots.bidding_model.bidding_estimate`)."""
        with trick_model.using(self.tricks):
            return bidding_model.bidding_estimate(view)

    def _call(self, view: PlayerView, moves: Sequence[Move]) -> Move:
        return bidding_model.choose_call(view, moves)

    @staticmethod
    def auction_value(
        view: PlayerView,
        calls: Sequence[Move],
        dist: Sequence[float],
        target: float,
        defending: Sequence[float] | None = None,
    ) -> list[float]:
        """What each of ``calls`` is worth to the seat's side in an ascending
        auction (see :func:`backalley.bots.bidding_model.auction_value`)."""
        return bidding_model.auction_value(view, calls, dist, target, defending)

    # ---------------------------------------------------------------- play

    def _play(self, view: PlayerView, moves: Sequence[Move]) -> Move:
        legal = 0
        for m in moves:
            if isinstance(m, Play):
                legal |= 1 << m.card.index
        card = self.play_card(view, legal)
        for m in moves:
            if isinstance(m, Play) and m.card.index == card:
                return m
        return moves[0]  # pragma: no cover - the card comes from the legal set

    def trick_value(self, view: PlayerView) -> float:
        """What taking the current trick is worth to this seat's side (see
        the module docstring)."""
        rules = view.rules
        outcome = lowlevel.deal_context(view).outcome
        if outcome is None:  # pragma: no cover - play follows the bidding
            return 1.0
        h = view.hand_size
        teams = rules.teams
        my_side = rules.seat_teams[view.seat]
        won = view.tricks_won
        remaining = view.hand_counts[view.seat]
        value = 0.0
        others = 0.0
        tables = points_table(view, outcome)
        for s, team in enumerate(teams):
            have = min(h, sum(won[x] for x in team))
            delta = trick_worth(tables[s], have, min(h, have + remaining))
            if s == my_side:
                value += delta
            else:
                others += delta
        if len(teams) > 1 and not rules.plan.overtricks_cost(h):
            # where an overtrick costs, the others' worth of a trick (each
            # as if it were theirs) is left out: it leads the bot to hand
            # tricks to seats that made their bids before making its own
            value += others / (len(teams) - 1)
        return value

    def play_card(self, view: PlayerView, legal: int) -> int:
        """The card (an engine index) to play from the legal set ``legal``."""
        if legal & (legal - 1) == 0:
            return legal.bit_length() - 1
        rules = view.rules
        n = rules.players
        me = view.seat
        order = lowlevel.order_of(view)
        tm = order.trumps
        above = order.above
        strength = order.strength
        trick = lowlevel.trick_cards(view)
        unseen = rules.plan.deck_mask & ~(
            lowlevel.hand_bits(view, view.seat)
            | lowlevel.out_of_play_bits(view)
            | lowlevel.played_bits(view)
        )
        value = self.trick_value(view)

        def cost(card: int) -> int:
            """How dear a card is to give up: trumps above plain cards, masters
            above the rest, high ranks above low."""
            c = strength[card]
            if (1 << card) & tm:
                c += 60
            if not unseen & above[card]:
                c += 20
            return c

        cards = cards_of(legal)
        if not trick:
            return self._lead(view, order, legal, cards, value, unseen, cost)
        pos = len(trick)
        leader = view.leader
        if pos == n - 1:
            # the trick's last card: who takes it with each card is the ranking part's answer
            taker = {c: (leader + order.winner((*trick, c))) % n for c in cards}
            if value <= 0:
                return max([c for c in cards if taker[c] != me] or cards, key=cost)
            side = rules.seat_teams[me]
            return min([c for c in cards if rules.seat_teams[taker[c]] == side] or cards, key=cost)
        later = [(leader + k) % n for k in range(pos + 1, n)]
        later_bits = 0
        for s in later:
            later_bits |= lowlevel.possible_bits(view, s)
        beat = order.beaters(trick)
        winners = [c for c in cards if (1 << c) & beat]
        if value <= 0:
            losers = [c for c in cards if not (1 << c) & beat]
            if losers:
                return max(losers, key=cost)
            return max(cards, key=cost)
        best_seat = (leader + order.winner(trick)) % n
        partner_winning = best_seat != me and rules.seat_teams[best_seat] == rules.seat_teams[me]
        safe = [c for c in winners if not order.beaters((*trick, c)) & later_bits]
        if partner_winning:
            if not beat & later_bits:
                return min(cards, key=cost)
            if safe:
                return min(safe, key=cost)
            return min(cards, key=cost)
        if safe:
            return min(safe, key=cost)
        if winners and pos >= n - 2:
            return min(winners, key=cost)
        return min(cards, key=cost)

    def _lead(
        self,
        view: PlayerView,
        order: CardOrder,
        legal: int,
        cards: list[int],
        value: float,
        unseen: int,
        cost: Callable[[int], int],
    ) -> int:
        rules = view.rules
        n = rules.players
        me = view.seat
        tm = order.trumps
        above = order.above
        suit_of = order.suit
        if value <= 0:
            return min(cards, key=lambda c: (bool(not unseen & above[c]), cost(c)))
        opponents = [s for s in range(n) if rules.seat_teams[s] != rules.seat_teams[me]]
        opp_bits = {s: lowlevel.possible_bits(view, s) for s in opponents}
        opp_all = 0
        for bits in opp_bits.values():
            opp_all |= bits
        masters = [c for c in cards if not unseen & above[c]]
        trump_masters = [c for c in masters if (1 << c) & tm]
        if trump_masters and opp_all & tm:
            return max(trump_masters, key=order.strength.__getitem__)
        plain_masters = []
        for c in masters:
            if (1 << c) & tm:
                continue
            suit = suit_of[c]
            ruffable = any(not bits & suit and bits & tm for bits in opp_bits.values())
            if not ruffable:
                plain_masters.append(c)
        if plain_masters:
            return max(plain_masters, key=lambda c: -((legal & suit_of[c]).bit_count()))
        if masters:
            return min(masters, key=cost)
        # lead low from the longest plain suit
        plain = [c for c in cards if not (1 << c) & tm]
        if plain:
            longest = max(plain, key=lambda c: ((legal & suit_of[c]).bit_count(), -c))
            suit = legal & suit_of[longest]
            return min(cards_of(suit), key=cost)
        return min(cards, key=cost)
