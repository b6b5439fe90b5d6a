"""Reasons a user's rule registers (``ba.register_reason``): a house rule
refuses with its own code and sentence, and every reader of refusals sees
them as it sees the built-in ones - the error, the view document, the
JavaScript API's bridge, the server's answer and the JSON schema.

The house rules are in :mod:`tests.house_reasons` (the ``club`` fixture,
registered while these tests run): no bid above half the hand
(``test-reasons/half-the-hand``), and no opening lead of the leader's highest
card (``test-reasons/no-high-opening``).
"""

from __future__ import annotations

import json
import pickle
import subprocess
import sys
import warnings
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from types import ModuleType
from typing import Any, ClassVar

import attrs
import pytest
from jsonschema import Draft202012Validator

import backalley as ba
from backalley.io import schema as schema_module
from backalley.io.schema import schema
from backalley.rules import BiddingContext, DealContext, register
from backalley.rules.registry import _REGISTRY
from backalley.web import bridge

from ..user_rules import house_rules

BUILT_IN = [reason.name for reason in ba.Reason if reason.built_in]
"""The built-in reasons' names, in order."""
HALF = "test-reasons/half-the-hand"
HIGH = "test-reasons/no-high-opening"


@pytest.fixture(scope="module")
def club() -> Iterator[ModuleType]:
    """The house rules module, its parts registered while this module's tests run."""
    with house_rules() as module:
        yield module


def _opening_lead(rules: ba.RuleSet, seed: int = 1) -> ba.GameState:
    """A game of ``rules`` at its first lead: each seat calls its first
    legal bid (or passes when it has none)."""
    state = ba.new_game(rules, seed=seed)
    while state.phase is not ba.Phase.PLAYING:
        legal = state.legal_moves()
        state = state.apply(next((m for m in legal if m != ba.Pass()), legal[0]))
    return state


def _refused_card(state: ba.GameState) -> str:
    """The card the seat to act may not lead by the house rule."""
    view = json.loads(ba.to_json(state.view(state.to_act)))
    return str(next(c["card"] for c in view["cards"] if c["reason"] == HIGH))


# -- the reason itself --------------------------------------------------------------


def test_a_registered_reason_is_a_reason_named_by_its_tag(club: ModuleType) -> None:
    """The registered reason is a ``ba.Reason``: its ``name`` is the tag, its
    ``value`` the sentence; the class finds it by name and lists it after the
    built-in reasons, which keep their names and sentences."""
    assert isinstance(club.HALF_THE_HAND, ba.Reason) and not club.HALF_THE_HAND.built_in
    assert club.HALF_THE_HAND.name == HALF
    assert club.HALF_THE_HAND.value == "nobody may bid more than half the hand"
    assert ba.Reason[HALF] is club.HALF_THE_HAND is ba.Reason.lookup(HALF)
    assert club.HALF_THE_HAND in ba.Reason and ba.Reason.NOT_YOUR_TURN in ba.Reason
    names = [reason.name for reason in ba.Reason]
    assert names[: len(BUILT_IN)] == BUILT_IN
    assert {HALF, HIGH} <= set(names[len(BUILT_IN) :])
    assert ba.Reason.NOT_YOUR_TURN.name == "NOT_YOUR_TURN" and ba.Reason.NOT_YOUR_TURN.built_in
    assert ba.Reason.NOT_YOUR_TURN.value == "not this seat's turn"
    assert (
        repr(club.HALF_THE_HAND) == f"<Reason {HALF!r}: 'nobody may bid more than half the hand'>"
    )


def test_registering_the_same_reason_again_answers_the_same_reason(club: ModuleType) -> None:
    """A module imported twice registers its reasons twice: the same tag and
    sentence answer the reason already registered."""
    again = ba.rules.register_reason(HALF, "nobody may bid more than half the hand")
    assert again is club.HALF_THE_HAND


@pytest.mark.parametrize(
    ("tag", "sentence", "words"),
    [
        (HALF, "another rule", ["taken", HALF]),
        ("must-follow-suit", "follow, please", ["built-in reason MUST_FOLLOW_SUIT"]),
        ("house_rule", "ours", ["built-in reason HOUSE_RULE"]),
        ("Our Club/Rule", "a sentence", ["lower-case"]),
        ("", "a sentence", ["lower-case"]),
        ("ourclub/silent", "  ", ["needs a sentence"]),
    ],
)
def test_a_clashing_or_malformed_reason_is_refused(
    club: ModuleType, tag: str, sentence: str, words: list[str]
) -> None:
    """A tag taken by another sentence, a tag that spells a built-in reason's
    name, a malformed tag and an empty sentence are refused with
    ``RuleSetError``, saying why; nothing is registered."""
    known = len(ba.Reason)
    with pytest.raises(ba.RuleSetError) as refused:
        ba.register_reason(tag, sentence)
    for word in words:
        assert word in str(refused.value)
    assert len(ba.Reason) == known


def test_a_reason_is_registered_not_subclassed() -> None:
    """Reasons are made by registering them; a subclass of ``Reason`` is refused."""
    with pytest.raises(TypeError, match="register_reason"):

        class Mine(ba.Reason):  # type: ignore[misc]
            pass


def test_an_unknown_reason_name_is_the_library_error(club: ModuleType) -> None:
    """``Reason[name]`` of a name nobody registered raises the library's
    ``UnknownReasonError`` (a ``KeyError``, as an enum's), naming a close one."""
    with pytest.raises(ba.UnknownReasonError) as unknown:
        ba.Reason["test-reasons/half-the-hnad"]
    assert isinstance(unknown.value, KeyError)
    assert f"did you mean {HALF!r}" in str(unknown.value)


def test_a_refusal_with_a_registered_reason_pickles_and_loads_elsewhere(club: ModuleType) -> None:
    """An ``IllegalMoveError`` with a user's reason pickles to the same reason,
    and in a process that never imported the rule it loads with the reason
    registered there, by its tag and sentence."""
    state = ba.new_game(club.OUR_CLUB, seed=1)
    with pytest.raises(ba.IllegalMoveError) as refused:
        state.apply(ba.Bid(9))
    data = pickle.dumps(refused.value)
    assert pickle.loads(data).reason is club.HALF_THE_HAND
    code = (
        "import pickle, sys; e = pickle.loads(sys.stdin.buffer.read()); "
        "import backalley as ba; assert ba.Reason[e.reason.name] is e.reason; "
        "print(e.reason.name, '|', e.reason.value, '|', e.message)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], input=data, capture_output=True, check=True, timeout=60
    )
    assert done.stdout.decode().strip() == (
        f"{HALF} | nobody may bid more than half the hand | "
        "with 13 cards nobody may bid more than 6"
    )


def test_a_reason_pickled_as_an_enum_member_loads_as_the_same_reason() -> None:
    """Before reasons could be registered, ``Reason`` was an enum, pickled as
    ``Reason(sentence)``: such pickles load as the same member."""

    class OldPickle:
        def __reduce__(self) -> tuple[Any, tuple[str]]:
            return (ba.Reason, ("not this seat's turn",))

    assert pickle.loads(pickle.dumps(OldPickle())) is ba.Reason.NOT_YOUR_TURN


# -- the engine ---------------------------------------------------------------------


def test_a_house_rule_refuses_a_call_with_its_own_reason_and_sentence(club: ModuleType) -> None:
    """The bidding's own refusal: ``check`` raises with the registered reason
    and the rule's sentence; the legal calls leave the refused ones out; the
    built-in refusals are unchanged beside it."""
    state = ba.new_game(club.OUR_CLUB, seed=1)
    with pytest.raises(ba.IllegalMoveError) as refused:
        state.check(ba.Bid(9))
    assert refused.value.reason is club.HALF_THE_HAND
    assert refused.value.message == "with 13 cards nobody may bid more than 6"
    assert ba.Bid(6) in state.legal_moves() and ba.Bid(7) not in state.legal_moves()
    with pytest.raises(ba.IllegalMoveError) as too_high:
        state.check(ba.Bid(13))
    assert too_high.value.reason is ba.Reason.BID_TOO_HIGH


def test_a_house_rule_refuses_a_card_with_its_own_reason_and_sentence(club: ModuleType) -> None:
    """The lead's own refusal: the leader's highest card, explained by the
    part's ``explain``."""
    state = _opening_lead(club.OUR_CLUB)
    card = _refused_card(state)
    with pytest.raises(ba.IllegalMoveError) as refused:
        state.apply(ba.parse_move(f"play {card}"))
    assert refused.value.reason is club.NO_HIGH_OPENING
    assert refused.value.message == (
        f"at our club the opening lead may not be your highest card ({card})"
    )


@pytest.fixture
def bare_code(club: ModuleType) -> Iterator[tuple[type, type]]:
    """A bidding part and a lead part that refuse with a code of their own as
    text, not a ``Reason``: registered for the test, and out of the registry after it."""

    @attrs.frozen
    class BareCodeBidding(club.HalfTheHand):  # type: ignore[name-defined,misc]
        """Refuses a bid of nine with a code as text."""

        tag: ClassVar[str] = "test-reasons/bare-code-bidding"

        def refusal(self, ctx: BiddingContext, move: ba.Move) -> Any:
            if move == ba.Bid(9):
                return ("test-reasons/nine", "nobody bids nine")
            return super().refusal(ctx, move)

    @attrs.frozen
    class BareCodeLead(club.NoHighOpening):  # type: ignore[name-defined,misc]
        """Refuses to lead the first card of the hand with a code as text."""

        tag: ClassVar[str] = "test-reasons/bare-code-lead"

        def restrictions(self, ctx: DealContext, seat: int, hand: ba.CardSet, broken: bool) -> Any:
            return ((hand - ba.CardSet.of(list(hand)[:1]), "test-reasons/not-the-first"),)

    parts = (register(BareCodeBidding), register(BareCodeLead))
    yield parts
    for cls in parts:
        _REGISTRY[cls.part].pop(cls.tag, None)


def test_a_part_that_refuses_with_a_bare_code_is_told_to_register_it(
    club: ModuleType, bare_code: tuple[type, type]
) -> None:
    """A reason must be a ``Reason``: a part answering a code of its own as
    text is refused with ``RuleSetError``, which says how to register one."""
    state = ba.new_game(club.OUR_CLUB.replace(bidding=bare_code[0]()), seed=1)
    with pytest.raises(ba.RuleSetError, match="register_reason"):
        state.check(ba.Bid(9))
    state = _opening_lead(club.OUR_CLUB.replace(lead=bare_code[1]()))
    with pytest.raises(ba.RuleSetError, match="register_reason"):
        state.check(ba.Play(state.hands[state.to_act][0]))


# -- documents ----------------------------------------------------------------------


def test_the_view_document_names_the_registered_reason_for_each_refused_card(
    club: ModuleType,
) -> None:
    """A UI reads why each card is refused from the view document: the card
    the house rule refuses carries its tag and sentence, the cards the
    built-in rules refuse their own names; the document loads back and writes
    the same text."""
    state = _opening_lead(club.OUR_CLUB)
    text = ba.to_json(state.view(state.to_act))
    document = json.loads(text)
    refused = {c["card"]: (c["reason"], c["message"]) for c in document["cards"]}
    card = _refused_card(state)
    assert refused[card] == (
        HIGH,
        f"at our club the opening lead may not be your highest card ({card})",
    )
    assert {reason for reason, _ in refused.values()} <= {None, HIGH, "TRUMP_NOT_BROKEN"}
    assert ba.to_json(ba.from_json(text, ba.PlayerView)) == text


def test_the_view_document_names_the_registered_reason_for_each_refused_call(
    club: ModuleType,
) -> None:
    state = ba.new_game(club.OUR_CLUB, seed=1)
    document = json.loads(ba.to_json(state.view(state.to_act)))
    reasons = {a["call"]: a["reason"] for a in document["call_answers"]}
    assert [reasons[f"bid {n}"] for n in range(7, 13)] == [HALF] * 6
    assert reasons["bid 6"] is None and reasons["bid 13"] == "BID_TOO_HIGH"


def test_the_schema_lists_the_registered_reasons_after_the_shipped_ones(club: ModuleType) -> None:
    """The schema the library gives types the user's reason codes; the
    shipped file keeps only the built-in ones, a view's answers with the
    user's reasons pass the schema, and a code nobody registered does not."""
    codes = schema()["$defs"]["reason"]["enum"]
    assert codes[: len(BUILT_IN)] == BUILT_IN
    assert {HALF, HIGH} <= set(codes)
    shipped = json.loads(
        resources.files(schema_module).joinpath(schema_module.SCHEMA_FILE).read_bytes()
    )
    assert shipped["$defs"]["reason"]["enum"] == BUILT_IN
    assert json.loads(schema_module.schema_text()) == schema()
    # where nothing is registered, the schema written out is the shipped file, byte for byte
    code = "import sys; from backalley.io import schema; sys.stdout.write(schema.schema_text())"
    alone = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, check=True, timeout=60
    )
    assert alone.stdout == (
        resources.files(schema_module).joinpath(schema_module.SCHEMA_FILE).read_bytes()
    )
    # the answers of a view (its rules hold the user's parts, which the schema
    # lists by the shipped tags only: that is another matter)
    cards, calls = (
        Draft202012Validator(schema("card_answer")),
        Draft202012Validator(schema("call_answer")),
    )
    for state in (ba.new_game(club.OUR_CLUB, seed=1), _opening_lead(club.OUR_CLUB)):
        document = json.loads(ba.to_json(state.view(state.to_act)))
        for answer in document["cards"]:
            cards.validate(answer)
        for answer in document["call_answers"]:
            calls.validate(answer)
    assert not Draft202012Validator(schema("card_answer")).is_valid(
        {"card": "2C", "playable": False, "reason": "test-reasons/nobody", "message": "no"}
    )


# -- the JavaScript API and the server ---------------------------------------------


def test_the_javascript_bridge_answers_the_registered_reason(club: ModuleType) -> None:
    """What ``backalley.js`` receives from Python: ``check`` answers the tag
    and sentence, ``apply`` an ``IllegalMoveError`` carrying them (thrown in
    JavaScript as a ``BackAlleyError``), ``view`` the document with them."""
    state = ba.new_game(club.OUR_CLUB, seed=1)
    answer = bridge.check(state, "bid 9")
    assert answer.error is None
    assert json.loads(answer.value) == {
        "move": "bid 9",
        "legal": False,
        "reason": HALF,
        "message": "with 13 cards nobody may bid more than 6",
    }
    thrown = bridge.apply(state, "bid 9", state.to_act)
    assert thrown.value is None and thrown.error is not None
    error = json.loads(thrown.error)
    assert (error["kind"], error["reason"], error["move"]) == ("IllegalMoveError", HALF, "bid 9")
    view = json.loads(bridge.view(state).value)
    assert {a["reason"] for a in view["call_answers"]} >= {HALF}


def test_the_server_refuses_with_the_registered_reason(club: ModuleType, tmp_path: Path) -> None:
    """A table of the house rules: a seat's call above half the hand is
    answered 422 ``illegal-move`` with the user's reason and the library's
    sentence, and the seat's view names it."""
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*httpx2")
        from starlette.testclient import TestClient

    from backalley.server import SqliteStore, create_app

    store = SqliteStore(tmp_path / "tables.db")
    app = create_app(store, bot_delay=0, deal_pause=0, allowed_hosts="testserver")
    try:
        with TestClient(app) as client:
            rules = json.loads(ba.to_json(club.OUR_CLUB))
            made = client.post("/api/tables", json={"rules": rules, "seats": ["human"] * 4})
            assert made.status_code == 201, made.text
            table = made.json()["table"]
            seat = client.get(f"/api/tables/{table}/public").json()["public"]["to_act"]
            token = client.post(f"/api/tables/{table}/seats/{seat}/join").json()["token"]
            auth = {"Authorization": f"Bearer {token}"}
            answer = client.post(
                f"/api/tables/{table}/seats/{seat}/moves", json={"move": "bid 9"}, headers=auth
            )
            assert answer.status_code == 422, answer.text
            body = answer.json()
            assert (body["error"], body["reason"]) == ("illegal-move", HALF)
            assert body["message"] == "with 13 cards nobody may bid more than 6"
            view = client.get(f"/api/tables/{table}/seats/{seat}/view", headers=auth).json()
            calls = {a["call"]: a for a in view["view"]["call_answers"]}
            assert calls["bid 9"]["reason"] == HALF
            assert calls["bid 9"]["message"] == body["message"]
    finally:
        store.close()
