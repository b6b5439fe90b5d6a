"""The bidding part: the shape of the auction (see :ref:`rules-bidding`).

Two shapes exist: :class:`OnceAroundBidding` (each player bids once, bids are
summed per side, board claims escalate) and :class:`Auction` (the Vietnam
ascending auction with counters and a declarer).  Each decides which calls
are legal (:meth:`refusal` is the one place that says no: the legal calls
are the calls of :meth:`calls` it lets through, as the rule set's plan asks
them) and what contract the calls make.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

import attrs

from backalley.errors import Reason, RuleSetError
from backalley.moves import BOARD, COUNTER, PASS, Bid, BoardBid, Counter, Move, Pass, bid
from backalley.reprs import fields_repr
from backalley.rules.base import Option, Part, Term, plays_alone, seat_names
from backalley.rules.context import BiddingContext
from backalley.rules.registry import register
from backalley.rules.validators import boolean, whole, whole_numbers
from backalley.values import BiddingOutcome, Contract

if TYPE_CHECKING:
    from backalley.rules.protocols import RuleSetFacts

__all__ = [
    "AllPass",
    "Auction",
    "BiddingOutcome",
    "BoardClaims",
    "BoardMultiplier",
    "Contract",
    "CounterHolder",
    "CounterStyle",
    "FirstBidder",
    "Multiple",
    "OnceAroundBidding",
    "Speakers",
]

Refusal = tuple[Reason, str]


class AllPass(Option):
    """Option ``all_pass`` (see :ref:`rules-thrown-in`): what happens when nobody contracts
    for a trick (everybody passes, or every bid is zero)."""

    REDEAL_NEXT_DEALER = "redeal-next-dealer"
    REDEAL_SAME_DEALER = "redeal-same-dealer"
    PLAY_FOR_OVERTRICKS = "play-for-overtricks"


class FirstBidder(Option):
    """Option ``first_bidder``: who speaks first (see :ref:`rules-bidding`)."""

    LEFT_OF_DEALER = "left-of-dealer"
    DEALER = "dealer"


class BoardClaims(Option):
    """Option ``board_claims``: who may claim board after a first claim (see :ref:`rules-board`)."""

    ANY_PLAYER = "any-player"
    OPPONENTS_ONLY = "opponents-only"


class BoardMultiplier(Option):
    """Whose claims set a side's board multiplier (see :ref:`rules-board`)."""

    ALL_CLAIMS = "all-claims"
    """The deal's multiplier comes from the number of claims by anyone, the
    same for every side (gamerules)."""
    OWN_HIGHEST_CLAIM = "own-highest-claim"
    """Each side's multiplier comes from the level of its own highest claim (bab-online)."""


def _to_multipliers(value: Sequence[int]) -> tuple[int, ...]:
    try:
        return tuple(value)
    except TypeError:
        raise RuleSetError([f"bidding: board_multipliers must be a list, got {value!r}"]) from None


def _once_around_calls(hand_size: int) -> tuple[Move, ...]:
    return (PASS, *bids_between(0, hand_size), BOARD)


def bids_between(low: int, high: int) -> tuple[Bid, ...]:
    """``bid low`` .. ``bid high`` (shared values; empty when ``high < low``)."""
    return tuple(bid(n) for n in range(low, high + 1))


def first_bidder(option: FirstBidder, dealer: int, players: int) -> int:
    return dealer if option is FirstBidder.DEALER else (dealer + 1) % players


class _BiddingPart(Part):
    """What both bidding shapes share: the first bidder and the redeal after a
    throw-in.  Each shape gives the calls it knows (:meth:`calls`) and the one
    method that says no (:meth:`refusal`); the legal calls are the calls it
    knows that :meth:`refusal` lets through, in that order."""

    __slots__ = ()
    first_bidder: FirstBidder
    all_pass: AllPass

    def first(self, dealer: int, players: int) -> int:
        """Who speaks first: left of the dealer, or the dealer (``first_bidder``)."""
        return first_bidder(self.first_bidder, dealer, players)

    def speaker(self, ctx: BiddingContext) -> int | None:
        """The next seat clockwise until every player has spoken once."""
        return ctx.seat if len(ctx.calls) < ctx.players else None

    def direct_counters(self) -> tuple[int, ...]:
        """The multipliers a direct counter call (``counter x2`` ...) may name
        under this part: none."""
        return ()

    def redealer(self, dealer: int, players: int) -> int:
        """Who deals again after a thrown-in deal (option ``all_pass``)."""
        return dealer if self.all_pass is AllPass.REDEAL_SAME_DEALER else (dealer + 1) % players

    def calls(self, ctx: BiddingContext) -> tuple[Move, ...]:
        raise NotImplementedError

    def refusal(self, ctx: BiddingContext, move: Move) -> Refusal | None:
        raise NotImplementedError


@register
@attrs.frozen(slots=True, repr=False)
class OnceAroundBidding(_BiddingPart):
    """Each player bids exactly once, starting with ``first_bidder``
    (see :ref:`rules-once-around`): ``pass`` (when ``pass_allowed``; counts as 0), a number
    from ``min_bid`` to ``hand size - max_bid_below_hand``, or ``board`` (when
    ``board``).  Bids need not be higher than earlier bids.  A side's contract
    is the sum of its members' bids, or its board.

    Board claims escalate: claim *k* (counting every claim of the deal) has
    the multiplier ``board_multipliers[k-1]``; no more claims than multipliers
    are allowed.  ``board_multiplier`` says whether a side's multiplier comes
    from all claims (gamerules: the number of claims) or from its own highest
    claim (bab-online).  ``hook``: the last bidder may not make the total of the
    numeric bids equal the hand size (unless that leaves no call).
    """

    tag: ClassVar[str] = "once-around"
    part: ClassVar[str] = "bidding"
    may_provide: ClassVar[frozenset[str]] = frozenset(
        {"summed-contracts", "board-bids", "contract-every-deal"}
    )

    pass_allowed: bool = attrs.field(default=True, validator=boolean())
    min_bid: int = attrs.field(default=1, validator=whole(low=0))
    max_bid_below_hand: int = attrs.field(default=1, validator=whole(low=0))
    board: bool = attrs.field(default=True, validator=boolean())
    board_claims: BoardClaims = attrs.field(default=BoardClaims.ANY_PLAYER, converter=BoardClaims)
    board_multipliers: tuple[int, ...] = attrs.field(
        default=(1, 2, 3, 4), converter=_to_multipliers, validator=whole_numbers(low=1)
    )
    board_multiplier: BoardMultiplier = attrs.field(
        default=BoardMultiplier.ALL_CLAIMS, converter=BoardMultiplier
    )
    all_pass: AllPass = attrs.field(default=AllPass.REDEAL_NEXT_DEALER, converter=AllPass)
    first_bidder: FirstBidder = attrs.field(
        default=FirstBidder.LEFT_OF_DEALER, converter=FirstBidder
    )
    hook: bool = attrs.field(default=False, validator=boolean())

    def provides(self) -> frozenset[str]:
        return frozenset(
            {
                "summed-contracts",
                *(("board-bids",) if self.board else ()),
                *(
                    ("contract-every-deal",)
                    if self.all_pass is not AllPass.PLAY_FOR_OVERTRICKS
                    else ()
                ),
            }
        )

    def problems(self, rules: RuleSetFacts) -> list[str]:
        return _once_around_fit(self, rules.schedule.hand_sizes, rules.seating.players)

    def max_bid(self, hand_size: int) -> int:
        return hand_size - self.max_bid_below_hand

    def longest_bidding(self, hand_size: int, teams: tuple[tuple[int, ...], ...]) -> int:
        """The most calls of a bidding (declared, for bounds): every player speaks once."""
        return sum(len(team) for team in teams)

    def contracts(
        self, hand_size: int, teams: tuple[tuple[int, ...], ...]
    ) -> tuple[Contract | None, ...]:
        """Every contract a side may hold (declared, for bounds): the sums of
        its members' bids, and a board at each multiplier."""
        most = max(len(team) for team in teams) * max(0, self.max_bid(hand_size))
        numbers = tuple(Contract(k) for k in range(most + 1))
        if not self.board:
            return numbers
        boards = (Contract(hand_size, board=True, multiplier=m) for m in self.board_multipliers)
        return numbers + tuple(dict.fromkeys(boards))

    def calls(self, ctx: BiddingContext) -> tuple[Move, ...]:
        """The calls this bidding knows, in order: pass, numbers up to the hand
        size, board (:meth:`refusal` says which are legal now)."""
        return _once_around_calls(ctx.hand_size)

    def answer_key(self, ctx: BiddingContext) -> Hashable:
        """What :meth:`speaker` and :meth:`refusal` depend on: the hand size,
        the number of calls so far, the board claims (and whether the seat's
        own side made one) and the total of the numeric bids."""
        calls = ctx.calls
        claims = total = 0
        own_side = False
        if calls:
            seat_teams, players = ctx.seat_teams, ctx.players
            side = seat_teams[(ctx.first + len(calls)) % players]
            seat = ctx.first
            for call in calls:
                kind = type(call)
                if kind is Bid:
                    total += call.tricks  # type: ignore[union-attr]
                elif kind is BoardBid:
                    claims += 1
                    if seat_teams[seat] == side:
                        own_side = True
                seat += 1
                if seat == players:
                    seat = 0
        return (ctx.hand_size, ctx.players, len(calls), claims, own_side, total)

    def refusal(self, ctx: BiddingContext, move: Move) -> Refusal | None:
        """Why ``move`` may not be called now, or ``None`` if it may."""
        if isinstance(move, Pass):
            if not self.pass_allowed:
                return (Reason.PASS_NOT_ALLOWED, "these rules have no pass: bid a number of tricks")
            return self._hook_refusal(ctx, 0)
        if isinstance(move, Bid):
            low, high = self.min_bid, self.max_bid(ctx.hand_size)
            if move.tricks < low:
                return (Reason.BID_TOO_LOW, f"the lowest bid is {low}")
            if move.tricks > high:
                if high < low:
                    return (
                        Reason.BID_TOO_HIGH,
                        f"with {ctx.hand_size} card(s) no numeric bid is allowed",
                    )
                return (
                    Reason.BID_TOO_HIGH,
                    f"with {ctx.hand_size} card(s) the highest bid is {high}",
                )
            return self._hook_refusal(ctx, move.tricks)
        if isinstance(move, BoardBid):
            return self._board_refusal(ctx)
        if isinstance(move, Counter):
            return (Reason.COUNTER_NOT_ALLOWED, "there are no counters in this bidding")
        return (Reason.WRONG_PHASE, f"{move} is not a call; it is time to bid")

    def _board_refusal(self, ctx: BiddingContext) -> Refusal | None:
        """Board claims: whether board is a call, how many claims the multipliers
        allow, and who may claim again (``board_claims``)."""
        if not self.board:
            return (Reason.BOARD_NOT_ALLOWED, "these rules have no board bid")
        claims = [i for i, call in enumerate(ctx.calls) if isinstance(call, BoardBid)]
        if len(claims) >= len(self.board_multipliers):
            return (
                Reason.BOARD_LIMIT,
                f"board has been claimed {len(claims)} times, the most these rules allow",
            )
        if claims and self.board_claims is BoardClaims.OPPONENTS_ONLY:
            team = ctx.team_of(ctx.seat)
            if any(ctx.team_of(ctx.seat_of(i)) == team for i in claims):
                return (
                    Reason.BOARD_BY_PARTNER,
                    "your partner has claimed board already; only an opponent may claim again",
                )
        return None

    def _hooked(self, ctx: BiddingContext) -> int | None:
        """The hook: the number of tricks (0 = pass) the last bidder
        may not call because the bids would total the hand size - unless that
        call is the only one left."""
        if not self.hook or not ctx.is_last:
            return None
        if any(isinstance(call, BoardBid) for call in ctx.calls):
            return None
        value = ctx.hand_size - sum(call.tricks for call in ctx.calls if isinstance(call, Bid))
        low, high = self.min_bid, self.max_bid(ctx.hand_size)
        numbers = max(0, high - low + 1)
        pass_ok = self.pass_allowed
        if value == 0 and pass_ok:
            in_range = 1 + (1 if low <= 0 <= high else 0)
        elif low <= value <= high:
            in_range = 1
        else:
            return None  # the forbidden total cannot be called anyway
        others = numbers + (1 if pass_ok else 0) - in_range
        if self._board_refusal(ctx) is None:
            others += 1
        return value if others > 0 else None

    def _hook_refusal(self, ctx: BiddingContext, tricks: int) -> Refusal | None:
        if self._hooked(ctx) != tricks:
            return None
        return (
            Reason.BID_MAKES_TOTAL,
            f"the bids may not add up to the hand size ({ctx.hand_size}); "
            f"you are the last to bid, so {tricks} is not allowed",
        )

    def outcome(self, ctx: BiddingContext) -> BiddingOutcome:
        """The contracts made by the complete calls ``ctx.calls``, and who leads first."""
        calls, teams = ctx.calls, ctx.teams
        seats = [ctx.seat_of(i) for i in range(len(calls))]
        numbers = [call.tricks if type(call) is Bid else 0 for call in calls]
        claims = [seat for seat, call in zip(seats, calls) if type(call) is BoardBid]
        if not claims and not any(numbers):
            thrown = self.all_pass is not AllPass.PLAY_FOR_OVERTRICKS
            return BiddingOutcome(tuple(Contract(0) for _ in teams), thrown_in=thrown)
        contracts: list[Contract | None] = []
        for team in teams:
            levels = [k + 1 for k, seat in enumerate(claims) if seat in team]
            if levels:
                level = len(claims)
                if self.board_multiplier is BoardMultiplier.OWN_HIGHEST_CLAIM:
                    level = max(levels)
                mult = self.board_multipliers[level - 1]
                contracts.append(Contract(ctx.hand_size, board=True, multiplier=mult))
            else:
                contracts.append(Contract(sum(n for s, n in zip(seats, numbers) if s in team)))
        # the first leader: the last board claimer, else the earliest of the highest bids
        leader = claims[-1] if claims else seats[numbers.index(max(numbers))]
        return BiddingOutcome(
            tuple(contracts), highest_bidder=leader, board_bidders=frozenset(claims)
        )

    def describe(self) -> str:
        return self._describe(alone=False)

    def describe_in(self, rules: RuleSetFacts) -> str:
        """The bidding as it plays under ``rules``' seating and schedule (which
        deals leave no number, or only one, to bid)."""
        return self._describe(alone=plays_alone(rules), sizes=rules.schedule.hand_sizes)

    def terms_in(self, rules: RuleSetFacts) -> tuple[Term, ...]:
        """The contract, as this bidding makes it."""
        alone = plays_alone(rules)
        if alone:
            meaning = "the number of tricks a player undertakes to take in a deal: their bid"
            meaning += " (0 for a pass)" if self.pass_allowed else ""
            meaning += ", or every trick after bidding board." if self.board else "."
        else:
            meaning = (
                "the number of tricks a side undertakes to take in a deal: the sum of its "
                "two players' bids"
            )
            meaning += " (0 when both pass)" if self.pass_allowed else ""
            meaning += ", or every trick when one of them bids board." if self.board else "."
        return (Term("contract", meaning, _CONTRACT_FORMS),)

    def _numbers_note(self, sizes: Sequence[int] | None) -> str:
        """What the number range comes to on the schedule's deals: the highest
        number on the largest deal, the deals with only one number, and those
        with none (and the calls left there)."""
        low = self.min_bid
        others = [c for c, on in (("pass", self.pass_allowed), ("board", self.board)) if on]
        left = " and ".join(others) or "none"
        if sizes is None:
            if self.max_bid(1) >= low:
                return ""
            return f" On a 1-card deal no number can be bid: the only calls are then {left}."
        notes = []
        largest = max(sizes)
        if self.max_bid_below_hand and self.max_bid(largest) >= low:
            notes.append(
                f"the highest number is {self.max_bid(largest)} on the {largest}-card deal"
            )
        distinct = sorted(set(sizes), reverse=True)
        one = [s for s in distinct if self.max_bid(s) == low]
        none = [s for s in distinct if self.max_bid(s) < low]
        if one:
            notes.append(f"on the {_deals_named(one)} the only number is {low}")
        if none:
            notes.append(
                f"on the {_deals_named(none)} no number can be bid: the only calls are {left}"
            )
        if not notes:
            return ""
        text = "; ".join(notes)
        return " " + text[0].upper() + text[1:] + "."

    def _board_text(self, alone: bool) -> str:
        """What a board does to a partnership's contract."""
        if alone or not self.board:
            return ""
        return (
            " A board replaces the side's contract: the partner's number no longer counts, "
            "and the side must take every trick."
        )

    def _both_boards_text(self, alone: bool) -> str:
        """How the boards of both sides are scored (``board_multiplier``)."""
        if alone or not self.board:
            return ""
        if self.board_multiplier is BoardMultiplier.OWN_HIGHEST_CLAIM:
            return (
                " When both sides claim board, each is scored on its own board at the "
                "multiplier of its own highest claim."
            )
        return (
            " When both sides claim board, each is scored on its own board at the deal's "
            "multiplier."
        )

    def _describe(self, alone: bool, sizes: Sequence[int] | None = None) -> str:
        parts = ["Each player bids exactly once, in turn"]
        parts.append(
            "starting left of the dealer"
            if self.first_bidder is FirstBidder.LEFT_OF_DEALER
            else "starting with the dealer"
        )
        text = ", ".join(parts) + ". A call is "
        calls = []
        if self.pass_allowed:
            calls.append("pass (0 tricks)")
        high = (
            "the hand size"
            if self.max_bid_below_hand == 0
            else (f"the hand size minus {self.max_bid_below_hand}")
        )
        calls.append(f"a number from {self.min_bid} to {high}")
        if self.board:
            calls.append(f"board (the {'player' if alone else 'side'} takes every trick)")
        text += ", ".join(calls[:-1]) + (" or " if len(calls) > 1 else "") + calls[-1]
        text += "." + self._numbers_note(sizes)
        text += " Bids need not be higher than earlier bids; "
        text += (
            "each player's contract is their own bid."
            if alone
            else "a side's contract is the sum of its bids."
        )
        text += self._board_text(alone)
        if self.board and len(set(self.board_multipliers)) == 1:
            # equal multipliers: the claims do not escalate
            claims = len(self.board_multipliers)
            times = "once" if claims == 1 else f"up to {claims} times"
            text += (
                f" Board may be claimed {times} in a deal; every claim has the same "
                f"multiplier, x{self.board_multipliers[0]}, so claims do not escalate"
            )
        elif self.board:
            mults = ", ".join(f"x{m}" for m in self.board_multipliers)
            text += f" Board claims escalate one level per claim ({mults})"
            if self.board_multiplier is BoardMultiplier.OWN_HIGHEST_CLAIM:
                text += f"; a {'player' if alone else 'side'}'s multiplier is that of its own highest claim"
            else:
                text += (
                    "; the number of claims sets the deal's multiplier, the same for every "
                    f"board {'player' if alone else 'side'}"
                )
        if self.board:
            if self.board_claims is BoardClaims.OPPONENTS_ONLY and not alone:
                text += "; a partner of a board claimer may not claim again"
            text += "."
        text += self._both_boards_text(alone)
        if self.hook:
            text += " The hook: the last bidder may not make the bids total the hand size."
        text += " " + _all_pass_text(self.all_pass, None if sizes is None else len(sizes))
        return text


_CONTRACT_FORMS = ("contracts", "contracting", "contracted")
"""The forms of the word "contract" a rules sheet uses."""


def _deals_named(sizes: Sequence[int]) -> str:
    """``1-card deal``; ``2- and 1-card deals``; ``3-, 2- and 1-card deals``."""
    if len(sizes) == 1:
        return f"{sizes[0]}-card deal"
    heads = ", ".join(f"{s}-" for s in sizes[:-1])
    return f"{heads} and {sizes[-1]}-card deals"


def _all_pass_text(option: AllPass, deals: int | None = None) -> str:
    """What ``all_pass`` does, in words; a thrown-in deal is not one of the
    ``deals`` scored deals (of the schedule, where known)."""
    counted = (
        "the scheduled deals"
        if deals is None
        else "the scored deal"
        if deals == 1
        else f"the {deals} scored deals"
    )
    not_counted = f" (a thrown-in deal is not one of {counted})"
    if option is AllPass.REDEAL_NEXT_DEALER:
        return (
            "If nobody contracts for a trick, the deal is thrown in and the next dealer deals "
            f"the same hand size{not_counted}."
        )
    if option is AllPass.REDEAL_SAME_DEALER:
        return (
            "If nobody contracts for a trick, the deal is thrown in and the same dealer deals "
            f"again{not_counted}."
        )
    return "If nobody contracts for a trick, the deal is played and scored all the same."


class Speakers(Option):
    """Option ``speakers`` of the auction: who speaks (see :ref:`rules-literal-auction`)."""

    EACH_PLAYER = "each-player"
    """Every player speaks once, in turn."""
    ONE_PER_TEAM = "one-per-team"
    """Each side makes exactly one announcement: the first bidder speaks for
    their side, then the next player clockwise for the next side, and so on
    (the source read word by word).  Without partnerships every player is a side of their own,
    so every player speaks once."""


class CounterStyle(Option):
    """Option ``counter_style`` of the auction (see :ref:`rules-counters`): how a side
    multiplies the other side's contract."""

    STEP = "step"
    """``counter`` calls (double, then triple, then quadruple), one step at a
    time, each taking the contract over for the countering side."""
    DIRECT = "direct"
    """One call, ``counter x2``, ``x3`` or ``x4`` (double, triple or
    quadruple), answering an uncountered contract of another side; it cannot
    be answered: every later player may only pass."""
    MULTIPLE_BID = "multiple-bid"
    """No counter calls: a bid of at least 2, 3 or 4 times the other side's
    announcement carries the multiplier 2, 3 or 4 (3 then 7 is a double; with
    ``multiple = exact``, only exactly 2, 3 or 4 times)."""


class CounterHolder(Option):
    """Option ``counter_holder`` of the auction (see :ref:`rules-counters`): who holds
    a contract once it is countered (read with ``counter_style = step`` or
    ``direct``; under ``multiple-bid`` a multiplied number is simply the
    highest number)."""

    ANNOUNCER = "announcer"
    """The side that announced the number keeps the contract: a counter
    multiplies what that side wins and what it loses, as a double does in
    bridge, and (with step counters) the next counter answers the last one
    from the other side: the announcing side triples a double, the doubling
    side quadruples a triple."""
    COUNTERING_SIDE = "countering-side"
    """A counter takes the contract over at the same number for the countering
    side.  Since a contract scores every trick taken at its multiplier, a
    counter on a low number costs nothing, and the last side to speak takes
    every deal (bid 1, double, triple, quadruple)."""


class Multiple(Option):
    """Option ``multiple`` of the auction (see :ref:`rules-literal-auction`): which numbers
    carry a multiplier when ``counter_style = multiple-bid`` (ignored, and not
    in the rules sheet, under the other counter styles)."""

    AT_LEAST = "at-least"
    """A number of at least 2, 3 or 4 times the other side's announcement
    carries x2, x3 or x4 (3 then 7 is a double)."""
    EXACT = "exact"
    """Only exactly 2, 3 or 4 times the other side's announcement carries x2,
    x3 or x4 (3 then 6 is a double); any other higher number is a plain
    overbid (3 then 7 carries no multiplier)."""


_COUNTER_NAMES = (
    "double",
    "triple",
    "quadruple",
    "quintuple",
    "sextuple",
    "septuple",
    "octuple",
    "nonuple",
    "decuple",
)


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


def counter_names(counters: int) -> str:
    """The multipliers of ``counters`` steps as words: ``double, triple, quadruple``;
    past x10, ``double, triple, ... up to x12``."""
    if counters <= len(_COUNTER_NAMES):
        return ", ".join(_COUNTER_NAMES[:counters])
    return f"double, triple, quadruple and so on up to x{counters + 1}"


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


def _once_around_fit(
    bidding: OnceAroundBidding, hand_sizes: Sequence[int], players: int
) -> list[str]:
    """Every deal of the schedule must leave each seat a call, and some call
    must contract for a trick (else the deal would be thrown in forever)."""
    out: list[str] = []
    board_can_run_out = len(bidding.board_multipliers) < players or (
        bidding.board_claims is BoardClaims.OPPONENTS_ONLY and players > 2
    )
    for size in sorted(set(hand_sizes)):
        low, high = bidding.min_bid, bidding.max_bid(size)
        numeric = low <= high
        if not bidding.pass_allowed and not numeric and (not bidding.board or board_can_run_out):
            out.append(
                f"bidding and schedule: with {size} card(s) there is no pass and no numeric bid, "
                "and board claims can run out, so a seat can be left with no legal call; "
                "allow a pass (pass_allowed = true), lower min_bid or max_bid_below_hand so that "
                f"a number can be bid, or drop the {size}-card deal from the schedule"
            )
            break
        contracting = bidding.board or high >= max(low, 1)
        if not contracting and bidding.all_pass is not AllPass.PLAY_FOR_OVERTRICKS:
            cures = ["board bids (board = true)"]
            if size >= max(low, 1):
                cures.append("a bid of the whole hand (max_bid_below_hand = 0)")
            cures.append('playing such a deal for overtricks (all_pass = "play-for-overtricks")')
            out.append(
                f"bidding and schedule: with {size} card(s) no call contracts for a trick, so "
                f"every such deal is thrown in again forever (all_pass = {bidding.all_pass.value}); "
                f"allow {', '.join(cures[:-1])} or {cures[-1]}, "
                f"or drop the {size}-card deal from the schedule"
            )
            break
    return out
