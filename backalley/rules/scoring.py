"""The scoring part: points per side at the end of a deal (see :ref:`rules-scoring`).

One module, one job: the scoring part - its registered classes and the
arithmetic of a deal's points they share, as every other part has one module.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from itertools import repeat
from typing import TYPE_CHECKING, Any, ClassVar

import attrs

from backalley.cards import Suit
from backalley.cardset import CardSet
from backalley.errors import RuleSetError
from backalley.reprs import fields_repr
from backalley.rules.base import Option, Part, Term, has_board_bids, has_jokers, side_word
from backalley.rules.context import DealContext
from backalley.rules.registry import register
from backalley.rules.validators import instance_or_none, whole, whole_or_none
from backalley.values import Contract

if TYPE_CHECKING:
    from backalley.rules.protocols import RuleSetFacts

__all__ = [
    "AuctionScoring",
    "ContractScoring",
    "DefendersScore",
    "ExactBidScoring",
    "HandSizeMultiplier",
    "HandSizeRates",
    "Rainbow",
]


@attrs.frozen(slots=True, repr=False)
class Rainbow:
    """A bonus for each player dealt one card of every suit on the deal of
    ``hand_size`` cards (a joker counts as the trump suit), made or set
    (see :ref:`rules-contract-scoring`)."""

    __repr__ = fields_repr

    hand_size: int = attrs.field(default=4, validator=whole(low=1))
    points: int = attrs.field(default=10, validator=whole())

    def holds(self, hand: CardSet, trump: Suit | None) -> bool:
        """Whether ``hand`` holds a card of every suit (a joker counts as a trump)."""
        suits = {card.suit for card in hand if card.suit is not None}
        if trump is not None and any(card.is_joker for card in hand):
            suits.add(trump)
        return len(suits) == 4


_rainbow_or_none = instance_or_none(Rainbow, "a Rainbow(hand_size, points)")
"""The validator of a scoring part's ``rainbow`` option: a :class:`Rainbow` or none."""


@attrs.frozen(slots=True, repr=False)
class HandSizeMultiplier:
    """On the deal of ``hand_size`` cards, every contract's points, made or set,
    count ``times`` over (see :ref:`rules-hand-size-multipliers`)."""

    __repr__ = fields_repr

    hand_size: int = attrs.field(validator=whole(low=1))
    times: int = attrs.field(validator=whole(low=1))


@attrs.frozen(slots=True, repr=False)
class HandSizeRates:
    """On the deal of ``hand_size`` cards, contract scoring counts these rates
    instead of its own: each rate given (a whole number) replaces the part's,
    each left out (``None``) keeps it (see :ref:`rules-hand-size-rates`)."""

    __repr__ = fields_repr

    hand_size: int = attrs.field(validator=whole(low=1))
    per_bid_trick: int | None = attrs.field(default=None, validator=whole_or_none())
    per_overtrick: int | None = attrs.field(default=None, validator=whole_or_none())
    set_per_bid_trick: int | None = attrs.field(default=None, validator=whole_or_none())
    per_board_trick: int | None = attrs.field(default=None, validator=whole_or_none())
    set_per_board_trick: int | None = attrs.field(default=None, validator=whole_or_none())


def _to_list(name: str) -> Any:
    """The converter of a list of structured options ``name``: a tuple."""

    def convert(value: Sequence[Any]) -> tuple[Any, ...]:
        try:
            return tuple(value)
        except TypeError:
            raise RuleSetError([f"scoring: {name} must be a list, got {value!r}"]) from None

    return convert


def _each_hand_size_once(cls: type, shape: str) -> Any:
    """The validator of a list of per-hand-size entries (``hand_size_multipliers``,
    ``hand_size_rates``): ``cls`` values (``shape`` in words), at most one for
    each hand size."""

    def check(instance: Any, attribute: Any, value: tuple[Any, ...]) -> None:
        name = attribute.name
        if not all(isinstance(entry, cls) for entry in value):
            raise RuleSetError([f"scoring: {name} must be a list of {shape}, got {value!r}"])
        sizes = [entry.hand_size for entry in value]
        twice = sorted({size for size in sizes if sizes.count(size) > 1})
        if twice:
            raise RuleSetError([f"scoring: {name} names the {twice[0]}-card deal more than once"])

    return check


def _to_hand_size_multipliers(
    value: Sequence[HandSizeMultiplier],
) -> tuple[HandSizeMultiplier, ...]:
    """``hand_size_multipliers`` as a tuple."""
    converted: tuple[HandSizeMultiplier, ...] = _to_list("hand_size_multipliers")(value)
    return converted


def _to_hand_size_rates(value: Sequence[HandSizeRates]) -> tuple[HandSizeRates, ...]:
    """``hand_size_rates`` as a tuple."""
    converted: tuple[HandSizeRates, ...] = _to_list("hand_size_rates")(value)
    return converted


_multipliers_once = _each_hand_size_once(HandSizeMultiplier, "HandSizeMultiplier(hand_size, times)")
_rates_once = _each_hand_size_once(
    HandSizeRates,
    "HandSizeRates(hand_size, per_bid_trick, per_overtrick, set_per_bid_trick, "
    "per_board_trick, set_per_board_trick)",
)


def _rainbow_bound(rainbow: Rainbow | None, ctx: DealContext) -> int:
    """The most a rainbow bonus can add to one side's points on the deal of ``ctx``."""
    if rainbow is None or rainbow.hand_size != ctx.hand_size:
        return 0
    return abs(rainbow.points) * max(len(team) for team in ctx.teams)


def _side_bound(
    part: Any, ctx: DealContext, contracts: Sequence[Contract | None], own: bool = False
) -> int:
    """The most points, in absolute value, one side scores with one of
    ``contracts`` on the deal of ``ctx``: its ``contract_points`` for every
    contract and number of tricks (and, ``own``, a defender's
    ``announcement_points`` for every announcement), the rainbow bonus of a
    whole side added."""
    h = ctx.hand_size
    best = 0
    announced = (None, *range(h + 1))
    for contract in contracts:
        for tricks in range(h + 1):
            points = part.contract_points(contract, tricks, h)
            best = max(best, abs(points))
            if own and contract is None:
                for a in announced:
                    best = max(best, abs(points + part.announcement_points(a, tricks)))
    return best + _rainbow_bound(part.rainbow, ctx)


_SCORE_READS = {
    "score_key": frozenset({"hand_size", "teams", "outcome"}),
    "score_reads_dealt": frozenset({"hand_size"}),
}


def _score_reads(rainbow: Rainbow | None, method: str) -> frozenset[str] | None:
    """What side-by-side scoring's ``method`` reads of a deal's context: the
    trump too where a rainbow bonus may be counted."""
    found = _SCORE_READS.get(method)
    if found is not None and method == "score_key" and rainbow is not None:
        return found | {"trump"}
    return found


def _reads_dealt(rainbow: Rainbow | None, ctx: DealContext) -> bool:
    """Whether side-by-side points read the hands as dealt on the deal of
    ``ctx``: only where a rainbow bonus is counted on it."""
    return rainbow is not None and rainbow.hand_size == ctx.hand_size


def _side_context_reads(part: Any, method: str) -> frozenset[str] | None:
    """What side-by-side scoring's ``method`` reads of a deal's context:
    ``score_key`` the hand size, the sides and the bidding's outcome (and the
    trump, with a rainbow bonus); ``score_reads_dealt`` the hand size."""
    return _score_reads(part.rainbow, method)


def _side_score_reads_dealt(part: Any, ctx: DealContext) -> bool:
    """Whether side-by-side points read the hands as dealt on the deal of
    ``ctx`` (declared, beside ``score_key``): only where a rainbow bonus is
    counted."""
    return _reads_dealt(part.rainbow, ctx)


def _side_key(part: Any, ctx: DealContext, announcements: bool = False) -> Hashable:
    """What side-by-side points read of the deal (a score key): the hand size,
    the sides' seats and contracts, the trump where a rainbow bonus is
    counted on this deal, and (``announcements``) the sides' announcements."""
    outcome = ctx.outcome
    rainbow = part.rainbow
    counted = rainbow is not None and rainbow.hand_size == ctx.hand_size
    return (
        ctx.hand_size,
        ctx.teams,
        None if outcome is None else outcome.contracts,
        ctx.trump if counted else None,
        outcome.announcements if announcements and outcome is not None else (),
    )


class _SideScoring(Part):
    """Scoring side by side: each side's points from its contract and tricks,
    plus any rainbow bonus (see :ref:`rules-scoring`)."""

    __slots__ = ()
    rainbow: Rainbow | None

    def contract_points(self, contract: Contract | None, tricks: int, hand_size: int) -> int:
        raise NotImplementedError

    def overtricks_cost(self, hand_size: int) -> bool:
        """Whether, on the ``hand_size``-card deal, a side that has taken
        exactly its contract of some number of tricks scores fewer points
        with one trick more (exact-bid scoring: it loses the bonus; contract
        scoring: never, an overtrick scores).  Asked of :meth:`contract_points`."""
        return any(
            self.contract_points(Contract(b), b + 1, hand_size)
            < self.contract_points(Contract(b), b, hand_size)
            for b in range(hand_size)
        )

    def problems(self, rules: RuleSetFacts) -> list[str]:
        rainbow = self.rainbow
        if rainbow is not None and rainbow.hand_size not in rules.schedule.hand_sizes:
            return [
                f"scoring and schedule: the rainbow bonus is for the {rainbow.hand_size}-card "
                "deal, which the schedule never deals"
            ]
        return []

    def score(
        self, ctx: DealContext, tricks: Sequence[int], dealt: Sequence[CardSet]
    ) -> tuple[int, ...]:
        """The points of each side for one deal."""
        assert ctx.outcome is not None
        return self.side_points(
            ctx.outcome.contracts, tricks, ctx.hand_size, ctx.teams, dealt, ctx.trump
        )

    def side_points(
        self,
        contracts: Sequence[Contract | None],
        tricks: Sequence[int],
        hand_size: int,
        teams: Sequence[Sequence[int]],
        dealt: Sequence[CardSet],
        trump: Suit | None,
    ) -> tuple[int, ...]:
        """:meth:`score` from the bare facts."""
        rainbow = self.rainbow
        if rainbow is None or hand_size != rainbow.hand_size:  # the common case, in one pass
            return tuple(map(self.contract_points, contracts, tricks, repeat(hand_size)))
        points = [self.contract_points(c, t, hand_size) for c, t in zip(contracts, tricks)]
        for side, team in enumerate(teams):
            points[side] += rainbow.points * sum(1 for s in team if rainbow.holds(dealt[s], trump))
        return tuple(points)


class _HandSizeScoring(_SideScoring):
    """Side-by-side scoring whose contract points, made or set, may count several
    times over on deals of given hand sizes (option ``hand_size_multipliers``, see
    :ref:`rules-hand-size-multipliers`); the rainbow bonus is not multiplied."""

    __slots__ = ()
    hand_size_multipliers: tuple[HandSizeMultiplier, ...]

    def base_points(self, contract: Contract | None, tricks: int, hand_size: int) -> int:
        """A side's points for its contract before the hand-size multiplier."""
        raise NotImplementedError

    def hand_size_multiplier(self, hand_size: int) -> int:
        """How many times over the contract points of the ``hand_size``-card deal count."""
        for entry in self.hand_size_multipliers:
            if entry.hand_size == hand_size:
                return entry.times
        return 1

    def contract_points(self, contract: Contract | None, tricks: int, hand_size: int) -> int:
        points = self.base_points(contract, tricks, hand_size)
        if self.hand_size_multipliers:
            return points * self.hand_size_multiplier(hand_size)
        return points

    def problems(self, rules: RuleSetFacts) -> list[str]:
        problems = super().problems(rules)
        sizes = rules.schedule.hand_sizes
        for entry in self.hand_size_multipliers:
            if entry.hand_size not in sizes:
                problems.append(
                    f"scoring and schedule: the hand-size multiplier is for the "
                    f"{entry.hand_size}-card deal, which the schedule never deals"
                )
        return problems


def _hand_size_text(multipliers: tuple[HandSizeMultiplier, ...], what: str) -> str:
    """The hand-size multipliers in words, ``what`` naming the points they multiply
    (nothing when every deal counts once)."""
    counted = [entry for entry in multipliers if entry.times != 1]
    if not counted:
        return ""
    parts = [f"x{entry.times} on the {entry.hand_size}-card deal" for entry in counted]
    listed = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    return f" {what} count {listed}."


_RATE_WORDS = (
    ("per_bid_trick", "{} per bid trick"),
    ("per_overtrick", "{} per overtrick"),
    ("set_per_bid_trick", "{} lost per bid trick when set"),
    ("per_board_trick", "{} x h x the multiplier for a board made"),
    ("set_per_board_trick", "{} x h x the multiplier lost for a board that fails"),
)
"""Each rate of :class:`HandSizeRates`, in the words of the rules sheet."""


def _hand_size_rates_text(entries: tuple[HandSizeRates, ...], board: bool) -> str:
    """The hand sizes' own rates in words (the board rates only where board can
    be bid; nothing for an entry that replaces none)."""
    out = []
    for entry in sorted(entries, key=lambda e: e.hand_size):
        given = [
            words.format(getattr(entry, name))
            for name, words in _RATE_WORDS
            if getattr(entry, name) is not None and (board or "board" not in name)
        ]
        if given:
            listed = given[0] if len(given) == 1 else ", ".join(given[:-1]) + " and " + given[-1]
            out.append(f" On the {entry.hand_size}-card deal other rates replace these: {listed}.")
    return "".join(out)


@register
@attrs.frozen(slots=True, repr=False)
class ContractScoring(_HandSizeScoring):
    """Gamerules scoring (see :ref:`rules-contract-scoring`).  A numeric contract ``b`` with ``t``
    tricks: made (``t >= b``) scores ``per_bid_trick*b + per_overtrick*(t-b)``
    (so a zero contract scores ``per_overtrick`` per trick); set scores
    ``-set_per_bid_trick*b``.  A board on hand size ``h`` with multiplier ``m``:
    all ``h`` tricks score ``per_board_trick*h*m``, fewer ``-set_per_board_trick*h*m``.
    ``hand_size_rates``: on the deals they name, rates of their own replace these
    (see :ref:`rules-hand-size-rates`).  ``hand_size_multipliers``: on the deals they
    name, these points count several times over."""

    tag: ClassVar[str] = "contract"
    part: ClassVar[str] = "scoring"

    per_bid_trick: int = attrs.field(default=5, validator=whole())
    per_overtrick: int = attrs.field(default=1, validator=whole())
    set_per_bid_trick: int = attrs.field(default=5, validator=whole())
    per_board_trick: int = attrs.field(default=10, validator=whole())
    set_per_board_trick: int = attrs.field(default=10, validator=whole())
    rainbow: Rainbow | None = attrs.field(default=None, validator=_rainbow_or_none)
    hand_size_multipliers: tuple[HandSizeMultiplier, ...] = attrs.field(
        default=(), converter=_to_hand_size_multipliers, validator=_multipliers_once
    )
    hand_size_rates: tuple[HandSizeRates, ...] = attrs.field(
        default=(), converter=_to_hand_size_rates, validator=_rates_once
    )

    def needs(self) -> frozenset[str]:
        return frozenset({"summed-contracts"})

    def points_bound(self, ctx: DealContext, contracts: Sequence[Contract | None]) -> int:
        """The most points one side may score (declared, for bounds): asked of
        :meth:`contract_points` for each contract and number of tricks, with
        the rainbow bonus of a whole side."""
        return _side_bound(self, ctx, contracts)

    # declarations, each class's own (a claim is trusted only from the class that decides)
    context_reads = _side_context_reads
    score_reads_dealt = _side_score_reads_dealt

    def score_key(self, ctx: DealContext) -> Hashable:
        """What :meth:`score` reads of the deal besides the tricks and the hands
        as dealt (declared, so that a tool may remember points by it)."""
        return _side_key(self, ctx)

    def rates(self, hand_size: int) -> tuple[int, int, int, int, int]:
        """The rates of the ``hand_size``-card deal: per bid trick, per
        overtrick, lost per bid trick when set, per board trick, lost per
        board trick when a board fails - this part's own, each replaced by
        the ``hand_size_rates`` entry of that hand size where it gives one."""
        own = (
            self.per_bid_trick,
            self.per_overtrick,
            self.set_per_bid_trick,
            self.per_board_trick,
            self.set_per_board_trick,
        )
        for entry in self.hand_size_rates:
            if entry.hand_size == hand_size:
                given = (
                    entry.per_bid_trick,
                    entry.per_overtrick,
                    entry.set_per_bid_trick,
                    entry.per_board_trick,
                    entry.set_per_board_trick,
                )
                a, b, c, d, e = (o if g is None else g for o, g in zip(own, given))
                return (a, b, c, d, e)
        return own

    def base_points(self, contract: Contract | None, tricks: int, hand_size: int) -> int:
        """A numeric contract ``b`` made scores ``per_bid_trick*b + per_overtrick*(t-b)``,
        set ``-set_per_bid_trick*b``; a board ``per_board_trick*h*m`` or
        ``-set_per_board_trick*h*m``; no contract ``per_overtrick`` per trick - at
        the rates of the deal's hand size (:meth:`rates`)."""
        bid, over, set_bid, board, set_board = self.rates(hand_size)
        if contract is None:
            return over * tricks
        if contract.board:
            if tricks >= hand_size:
                return board * hand_size * contract.multiplier
            return -set_board * hand_size * contract.multiplier
        b = contract.tricks
        if tricks >= b:
            return bid * b + over * (tricks - b)
        return -set_bid * b

    def problems(self, rules: RuleSetFacts) -> list[str]:
        """Besides the rainbow's and the multipliers' deals: each hand size
        given its own rates must be dealt by the schedule."""
        problems = super().problems(rules)
        sizes = rules.schedule.hand_sizes
        for entry in self.hand_size_rates:
            if entry.hand_size not in sizes:
                problems.append(
                    f"scoring and schedule: the hand-size rates are for the "
                    f"{entry.hand_size}-card deal, which the schedule never deals"
                )
        return problems

    def describe(self) -> str:
        return self._describe(side="side", board=True)

    def describe_in(self, rules: RuleSetFacts) -> str:
        """Board scoring only where board can be bid; "player" without partnerships;
        no joker in the rainbow without jokers."""
        return self._describe(
            side=side_word(rules), board=has_board_bids(rules), jokers=has_jokers(rules)
        ) + self._zero_text(side_word(rules), rules.bidding)

    def terms_in(self, rules: RuleSetFacts) -> tuple[Term, ...]:
        """Made, set and overtrick, as this scoring counts them."""
        if side_word(rules) == "player":
            who, its, takes = "a player", "their", "they take"
        else:
            who, its, takes = "a side", "its", "it takes"
        every = " (a board: every trick)" if has_board_bids(rules) else ""
        return (
            Term(
                "made",
                f"{who} has made {its} contract when {takes} at least that many tricks{every}.",
                tuple(
                    f"{verb} {whose} contract"
                    for verb in ("make", "makes", "making")
                    for whose in ("its", "their")
                ),
            ),
            Term("set", f"{who} is set when {takes} fewer tricks than {its} contract."),
            Term("overtrick", f"each trick {who} takes beyond {its} contract.", ("overtricks",)),
        )

    def _zero_text(self, side: str, bidding: Any) -> str:
        """A contract of 0 is made by any number of tricks, so it scores
        ``per_overtrick`` per trick taken: said in the calls that make it."""
        passes = bool(getattr(bidding, "pass_allowed", False))
        zero_bid = getattr(bidding, "min_bid", 1) == 0
        if side == "player":
            calls = {
                (True, True): "A player who passes or bids 0",
                (True, False): "A player who passes",
                (False, True): "A player who bids 0",
            }
            takes = "they take"
        else:
            calls = {
                (True, True): "A side whose players both pass or bid 0",
                (True, False): "A side whose players both pass",
                (False, True): "A side whose bids add up to 0",
            }
            takes = "it takes"
        who = calls.get((passes, zero_bid), f"A {side} whose contract is 0")
        if not self.per_overtrick:
            return f" {who} (a contract of 0) scores nothing for the tricks {takes}."
        return f" {who} (a contract of 0) still scores {self.per_overtrick} per trick {takes}."

    def _describe(self, side: str, board: bool, jokers: bool = True) -> str:
        text = (
            f"A {side} that makes its contract of b tricks scores {self.per_bid_trick} per bid "
            f"trick and {self.per_overtrick} per overtrick; a {side} that is set loses "
            f"{self.set_per_bid_trick} per bid trick."
        )
        if board:
            text += (
                f" A board on an h-card deal scores {self.per_board_trick} x h x the multiplier "
                f"when every trick is taken, and loses {self.set_per_board_trick} x h x the "
                "multiplier otherwise."
            )
        if side == "player":
            text = text.replace("its contract", "their contract")
        text += _hand_size_rates_text(self.hand_size_rates, board)
        text += _hand_size_text(self.hand_size_multipliers, "These points, made or set,")
        return text + _rainbow_text(self.rainbow, side, jokers)


@register
@attrs.frozen(slots=True, repr=False)
class ExactBidScoring(_HandSizeScoring):
    """Exact-bid scoring (see :ref:`rules-exact-bid-scoring`).  A side with a contract of ``b``
    tricks that takes ``t`` tricks scores ``t + bonus`` when ``t == b`` and
    ``t - penalty*|t - b|`` otherwise.  A board is a contract of every trick; the
    contract's multiplier ``m`` (a board's, or an auction's counters) multiplies the
    bonus and the penalty.  A side without a contract scores ``t``.
    ``hand_size_multipliers``: on the deals they name, these points count several times over."""

    tag: ClassVar[str] = "exact-bid"
    part: ClassVar[str] = "scoring"

    bonus: int = attrs.field(default=10, validator=whole(low=0))
    penalty: int = attrs.field(default=0, validator=whole(low=0))
    rainbow: Rainbow | None = attrs.field(default=None, validator=_rainbow_or_none)
    hand_size_multipliers: tuple[HandSizeMultiplier, ...] = attrs.field(
        default=(), converter=_to_hand_size_multipliers, validator=_multipliers_once
    )

    def cautions(self, rules: RuleSetFacts) -> list[str]:
        """A contract of 0 is a real contract here (taking no trick earns the
        bonus), yet a bidding that sums the bids into contracts and throws in
        a deal nobody bid a trick for throws in a deal in which nobody bids more than 0
        (``all_pass`` other than ``play-for-overtricks``)."""
        problems: list[str] = []
        bidding = rules.bidding
        provided = bidding.provides()
        zero = getattr(bidding, "pass_allowed", True) or getattr(bidding, "min_bid", 0) == 0
        if zero and "summed-contracts" in provided and "contract-every-deal" in provided:
            option = getattr(bidding, "all_pass", None)
            how = f" (all_pass = {option.value})" if isinstance(option, Option) else ""
            problems.append(
                "scoring and bidding: under exact-bid scoring a contract of 0 is a real "
                "contract (taking no trick earns the bonus), but the bidding throws in a "
                f'deal in which nobody bids more than 0{how}; set all_pass = "play-for-overtricks" '
                "to play such a deal, as the exact-bid preset does"
            )
        return problems

    def points_bound(self, ctx: DealContext, contracts: Sequence[Contract | None]) -> int:
        """The most points one side may score (declared, for bounds): asked of
        :meth:`contract_points` for each contract and number of tricks, with
        the rainbow bonus of a whole side."""
        return _side_bound(self, ctx, contracts)

    # declarations, each class's own (a claim is trusted only from the class that decides)
    context_reads = _side_context_reads
    score_reads_dealt = _side_score_reads_dealt

    def score_key(self, ctx: DealContext) -> Hashable:
        """What :meth:`score` reads of the deal besides the tricks and the hands
        as dealt (declared, so that a tool may remember points by it)."""
        return _side_key(self, ctx)

    def base_points(self, contract: Contract | None, tricks: int, hand_size: int) -> int:
        if contract is None:
            return tricks
        off = abs(tricks - (hand_size if contract.board else contract.tricks))
        if off == 0:
            return tricks + self.bonus * contract.multiplier
        return tricks - self.penalty * contract.multiplier * off

    def describe(self) -> str:
        return self._describe(side="side", board=True, multiplied=False, uncontracted=False)

    def describe_in(self, rules: RuleSetFacts) -> str:
        """Boards only where board can be bid, multiplied contracts and sides without a
        contract only where the bidding makes them; "player" without partnerships; no
        joker in the rainbow without jokers."""
        provided = rules.bidding.provides()
        return self._describe(
            side=side_word(rules),
            board=has_board_bids(rules),
            multiplied="multiplied-contracts" in provided,
            uncontracted="summed-contracts" not in provided,
            jokers=has_jokers(rules),
        )

    def _describe(
        self, side: str, board: bool, multiplied: bool, uncontracted: bool, jokers: bool = True
    ) -> str:
        if side == "player":
            exact, off = "A player who takes exactly their contract", "a player who takes"
        else:
            exact, off = "A side that takes exactly its contract", "a side that takes"
        text = (
            f"{exact} of b tricks scores 1 point per trick taken plus a bonus of {self.bonus}; "
            f"{off} more or fewer scores 1 point per trick taken"
        )
        if self.penalty:
            text += f", less {self.penalty} per trick over or under the contract"
        text += "."
        if not uncontracted:
            text += " A contract of 0 earns the bonus by taking no trick."
        stakes = "the bonus and the penalty" if self.penalty else "the bonus"
        if board:
            text += f" A board is a contract of every trick; its multiplier multiplies {stakes}."
        if multiplied:
            text += f" A doubled, tripled, ... contract multiplies {stakes} as well."
        if uncontracted:
            text += f" A {side} without a contract scores 1 point per trick taken."
        text += _hand_size_text(self.hand_size_multipliers, "These points")
        return text + _rainbow_text(self.rainbow, side, jokers)


class DefendersScore(Option):
    """Option ``defenders_score`` of the auction scoring (see
    :ref:`rules-auction-scoring`): what a side without the contract scores."""

    NOTHING = "nothing"
    """The defenders score nothing."""
    ALL_TRICKS = "all-tricks"
    """The defenders score ``per_trick`` per trick they take."""
    OWN_ANNOUNCEMENT = "own-announcement"
    """A defending side that announced a number (with one announcement per
    side: the outbid side) and took at least its own highest announcement
    scores ``per_trick`` per trick it took; other defenders score nothing."""


@register
@attrs.frozen(slots=True, repr=False)
class AuctionScoring(_SideScoring):
    """Vietnam scoring (see :ref:`rules-auction-scoring`).  The contracting side that takes at
    least its contract scores ``per_trick`` per trick taken times the counter
    multiplier; a failed contract loses ``set_per_trick`` per contracted trick
    times the multiplier.  The defenders score by ``defenders_score``: nothing;
    ``per_trick`` per trick they take (``all-tricks``); or, a defending side
    that took at least its own highest announcement, ``per_trick`` per trick
    it took (``own-announcement``, from the bidding outcome's ``announcements``)."""

    tag: ClassVar[str] = "auction"
    part: ClassVar[str] = "scoring"

    per_trick: int = attrs.field(default=10, validator=whole())
    set_per_trick: int = attrs.field(default=10, validator=whole())
    defenders_score: DefendersScore = attrs.field(
        default=DefendersScore.NOTHING, converter=DefendersScore
    )
    rainbow: Rainbow | None = attrs.field(default=None, validator=_rainbow_or_none)

    def needs(self) -> frozenset[str]:
        """One declarer's contract; with ``own-announcement``, each side's announcement."""
        if self.defenders_score is DefendersScore.OWN_ANNOUNCEMENT:
            return frozenset({"declarer-contract", "side-announcements"})
        return frozenset({"declarer-contract"})

    def score(
        self, ctx: DealContext, tricks: Sequence[int], dealt: Sequence[CardSet]
    ) -> tuple[int, ...]:
        """The points of each side for one deal; with ``own-announcement`` a
        defending side also scores :meth:`announcement_points`."""
        points = _SideScoring.score(self, ctx, tricks, dealt)
        if self.defenders_score is not DefendersScore.OWN_ANNOUNCEMENT:
            return points
        assert ctx.outcome is not None
        contracts, announced = ctx.outcome.contracts, ctx.outcome.announcements
        if not announced:  # a bidding that tells no announcements: none to score
            return points
        return tuple(
            p if contract is not None else p + self.announcement_points(own, taken)
            for p, contract, own, taken in zip(points, contracts, announced, tricks)
        )

    def points_bound(self, ctx: DealContext, contracts: Sequence[Contract | None]) -> int:
        """The most points one side may score (declared, for bounds): asked of
        :meth:`contract_points` for each contract and number of tricks (and
        of :meth:`announcement_points` for a defender under
        ``own-announcement``), with the rainbow bonus of a whole side."""
        own = self.defenders_score is DefendersScore.OWN_ANNOUNCEMENT
        return _side_bound(self, ctx, contracts, own)

    # declarations, each class's own (a claim is trusted only from the class that decides)
    context_reads = _side_context_reads
    score_reads_dealt = _side_score_reads_dealt

    def score_key(self, ctx: DealContext) -> Hashable:
        """What :meth:`score` reads of the deal besides the tricks and the hands
        as dealt (declared, so that a tool may remember points by it): with
        ``own-announcement``, the sides' announcements too."""
        return _side_key(self, ctx, self.defenders_score is DefendersScore.OWN_ANNOUNCEMENT)

    def announcement_points(self, announced: int | None, tricks: int) -> int:
        """What a defending side scores for its own highest announcement
        (``None``: it announced no number) under ``own-announcement``:
        ``per_trick`` per trick taken when it took at least that many, else 0."""
        if announced is None or tricks < announced:
            return 0
        return self.per_trick * tricks

    def contract_points(self, contract: Contract | None, tricks: int, hand_size: int) -> int:
        if contract is None:
            every = self.defenders_score is DefendersScore.ALL_TRICKS
            return self.per_trick * tricks if every else 0
        if tricks >= contract.tricks:
            return self.per_trick * tricks * contract.multiplier
        return -self.set_per_trick * contract.tricks * contract.multiplier

    def describe(self) -> str:
        return self._describe(side="side", multiplied=True)

    def describe_in(self, rules: RuleSetFacts) -> str:
        """The multiplier only where the bidding can multiply a contract."""
        return self._describe(
            side=side_word(rules), multiplied="multiplied-contracts" in rules.bidding.provides()
        )

    def _describe(self, side: str, multiplied: bool) -> str:
        times = (
            " times the contract's multiplier (x2 when doubled, x3 tripled, ...)"
            if multiplied
            else ""
        )
        again = " times the multiplier" if multiplied else ""
        who = (
            "contracting player, if they take"
            if side == "player"
            else "contracting side, if it takes"
        )
        text = (
            f"The {who} at least the contract, scores {self.per_trick} per trick taken{times}; "
            f"a failed contract loses {self.set_per_trick} per contracted trick{again}. "
        )
        text += _defenders_text(self.defenders_score, self.per_trick, side)
        text += _house_choices_text(self.defenders_score, side)
        return text + _rainbow_text(self.rainbow, side)


def _defenders_text(option: DefendersScore, per_trick: int, side: str) -> str:
    """What the defenders score, in words (``side``: "side" or "player")."""
    if option is DefendersScore.ALL_TRICKS:
        return f"Defenders score {per_trick} per trick they take."
    if option is DefendersScore.OWN_ANNOUNCEMENT:
        if side == "player":
            return (
                "An outbid player (a defender who announced a number) scores "
                f"{per_trick} per trick taken if they take at least their own announcement; "
                "other defenders score nothing."
            )
        return (
            "The outbid side (a defending side that announced a number) scores "
            f"{per_trick} per trick taken if it takes at least its own announcement (its "
            "highest, if it announced more than once); other defenders score nothing."
        )
    return "Defenders score nothing."


def _house_choices_text(option: DefendersScore, side: str = "side") -> str:
    """Which of these points the Vietnam source gives, and which are house choices
    (``side``: "side" or "player")."""
    who = (
        "a player who takes what they announced"
        if side == "player"
        else "a side that takes what it announced"
    )
    given = f" The Vietnam source gives only the points of {who}; what a failed contract loses"
    if option is DefendersScore.OWN_ANNOUNCEMENT:
        return given + " is a house choice."
    return given + " and what the defenders score are house choices."


def _rainbow_text(rainbow: Rainbow | None, side: str = "side", jokers: bool = True) -> str:
    if rainbow is None:
        return ""
    whose = "themselves" if side == "player" else "their side"
    joker = " (a joker counting as trump)" if jokers else ""
    return (
        f" Rainbow: on the {rainbow.hand_size}-card deal, each player dealt one card of every "
        f"suit{joker} earns {rainbow.points:+d} for {whose}, made or set."
    )
