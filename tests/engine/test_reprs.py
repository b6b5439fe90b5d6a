"""The value classes share one ``__repr__`` (``backalley.reprs``, cheaper to
create at import than attrs' generated one) that must write exactly what
attrs would: compared here with a class that attrs decorates itself."""

from __future__ import annotations

import contextlib
import random
import sys
from typing import Any

import attrs
import pytest

import backalley as ba
from backalley.reprs import fields_repr
from backalley.rules import registered_parts
from backalley.rules.bidding import AuctionState
from backalley.rules.scoring import HandSizeMultiplier, HandSizeRates, Rainbow
from backalley.values import BiddingOutcome


def _attrs_repr(value: Any) -> str:
    """The repr attrs generates for ``value``'s class: a subclass of the same
    name that attrs decorates with its own ``__repr__``, holding the same fields."""
    cls = type(value)
    reference = attrs.frozen(slots=True, repr=True)(type(cls.__name__, (cls,), {}))
    copy: Any = object.__new__(reference)
    for a in attrs.fields(cls):
        object.__setattr__(copy, a.name, getattr(value, a.name))
    text = repr(copy)
    assert isinstance(text, str)
    return text


def _values() -> list[Any]:
    """One or more values of every class that uses the shared repr."""
    values: list[Any] = [
        ba.Pass(),
        ba.Bid(3),
        ba.BoardBid(),
        ba.Counter(),
        ba.Counter(3),
        ba.NameTrump(ba.Suit.HEARTS),
        ba.NameTrump(None),
        ba.Play(ba.parse_card("QS")),
        ba.Play(ba.parse_card("BJ")),
        ba.Contract(tricks=4, board=False, multiplier=1, declarer=None),
        BiddingOutcome(contracts=(), declarer=None),
        Rainbow(),
        HandSizeMultiplier(hand_size=1, times=10),
        HandSizeRates(hand_size=1, per_bid_trick=10, set_per_bid_trick=10),
        ba.rules.TrumpSetup(hands=(1, 2), stock=(3,), turn_up=None, trump=None),
        AuctionState(tricks=4, holder=1, multiplier=2),
    ]
    for name in ba.variants.names():
        rules = ba.variants.get(name)
        values.append(rules)
        parts = (getattr(rules, a.name) for a in attrs.fields(type(rules)) if a.init)
        values.extend(p for p in parts if attrs.has(type(p)))
    for table in registered_parts().values():
        # the library's own parts (other tests register parts of their own)
        for cls in (c for c in table.values() if c.__module__.startswith("backalley.")):
            with contextlib.suppress(TypeError, ba.RuleSetError):  # some need arguments
                values.append(cls())
    state = ba.new_game(ba.variants.get("vietnam"), seed=5)
    pick = random.Random(2).choice
    while state.deals_played < 2:
        state = state.apply(pick(state.legal_moves()))
    values.extend(state.deal_results)
    values.append(ba.Trick(leader=0, cards=(ba.parse_card("QS"),), winner=0))
    # the engine's own records of a game (internal: reached through the state's fields)
    for field in attrs.astuple(state, recurse=False):
        if isinstance(field, tuple):
            values.extend(v for v in field if attrs.has(type(v)))
    return values


@pytest.mark.parametrize("value", _values(), ids=lambda v: type(v).__name__)
def test_the_shared_repr_is_the_one_attrs_would_write(value: Any) -> None:
    assert type(value).__repr__ is fields_repr  # type: ignore[comparison-overlap]
    assert repr(value) == _attrs_repr(value)


def test_examples_of_the_text() -> None:
    assert repr(ba.Bid(3)) == "Bid(tricks=3)"
    assert repr(ba.Play(ba.parse_card("QS"))) == "Play(card=Card('QS'))"
    assert repr(ba.rules.FixedTrump(ba.Suit.SPADES)) == "FixedTrump(suit=<Suit.SPADES: 'S'>)"
    assert repr(ba.rules.JokersHigh()) == "JokersHigh()"


def test_a_users_part_keeps_its_own_attrs_repr() -> None:
    @attrs.frozen
    class Mine(ba.rules.Part):
        level: int = 2

    assert "attrs generated" in Mine.__repr__.__code__.co_filename
    assert repr(Mine()).endswith("Mine(level=2)")


def test_every_class_with_the_shared_repr_is_checked() -> None:
    """Each class of the library that uses the shared repr has a value above."""
    checked = {type(v) for v in _values()}
    users = {
        cls
        for name, module in sorted(sys.modules.items())
        if name.startswith("backalley")
        for cls in vars(module).values()
        if isinstance(cls, type)
        and cls.__module__ == name
        and cls.__dict__.get("__repr__") is fields_repr
    }
    users |= {c for c in checked if issubclass(c, ba.rules.Part)}
    assert users - checked == {ba.rules.Part}
