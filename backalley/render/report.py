"""Text for people: one line per scored deal."""

from __future__ import annotations

from backalley.engine.state import DealResult
from backalley.rules.ruleset import RuleSet

__all__ = ["describe_deal"]


def describe_deal(rules: RuleSet, result: DealResult, totals: tuple[int, ...]) -> str:
    """``Deal 3 (11 cards, dealer 2, trump H): bids ... | tricks ... | points ... | scores ...``."""
    trump = result.trump.value if result.trump is not None else "none"
    turn = f", turn-up {result.turn_up}" if result.turn_up is not None else ""
    bids = " ".join("-" if b is None else str(b).replace("bid ", "") for b in result.bids)
    contracts = " ".join("-" if c is None else str(c) for c in result.contracts)
    declarer = f", declarer {result.declarer}" if result.declarer is not None else ""
    return (
        f"Deal {result.number:>2} ({result.hand_size:>2} cards, dealer {result.dealer}, "
        f"trump {trump}{turn}{declarer}): bids {bids} | contracts {contracts} | "
        f"tricks {' '.join(map(str, result.tricks))} | points "
        f"{' '.join(f'{p:+d}' for p in result.points)} | scores {' '.join(map(str, totals))}"
    )
