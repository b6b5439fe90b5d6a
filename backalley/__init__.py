"""backalley: the rules of the card game Back Alley and its house-rule variants.

The public contract (DESIGN.md §1) is importable from here::

    import backalley as ba
    state = ba.new_game(ba.variants.GAMERULES, seed=7)
    state = state.apply(state.legal_moves()[0])
"""

from backalley import houserules, lowlevel, rules, variants
from backalley.cards import CARDS, Card, Rank, Suit, parse_card, parse_cards
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
from backalley.chance import secure_seed
from backalley.game import new_game
from backalley.moves import Bid, BoardBid, Counter, Move, NameTrump, Pass, Play, parse_move
from backalley.record import GameRecord, ReplayError, replay
from backalley.rules import RuleSet
from backalley.serialize import from_json, to_json
from backalley.state import GameState
from backalley.values import Contract, DealResult, Phase, Trick
from backalley.views import PlayerView

__version__ = "0.1.0"

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
