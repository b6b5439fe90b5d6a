"""backalley: the rules of the card game Back Alley and its house-rule variants.

The public contract (DESIGN.md §1) is importable from here::

    import backalley as ba
    state = ba.new_game(ba.variants.GAMERULES, seed=7)
    state = state.apply(state.legal_moves()[0])
"""

from typing import TYPE_CHECKING, Any

from backalley import lowlevel, rules, variants
from backalley.cards import CARDS, Card, Rank, Suit, parse_card, parse_cards
from backalley.chance import secure_seed
from backalley.errors import (
    BackAlleyError,
    IllegalMoveError,
    NotationError,
    Reason,
    RuleSetError,
    SerializationError,
    SetupError,
    UnknownVariantError,
)
from backalley.game import new_game
from backalley.moves import Bid, BoardBid, Counter, Move, NameTrump, Pass, Play, parse_move
from backalley.record import GameRecord, ReplayError, replay
from backalley.rules import RuleSet
from backalley.state import GameState
from backalley.values import Contract, DealResult, Phase, Trick
from backalley.views import PlayerView

if TYPE_CHECKING:
    from backalley import houserules
    from backalley.serialize import from_json, to_json

__version__ = "0.1.0"

_LAZY = {
    "houserules": "backalley.houserules",
    "to_json": "backalley.serialize",
    "from_json": "backalley.serialize",
}
"""Loaded on first use, so that ``import backalley`` loads only the engine
(the documents bring cattrs and the TOML reader)."""


def __getattr__(name: str) -> Any:
    where = _LAZY.get(name)
    if where is None:
        raise AttributeError(f"module 'backalley' has no attribute {name!r}")
    import importlib

    module = importlib.import_module(where)
    value = module if where.endswith(name) else getattr(module, name)
    globals()[name] = value
    return value


__all__ = [
    "CARDS",
    "BackAlleyError",
    "Bid",
    "BoardBid",
    "Card",
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
    "SerializationError",
    "SetupError",
    "Suit",
    "Trick",
    "UnknownVariantError",
    "__version__",
    "from_json",
    "houserules",
    "lowlevel",
    "new_game",
    "parse_card",
    "parse_cards",
    "parse_move",
    "replay",
    "rules",
    "secure_seed",
    "to_json",
    "variants",
]
