"""State documents replay: one reader, ``new_game`` and the checked ``apply``.

- a document's moves may throw deals in and run to the game's end: the
  replay deals again as the game did;
- a move the engine refuses refuses the document, with the move's position
  (1-based in the message, 0-based in the path) and the engine's sentence:
  a card not held (also when the deck orders swap two seats' cards), a move
  after the end of the game, a pass beyond the thrown-in deals a document holds;
- the work is bounded before anything costly: more moves or deck orders than
  the rule set's game can take are refused at the length of the list;
- the text is read as ``json.loads`` reads it (a repeated key: the last one).
"""

from __future__ import annotations

import json
import random
from typing import Any
from unittest import mock

import pytest

import backalley as ba
from backalley.io import serialize
from backalley.io.serialize import limits, state_doc

from ..helpers import short


def _played(rules: ba.RuleSet, seed: int, moves: int, decks: Any = None) -> ba.GameState:
    rng = random.Random(seed)
    state = ba.new_game(rules, seed=seed, decks=decks)
    for _ in range(moves):
        if state.is_over:
            break
        state = state.apply(rng.choice(state.legal_moves()))
    return state


def _refusal(document: dict[str, Any]) -> ba.SerializationError:
    with pytest.raises(ba.SerializationError) as info:
        ba.from_json(json.dumps(document), ba.GameState)
    return info.value


def _document(state: ba.GameState) -> dict[str, Any]:
    return json.loads(ba.to_json(state))


def test_moves_that_throw_deals_in_replay_to_the_deal_dealt_again() -> None:
    rules = ba.variants.GAMERULES
    start = ba.new_game(rules, seed=12)
    state = start
    for _ in range(3):  # four passes throw the deal in; it is dealt again
        for _seat in range(rules.players):
            state = state.apply(ba.Pass())
    assert state.deals_played == 0 and ba.lowlevel.thrown_in(state) == 3
    document = _document(state)
    assert document["moves"] == ["pass"] * 12
    loaded = ba.from_json(json.dumps(document), ba.GameState)
    assert loaded == state and loaded.hands != start.hands


def test_more_thrown_in_deals_than_a_document_holds_are_refused() -> None:
    """Endless passes: the replay stops at the first thrown-in deal beyond the
    limit, without dealing the rest."""
    players = ba.variants.GAMERULES.players
    most = limits.MAX_THROW_INS
    document = _document(ba.new_game(ba.variants.GAMERULES, seed=12))
    document["moves"] = ["pass"] * (players * (most + 50))
    with mock.patch.object(state_doc.GameState, "apply", wraps=state_doc.GameState.apply) as apply:
        error = _refusal(document)
    k = players * (most + 1) - 1
    assert error.path == f"$.moves[{k}]" and f"move {k + 1} (pass)" in str(error)
    assert f"at most {most} thrown-in deals" in str(error)
    assert apply.call_count == k + 1


def test_a_state_with_more_thrown_in_deals_than_a_document_holds_is_not_written() -> None:
    rules = short(ba.variants.GAMERULES, 1)
    state = ba.new_game(rules, seed=1)
    for _ in range(rules.players * limits.MAX_THROW_INS):
        state = state.apply(ba.Pass())
    assert ba.from_json(ba.to_json(state), ba.GameState) == state
    for _ in range(rules.players):
        state = state.apply(ba.Pass())
    with pytest.raises(ba.SerializationError, match="thrown-in deals"):
        ba.to_json(state)


def test_moves_after_the_last_deal_are_refused_with_the_engines_reason() -> None:
    rules = short(ba.variants.GAMERULES, 2, 1)
    state = _played(rules, 7, 10**6)
    assert state.is_over
    document = _document(state)
    assert ba.from_json(json.dumps(document), ba.GameState) == state
    document["moves"] += ["pass", "play QS"]
    error = _refusal(document)
    with pytest.raises(ba.IllegalMoveError) as engine:
        state.apply(ba.Pass())
    n = len(state.moves)
    assert error.path == f"$.moves[{n}]"
    assert error.message == f"move {n + 1} (pass) is refused: {engine.value}"
    assert engine.value.reason is ba.Reason.GAME_OVER


def test_deck_orders_that_swap_two_seats_cards_refuse_the_first_card_not_held() -> None:
    rules = short(ba.variants.GAMERULES, 3, 2)
    deck = [str(c) for c in ba.CARDS]
    state = _played(rules, 4, 20, decks=[deck, deck[::-1]])
    document = _document(state)
    assert document["decks"] == [deck, deck[::-1]]
    assert ba.from_json(json.dumps(document), ba.GameState) == state
    first = next(i for i, m in enumerate(state.moves) if isinstance(m, ba.Play))
    card = str(state.moves[first].card)
    position = deck.index(card)
    swapped = list(deck)
    other = position + 1 if (position + 1) % rules.players else position - 1
    swapped[position], swapped[other] = swapped[other], swapped[position]  # next seat's card
    document["decks"][0] = swapped
    error = _refusal(document)
    assert error.path == f"$.moves[{first}]"
    assert f"move {first + 1} (play {card}) is refused: " in error.message
    assert "do not hold" in error.message or "NOT_IN_HAND" in error.message


def test_a_deck_order_that_is_not_the_deck_is_refused() -> None:
    document = _document(ba.new_game(ba.variants.VIETNAM_42, seed=2))
    deck = [str(c) for c in ba.CARDS if int(ba.variants.VIETNAM_42.deck.cards) >> c.index & 1]
    document["decks"] = [["2C", *deck[1:]]]  # the 42-card deck has no 2s
    error = _refusal(document)
    assert error.path == "$.decks[0]" and "exactly the rule set's deck" in error.message
    document["decks"] = [[*deck, "2C"]]
    assert _refusal(document).path == "$.decks[0]"


@pytest.mark.parametrize("name", ["gamerules", "vietnam", "cutthroat-5"])
def test_more_moves_than_the_rules_game_takes_are_refused_before_they_are_read(
    name: str,
) -> None:
    """The bound comes from the schedule (calls and plays of every deal, and
    thrown-in deals): a longer list is refused at its length, before a move
    is read or a card dealt."""
    rules = ba.variants.get(name)
    most = limits.most_moves(rules)
    n = rules.players
    sizes = rules.schedule.hand_sizes
    assert most >= sum(n * limits.CALL_ROUNDS * (h + 2) + 1 + n * h for h in sizes)
    assert most >= sum(n + 1 + n * h for h in sizes) + limits.MAX_THROW_INS * n
    document = _document(ba.new_game(rules, seed=3))
    document["moves"] = [0] * (most + 1)  # not even moves: never read
    with mock.patch.object(state_doc, "new_game") as start:
        error = _refusal(document)
    assert error.path == "$.moves" and f"at most {most}" in error.message
    assert not start.called
    document["moves"] = []
    document["decks"] = [0] * (limits.most_decks(rules) + 1)
    error = _refusal(document)
    assert error.path == "$.decks" and "deck orders" in error.message


def test_a_game_of_any_registered_variant_fits_the_bounds() -> None:
    for name in ba.variants.names():
        state = _played(ba.variants.get(name), 5, 10**6)
        assert len(state.moves) <= limits.most_moves(state.rules) // 4, name


def test_documents_larger_than_the_limit_are_refused_before_parsing() -> None:
    text = " " * (serialize.common.MAX_DOCUMENT_SIZE + 1)
    with mock.patch("json.loads") as loads, pytest.raises(ba.SerializationError, match="at most"):
        ba.from_json(text, ba.GameState)
    assert not loads.called


STATE = _played(ba.variants.GAMERULES, 11, 150)
TEXT = ba.to_json(STATE)


@pytest.mark.parametrize(
    "text, outcome",
    [
        (TEXT[:-1] + ",}", "refused"),  # a trailing comma: not JSON
        (TEXT + " x", "refused"),
        (TEXT[:-1] + ', "rules": 0}', "refused"),  # a repeated key: the last one counts
        (TEXT[:-1] + ', "format": "backalley/view"}', "refused"),
        (TEXT[:-1] + ', "version": 1}', "refused"),
        (TEXT[:-1] + ', "moves": []}', "the opening"),
        (TEXT[:-1] + ', "first_dealer": 9}', "refused"),
        (TEXT.replace('"moves": [', '"moves": ["pass", '), "refused"),
        (TEXT[:-1] + ', "x": ' + "[" * 100_000 + "]" * 100_000 + "}", "refused"),
        (" \n" + TEXT + "\n ", "the state"),
    ],
)
def test_the_text_is_read_as_json_reads_it(text: str, outcome: str) -> None:
    if outcome == "refused":
        with pytest.raises(ba.SerializationError):
            ba.from_json(text, ba.GameState)
        return
    expected = STATE if outcome == "the state" else ba.new_game(STATE.rules, seed=STATE.seed)
    assert ba.from_json(text, ba.GameState) == expected


@pytest.mark.parametrize("name", ["gamerules", "vietnam", "bab-online"])
def test_to_json_writes_the_documents_json(name: str) -> None:
    """A state's compact text, put together from its parts, is exactly the
    JSON of its document (with deck orders, a named trump, any variant)."""
    from backalley.io.serialize import to_data

    rules = ba.variants.get(name)
    deck = [str(c) for c in ba.CARDS if int(rules.deck.cards) >> c.index & 1]
    rng = random.Random(1)
    state = ba.new_game(rules, seed=2, decks=[deck])
    for _ in range(60):
        for value in (state, state.view(rng.randrange(rules.players))):
            assert ba.to_json(value) == json.dumps(to_data(value), ensure_ascii=False)
            assert ba.to_json(value, indent=2) == json.dumps(
                to_data(value), indent=2, ensure_ascii=False
            )
        state = state.apply(rng.choice(state.legal_moves()))


@pytest.mark.parametrize("key", ["discards", "turn_up", "hands", "stock", "trump"])
def test_a_state_document_cannot_state_a_deal_setup_of_its_own(key: str) -> None:
    # the deal setup (turn-up, discards, hands) is what the trump rule makes of
    # the deck order: a document holds only the orders and the moves, so a
    # suited card among the discards cannot be written into one
    document = _document(_played(ba.variants.GAMERULES, 1, 3))
    document[key] = ["2S"]
    assert f"unknown key {key!r}" in str(_refusal(document))


def test_a_turned_joker_in_a_state_document_is_handled_by_the_trump_rule() -> None:
    from ..helpers import deck_order

    order = deck_order(["AH LJ", "4D 5D", "QH 4C", "JH 6C"], "BJ", stock="7S")
    state = ba.new_game(short(ba.variants.GAMERULES, 2), seed=1, dealer=0, decks=[order])
    loaded = ba.from_json(ba.to_json(state), ba.GameState)
    assert loaded.turn_up == ba.parse_card("BJ")
    assert loaded.discards == (ba.parse_card("LJ"),)
    assert ba.parse_card("7S") in loaded.hand(0) and ba.parse_card("LJ") not in loaded.hand(0)
