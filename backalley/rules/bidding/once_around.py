"""The once-around bidding of the default game (see :ref:`rules-once-around`):
each player bids once, bids are summed per side, board claims escalate.
:class:`OnceAroundBidding` and its options of board claims.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, ClassVar

import attrs

from backalley.errors import Reason, RuleSetError
from backalley.moves import BOARD, PASS, Bid, BoardBid, Counter, Move, Pass
from backalley.rules.base import Option, Term, plays_alone
from backalley.rules.bidding.base_part import (
    _CONTRACT_FORMS,
    AllPass,
    FirstBidder,
    Refusal,
    _all_pass_text,
    _BiddingPart,
    bids_between,
)
from backalley.rules.context import BiddingContext
from backalley.rules.registry import register
from backalley.rules.validators import boolean, whole, whole_numbers
from backalley.values import BiddingOutcome, Contract

if TYPE_CHECKING:
    from backalley.rules.protocols import RuleSetFacts

__all__ = ["BoardClaims", "BoardMultiplier", "OnceAroundBidding"]


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

    def state_key(self, ctx: BiddingContext) -> Hashable:
        """What the rest of the bidding and its outcome read of the calls so
        far: the hand size, the first bidder and the number of calls, each
        side's total of numeric bids, the board claimers in order, and the
        highest number with the earliest seat to bid it (once every player
        has called, only that seat)."""
        seat_teams, players = ctx.seat_teams, ctx.players
        totals = [0] * len(ctx.teams)
        claims: list[int] = []
        top, top_seat = 0, -1
        seat = ctx.first
        for call in ctx.calls:
            kind = type(call)
            if kind is Bid:
                tricks = call.tricks  # type: ignore[union-attr]
                totals[seat_teams[seat]] += tricks
                if tricks > top:
                    top, top_seat = tricks, seat
            elif kind is BoardBid:
                claims.append(seat)
            seat += 1
            if seat == players:
                seat = 0
        if len(ctx.calls) == players:  # complete: the highest number's size no longer matters
            top = 0
        return (
            ctx.hand_size, players, ctx.first, len(ctx.calls), tuple(totals), tuple(claims),
            top, top_seat,
        )  # fmt: skip

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


def _deals_named(sizes: Sequence[int]) -> str:
    """``1-card deal``; ``2- and 1-card deals``; ``3-, 2- and 1-card deals``."""
    if len(sizes) == 1:
        return f"{sizes[0]}-card deal"
    heads = ", ".join(f"{s}-" for s in sizes[:-1])
    return f"{heads} and {sizes[-1]}-card deals"


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
