"""The shapes of the documents, described once: each document (and each
object inside one) is an attrs class whose fields are its keys, typed.

From these classes the one converter (:mod:`backalley.io.codec`) reads
documents (cattrs, with detailed validation: every refusal a
:class:`~backalley.SerializationError` at its ``$.a[0]`` path), and the JSON
Schema (:mod:`backalley.io.schema`) and the server's OpenAPI document are
generated.  A shape holds what a document says in the library's own values
(a :class:`~backalley.Card`, a :class:`~backalley.Move`, a
:class:`~backalley.RuleSet`); what the document *means* (a view that agrees
with its rules, a state whose moves replay) is checked by the document's
module in :mod:`backalley.io.serialize` and by the engine.

The leaves are the library's values and a few named kinds of whole number
(:data:`Seat`, :data:`Count`, :data:`Positive`, :data:`Seed`); a field's
``metadata`` may add to its schema (``"schema"``: ``minItems``,
``uniqueItems`` ...), bound a list's length before its items are read
(``"most"``: a bound of the format itself, whatever the rules; a document's
module checks the bounds its rules set afterwards), mark a key that a loader works out itself and only
checks (``"output"``), or one the library always writes though a reader may
leave it out (``"written"``).
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, NewType

import attrs

from backalley.cards import CARDS, Card, Suit
from backalley.moves import Move
from backalley.rules.ruleset import RuleSet
from backalley.rules.schedule import MAX_DEALS
from backalley.values import Phase

__all__ = [
    "CALL_ROUNDS",
    "FORMAT_VERSION",
    "MAX_SEAT",
    "MOST_CALLS",
    "SHAPES",
    "CALL",
    "Call",
    "CallAnswerShape",
    "CardAnswerShape",
    "ContractShape",
    "Count",
    "DealResultShape",
    "Positive",
    "ReasonName",
    "RecordShape",
    "RulesInput",
    "Seat",
    "Seed",
    "StateShape",
    "TrickShape",
    "VectorsHeaderShape",
    "VectorsPositionShape",
    "VectorsResultShape",
    "ViewShape",
]

FORMAT_VERSION = 2
"""The version of every document format written (and read) by this library."""

MAX_SEAT = 7
"""The highest seat number: a cutthroat game seats at most 8 players."""

Seat = NewType("Seat", int)
"""A seat: a whole number from 0 to :data:`MAX_SEAT` (within a game, below its players)."""
Count = NewType("Count", int)
"""A count of things (tricks, deals): a whole number, 0 or more."""
Positive = NewType("Positive", int)
"""A whole number, 1 or more (a hand size, a deal's number, a multiplier)."""
Seed = NewType("Seed", int)
"""A game's seed: a whole number smaller than 2**64 in size."""
CALL = "call"
"""The mark of a move that is a bidding call (:data:`Call`)."""
Call = Annotated[Move, CALL]
"""A bidding call (``pass``, ``bid 3``, ``board``, ``counter``, ``counter x2``)."""
ReasonName = NewType("ReasonName", str)
"""The name of a :class:`~backalley.Reason` (built in, or a registered tag)."""
RulesInput = NewType("RulesInput", RuleSet)
"""A rule set as read: parts left out keep their defaults, or a ``base`` variant's."""


def _sides() -> dict[str, Any]:
    """The metadata of a list with one item per side or seat."""
    return {"schema": {"minItems": 2, "maxItems": MAX_SEAT + 1}, "most": MAX_SEAT + 1}


CALL_ROUNDS = 4
"""A deal's bidding takes at most this many times (hand size + 2) calls per
seat (every built-in bidding takes one call per seat)."""

MOST_CALLS = (MAX_SEAT + 1) * CALL_ROUNDS * (len(CARDS) + 2)
"""The most calls a deal can take at any table (a view's rules bound them
more closely)."""

_CARDS_MOST: dict[str, Any] = {"most": len(CARDS)}
"""The metadata of a list that holds no more items than there are cards."""


UNIQUE: dict[str, Any] = {"schema": {"uniqueItems": True}}
"""The metadata of a list of distinct cards."""
OUTPUT: dict[str, Any] = {"output": True}
"""The metadata of a key the loader works out itself and only checks when given."""


def sides(**more: Any) -> Any:
    """A field with one item per side or seat (2 to 8 items)."""
    return attrs.field(metadata=_sides(), **more)


@attrs.frozen(kw_only=True)
class TrickShape:
    """A completed trick: who led, the cards in play order, who won."""

    what: ClassVar[str] = "a trick"
    schema_name: ClassVar[str] = "trick"

    leader: Seat
    cards: tuple[Card, ...] = attrs.field(
        metadata={"schema": {"minItems": 2, "maxItems": MAX_SEAT + 1, "uniqueItems": True}}
    )
    winner: Seat


@attrs.frozen(kw_only=True)
class ContractShape:
    """One side's contract."""

    what: ClassVar[str] = "a contract"
    schema_name: ClassVar[str] = "contract"
    format_name: ClassVar[str] = "contract"

    tricks: Count
    board: bool = attrs.field(default=False, metadata={"written": True})
    multiplier: Positive = attrs.field(default=Positive(1), metadata={"written": True})
    declarer: Seat | None = attrs.field(default=None, metadata={"written": True})


@attrs.frozen(kw_only=True)
class DealResultShape:
    """The record of one scored deal."""

    what: ClassVar[str] = "a deal result"
    schema_name: ClassVar[str] = "deal_result"
    format_name: ClassVar[str] = "deal-result"

    number: Positive
    dealer: Seat
    hand_size: Positive
    turn_up: Card | None = attrs.field(default=None, metadata={"written": True})
    trump: Suit | None = attrs.field(default=None, metadata={"written": True})
    bids: tuple[Call | None, ...] = sides()
    contracts: tuple[ContractShape | None, ...] = sides()
    declarer: Seat | None = attrs.field(default=None, metadata={"written": True})
    tricks: tuple[Count, ...] = sides()
    points: tuple[int, ...] = sides()


@attrs.frozen(kw_only=True)
class CardAnswerShape:
    """Whether the seat may play one card of its hand now; if not, the rule
    that refuses it (a backalley.Reason name) and why, as a sentence."""

    what: ClassVar[str] = "a card's answer"
    schema_name: ClassVar[str] = "card_answer"

    card: Card
    playable: bool
    reason: ReasonName | None
    message: str | None


@attrs.frozen(kw_only=True)
class CallAnswerShape:
    """Whether the seat may make one call the bidding knows now; if not, the
    rule that refuses it (a backalley.Reason name) and why, as a sentence."""

    what: ClassVar[str] = "a call's answer"
    schema_name: ClassVar[str] = "call_answer"

    call: Call
    legal: bool
    reason: ReasonName | None
    message: str | None


@attrs.frozen(kw_only=True)
class ViewShape:
    """What one seat may know (backalley.PlayerView), with the facts worked
    out from it (calls per seat, contracts and tricks per side, trump broken,
    deals played, the winner), its legal moves, an answer for each card of
    its hand and for each call the bidding knows (written always; when read,
    each is optional and must be what the view answers)."""

    what: ClassVar[str] = "a player view"
    schema_name: ClassVar[str] = "view"
    format_name: ClassVar[str] = "view"

    rules: RuleSet
    seat: Seat
    phase: Phase
    to_act: Seat | None
    dealer: Seat
    hand_size: Positive
    hand: tuple[Card, ...] = attrs.field(metadata={**UNIQUE, **_CARDS_MOST})
    hand_counts: tuple[Count, ...] = sides()
    turn_up: Card | None = attrs.field(default=None, metadata={"written": True})
    discards: tuple[Card, ...] = attrs.field(
        default=(), metadata={**UNIQUE, **_CARDS_MOST, "written": True}
    )
    trump: Suit | None = attrs.field(default=None, metadata={"written": True})
    calls: tuple[Call, ...] = attrs.field(
        metadata={"schema": {"maxItems": MOST_CALLS}, "most": MOST_CALLS}
    )
    bids: tuple[Call | None, ...] = attrs.field(default=(), metadata={**_sides(), **OUTPUT})
    declarer: Seat | None = attrs.field(default=None, metadata=OUTPUT)
    contracts: tuple[ContractShape | None, ...] | None = attrs.field(
        default=None, metadata={**_sides(), **OUTPUT}
    )
    trump_known: bool = attrs.field(default=False, metadata=OUTPUT)
    trump_broken: bool = attrs.field(default=False, metadata=OUTPUT)
    tricks_won: tuple[Count, ...] = attrs.field(default=(), metadata={**_sides(), **OUTPUT})
    side_tricks: tuple[Count, ...] = attrs.field(default=(), metadata={**_sides(), **OUTPUT})
    side_seats: tuple[tuple[Seat, ...], ...] = attrs.field(
        default=(),
        metadata={
            **OUTPUT,
            "schema": {"minItems": 2, "maxItems": MAX_SEAT + 1},
            "item_schema": {"minItems": 1, "maxItems": MAX_SEAT + 1, "uniqueItems": True},
        },
    )
    deals_played: Count = attrs.field(default=Count(0), metadata=OUTPUT)
    deals: Positive = attrs.field(default=Positive(1), metadata=OUTPUT)
    winner: Seat | None = attrs.field(default=None, metadata=OUTPUT)
    tricks: tuple[TrickShape, ...] = attrs.field(metadata=_CARDS_MOST)
    trick: tuple[Card, ...] = attrs.field(
        metadata={"schema": {"maxItems": MAX_SEAT, "uniqueItems": True}, "most": MAX_SEAT}
    )
    leader: Seat
    scores: tuple[int, ...] = sides()
    deal_results: tuple[DealResultShape, ...] = attrs.field(metadata={"most": MAX_DEALS})
    legal_moves: tuple[Move, ...] = attrs.field(default=(), metadata=OUTPUT)
    cards: tuple[CardAnswerShape, ...] = attrs.field(default=(), metadata=OUTPUT)
    call_answers: tuple[CallAnswerShape, ...] = attrs.field(default=(), metadata=OUTPUT)


@attrs.frozen(kw_only=True)
class StateShape:
    """A full-information game state (backalley.GameState) as the game that
    reaches it: the rule set, the seed, the first dealer, the deck orders
    that did not come from the seed (one per deal dealt, thrown-in deals
    included, while there are any) and every move since the game began.
    Loading starts backalley.new_game(rules, seed=seed,
    dealer=first_dealer, decks=decks) and applies each move."""

    what: ClassVar[str] = "a game state"
    schema_name: ClassVar[str] = "state"
    format_name: ClassVar[str] = "state"

    rules: RuleSet
    seed: Seed
    first_dealer: Seat
    decks: tuple[tuple[Card, ...], ...] = attrs.field(
        metadata={"item_schema": {"minItems": 1, "uniqueItems": True}}
    )
    moves: tuple[Move, ...]


@attrs.frozen(kw_only=True)
class RecordShape:
    """A game record (backalley.GameRecord): a seed or deck orders (or
    both), the moves, and optionally the results they must produce."""

    what: ClassVar[str] = "a game record"
    schema_name: ClassVar[str] = "record"
    format_name: ClassVar[str] = "record"

    rules: RulesInput
    first_dealer: Seat
    seed: Seed | None = None
    decks: tuple[tuple[Card, ...], ...] = attrs.field(
        default=(), metadata={"item_schema": {"minItems": 1, "uniqueItems": True}}
    )
    moves: tuple[Move, ...]
    results: tuple[DealResultShape, ...] = ()
    players: tuple[str, ...] = attrs.field(default=(), metadata=_sides())
    metadata: dict[str, str] = attrs.field(factory=dict)


@attrs.frozen(kw_only=True)
class VectorsHeaderShape:
    """The first line of `backalley vectors` output."""

    what: ClassVar[str] = "a vectors header"
    schema_name: ClassVar[str] = "vectors_header"

    type: str = attrs.field(metadata={"const": "header"})
    format: str = attrs.field(metadata={"const": "backalley/vectors"})
    version: int = attrs.field(metadata={"const": FORMAT_VERSION})
    variant: str | None
    rules: RuleSet
    games: Count
    seed: int


@attrs.frozen(kw_only=True)
class VectorsPositionShape:
    """One decision: the view of the seat to act, its exact legal moves (in
    the library's order) and a sample of refused moves."""

    what: ClassVar[str] = "a vectors position"
    schema_name: ClassVar[str] = "vectors_position"

    type: str = attrs.field(metadata={"const": "position"})
    game: Count
    ply: Count
    seat: Seat
    view: dict[str, Any] = attrs.field(metadata={"ref": "vectors_view"})
    legal: tuple[Move, ...] = attrs.field(metadata={"schema": {"minItems": 1}})
    illegal: tuple[RefusedMoveShape, ...]
    state: dict[str, Any] | None = attrs.field(default=None, metadata={"ref": "vectors_state"})


@attrs.frozen(kw_only=True)
class RefusedMoveShape:
    """A move refused in a position, with the rule that refuses it."""

    what: ClassVar[str] = "a refused move"
    schema_name: ClassVar[str] = ""

    move: Move
    reason: ReasonName


@attrs.frozen(kw_only=True)
class VectorsResultShape:
    """The last line of each game in `backalley vectors` output."""

    what: ClassVar[str] = "a vectors result"
    schema_name: ClassVar[str] = "vectors_result"

    type: str = attrs.field(metadata={"const": "result"})
    game: Count
    seed: int
    moves: tuple[Move, ...]
    scores: tuple[int, ...] = sides()
    winner: Seat | None
    deal_results: tuple[DealResultShape, ...] = attrs.field(metadata={"schema": {"minItems": 1}})


SHAPES: tuple[type, ...] = (
    ContractShape,
    DealResultShape,
    TrickShape,
    StateShape,
    CardAnswerShape,
    CallAnswerShape,
    ViewShape,
    RecordShape,
    VectorsHeaderShape,
    VectorsPositionShape,
    VectorsResultShape,
)
"""Every document shape with a schema definition of its own."""
