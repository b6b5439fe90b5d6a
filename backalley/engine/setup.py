"""Starting a game: :func:`new_game`."""

from __future__ import annotations

import copyreg
from collections.abc import Iterable, Sequence
from typing import Any

from backalley import chance, variants
from backalley.cards import Card, cards_of_mask, parse_card
from backalley.engine import kernel
from backalley.engine.state import GameState, _state
from backalley.errors import NotationError, SetupError
from backalley.rules.ruleset import RuleSet

__all__ = ["new_game"]


def _builtin_rules(name: str) -> RuleSet:
    """A built-in variant by name (how a pickle refers to one)."""
    return variants.get(name)


_BUILTIN = {name: variants.get(name) for name in variants.names()}
"""The variants built into the library: pickled by name, as every process has them."""


def _reduce_rules(rules: RuleSet) -> Any:
    """Pickle a built-in variant as its name (a state then pickles in a few
    hundred bytes and unpickles without rebuilding the rule set); any other
    rule set as its parts."""
    name = rules.name
    if name is not None and _BUILTIN.get(name) is rules:
        return (_builtin_rules, (name,))
    return object.__reduce_ex__(rules, 4)


copyreg.pickle(RuleSet, _reduce_rules)


def new_game(
    rules: RuleSet | str | None = None,
    *,
    seed: int | None = None,
    dealer: int | None = None,
    decks: Iterable[Sequence[Card | str]] | None = None,
) -> GameState:
    """A new game under ``rules`` (a :class:`~backalley.RuleSet`, or the name of
    a registered variant such as ``"vietnam"``; the gamerules game by
    default), at the first deal's bidding.

    - ``seed``: all chance (the first dealer, every shuffle) comes from it; a
      random seed is drawn when none is given, and kept in the state, so the
      rest of the game is reproducible from the state alone.  Anyone who
      learns or guesses the seed knows every hand: a small seed (``7``, a
      counter, the time) is found from one player's own hand in a fraction of
      a second.  For real games leave ``seed`` out (63 random bits from the
      operating system, as :func:`backalley.secure_seed` draws) and keep the
      state's seed secret; pass small seeds only for tests and examples.
    - ``dealer``: the first dealer (else drawn from the seed).
    - ``decks``: deck orders (sequences of cards, or card texts), used one per
      shuffle - one per deal, thrown-in deals included, or two when the trump
      part draws trump before each deal (the shuffle it draws from, then the
      deal's) - before the seed's shuffles take over.
      Each must hold exactly the rule set's deck.  Its cards are dealt one at a
      time, clockwise from the player left of the dealer (see :ref:`rules-deal`).

    Raises :class:`~backalley.SetupError` for arguments that cannot start a game.
    """
    if rules is None or isinstance(rules, str):
        from backalley import variants

        rules = variants.GAMERULES if rules is None else variants.get(rules)
    if not isinstance(rules, RuleSet):
        raise SetupError(
            f"rules must be a RuleSet or a variant's name (e.g. 'gamerules'), not {rules!r}"
        )
    if seed is None:
        seed = chance.random_seed()
    elif chance.check_seed(seed) is not None:
        raise SetupError(f"seed: {chance.check_seed(seed)}")
    players = rules.players
    if dealer is None:
        dealer = chance.draw(seed, "dealer", players)
    elif not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < players:
        raise SetupError(f"dealer must be a seat from 0 to {players - 1}, not {dealer!r}")
    if decks is not None and (isinstance(decks, (str, bytes)) or not isinstance(decks, Iterable)):
        raise SetupError(f"decks must be a list of deck orders (lists of cards), not {decks!r}")
    orders = tuple(_deck_order(rules, order, k) for k, order in enumerate(decks or ()))
    return _state(kernel.begin(rules, seed, dealer, orders))


def _deck_order(rules: RuleSet, order: Sequence[Card | str], k: int) -> tuple[int, ...]:
    if isinstance(order, str):
        order = order.split()
    try:
        cards = tuple(parse_card(c) for c in order)
    except NotationError as exc:
        raise SetupError(f"decks[{k}]: {exc}") from None
    except TypeError:
        raise SetupError(f"decks[{k}] must be a sequence of cards, not {order!r}") from None
    indices = tuple(c.index for c in cards)
    expected = rules.plan.deck_mask
    seen = 0
    for card, i in zip(cards, indices):
        if seen >> i & 1:
            raise SetupError(f"decks[{k}]: {card} appears twice")
        if not expected >> i & 1:
            raise SetupError(f"decks[{k}]: {card} is not in this rule set's deck")
        seen |= 1 << i
    if seen != expected:
        missing = " ".join(str(c) for c in cards_of_mask(expected & ~seen))
        raise SetupError(f"decks[{k}]: the deck order is missing {missing}")
    return indices
