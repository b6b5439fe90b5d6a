"""Fuzzing the answers of rule parts: a user's part (a subclass of a built-in
one, overriding one decision method) that answers anything at all - numbers
out of range, ``None``, text, floats, lists of the wrong length - either
plays games as any other rule would or is refused with a
:class:`~backalley.RuleSetError` naming the part and the method; never
another exception, never a game left with no legal move.

And documents with counts larger than their rules allow (moves, deck orders,
calls, tricks, deal results, hand counts) are refused by the count, with a
message that names the count and the limit.

CI runs a few examples; ``BACKALLEY_FUZZ_SCALE=100 python -m pytest -q -k
fuzz`` runs many more.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import backalley as ba
from backalley import lowlevel
from backalley.rules import register
from backalley.rules.registry import _REGISTRY

from ..helpers import fuzz_examples

FUZZ = settings(
    max_examples=fuzz_examples(40),
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)

ANSWER: list[Any] = [None]
"""The answer every fuzzed method gives in the running example."""


def _answer(self: Any, *args: Any) -> Any:
    return ANSWER[0]


METHODS = [
    ("ranking", ba.rules.JokersHigh, "trick_winner"),
    ("scoring", ba.rules.ContractScoring, "score"),
    ("dealer", type(ba.variants.GAMERULES.dealer), "dealer_after"),
    ("lead", ba.rules.LeadPolicy, "first_leader"),
    ("lead", ba.rules.LeadPolicy, "restrictions"),
    ("lead", ba.rules.LeadPolicy, "breaks_trump"),
    ("follow", ba.rules.FollowPolicy, "restrictions"),
    ("bidding", ba.rules.OnceAroundBidding, "speaker"),
    ("bidding", ba.rules.OnceAroundBidding, "first"),
    ("bidding", ba.rules.OnceAroundBidding, "refusal"),
    ("trump", ba.rules.TurnUpTrump, "left_in_stock"),
    ("trump", ba.rules.TurnUpTrump, "trump_for"),
]
PARTS: dict[tuple[str, str], type] = {}


@pytest.fixture(scope="module", autouse=True)
def _fuzzed_parts() -> Iterator[None]:
    """One registered subclass per fuzzed method, while this module runs."""
    for part, cls, method in METHODS:
        namespace = {method: _answer, "tag": f"test/fuzz-{part}-{method}"}
        sub = attrs.frozen(slots=True)(type(f"Fuzzed{cls.__name__}", (cls,), namespace))
        PARTS[part, method] = register(sub)
    yield
    for sub in PARTS.values():
        del _REGISTRY[sub.part][sub.tag]  # type: ignore[attr-defined]
    PARTS.clear()


ANSWERS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 60),
    st.integers(),
    st.floats(allow_nan=True),
    st.text(max_size=3),
    st.lists(st.integers(-2, 20), max_size=5),
    st.tuples(st.integers(-2, 20), st.integers(-2, 20)),
    st.sampled_from([ba.Suit.SPADES, ba.Reason.HOUSE_RULE, (ba.Reason.HOUSE_RULE, "no"), ()]),
)


@FUZZ
@given(
    method=st.sampled_from(METHODS),
    answer=ANSWERS,
    seed=st.integers(0, 2**16),
)
def test_fuzz_a_part_answering_anything_plays_or_is_refused_naming_it(
    method: tuple[str, type, str], answer: Any, seed: int
) -> None:
    part, cls, name = method
    base = ba.variants.GAMERULES.replace(schedule=ba.rules.Schedule((2, 1)))
    ANSWER[0] = answer
    options = getattr(base, part).options() if type(getattr(base, part)) is cls else {}
    try:
        rules = base.replace(**{part: PARTS[part, name](**options)})
        state = ba.new_game(rules, seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            moves = state.legal_moves()
            assert moves, "a live game with no legal move"
            state = state.apply(rng.choice(moves))
            state.view(state.to_act if state.to_act is not None else 0).possible_cards(0)
    except ba.RuleSetError as exc:
        assert f"{part}: Fuzzed" in str(exc), exc
        return
    # a game that ended: its own document loads back to it
    again = ba.from_json(ba.to_json(state), ba.GameState)
    assert again.scores == state.scores


def _played() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    rules = ba.variants.GAMERULES
    end = lowlevel.playout(ba.new_game(rules, seed=5), random.Random(5).choice, until="deal")
    middle = lowlevel.playout(end, random.Random(5).choice, until="trick")
    record = ba.GameRecord.from_state(middle) if hasattr(ba.GameRecord, "from_state") else None
    state_doc = json.loads(ba.to_json(middle))
    view_doc = json.loads(ba.to_json(middle.view(0)))
    record_doc = json.loads(ba.to_json(record)) if record is not None else {}
    return state_doc, view_doc, record_doc


STATE, VIEW, RECORD = _played()
LISTS = [("state", k) for k in ("moves", "decks")] + [
    ("view", k)
    for k in ("calls", "tricks", "trick", "hand", "hand_counts", "scores", "deal_results",
              "discards", "legal_moves", "cards")
]  # fmt: skip


@FUZZ
@given(where=st.sampled_from(LISTS), more=st.integers(1, 300_000))
def test_fuzz_a_count_larger_than_the_rules_allow_is_refused_by_the_count(
    where: tuple[str, str], more: int
) -> None:
    kind, key = where
    # above the most the rules allow: 28,445 moves and 125 deck orders of a
    # gamerules game; a view's lists hold at most 224 items (its calls)
    count = {"moves": 28_445, "decks": 125}.get(key, 224) + more
    doc = json.loads(json.dumps(STATE if kind == "state" else VIEW))
    items = doc[key] or ["pass"]
    doc[key] = (items * (count // len(items) + 1))[:count]
    text = json.dumps(doc)
    if len(text) > 16_000_000:
        return
    target = ba.GameState if kind == "state" else ba.PlayerView
    with pytest.raises(ba.SerializationError, match=rf"\$\.{key}: {count} (items|moves|deck)"):
        ba.from_json(text, target)
