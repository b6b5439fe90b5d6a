"""Hypothesis strategies built from the rule registry.

:func:`registry_rule_sets` draws rule sets whose parts come from the open
registry (:func:`backalley.rules.registered_parts`), each with options
generated from its attrs fields' types - so a newly registered rule, built in
or a user's, is exercised by the property and stateful tests without editing
a strategy list.  A drawn combination that does not fit (the rule set refuses
it) is rejected; to keep most draws valid, a few parts of a registered
variant are replaced at a time.
"""

from __future__ import annotations

import enum
import types
import typing
import warnings
from typing import Any

import attrs
from hypothesis import assume
from hypothesis import strategies as st

import backalley as ba
from backalley.rules.registry import PART_NAMES, registered_parts

__all__ = ["option_values", "registered_part", "registry_rule_sets"]

PLAIN_RANKS = [r for r in ba.Rank if not r.is_joker]


def option_values(tp: Any, name: str) -> st.SearchStrategy[Any]:
    """Values of an option of type ``tp`` (from the part's type hints)."""
    if tp is bool:
        return st.booleans()
    if tp is int:
        if name in ("players",):
            return st.integers(2, 6)
        if name in ("jokers",):
            return st.sampled_from([0, 2])
        if name.startswith(("per_", "set_")) or name == "points":
            return st.integers(0, 20)
        if name == "hand_size":
            return st.integers(1, 13)
        if name == "times":
            return st.integers(1, 10)
        return st.integers(0, 4)
    if tp is str:
        return st.text(min_size=1, max_size=8)
    if tp is ba.Suit:
        return st.sampled_from(list(ba.Suit))
    if tp is ba.Rank:
        return st.sampled_from(PLAIN_RANKS)
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return st.sampled_from(list(tp))
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is tuple and isinstance(args[0], type) and attrs.has(args[0]):
        # a list of structured options (hand-size multipliers): a few, one per hand size
        items = st.lists(_built(args[0]), max_size=2, unique_by=lambda v: attrs.astuple(v)[0])
        return items.map(tuple)
    if origin is tuple:
        high = 13 if name == "hand_sizes" else 16
        return st.lists(st.integers(1, high), min_size=1, max_size=4).map(tuple)
    if origin is frozenset:
        return st.sets(st.sampled_from(PLAIN_RANKS), min_size=2, max_size=13).map(frozenset)
    if origin in (typing.Union, types.UnionType) and type(None) in args:
        inner = next(a for a in args if a is not type(None))
        return st.none() | option_values(inner, name)
    if isinstance(tp, type) and attrs.has(tp):
        return _built(tp)
    raise AssertionError(f"no strategy for option {name}: {tp}")  # pragma: no cover


def _built(cls: type) -> st.SearchStrategy[Any]:
    hints = typing.get_type_hints(cls)
    fields = {a.name: option_values(hints[a.name], a.name) for a in attrs.fields(cls) if a.init}
    return st.fixed_dictionaries(fields).map(lambda kwargs: _make(cls, kwargs))


def _make(cls: type, kwargs: dict[str, Any]) -> Any:
    try:
        return cls(**kwargs)
    except ba.RuleSetError:
        assume(False)
        raise AssertionError from None  # pragma: no cover - assume(False) raises


def registered_part(part: str) -> st.SearchStrategy[Any]:
    """Any registered class of ``part``, with generated options."""
    classes = sorted(registered_parts()[part].items())
    return st.one_of([_built(cls) for _tag, cls in classes])


@st.composite
def registry_rule_sets(draw: Any, changes: int = 3) -> ba.RuleSet:
    """A registered variant with up to ``changes`` parts replaced by registered
    parts with generated options (rejected unless the rule set fits)."""
    base = ba.variants.get(draw(st.sampled_from(ba.variants.names())))
    replaced = draw(st.sets(st.sampled_from(PART_NAMES), min_size=1, max_size=changes))
    parts = base.parts()
    for part in sorted(replaced):
        parts[part] = draw(registered_part(part))
    # every combination that fits is drawn, those that only warn (RuleSetWarning) too
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ba.RuleSetWarning)
        try:
            rules = ba.RuleSet(**parts, name=None)
        except ba.RuleSetError:
            assume(False)
            raise AssertionError from None  # pragma: no cover
        # keep games short: at most three deals
        sizes = rules.schedule.hand_sizes
        if len(sizes) > 3:
            try:
                rules = rules.replace(schedule=ba.rules.Schedule(sizes[:3]))
            except ba.RuleSetError:
                assume(False)
    return rules
