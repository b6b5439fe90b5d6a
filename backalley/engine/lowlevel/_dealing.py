"""Starting a deal from a known deck order: where each card of an order goes
(:func:`receiver`), dealing an order at the opening of a deal
(:func:`deal_order`) and opening a position's current deal again from an
order (:func:`opening`)."""

from __future__ import annotations

from collections.abc import Sequence

from backalley.cards import Card, parse_card
from backalley.engine import kernel
from backalley.engine.state import GameState, _state
from backalley.engine.views import PlayerView
from backalley.errors import NotationError, SetupError
from backalley.rules.context import DealContext
from backalley.rules.ruleset import RuleSet
from backalley.values import Phase

__all__ = ["deal_order", "opening", "receiver"]

StateOrView = GameState | PlayerView


def receiver(k: int, dealer: int, players: int, hand_size: int) -> int | None:
    """The seat that card ``k`` (from 0) of a deal's deck order goes to, or
    ``None`` for a card left in the stock: the kernel's dealing
    (:func:`~backalley.engine.kernel.receiver`), for frameworks that deal
    through chance nodes of their own."""
    return kernel.receiver(k, dealer, players, hand_size)


def deal_order(state: GameState, order: Sequence[Card | str | int]) -> GameState:
    """The state at the opening of the current deal, dealt again from the deck
    ``order`` (cards, card texts or indices; top first) instead of the shuffle.

    Only at the opening of a deal (the bidding phase, before any call): this is
    how a framework that deals through its own chance nodes imposes the cards.
    Raises :class:`~backalley.SetupError` otherwise, or for an order that is not
    exactly the rule set's deck.
    """
    core = state._raw
    if core.phase is not Phase.BIDDING or core.calls:
        raise SetupError("a deck order can be dealt only at the opening of a deal (no call yet)")
    return _state(kernel.impose(state._raw, _deck(core.rules, order)))


def opening(position: StateOrView, order: Sequence[Card | str | int]) -> GameState:
    """A full state at the opening of ``position``'s current deal (a state or
    a player's view, in any phase), dealt from the deck ``order``.

    The state has the position's rule set, scores and deal results - so the
    same deal index, dealer, hand size and deal context, whatever a rule
    reads of them - and seed 0 for any later deal; its first dealer is a
    state's own, or for a view the dealer of the first deal result (a view
    does not show who dealt a deal that was thrown in).  At the game's first
    deal it is a new game (dealer the deal's, ``order`` its first deck order),
    which a state document can hold; a sample of a later deal began mid-game,
    and :func:`~backalley.to_json` refuses it.  Replaying the position's
    calls and plays on it gives a full state that agrees with a view: how a
    bot samples the hidden hands.  Raises :class:`~backalley.SetupError` for
    a finished game, or an order that is not exactly the rule set's deck.
    """
    if position.phase is Phase.GAME_OVER:
        raise SetupError("the game is over: there is no deal to open")
    rules = position.rules
    ctx = position._ctx
    results = position.deal_results
    deck = _deck(rules, order)
    if not results:  # the game's first deal: a game from its start, dealt from the order
        shuffles = _first_shuffles(rules, ctx, deck)
        return _state(kernel.begin(rules, 0, ctx.dealer, shuffles, order=deck))
    first = position.first_dealer if isinstance(position, GameState) else results[0].dealer
    raw = kernel.resume(
        rules, first, position.scores, results, ctx.dealer, ctx.hand_size, deck, ctx.trump
    )
    return _state(raw)


def _first_shuffles(
    rules: RuleSet, ctx: DealContext, deck: tuple[int, ...]
) -> tuple[tuple[int, ...], ...]:
    """The shuffles of a new game whose first deal is dealt from ``deck``:
    ``deck`` alone, or, when the trump part draws trump before the deal, a
    shuffle from which it draws the deal's trump ``ctx.trump`` (found by
    asking it: the deck, cut at each card in turn), then ``deck``."""
    plan = rules.plan
    if not plan.draws_before_deal:
        return (deck,)
    cards = plan.deck_cards
    for cut in range(len(cards)):
        shuffle = cards[cut:] + cards[:cut]
        if plan.trump_before_deal(ctx, shuffle) is ctx.trump:
            return (shuffle, deck)
    raise SetupError(f"no shuffle of the deck draws {ctx.trump or 'no trump'} before the deal")


def _deck(rules: RuleSet, order: Sequence[Card | str | int]) -> tuple[int, ...]:
    """The card indices of a deck ``order``, which must be exactly the rule set's deck."""
    indices = []
    for k, item in enumerate(order):
        if isinstance(item, (Card, str)):
            try:
                indices.append(parse_card(item).index)
            except NotationError as exc:
                raise SetupError(f"order[{k}]: {exc}") from None
        elif isinstance(item, int) and not isinstance(item, bool):
            if not 0 <= item < 54:
                raise SetupError(f"order[{k}]: {item} is not a card index 0..53")
            indices.append(item)
        else:
            raise SetupError(
                f"order[{k}]: a card is a Card, its text like 'QS' or its index, "
                f"not {type(item).__name__}"
            )
    mask = 0
    for i in indices:
        if mask >> i & 1:
            raise SetupError("the deck order holds a card twice")
        mask |= 1 << i
    if mask != rules.plan.deck_mask or len(indices) != rules.deck.size:
        raise SetupError("the deck order must hold exactly the rule set's deck")
    return tuple(indices)
