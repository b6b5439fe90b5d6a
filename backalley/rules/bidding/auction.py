"""The Vietnam ascending auction (see :ref:`rules-auction`): :class:`Auction`,
where it stands after some calls (:class:`AuctionState`), its option
``speakers`` and the worked example of its counters in the rules sheet.

One module, one job: the auction part, its state and its option, which change
together.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

import attrs

from backalley.errors import Reason
from backalley.moves import COUNTER, PASS, Bid, BoardBid, Counter, Move, Pass, bid
from backalley.reprs import fields_repr
from backalley.rules.base import Option, Term, plays_alone, seat_names
from backalley.rules.bidding.base_part import (
    _CONTRACT_FORMS,
    AllPass,
    FirstBidder,
    Refusal,
    _all_pass_text,
    _BiddingPart,
    bids_between,
)
from backalley.rules.bidding.counters import (
    _COUNTER_NAMES,
    CounterHolder,
    CounterStyle,
    Multiple,
    counter_names,
)
from backalley.rules.context import BiddingContext
from backalley.rules.registry import register
from backalley.rules.validators import whole
from backalley.values import BiddingOutcome, Contract

if TYPE_CHECKING:
    from backalley.rules.protocols import RuleSetFacts

__all__ = ["Auction", "AuctionState", "Speakers"]


class Speakers(Option):
    """Option ``speakers`` of the auction: who speaks (see :ref:`rules-literal-auction`)."""

    EACH_PLAYER = "each-player"
    """Every player speaks once, in turn."""
    ONE_PER_TEAM = "one-per-team"
    """Each side makes exactly one announcement: the first bidder speaks for
    their side, then the next player clockwise for the next side, and so on
    (the source read word by word).  Without partnerships every player is a side of their own,
    so every player speaks once."""


def _listed(items: Sequence[str], last: str) -> str:
    """``a``; ``a and b``; ``a, b and c`` (``last``: "and" or "or")."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" {last} " + items[-1]


def _example_points(scoring: Any, current: AuctionState, hand: int, alone: bool) -> str:
    """The points of the example's contract, asked of the scoring part (its
    ``contract_points``; nothing when it has none): per trick taken when the
    points grow by the same amount per trick, and what falling short costs."""
    points = getattr(scoring, "contract_points", None)
    if not callable(points):
        return ""
    n = current.tricks
    contract = Contract(n, multiplier=current.multiplier, declarer=current.holder)
    made = int(points(contract, n, hand))
    text = f", scoring {made} for {n} tricks"
    if n < hand:
        per = int(points(contract, n + 1, hand)) - made
        if per * n == made:
            text = f", scoring {per} per trick taken ({made} for {n} tricks)"
    if n > 0:
        short = int(points(contract, n - 1, hand))
        fewer = "fewer" if short == int(points(contract, 0, hand)) else f"{n - 1}"
        verb = ("lose" if short < 0 else "score") + ("" if alone else "s")
        text += f"; with {fewer} {'they' if alone else 'it'} {verb} {abs(short)}"
    return text


@attrs.frozen(slots=True, repr=False)
class AuctionState:
    """Where an ascending auction stands: the highest number, who holds the
    contract, the multiplier, whether a direct counter has closed the auction,
    and who made the standing call (the number, or the last counter on it)."""

    __repr__ = fields_repr

    tricks: int = 0
    holder: int | None = None
    multiplier: int = 1
    closed: bool = False
    caller: int | None = None


@register
@attrs.frozen(slots=True, repr=False)
class Auction(_BiddingPart):
    """The Vietnam ascending auction (see :ref:`rules-auction`).

    Players speak in turn, starting with ``first_bidder``: every player once
    (``speakers = each-player``), or one player per side (``one-per-team``:
    the first bidder for their side, then the next player clockwise for the
    other side).  A call is ``pass``; a number of tricks strictly higher than
    the highest so far (from ``min_bid`` up to the hand size); or a counter
    against another side's contract, by ``counter_style``:

    - ``step``: ``counter`` raises the contract to the next multiplier
      (x2, x3, ... up to ``counters`` steps), answering the standing call of
      the other side; a higher number cancels the counters;
    - ``direct``: one call ``counter xK`` (K from 2 to ``counters + 1``) on a
      contract not yet countered; it cannot be answered, so every later
      player may only pass;
    - ``multiple-bid``: no counter calls; a number of at least K times the
      highest number so far, called by a side other than the one holding it,
      carries the multiplier K (the largest such K up to ``counters + 1``);
      with ``multiple = exact`` only exactly K times does (K from 2 to
      ``counters + 1``), and any other number is a plain overbid.

    By ``counter_holder``, a countered contract stays with the side that
    announced the number (``announcer``: the counters multiply what it wins
    and loses, as doubles in bridge, and a step counter answers the last call
    of the other side) or passes to the countering side (``countering-side``).

    The last winning call makes its player the declarer (with ``announcer``,
    the caller of the highest number, countered or not).  The outcome also
    tells each side's highest announcement, for the defenders' scoring
    (``defenders_score = own-announcement`` of the auction scoring).

    Choices where the source is silent (see :ref:`rules-choices`): the multiple of a bid
    is counted against the announcement it overbids (multipliers do not
    accumulate: 2, then 4 (x2), then 8 is again x2); overbidding one's own
    side's announcement carries no multiplier; after a direct counter even a
    higher number may no longer be called.
    """

    tag: ClassVar[str] = "auction"
    part: ClassVar[str] = "bidding"
    may_provide: ClassVar[frozenset[str]] = frozenset(
        {
            "declarer",
            "declarer-contract",
            "declarer-every-deal",
            "contract-every-deal",
            "multiplied-contracts",
            "side-announcements",
        }
    )

    min_bid: int = attrs.field(default=1, validator=whole(low=0))
    counters: int = attrs.field(default=3, validator=whole(low=0))
    all_pass: AllPass = attrs.field(default=AllPass.REDEAL_NEXT_DEALER, converter=AllPass)
    first_bidder: FirstBidder = attrs.field(
        default=FirstBidder.LEFT_OF_DEALER, converter=FirstBidder
    )
    speakers: Speakers = attrs.field(default=Speakers.EACH_PLAYER, converter=Speakers)
    counter_style: CounterStyle = attrs.field(default=CounterStyle.STEP, converter=CounterStyle)
    multiple: Multiple = attrs.field(default=Multiple.AT_LEAST, converter=Multiple)
    counter_holder: CounterHolder = attrs.field(
        default=CounterHolder.ANNOUNCER, converter=CounterHolder
    )

    def provides(self) -> frozenset[str]:
        every = self.all_pass is not AllPass.PLAY_FOR_OVERTRICKS
        return frozenset(
            {
                "declarer",
                "declarer-contract",
                "side-announcements",
                *(("declarer-every-deal", "contract-every-deal") if every else ()),
                *(("multiplied-contracts",) if self.counters else ()),
            }
        )

    def problems(self, rules: RuleSetFacts) -> list[str]:
        out = []
        smallest = min(rules.schedule.hand_sizes)
        if self.min_bid > smallest:
            out.append(
                f"bidding and schedule: the lowest bid {self.min_bid} exceeds the "
                f"{smallest}-card deal; lower min_bid to {smallest} or drop the deals of "
                f"fewer than {self.min_bid} cards from the schedule"
            )
        if self.speakers is Speakers.ONE_PER_TEAM:
            seating = rules.seating
            players, sides = seating.players, len(seating.teams)
            for first in range(players):
                spoken = {seating.team_of((first + i) % players) for i in range(sides)}
                if len(spoken) != sides:
                    out.append(
                        f"bidding and seating: with one speaker per side, the {sides} players "
                        f"from seat {first} clockwise must belong to {sides} different sides"
                    )
                    break
        return out

    def max_bid(self, hand_size: int) -> int:
        return hand_size

    def longest_bidding(self, hand_size: int, teams: tuple[tuple[int, ...], ...]) -> int:
        """The most calls of a bidding (declared, for bounds): every player
        speaks once (``each-player``), or one player per side (``one-per-team``)."""
        if self.speakers is Speakers.ONE_PER_TEAM:
            return len(teams)
        return sum(len(team) for team in teams)

    def contracts(
        self, hand_size: int, teams: tuple[tuple[int, ...], ...]
    ) -> tuple[Contract | None, ...]:
        """Every contract a side may hold (declared, for bounds): none, or a
        number up to the hand size at a multiplier up to ``counters + 1``,
        declared by any seat."""
        seats = sorted(seat for team in teams for seat in team)
        numbers = (
            Contract(tricks, multiplier=m, declarer=seat)
            for tricks in range(self.min_bid, self.max_bid(hand_size) + 1)
            for m in range(1, self.counters + 2)
            for seat in seats
        )
        return (None, *numbers)

    def direct_counters(self) -> tuple[int, ...]:
        """With ``counter_style = direct``: double, triple, ... up to ``counters`` steps."""
        if self.counter_style is CounterStyle.DIRECT:
            return tuple(range(2, self.counters + 2))
        return ()

    def speaker(self, ctx: BiddingContext) -> int | None:
        """The next seat clockwise, until every player (``each-player``) or
        one player per side (``one-per-team``) has spoken."""
        limit = len(ctx.teams) if self.speakers is Speakers.ONE_PER_TEAM else ctx.players
        return ctx.seat if len(ctx.calls) < limit else None

    def state(self, ctx: BiddingContext) -> AuctionState:
        """Where the calls ``ctx.calls`` leave the auction: a number makes its
        caller the holder at x1 (or at the multiple it carries, under
        ``multiple-bid``); a counter raises the multiplier and - with
        ``counter_holder = countering-side`` - hands the contract to its caller."""
        current = AuctionState()
        multiple = self.counter_style is CounterStyle.MULTIPLE_BID
        takes_over = self.counter_holder is CounterHolder.COUNTERING_SIDE
        for i, call in enumerate(ctx.calls):
            if isinstance(call, Bid):
                seat = ctx.seat_of(i)
                mult = 1
                holder = current.holder
                if multiple and holder is not None and ctx.team_of(holder) != ctx.team_of(seat):
                    mult = self._multiple(current.tricks, call.tricks)
                current = AuctionState(call.tricks, seat, mult, caller=seat)
            elif isinstance(call, Counter):
                seat = ctx.seat_of(i)
                holder = seat if takes_over else current.holder
                if call.multiplier is None:
                    current = AuctionState(
                        current.tricks, holder, current.multiplier + 1, caller=seat
                    )
                else:
                    current = AuctionState(
                        current.tricks, holder, call.multiplier, True, caller=seat
                    )
        return current

    def _multiple(self, previous: int, tricks: int) -> int:
        """The multiplier of a bid of ``tricks`` over another side's ``previous``
        (``multiple``: at least, or exactly, K times it carries xK)."""
        if previous <= 0:
            return 1
        times = tricks // previous
        if self.multiple is Multiple.EXACT:
            exact = tricks % previous == 0 and times <= self.counters + 1
            return times if exact else 1
        return max(1, min(times, self.counters + 1))

    def calls(self, ctx: BiddingContext) -> tuple[Move, ...]:
        """The calls this auction knows, in order: pass, numbers up to the hand
        size, the counters (:meth:`refusal` says which are legal now)."""
        return (PASS, *bids_between(0, ctx.hand_size), *self._counter_calls())

    def answer_key(self, ctx: BiddingContext) -> Hashable:
        """What :meth:`speaker` and :meth:`refusal` depend on: the hand size,
        the number of calls so far, and where the auction stands as the seat to
        speak sees it (the highest number, whether the seat's own side holds
        it, the multiplier, whether a direct counter closed the auction)."""
        current = self.state(ctx)
        holder, caller = current.holder, current.caller
        own = None if holder is None else ctx.team_of(holder) == ctx.team_of(ctx.seat)
        called = None
        if holder is not None and caller is not None:
            called = ctx.team_of(caller) == ctx.team_of(holder)
        return (
            ctx.hand_size,
            ctx.players,
            len(ctx.teams),
            len(ctx.calls),
            current.tricks,
            own,
            called,
            current.multiplier,
            current.closed,
        )

    def _counter_calls(self) -> tuple[Counter, ...]:
        direct = self.direct_counters()
        return tuple(Counter(k) for k in direct) if direct else (COUNTER,)

    def refusal(self, ctx: BiddingContext, move: Move) -> Refusal | None:
        if isinstance(move, Pass):
            return None
        current = self.state(ctx)
        if isinstance(move, (Bid, Counter)) and current.closed:
            return (
                Reason.COUNTER_LIMIT,
                f"the contract was countered to x{current.multiplier}, which cannot be "
                "answered: you may only pass",
            )
        if isinstance(move, Bid):
            if move.tricks < self.min_bid:
                return (Reason.BID_TOO_LOW, f"the lowest bid is {self.min_bid}")
            if move.tricks > ctx.hand_size:
                return (Reason.BID_TOO_HIGH, f"the highest bid is {ctx.hand_size}, the hand size")
            if current.holder is not None and move.tricks <= current.tricks:
                return (
                    Reason.BID_NOT_HIGHER,
                    f"a bid must be higher than the current {current.tricks}",
                )
            return None
        if isinstance(move, Counter):
            return self._counter_refusal(ctx, current, move)
        if isinstance(move, BoardBid):
            return (Reason.BOARD_NOT_ALLOWED, "this auction has no board bid")
        return (Reason.WRONG_PHASE, f"{move} is not a call; it is time to bid")

    def _counter_refusal(
        self, ctx: BiddingContext, current: AuctionState, move: Counter | None
    ) -> Refusal | None:
        """A counter takes over another side's contract (see :ref:`rules-counters`)."""
        style = self.counter_style
        if style is CounterStyle.MULTIPLE_BID:
            return (
                Reason.COUNTER_NOT_ALLOWED,
                "this auction has no counter calls"
                + (
                    f": bid {'exactly' if self.multiple is Multiple.EXACT else 'at least'} "
                    "twice the other side's number to double it"
                    if self.counters
                    else ""
                ),
            )
        if current.holder is None:
            return (Reason.COUNTER_NOT_ALLOWED, "nobody has bid yet: there is nothing to counter")
        why = self._answer_refusal(ctx, current)
        if why is not None:
            return why
        top = self.counters + 1
        if style is CounterStyle.DIRECT:
            if current.multiplier > 1:  # pragma: no cover - a direct counter closes the auction
                return (Reason.COUNTER_LIMIT, "the contract cannot be countered any further")
            if move is not None and move.multiplier is None:
                return (
                    Reason.COUNTER_NOT_ALLOWED,
                    f"name the multiplier: {', '.join(str(c) for c in self._counter_calls())}",
                )
            if move is not None and move.multiplier is not None and move.multiplier > top:
                return (Reason.COUNTER_LIMIT, f"the highest counter is x{top}")
            return None
        if move is not None and move.multiplier is not None:
            return (
                Reason.COUNTER_NOT_ALLOWED,
                f"counters go one step at a time: call 'counter' (to x{current.multiplier + 1})",
            )
        if current.multiplier > self.counters:
            return (Reason.COUNTER_LIMIT, "the contract cannot be countered any further")
        return None

    def _answer_refusal(self, ctx: BiddingContext, current: AuctionState) -> Refusal | None:
        """Who may counter (``counter_holder``): with ``countering-side``, only a
        side that does not hold the contract; with ``announcer``, the first
        counter comes from a side other than the announcer's, and each next
        one answers the last from the other camp (the announcer's side after
        an opponent's counter, an opponent after the announcer's side's)."""
        holder = current.holder
        assert holder is not None
        mine = ctx.team_of(ctx.seat) == ctx.team_of(holder)
        if self.counter_holder is CounterHolder.COUNTERING_SIDE:
            if mine:
                return (
                    Reason.COUNTER_NOT_ALLOWED,
                    "your own side holds the contract; only the other side may counter",
                )
            return None
        caller = holder if current.caller is None else current.caller
        if mine != (ctx.team_of(caller) == ctx.team_of(holder)):
            return None
        if current.multiplier == 1:
            return (
                Reason.COUNTER_NOT_ALLOWED,
                "your own side announced the contract; only the other side may counter it",
            )
        if mine:
            return (
                Reason.COUNTER_NOT_ALLOWED,
                "your side made the last counter; only the other side may answer it",
            )
        return (
            Reason.COUNTER_NOT_ALLOWED,
            "the last counter came from the contract's opponents; only the side holding "
            "the contract may answer it",
        )

    def outcome(self, ctx: BiddingContext) -> BiddingOutcome:
        """The declarer's contract (none for the other sides), and each side's
        highest announcement (``announcements``, for the defenders' scoring)."""
        current = self.state(ctx)
        holder = current.holder
        if holder is None:
            thrown = self.all_pass is not AllPass.PLAY_FOR_OVERTRICKS
            return BiddingOutcome(
                tuple(None for _ in ctx.teams),
                thrown_in=thrown,
                announcements=tuple(None for _ in ctx.teams),
            )
        team = ctx.team_of(holder)
        contracts = tuple(
            Contract(current.tricks, multiplier=current.multiplier, declarer=holder)
            if t == team
            else None
            for t in range(len(ctx.teams))
        )
        announced: list[int | None] = [None] * len(ctx.teams)
        for i, call in enumerate(ctx.calls):
            if isinstance(call, Bid):
                side = ctx.team_of(ctx.seat_of(i))
                best = announced[side]
                if best is None or call.tricks > best:
                    announced[side] = call.tricks
        return BiddingOutcome(
            contracts, highest_bidder=holder, declarer=holder, announcements=tuple(announced)
        )

    def describe(self) -> str:
        return self._describe(players=4, sides=2)

    def describe_in(self, rules: RuleSetFacts) -> str:
        """The auction as it plays under ``rules``' seating (sides or single players),
        with a worked example of its counters (:meth:`counter_example`)."""
        text = self._describe(
            players=rules.seating.players,
            sides=len(rules.seating.teams),
            deals=len(rules.schedule.hand_sizes),
        )
        example = self.counter_example(rules)
        return f"{text} {example}" if example else text

    def terms_in(self, rules: RuleSetFacts) -> tuple[Term, ...]:
        """The contract, the declarer, the defenders and the winning call of this auction."""
        alone = plays_alone(rules)
        holder = "the declarer" if alone else "the declarer's side"
        times = ""
        if self.counters and self.counter_style is CounterStyle.MULTIPLE_BID:
            times = ", with its multiplier (x1, or x2, x3, ... when that number multiplies "
            times += "the announcement it overbids)"
        elif self.counters:
            times = ", with its multiplier (x1, or x2, x3, ... once countered)"
        takes_over = self.counter_holder is CounterHolder.COUNTERING_SIDE
        if self.counters and self.counter_style is CounterStyle.STEP and takes_over:
            winning = "the highest number called, or the last counter on it"
        elif self.counters and self.counter_style is CounterStyle.DIRECT and takes_over:
            winning = "the highest number called, or the counter on it"
        elif self.counters and self.counter_style is not CounterStyle.MULTIPLE_BID:
            winning = "the highest number called (a counter on it only multiplies it)"
        else:
            winning = "the highest number called"
        return (
            Term(
                "contract",
                f"the number of tricks {holder} must take in a deal (the highest number "
                f"called){times}.",
                _CONTRACT_FORMS,
            ),
            Term(
                "declarer",
                "the player whose call is the winning call; "
                + ("they hold the contract." if alone else "their side holds the contract."),
                ("declarer's",),
            ),
            Term(
                "defenders",
                (
                    "the other players, who try to stop the declarer taking that many tricks."
                    if alone
                    else "the other side, who try to stop the declarer's side taking that "
                    "many tricks."
                ),
                ("defender", "defending"),
            ),
            Term("winning call", f"the call that sets the contract: {winning}."),
        )

    def counter_example(self, rules: RuleSetFacts) -> str:
        """A worked example of this auction's counters on the largest deal of
        ``rules``, in seat names, its calls run through this part (so it says
        what the auction does) and its points asked of the scoring part; empty
        when the auction has no counters or the example does not fit."""
        if not self.counters:
            return ""
        seating = rules.seating
        players, teams = seating.players, tuple(seating.teams)
        hand = max(rules.schedule.hand_sizes)
        dealer = (players - 1) % players if self.first_bidder is FirstBidder.LEFT_OF_DEALER else 0
        ctx = BiddingContext(
            hand_size=hand,
            players=players,
            first=self.first(dealer, players),
            calls=(),
            teams=teams,
            seat_teams=tuple(seating.team_of(s) for s in range(players)),
        )
        names = seat_names(rules)
        alone = plays_alone(rules)
        multiple = self.counter_style is CounterStyle.MULTIPLE_BID
        if multiple:
            low = max(self.min_bid, 1, min(3, hand // 4))
            script: tuple[Move, ...] = (bid(low), bid(2 * low))
        else:
            low = max(self.min_bid, min(hand // 2 + 1, hand - 2))
            counter: Move = COUNTER
            if self.counter_style is CounterStyle.DIRECT:
                counter = Counter(min(3, self.counters + 1))
            script = (bid(low), counter)
            if self.speakers is Speakers.EACH_PLAYER and players > 2:
                script = (bid(low), bid(low + 1), counter)
        words = []
        for i, call in enumerate(script):
            so_far = ctx.with_calls(script[:i])
            if self.speaker(so_far) is None or self.refusal(so_far, call) is not None:
                return ""
            words.append(f"{names[so_far.seat]} {self._call_word(ctx, script[: i + 1], 's')}")
        done = ctx.with_calls(script)
        current = self.state(done)
        if current.holder is None or current.multiplier < 2:
            return ""
        who = names[current.holder]
        holds = who if alone else f"{who}'s side"
        text = f"For example ({names[dealer]} deals): {', '.join(words)}:"
        if multiple:
            text += f" {2 * low} is twice {names[ctx.first]}'s {low}, so"
        text += (
            f" {who} is the declarer and {holds} must take {current.tricks} tricks at "
            f"x{current.multiplier}"
        )
        text += _example_points(rules.scoring, current, hand, alone) + "."
        if multiple:
            return text + self._multiple_answers(ctx, low, names)
        return text + self._example_answers(done, current, names, alone)

    def _call_word(self, ctx: BiddingContext, calls: tuple[Move, ...], s: str = "") -> str:
        """The last of ``calls`` as a verb (``s``: "s" for "bids", "doubles"):
        a number, or a counter by the multiplier it reaches."""
        call = calls[-1]
        if isinstance(call, Bid):
            return f"bid{s} {call.tricks}"
        if isinstance(call, Counter):
            reached = self.state(ctx.with_calls(calls)).multiplier
            if reached - 2 < len(_COUNTER_NAMES):
                return _COUNTER_NAMES[reached - 2] + s
            return f"counter{s} to x{reached}"
        return f"pass{'es' if s else ''}"

    def _multiple_answers(self, ctx: BiddingContext, low: int, names: tuple[str, ...]) -> str:
        """Under ``multiple-bid``: what other numbers over the example's first
        announcement would have carried (a triple, a quadruple, a plain overbid)."""
        first = ctx.with_calls((bid(low),))
        plain, carried = [], []
        for tricks in sorted({low + 1, 2 * low + 1, *(k * low for k in (3, 4))}):
            if tricks == 2 * low or self.refusal(first, bid(tricks)) is not None:
                continue
            reached = self.state(first.with_calls((bid(low), bid(tricks)))).multiplier
            if reached == 1:
                plain.append(str(tricks))
            else:
                carried.append(f"{tricks} x{reached}")
        out = []
        if plain:
            out.append(f"{_listed(plain, 'or')} would have been a plain overbid (x1)")
        if carried:
            out.append(f"{_listed(carried, 'and')}".replace(" x", " would have carried x", 1))
        if not out:
            return ""
        return f" Over {names[ctx.first]}'s {low}, " + "; ".join(out) + "."

    def _example_answers(
        self, ctx: BiddingContext, current: AuctionState, names: tuple[str, ...], alone: bool
    ) -> str:
        """What the next speaker of the example could do: counter again, or
        call a higher number that cancels the counters (after a direct
        counter, nothing but pass)."""
        seat = self.speaker(ctx)
        if seat is None:
            return ""
        name = names[seat]
        if current.closed:
            return f" The counter cannot be answered: {name} may only pass."
        out = []
        if self.refusal(ctx, COUNTER) is None:
            again = self.state(ctx.with_calls((*ctx.calls, COUNTER)))
            members = " and ".join(names[s] for s in ctx.teams[ctx.team_of(seat)])
            side = "" if alone else f" for {members}"
            out.append(
                f"{name} may {self._call_word(ctx, (*ctx.calls, COUNTER))} "
                f"(x{again.multiplier}){side}"
            )
        higher = bid(current.tricks + 1)
        if self.refusal(ctx, higher) is None:
            reset = self.state(ctx.with_calls((*ctx.calls, higher)))
            out.append(
                f"{name} may call {higher.tricks}, which cancels the counters "
                f"({higher.tricks} tricks at x{reset.multiplier})"
            )
        if not out:
            return ""
        return " Then " + "; or ".join(out) + "."

    def _describe(self, players: int, sides: int, deals: int | None = None) -> str:
        alone = sides == players
        side = "player" if alone else "side"
        steps = self.counters
        if self.speakers is Speakers.ONE_PER_TEAM:
            steps = min(steps, sides - 1)  # only the later sides' one call each can counter
        where = (
            "starting left of the dealer"
            if self.first_bidder is FirstBidder.LEFT_OF_DEALER
            else "starting with the dealer"
        )
        if self.speakers is Speakers.ONE_PER_TEAM and not alone:
            who = (
                f"An ascending auction in which each side makes exactly one announcement, "
                f"{where}: the first player speaks for their side, then the next player "
                "clockwise for the other side"
            )
        else:
            who = f"An ascending auction, {where}; each player speaks once"
        text = (
            f"{who}. A call is pass, or a number of tricks higher than any so far "
            f"(from {self.min_bid} up to the hand size)"
        )
        top = self.counters + 1
        style = self.counter_style
        takes_over = self.counter_holder is CounterHolder.COUNTERING_SIDE
        keeps = (
            f"the contract stays with the {side} that announced the number, and the "
            "multiplier multiplies what it wins and what it loses, as a double does in bridge"
        )
        if steps and style is CounterStyle.STEP and takes_over:
            text += (
                f", or - against another {side}'s contract - a counter ("
                + counter_names(steps)
                + ") that takes the contract over at the next multiplier; a higher number "
                "cancels the counters"
            )
        elif steps and style is CounterStyle.STEP:
            text += (
                f", or - answering another {side}'s number or counter - a counter ("
                + counter_names(steps)
                + f") that raises the contract to the next multiplier: {keeps}; a higher "
                "number cancels the counters"
            )
        elif self.counters and style is CounterStyle.DIRECT:
            what = "that takes the contract over" if takes_over else f"that multiplies it ({keeps})"
            text += (
                f", or - against another {side}'s contract not yet countered - one counter "
                f"call naming the multiplier ({counter_names(self.counters)}: x2 to x{top}) "
                f"{what} and cannot be answered: every later player may only pass"
            )
        text += "."
        where = "player who" if alone else "side that"
        if steps > 1 and style is CounterStyle.STEP and takes_over:
            whose = "player whose" if alone else "side whose"
            text += (
                f" Counters alternate: the {whose} number was doubled may answer with a "
                "triple. This is a house reading of the Vietnam rules, which give a "
                f"multiplier only to the {where} announced second (the preset vietnam-literal "
                "plays them that way)."
            )
        elif steps > 1 and style is CounterStyle.STEP:
            whose = "player whose" if alone else "side whose"
            text += f" Counters alternate: the {whose} number was doubled may answer with a triple"
            if steps > 2:
                text += (
                    ", and the other players with a quadruple"
                    if alone
                    else ", and its opponents with a quadruple"
                )
            text += "."
        if steps and style is not CounterStyle.MULTIPLE_BID:
            if takes_over:
                text += (
                    " Under this reading a counter costs nothing: it takes any contract over "
                    "at the same number; where every trick taken scores at the multiplier, "
                    "as in the Vietnam scoring, the last "
                    f"{'player' if alone else 'side'} to speak can take over any number "
                    f"{'they' if alone else 'it'} can make, however low, at the highest "
                    "multiplier (after bid 1, double, triple, quadruple, the quadrupling "
                    f"{'player' if alone else 'side'} scores four times every trick "
                    f"{'they take' if alone else 'it takes'})."
                )
            else:
                text += (
                    " A counter is thus a bet that the contract fails, called when it pays. "
                    "This is a house reading of the Vietnam rules, which give the multiplier "
                    f"to the {where} announced second and took that many tricks; the preset "
                    "vietnam-literal plays the source's words."
                )
        if self.counters and style is CounterStyle.MULTIPLE_BID:
            exact = self.multiple is Multiple.EXACT
            how = "exactly" if exact else "at least"
            examples = "; ".join(f"{how} {k} times carries x{k}" for k in range(2, min(top, 4) + 1))
            more = "" if top <= 4 else f", up to x{top}"
            if exact:
                text += (
                    f" A number called against another {side}'s announcement multiplies the "
                    f"contract only when it is an exact multiple of that announcement "
                    f"({examples}{more}); any other higher number is a plain overbid (3 then "
                    "6 is a double, 3 then 7 carries no multiplier)"
                )
            else:
                text += (
                    f" A number called against another {side}'s announcement multiplies the "
                    f"contract by how many times it covers that announcement ({examples}"
                    f"{more}; 3 then 7 is a double)"
                )
            same_side_again = not alone and self.speakers is Speakers.EACH_PLAYER
            text += (
                "; a higher number by the side holding the contract carries no multiplier."
                if same_side_again
                else "."
            )
        if self.counters and style is not CounterStyle.MULTIPLE_BID and not takes_over:
            text += " The player who called the highest number is the declarer, countered or not. "
        else:
            text += " The last winning call makes its player the declarer. "
        return text + _all_pass_text(self.all_pass, deals)
