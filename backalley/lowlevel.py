"""The engine's raw forms, for code that needs speed more than comfort
(bots, solvers, adapters to other frameworks).

A card is an index 0..53 (clubs 0..12, diamonds 13..25, hearts 26..38,
spades 39..51, each from 2 up to the ace; ``LJ`` 52, ``BJ`` 53) and a set of
cards a bit set (an ``int`` with bit ``i`` for card ``i``).  The effective
trump is a suit index 0..3 (C D H S) or 4 for a deal without a trump suit.
A *position* is a :class:`~backalley.GameState` or a
:class:`~backalley.PlayerView`.

These functions read a position without building public values; they are
stable, but the values they return are the engine's own and carry no
validation.  :func:`deal_order` starts a deal from a known deck order (what
frameworks with explicit chance nodes need).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Union

from backalley.cards import Card, parse_card
from backalley.errors import NotationError, SetupError
from backalley.legality import legal_play_mask as _legal_play_mask
from backalley.public import PublicFacts
from backalley.rules.context import DealContext
from backalley.state import Core, Deal, GameState, Match
from backalley.state import deal_order as _deal_order
from backalley.values import Phase, RawTrick
from backalley.views import PlayerView

__all__ = [
    "Core",
    "Deal",
    "Match",
    "RawTrick",
    "broken",
    "core",
    "deal_context",
    "deal_order",
    "dealt_bits",
    "discard_bits",
    "hand_bits",
    "history",
    "legal_play_mask",
    "played_bits",
    "possible_bits",
    "stock_order",
    "trick_cards",
    "trump_index",
    "turn_up_index",
]

Position = Union[GameState, PlayerView]


def core(state: GameState) -> Core:
    """The state's fields in one tuple: rules, match, deal, phase, hands (bit
    sets), leader, current trick (card indices), completed tricks, trump broken."""
    return state._core


def deal_context(position: PublicFacts) -> DealContext:
    """The :class:`~backalley.rules.DealContext` the rule parts decide from."""
    return position._ctx


def hand_bits(position: PublicFacts, seat: int) -> int:
    """The hand of ``seat`` as a bit set (0 for a hand a view does not know)."""
    return position._hand_mask(seat)


def dealt_bits(state: GameState) -> tuple[int, ...]:
    """Every hand as dealt this deal (after the trump part's turn-up handling)."""
    return state._core.deal.dealt_bits


def stock_order(state: GameState) -> tuple[int, ...]:
    """The undealt cards, top first."""
    return state._core.deal.stock_order


def turn_up_index(position: PublicFacts) -> int | None:
    return position._turn_up_index


def discard_bits(position: PublicFacts) -> int:
    return position._discard_bits


def trump_index(position: PublicFacts) -> int:
    """The effective trump: 0..3, or 4 for none (also while trump is not named yet)."""
    return position._ctx.trump


def trick_cards(position: PublicFacts) -> tuple[int, ...]:
    """The current trick's card indices in the order played (led by ``position.leader``)."""
    return position._trick_cards


def history(position: PublicFacts) -> tuple[RawTrick, ...]:
    """This deal's completed tricks: ``(leader, card indices, winner)``."""
    return position._history


def broken(position: PublicFacts) -> bool:
    """Whether trump has been broken this deal."""
    return position._broken


def played_bits(position: PublicFacts) -> int:
    """The cards played to tricks this deal."""
    return position._played_bits()


def possible_bits(view: PlayerView, seat: int) -> int:
    """The cards ``seat`` may still hold as ``view`` sees it (see
    :meth:`~backalley.PlayerView.possible_cards`), as a bit set."""
    if seat == view.seat:
        return view._hand_mask(seat)
    return view._possible_bits(seat)


def legal_play_mask(position: PublicFacts) -> int:
    """The cards the seat to act may play, as a bit set (0 outside the play)."""
    if position.phase is not Phase.PLAYING:
        return 0
    return _legal_play_mask(position)


def deal_order(state: GameState, order: Sequence[Card | str | int]) -> GameState:
    """The state at the opening of the current deal, dealt again from the deck
    ``order`` (cards, card texts or indices; top first) instead of the shuffle.

    Only at the opening of a deal (the bidding phase, before any call): this is
    how a framework that deals through its own chance nodes imposes the cards.
    Raises :class:`~backalley.SetupError` otherwise, or for an order that is not
    exactly the rule set's deck.
    """
    core = state._core
    if core.phase is not Phase.BIDDING or core.deal.calls:
        raise SetupError("a deck order can be dealt only at the opening of a deal (no call yet)")
    rules = core.rules
    indices = []
    for k, item in enumerate(order):
        if isinstance(item, int) and not isinstance(item, bool):
            if not 0 <= item < 54:
                raise SetupError(f"order[{k}]: {item} is not a card index 0..53")
            indices.append(item)
            continue
        try:
            indices.append(parse_card(item).index)  # type: ignore[arg-type]
        except NotationError as exc:
            raise SetupError(f"order[{k}]: {exc}") from None
    mask = 0
    for i in indices:
        if mask >> i & 1:
            raise SetupError("the deck order holds a card twice")
        mask |= 1 << i
    if mask != rules.plan.deck_mask or len(indices) != rules.deck.size:
        raise SetupError("the deck order must hold exactly the rule set's deck")
    ctx = core.deal.ctx
    return _deal_order(rules, core.match, ctx.dealer, ctx.hand_size, tuple(indices))


