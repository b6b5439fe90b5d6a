"""The heuristic bot's bidding model: what a hand is worth in tricks, and
which call is worth the most points.

**The hand.**  A hand is read as the features of
:mod:`backalley.bots.hand_reading` (:data:`FEATURES`, the one definition of
them, which this module's names still give).  They are weighed by the fitted row of the trick table
(:mod:`backalley.bots._tricks_table`) for the kind of table (the number of
players, in partnerships or alone; alone under a scoring where a trick beyond
the contract costs points, the table fitted to the bots' own play,
:mod:`backalley.bots._tricks_exact`) and hand size (:func:`estimate`): the
seat's *share* of its side's tricks, the side's tricks from this hand alone,
and the spread of each; the hand's *sure tricks* (:func:`sure_tricks`)
bound the side's tricks from below.  When trump is named later, the hand's
best suit among those the trump part offers is taken.

**The calls.**  The side's tricks are a distribution (a normal law around
the expected tricks, rounded to whole tricks, never below the sure tricks:
:func:`side_distribution`), and every call is scored by the points it
brings the side less the other sides' over that distribution, the points
being the rule set's own scoring part's answers for the contract the
bidding part says the call leaves (:func:`points_table`; nothing here
restates a rule).  In a once-around bidding (:func:`choose_call`) a seat
with a partner still to speak bids its share; the partner who speaks after
it adds its own share to its side's bids and makes the legal call (number,
pass, board) with the best expected points.  In an ascending auction every
call, counters included, is weighed once every later seat has answered it
with its own best call by the same measure (:func:`auction_value`), and the
other side's calls are read as evidence of the tricks (see
:func:`choose_call`).

One module, one job: the trick estimates and the calls' worth in points are
read from the same fitted table and the same distribution of the side's
tricks; apart, one model would live in two places.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, overload

import attrs

from backalley.bots import _tricks_exact, trick_model
from backalley.bots._base import legal_moves_of
from backalley.bots._tricks_table import ROWS, Row
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
from backalley.cards import Suit
from backalley.engine import lowlevel
from backalley.engine.views import PlayerView
from backalley.moves import Bid, Move, NameTrump, Pass
from backalley.rules.context import DealContext
from backalley.rules.plan import Plan
from backalley.values import BiddingOutcome

__all__ = [
    "AUCTION_WINDOW",
    "FEATURES",
    "NUMBER_OFFSET",
    "NUMBER_SPREAD",
    "OPPONENTS_WEIGHT",
    "PASS_SHARE",
    "SHARE_MARGIN",
    "SIGMA_SCALE",
    "THROW_IN_PENALTY",
    "PointsRow",
    "TrickEstimate",
    "auction_value",
    "bidding_estimate",
    "cards_of",
    "choose_call",
    "estimate",
    "estimate_under",
    "features_of",
    "hand_chances",
    "hand_features",
    "name_trump",
    "points_table",
    "side_distribution",
    "sure_tricks",
    "table_row",
    "trick_distribution",
    "unseen_bits",
]


_TABLES: dict[tuple[object, ...], tuple[PointsRow, ...]] = {}
"""The points tables met (:func:`points_table`), emptied beyond 100,000."""


def _shares(tricks: int, sides: int) -> list[int]:
    """``tricks`` shared by ``sides`` sides as evenly as can be (the earlier ones first)."""
    each, extra = divmod(tricks, sides) if sides else (0, 0)
    return [each + (k < extra) for k in range(sides)]


class _Asker:
    """The scoring part's answers for one deal context and outcome, per
    tricks of every side (asked once each)."""

    __slots__ = ("answers", "ctx", "dealt", "plan", "sides")

    def __init__(self, plan: Plan, ctx: DealContext) -> None:
        self.plan = plan
        self.ctx = ctx
        self.sides = len(ctx.teams)
        self.dealt = (0,) * plan.players  # bonuses of the hands as dealt left out (not known)
        self.answers: dict[tuple[int, ...], tuple[int, ...]] = {}

    def points(self, side: int, k: int) -> int:
        """``side``'s points when it takes ``k`` tricks and the others share the rest."""
        tricks = _shares(self.ctx.hand_size - k, self.sides - 1)
        tricks.insert(side, k)
        key = tuple(tricks)
        found = self.answers.get(key)
        if found is None:
            found = self.answers[key] = self.plan.score(self.ctx, key, self.dealt)
        return found[side]


class PointsRow(Sequence[int]):
    """One side's points for 0..hand size tricks (see :func:`points_table`),
    each asked of the scoring part when first read."""

    __slots__ = ("_asker", "_side", "_values")

    def __init__(self, asker: _Asker, side: int) -> None:
        self._asker = asker
        self._side = side
        self._values: list[int | None] = [None] * (asker.ctx.hand_size + 1)

    def __len__(self) -> int:
        return len(self._values)

    @overload
    def __getitem__(self, k: int) -> int: ...
    @overload
    def __getitem__(self, k: slice) -> list[int]: ...
    def __getitem__(self, k: int | slice) -> int | list[int]:
        if isinstance(k, slice):
            return [self[i] for i in range(*k.indices(len(self._values)))]
        found = self._values[k]
        if found is None:
            found = self._values[k] = self._asker.points(self._side, k % len(self._values))
        return found

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and list(self) == list(other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"PointsRow({list(self)})"


def points_table(view: PlayerView, outcome: BiddingOutcome) -> tuple[PointsRow, ...]:
    """Per side ``s``, its points for 0..hand size tricks: the scoring part's
    answer for the deal's own context (deal index, dealer, hand size, trump)
    and the bidding's ``outcome`` (every side's contract, announcements and
    declarer), when ``s`` takes that many tricks and the other sides share the
    rest as evenly as can be.  A side's points are read with every side's
    tricks and contract, so a scoring that weighs one side's result against
    another's is followed.  Each entry is asked when first read (one question
    of every side's tricks serves every side); the tables are remembered per
    rule set and what the scoring part declares it reads of the deal (its
    ``score_key``, when the plan trusts it), else per deal (its index,
    dealer, hand size, trump and what its opening showed) and outcome."""
    ctx = lowlevel.deal_context(view)._replace(outcome=outcome)
    plan = view.rules.plan
    declared = plan.score_key
    if declared is not None:
        key: tuple[object, ...] = (plan, declared(ctx))
    else:
        key = (plan, outcome, ctx.deal_index, ctx.dealer, ctx.hand_size, ctx.trump, ctx.shown)
    table = _TABLES.get(key)
    if table is None:
        if len(_TABLES) > 100_000:
            _TABLES.clear()
        asker = _Asker(plan, ctx)
        table = _TABLES[key] = tuple(PointsRow(asker, s) for s in range(asker.sides))
    return table


@attrs.frozen
class TrickEstimate:
    """What the fitted trick table says of a hand (see :func:`estimate`)."""

    share: float
    """The seat's expected share of its side's tricks (its own, with partnerships)."""
    pair_sigma: float
    """The spread of the side's tricks around the sum of its seats' shares."""
    side: float
    """The side's expected tricks from this hand alone (the partners' hands unknown)."""
    side_sigma: float
    """The spread of the side's tricks around :attr:`side`."""
    mean_share: float
    """The mean share of a seat's hand at this table and hand size."""
    sure: int
    """The tricks the hand takes for sure (:func:`sure_tricks`)."""


def table_row(
    players: int, partnered: bool, hand_size: int, exact: bool = False, auction: bool = False
) -> Row:
    """The trick table's row for a table of ``players`` (``partnered``: in
    partnerships) and a hand size: the nearest fitted one (the same kind of
    table first, then the nearest number of players, then hand size).  With
    ``exact`` (a scoring where a trick beyond one's contract costs points)
    and each player alone, the row comes from the table fitted to the bots'
    own play under such a scoring (:mod:`backalley.bots._tricks_exact`):
    there a hand's tricks are those its seat takes when every other seat
    plays for its own bid, not the fewest that every other seat together
    can hold it to.  Where the bot deciding bids from the learned model
    (:mod:`backalley.bots.trick_model`), the nearest of the learned rows where
    it has rows for the kind of table and bidding (``auction``: an
    ascending auction, which the learned rows do not cover)."""
    learned = trick_model.learned_rows(players, partnered, exact, auction)
    fitted = _tricks_exact.ROWS if exact and not partnered else ()
    rows = learned or fitted or tuple(r for r in ROWS if r[1] == partnered) or ROWS
    return min(rows, key=lambda r: (abs(r[0] - players), abs(r[2] - hand_size), -r[2]))


def _dot(weights: Sequence[float], features: Sequence[float]) -> float:
    return sum(w * f for w, f in zip(weights, features))


def estimate(view: PlayerView) -> TrickEstimate:
    """The trick table's estimate for the view's hand under the deal's trump
    (see :func:`estimate_under`)."""
    return estimate_under(view, view.trump)


def estimate_under(view: PlayerView, trump: Suit | None) -> TrickEstimate:
    """The trick table's estimate for the view's hand under ``trump`` (a
    suit, or ``None`` for no trump suit): the hand's features weighed by the
    fitted row of its table and hand size, the chance of its side leading
    (one in the number of sides) counted in, and its sure tricks."""
    return _estimate_with(view, trump, _row(view))


def _row(view: PlayerView) -> Row:
    """The fitted row the view's hand is weighed by, whatever the trump
    (:func:`table_row`; only the learned rows ask the bidding's kind)."""
    rules = view.rules
    h = view.hand_size
    learned = trick_model.active() != "table"
    return table_row(
        rules.players,
        any(len(team) > 1 for team in rules.teams),
        h,
        rules.plan.overtricks_cost(h),
        auction=learned and is_auction(view),
    )


def _estimate_with(view: PlayerView, trump: Suit | None, row: Row) -> TrickEstimate:
    """:func:`estimate_under` with the view's fitted ``row``."""
    rules = view.rules
    teams = rules.teams
    h = view.hand_size
    lead = 1.0 / len(teams)
    hand = lowlevel.hand_bits(view, view.seat)
    unseen = unseen_bits(view, hand)
    order = lowlevel.card_order(rules, trump)
    feats = features_of(hand, unseen, order, lead)
    pair, solo = row[4], row[6]
    side_lead = pair[1] * len(teams[rules.seat_teams[view.seat]])
    extra = lead * (1.0 - lead)
    return TrickEstimate(
        share=max(0.0, _dot(pair, feats)),
        pair_sigma=math.sqrt(row[5] ** 2 + side_lead**2 * extra),
        side=min(float(h), max(0.0, _dot(solo, feats))),
        side_sigma=math.sqrt(row[7] ** 2 + solo[1] ** 2 * extra),
        mean_share=row[8],
        sure=sure_tricks(hand, unseen, order, h),
    )


def side_distribution(mean: float, sigma: float, hand_size: int, sure: int = 0) -> list[float]:
    """The chance of each number of tricks 0..hand_size for a side expected to
    take ``mean`` with spread ``sigma`` (a normal law rounded to whole tricks),
    never fewer than ``sure``."""
    sigma = max(sigma, 0.05)
    scale = sigma * math.sqrt(2.0)
    dist: list[float] = []
    before = 0.0
    for k in range(hand_size + 1):
        upto = 1.0 if k == hand_size else 0.5 * (1.0 + math.erf((k + 0.5 - mean) / scale))
        dist.append(max(0.0, upto - before))
        before = upto
    sure = min(max(0, sure), hand_size)
    if sure:
        dist[sure] += sum(dist[:sure])
        for k in range(sure):
            dist[k] = 0.0
    return dist


SHARE_MARGIN = 0.5
"""A seat whose partner speaks after it bids its share less this, rounded (its
share's whole part); the partner reads the bid as that share."""

SIGMA_SCALE = 1.0
"""The spread the bidding assumes, as a multiple of the table's."""

OPPONENTS_WEIGHT = 1.0
"""How much the last bidder trusts the tricks the other sides' calls leave,
against its side's own estimate (1: as much as the table's spread says)."""

PASS_SHARE = 0.4
"""The share a partner who passed is taken to hold (at most the mean share)."""


NUMBER_OFFSET = 0.5
"""In an ascending auction, how far below a partner's number the bot takes
the side's tricks it shows.  Between heuristic bots (vietnam, the bot before
this reading, 400 deals) a number was called with an estimate about 0.3
below it on average (a first 7 with 6.9, a partner's 8 over 7 with 7.8), and
a raise on it wins the auction where the estimates erred high, so the
tricks fall further below; ``benchmarks/vietnam_auctions.py`` measures what
the reading does to the auction."""

NUMBER_SPREAD = 1.35
"""In an ascending auction, the spread (in tricks) of the caller's
estimate around what its number shows: between heuristic bots (as for
:data:`NUMBER_OFFSET`), a first 7 was called with estimates 6.9 give or
take 1.35.  Reading a
number as a tighter promise than that led partners to raise on it and the
other side to take it as the truth of the tricks left, so contracts went
above what the hands take."""

THROW_IN_PENALTY = 1e-6
"""How much less than nothing a call that throws the deal in is worth (a tie-break)."""

AUCTION_WINDOW = 1
"""In an ascending auction, the numbers a later seat is taken to weigh: those
within this many tricks of its side's expected tricks, and the lowest one offered."""


# ------------------------------------------------------------------ calls


def name_trump(view: PlayerView, moves: Sequence[Move]) -> Move:
    row = _row(view)

    def strength(move: Move) -> float:
        suit = move.suit if isinstance(move, NameTrump) else None
        est = _estimate_with(view, suit, row)
        return est.side + 0.01 * est.sure

    return max(moves, key=strength)


def bidding_estimate(view: PlayerView) -> TrickEstimate:
    """The trick table's estimate of the view's hand for the bidding: under
    the deal's trump, or - when the declarer names trump later - under
    the best for the hand of the trumps the trump part offers."""
    if not view.trump_known:
        choices = lowlevel.trump_choices(view)
        row = _row(view)
        return max((_estimate_with(view, t, row) for t in choices), key=lambda e: (e.side, e.sure))
    return estimate(view)


def defending_estimate(view: PlayerView) -> TrickEstimate:
    """The trick table's estimate of the view's hand when another side wins
    the bidding: under the deal's trump, or - when the declarer names trump
    later - the mean of its estimates under the trumps the trump part offers
    but the one best for this hand (the declarer names the trump best for
    its own side, not for this hand)."""
    if view.trump_known:
        return estimate(view)
    row = _row(view)
    ests = sorted(
        (_estimate_with(view, t, row) for t in lowlevel.trump_choices(view)),
        key=lambda e: (e.side, e.sure),
    )
    rest = ests[:-1] or ests
    k = len(rest)
    return TrickEstimate(
        share=sum(e.share for e in rest) / k,
        pair_sigma=max(e.pair_sigma for e in rest),
        side=sum(e.side for e in rest) / k,
        side_sigma=max(e.side_sigma for e in rest),
        mean_share=rest[0].mean_share,
        sure=min(e.sure for e in rest),
    )


def _auction_belief(
    view: PlayerView, est: TrickEstimate, said: dict[int, Move]
) -> tuple[float, float]:
    """In an ascending auction, the mean and spread of the side's tricks from
    the hand's estimate ``est`` and the calls ``said`` so far (by seat).  A
    number is read as its caller's estimate of its side's tricks from its
    own hand, as uncertain as :data:`NUMBER_SPREAD` says (a player alone,
    who judged its own tricks, to within the rounding).  A partner's
    number raises the side's estimate to the tricks it shows, taken
    :data:`NUMBER_OFFSET` below the number, with this hand's share in place
    of the mean share the partner counted on; the tricks the other sides'
    highest number leaves are a second estimate of the side's, the two
    weighed by their spreads."""
    rules = view.rules
    h = view.hand_size
    my_side = rules.seat_teams[view.seat]
    partners = [s for s in rules.teams[my_side] if s != view.seat]
    mean, sigma = est.side, est.side_sigma
    shown = NUMBER_SPREAD**2
    bids = [c.tricks for s, c in said.items() if isinstance(c, Bid) and s in partners]
    if bids:
        # the partner's number: the side's tricks as it judged them from its
        # hand (NUMBER_OFFSET below the number, give or take NUMBER_SPREAD),
        # of which this hand stands for its share instead of the mean share
        mean = max(mean, est.share + max(bids) - NUMBER_OFFSET - est.mean_share)
        sigma = math.sqrt(est.pair_sigma**2 + shown)
    theirs = [
        (c.tricks, s)
        for s, c in said.items()
        if isinstance(c, Bid) and rules.seat_teams[s] != my_side
    ]
    if theirs and OPPONENTS_WEIGHT:
        number, caller = max(theirs)
        left = max(0.0, h - number)
        var = sigma**2
        # a player alone judged its own tricks: its number is a tighter promise
        alone = len(rules.teams[rules.seat_teams[caller]]) == 1
        var_left = (est.pair_sigma**2 + (1.0 / 12.0 if alone else shown)) / OPPONENTS_WEIGHT
        mean = (mean * var_left + left * var) / (var + var_left)
        sigma = math.sqrt(var * var_left / (var + var_left))
    return mean, sigma


def is_auction(view: PlayerView, moves: Sequence[Move] | None = None) -> bool:
    """Whether the bidding is an ascending auction: its winning call makes a
    declarer (asked of the bidding part); once-around bids do not.  Once the
    contracts are known they tell; in the bidding, the contracts the first
    number of ``moves`` would make (by default the calls of the seat to act,
    :func:`~backalley.engine.lowlevel.calls_to_act`: any seat's view may ask)."""
    contracts = view.contracts
    if contracts is None:
        if moves is None:
            moves = lowlevel.calls_to_act(view)
        if not moves:
            return False
        numeric = [m for m in moves if isinstance(m, Bid)]
        contracts = lowlevel.contracts_if(view, numeric[0] if numeric else moves[0])
    return contracts is not None and any(
        c is not None and c.declarer is not None for c in contracts
    )


def auction_calls(view: PlayerView, moves: Sequence[Move] | None = None) -> dict[Move, float]:
    """In an ascending auction, the calls the bot weighs (pass, the counters,
    the lowest number and the numbers within three and a half tricks of its
    side's expected tricks, of the legal ``moves``) and what each is worth to
    its side (:func:`auction_value`): its expected points less the other
    sides' once every later seat has answered, over its side's tricks as
    declarer (the hand's estimate under its best trump) and as defenders
    (:func:`defending_estimate`), each read with the calls so far
    (:func:`_auction_belief`).  So a counter is worth more than a pass
    exactly when the contract it multiplies is expected to fail by enough:
    the scoring part's points for the countered contract, over the side's
    tricks, beat those of the contract left alone."""
    moves = legal_moves_of(view) if moves is None else moves
    rules = view.rules
    n = rules.players
    h = view.hand_size
    est = bidding_estimate(view)
    first = view.first_bidder
    said = {(first + i) % n: c for i, c in enumerate(view.calls)}
    mean, sigma = _auction_belief(view, est, said)
    dist = side_distribution(mean, sigma * SIGMA_SCALE, h, est.sure)
    defence = defending_estimate(view)
    if defence == est:
        defending = dist
    else:
        dmean, dsigma = _auction_belief(view, defence, said)
        defending = side_distribution(dmean, dsigma * SIGMA_SCALE, h, defence.sure)
    numeric = [m for m in moves if isinstance(m, Bid)]
    weighed = [
        m for m in moves if not isinstance(m, Bid) or m is numeric[0] or abs(m.tricks - mean) <= 3.5
    ]
    values = auction_value(view, weighed, dist, mean, defending)
    return dict(zip(weighed, values))


def choose_call(view: PlayerView, moves: Sequence[Move]) -> Move:
    """The bot's call among the legal ``moves``: in an ascending auction the
    call of :func:`auction_calls` worth the most (of equal ones a number, the
    lowest, so that a side that may contract does so rather than leave it to
    later; else the earliest); in a once-around bidding see the module
    docstring."""
    if is_auction(view, moves):
        weighed = auction_calls(view, moves)
        order = list(weighed)

        def key(i: int) -> tuple[float, bool, int]:
            return (round(weighed[order[i]], 9), isinstance(order[i], Bid), -i)

        return order[max(range(len(order)), key=key)]
    rules = view.rules
    n = rules.players
    h = view.hand_size
    me = view.seat
    teams = rules.teams
    my_side = rules.seat_teams[me]
    est = bidding_estimate(view)
    first = view.first_bidder
    said = {(first + i) % n: c for i, c in enumerate(view.calls)}
    partners = [s for s in teams[my_side] if s != me]
    own_bids = sum(c.tricks for s, c in said.items() if isinstance(c, Bid) and s in partners)
    later = any(s not in said for s in partners)
    mean, var = est.share, est.pair_sigma**2
    for s in partners:
        call = said.get(s)
        if call is None:
            continue
        if isinstance(call, Bid) and call.tricks > 0:
            mean += call.tricks + SHARE_MARGIN
            var += 1.0 / 12.0
        elif isinstance(call, Bid) or call == Pass():
            mean += min(est.mean_share, PASS_SHARE)
            var += 0.1
        else:  # a board: the partner holds nearly every trick
            mean = float(h)
    if later:
        # the side's tricks from this hand alone, to weigh a board
        mean, var = est.side, est.side_sigma**2
    # the other sides' calls: when every other seat has spoken, the
    # tricks they leave are a second estimate of the side's
    others = [s for s in range(n) if s not in teams[my_side]]
    if not later and others and all(s in said for s in others) and OPPONENTS_WEIGHT:
        theirs = 0.0
        for s in others:
            call = said[s]
            if isinstance(call, Bid) and call.tricks > 0:
                # a seat with a partner bids its share less the margin; one alone, its tricks
                theirs += call.tricks + (
                    SHARE_MARGIN if len(teams[rules.seat_teams[s]]) > 1 else 0.0
                )
            elif isinstance(call, Bid) or call == Pass():
                theirs += min(est.mean_share, PASS_SHARE)
            else:
                theirs = float(h)
        left = max(0.0, h - theirs)
        var_left = (est.pair_sigma**2 + len(others) / 12.0) / OPPONENTS_WEIGHT
        mean = (mean * var_left + left * var) / (var + var_left)
        var = var * var_left / (var + var_left)
    else:
        claimed = sum(c.tricks for s, c in said.items() if isinstance(c, Bid) and s in others)
        mean = min(mean, max(float(est.sure), h - claimed + 0.5 * SHARE_MARGIN))
    sigma = math.sqrt(var)
    dist = side_distribution(mean, sigma * SIGMA_SCALE, h, est.sure)
    choice = _best_call(view, moves, dist, mean - own_bids)
    if later and (isinstance(choice, Bid) or choice == Pass()):
        return _share_call(moves, est.share - SHARE_MARGIN, choice)
    return choice


def _share_call(moves: Sequence[Move], target: float, fallback: Move) -> Move:
    """The number nearest ``target`` (a pass for none, where offered)."""
    want = max(0, math.floor(target + 0.5))
    if want == 0 and Pass() in moves:
        return Pass()
    numbers = [m for m in moves if isinstance(m, Bid)]
    if not numbers:
        return fallback
    return min(numbers, key=lambda m: (abs(m.tricks - want), m.tricks))


def _best_call(
    view: PlayerView, moves: Sequence[Move], dist: Sequence[float], target: float
) -> Move:
    """The legal call whose contract gives the side the best expected
    points less the other sides', over ``dist`` (the side's tricks); the
    numbers weighed are those near ``target`` (the side's expected tricks
    less its partners' bids) and the lowest one offered."""
    rules = view.rules
    h = view.hand_size
    my_side = rules.seat_teams[view.seat]
    sides = len(rules.teams)
    numeric = [m for m in moves if isinstance(m, Bid)]
    weighed = [
        m
        for m in moves
        if not isinstance(m, Bid) or m is numeric[0] or abs(m.tricks - target) <= 3.5
    ]
    best: tuple[float, int] | None = None
    choice = moves[0]
    for i, move in enumerate(weighed):
        outcome = lowlevel.outcome_if(view, move)
        if outcome is None:
            # a throw-in scores nothing: a call worth as much that gets
            # the deal played is preferred, so bots do not deal forever
            value = -THROW_IN_PENALTY
        else:
            value = 0.0
            tables = points_table(view, outcome)
            for k, p in enumerate(dist):
                if p < 1e-4:
                    continue
                mine = tables[my_side][k]
                rest = 0.0
                if sides > 1:
                    each = round((h - k) / (sides - 1))
                    for s in range(sides):
                        if s != my_side:
                            rest += tables[s][each]
                    rest /= sides - 1
                value += p * (mine - rest)
        key = (value, -i)
        if best is None or key > best:
            best, choice = key, move
    return choice


def auction_value(
    view: PlayerView,
    calls: Sequence[Move],
    dist: Sequence[float],
    target: float,
    defending: Sequence[float] | None = None,
) -> list[float]:
    """What each of ``calls`` (legal for the view's seat) is worth to its
    side in an ascending auction: the side's expected points less the
    other sides', over ``dist`` (the side's tricks; the other sides share
    the rest), once every later seat has answered with its best call by
    the same measure for its own side.  ``defending`` (``dist`` by
    default) is the side's tricks when another side's player declares (and
    so names trump, where the declarer does).  A later seat
    weighs pass, the counters, the lowest number and the numbers within
    :data:`AUCTION_WINDOW` of its side's expected tricks (``target`` for
    the bot's side; the other sides share the rest evenly).  The calls, the bidding's end and its outcome are
    the bidding part's, through the rule set's plan, and the points the
    scoring part's."""
    rules = view.rules
    plan = rules.plan
    h = view.hand_size
    sides = len(rules.teams)
    my_side = rules.seat_teams[view.seat]
    deal = lowlevel.deal_context(view)
    root = plan.call_node(deal, view.calls)
    expected = [target if s == my_side else (h - target) / max(1, sides - 1) for s in range(sides)]
    leaves: dict[BiddingOutcome, tuple[float, ...]] = {}
    nodes: dict[Any, tuple[float, ...]] = {}  # by node (kept alive while asked)

    def leaf(outcome: BiddingOutcome) -> tuple[float, ...]:
        """Each side's expected points less the others' at this outcome."""
        found = leaves.get(outcome)
        if found is None:
            if outcome.thrown_in:
                found = (-THROW_IN_PENALTY,) * sides
            else:
                tables = points_table(view, outcome)
                totals = [0.0] * sides
                declarer = outcome.declarer
                over = dist
                if (
                    defending is not None
                    and declarer is not None
                    and rules.seat_teams[declarer] != my_side
                ):
                    over = defending
                for k, p in enumerate(over):
                    if p < 1e-4:
                        continue
                    each = round((h - k) / (sides - 1)) if sides > 1 else 0
                    got = [tables[s][k if s == my_side else each] for s in range(sides)]
                    whole = sum(got)
                    for s in range(sides):
                        rest = (whole - got[s]) / (sides - 1) if sides > 1 else 0.0
                        totals[s] += p * (got[s] - rest)
                found = tuple(totals)
            leaves[outcome] = found
        return found

    def value(node: Any) -> tuple[float, ...]:
        """Each side's value once the seats still to speak have spoken."""
        known = nodes.get(node)
        if known is not None:
            return known
        if not node.open:
            out = leaf(node.outcome)
        else:
            side = rules.seat_teams[node.ctx.seat]
            legal = node.legal
            numbers = [m for m in legal if isinstance(m, Bid)]
            want = expected[side]
            options = [
                m
                for m in legal
                if not isinstance(m, Bid)
                or m is numbers[0]
                or abs(m.tricks - want) <= AUCTION_WINDOW
            ]
            best: tuple[float, ...] | None = None
            for m in options:
                got = value(node.after(m))
                if best is None or got[side] > best[side]:
                    best = got
            assert best is not None
            out = best
        nodes[node] = out
        return out

    return [value(root.after(root.find(call) or call))[my_side] for call in calls]
