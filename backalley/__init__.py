"""backalley: the rules of the card game Back Alley and its house-rule variants.

The public contract is importable from here::

    import backalley as ba
    state = ba.new_game(ba.variants.GAMERULES, seed=7)
    state = state.apply(state.legal_moves()[0])
"""

from typing import TYPE_CHECKING, Any

from backalley import rules, variants
from backalley.cards import CARDS, Card, Rank, Suit, Trump, parse_card, parse_cards
from backalley.cardset import CardSet
from backalley.chance import secure_seed
from backalley.engine.setup import new_game
from backalley.engine.state import GameState
from backalley.errors import (
    BackAlleyError,
    IllegalMoveError,
    NotationError,
    Reason,
    RuleSetError,
    RuleSetWarning,
    SerializationError,
    SetupError,
    UnknownReasonError,
    UnknownVariantError,
)
from backalley.moves import Bid, BoardBid, Counter, Move, NameTrump, Pass, Play, parse_move
from backalley.rules import RuleSet, register_reason
from backalley.rules.seats import parse_seat, seat_name, side_name
from backalley.values import Contract, DealResult, Phase, Trick

if TYPE_CHECKING:
    from backalley.engine import lowlevel
    from backalley.engine.views import PlayerView
    from backalley.io import houserules
    from backalley.io.record import GameRecord, ReplayError, replay
    from backalley.io.serialize import from_json, to_json

__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    """Names loaded on first use, so that ``import backalley`` loads only the
    engine: the documents (cattrs, the TOML reader), game records, the raw reads
    and the player views (loaded by the first ``GameState.view``)."""
    # plain ``import backalley.x`` statements: ``from backalley import x`` would
    # ask this function for ``x`` again before importing it
    if name == "houserules":
        import backalley.io.houserules

        value: Any = backalley.io.houserules
    elif name == "lowlevel":
        import backalley.engine.lowlevel

        value = backalley.engine.lowlevel
    elif name in ("to_json", "from_json"):
        import backalley.io.serialize

        value = getattr(backalley.io.serialize, name)
    elif name == "PlayerView":
        import backalley.engine.views

        value = backalley.engine.views.PlayerView
    elif name in ("GameRecord", "ReplayError", "replay"):
        import backalley.io.record

        value = getattr(backalley.io.record, name)
    else:
        raise AttributeError(f"module 'backalley' has no attribute {name!r}")
    globals()[name] = value
    return value


__all__ = [
    "CARDS",
    "BackAlleyError",
    "Bid",
    "BoardBid",
    "Card",
    "CardSet",
    "Trump",
    "Contract",
    "Counter",
    "DealResult",
    "GameRecord",
    "GameState",
    "IllegalMoveError",
    "Move",
    "NameTrump",
    "NotationError",
    "Pass",
    "Phase",
    "Play",
    "PlayerView",
    "Rank",
    "Reason",
    "ReplayError",
    "RuleSet",
    "RuleSetError",
    "RuleSetWarning",
    "SerializationError",
    "SetupError",
    "Suit",
    "Trick",
    "UnknownReasonError",
    "UnknownVariantError",
    "__version__",
    "from_json",
    "houserules",
    "lowlevel",
    "new_game",
    "parse_card",
    "parse_cards",
    "parse_move",
    "parse_seat",
    "register_reason",
    "replay",
    "rules",
    "secure_seed",
    "seat_name",
    "side_name",
    "to_json",
    "variants",
]
