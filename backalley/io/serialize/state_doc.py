"""Full-information game states as documents that replay.

A state document is how the game began and every move since::

    {"format": "backalley/state", "version": 2,
     "rules": {...the rule set...},
     "seed": 7, "first_dealer": 0,
     "decks": [["2C", "3C", ...], ...],
     "moves": ["bid 3", "pass", ..., "play QS", ...]}

``decks`` are the deck orders that did not come from the seed, one per shuffle (one per deal
dealt, thrown-in deals included, or two when the trump is drawn before each
deal) while there are any, as
:func:`backalley.new_game` takes them.  Loading is
``new_game(rules, seed=seed, dealer=first_dealer, decks=decks)`` and then
``state.apply(parse_move(m))`` for each move in order: the engine's own
checked transitions, so this module holds no rule of the game.  A move the
engine refuses refuses the document, naming the move's position and the
engine's reason.
"""

from __future__ import annotations

import json
from json.encoder import encode_basestring
from typing import Any

from backalley.cards import Card
from backalley.engine import lowlevel
from backalley.engine.setup import new_game
from backalley.engine.state import GameState
from backalley.errors import IllegalMoveError, SetupError
from backalley.io.serialize.common import (
    CARD_TEXT,
    FORMAT_VERSION,
    SHARED_MOVES,
    _fail,
    distinct,
)
from backalley.io.serialize.limits import MAX_THROW_INS, check_decks, check_moves
from backalley.io.serialize.rules_doc import rules_from_data, rules_to_data
from backalley.io.serialize.structure import read_keys, structure
from backalley.io.shapes import StateShape
from backalley.moves import Move, Play
from backalley.plain import check_length, read_int, read_list
from backalley.rules.ruleset import RuleSet
from backalley.values import Phase

__all__ = ["state_from_data", "state_to_data", "state_to_text"]


def _history(state: GameState) -> tuple[tuple[tuple[int, ...], ...], tuple[Move, ...]]:
    """The deck orders and moves that replay to ``state``; refuses a state
    that no replay reaches (or that a document could not hold)."""
    core = lowlevel.core(state)
    match = core.match
    if not lowlevel.played_from_start(state):
        raise _fail(
            "$",
            "this state was not played from a new game (it began mid-game, as "
            "lowlevel.opening starts one): a state document replays a game from its "
            "first deal, so it cannot be written",
        )
    moves = state.moves
    rules = core.rules
    check_moves(rules, len(moves), "$.moves")
    check_decks(rules, len(match.decks), "$.decks")
    if lowlevel.thrown_in(state) > MAX_THROW_INS:
        raise _fail("$.moves", f"a state document holds at most {MAX_THROW_INS} thrown-in deals")
    return match.decks, moves


def state_to_data(state: GameState) -> dict[str, Any]:
    """A state's document (without ``format`` and ``version``)."""
    decks, moves = _history(state)
    return {
        "rules": rules_to_data(state.rules),
        "seed": state.seed,
        "first_dealer": state.first_dealer,
        "decks": [[CARD_TEXT[i] for i in order] for order in decks],
        "moves": [str(m) for m in moves],
    }


_QUOTED_CARDS = tuple(encode_basestring(t) for t in CARD_TEXT)
_QUOTED_SHARED: dict[Move, str] = {m: encode_basestring(str(m)) for m in SHARED_MOVES}
"""The JSON texts of the library's shared moves, by move (a table only read;
moves hash once)."""


def _moves_text(moves: tuple[Move, ...]) -> str:
    texts = list(map(_QUOTED_SHARED.get, moves))
    if None in texts:
        texts = [encode_basestring(str(m)) if t is None else t for t, m in zip(texts, moves)]
    return ", ".join(texts)  # type: ignore[arg-type]


_dumps = json.JSONEncoder(ensure_ascii=False).encode

STATE_PREFIX = f'{{"format": "backalley/state", "version": {FORMAT_VERSION}, "rules": '
"""How the compact JSON text of every state document begins (its rules follow)."""


def state_to_text(state: GameState) -> str:
    """The compact JSON text of a state's document, with ``format`` and
    ``version``: what ``json.dumps`` writes for it, put together from the
    texts of its parts (each shared move's text is made once)."""
    decks, moves = _history(state)
    decks_text = ", ".join(
        "[" + ", ".join(map(_QUOTED_CARDS.__getitem__, order)) + "]" for order in decks
    )
    moves_text = _moves_text(moves)
    return "".join(
        (
            STATE_PREFIX,
            _dumps(rules_to_data(state.rules)),
            f', "seed": {int(state.seed)}, "first_dealer": {int(state.first_dealer)}',
            f', "decks": [{decks_text}], "moves": [{moves_text}]}}',
        )
    )


def state_from_data(value: Any, path: str = "$") -> GameState:
    """The state a document replays to (the document without ``format`` and
    ``version``).  Raises :class:`~backalley.SerializationError`."""
    obj = read_keys(value, StateShape, path)
    rules = rules_from_data(obj["rules"], f"{path}.rules", allow_base=False)
    # the sizes first: the work a document causes is bounded by its rules
    check_decks(rules, len(read_list(obj["decks"], f"{path}.decks")), f"{path}.decks")
    check_moves(rules, len(read_list(obj["moves"], f"{path}.moves")), f"{path}.moves")
    doc = structure({**obj, "rules": rules}, StateShape, path)
    first_dealer = read_int(doc.first_dealer, f"{path}.first_dealer", 0, rules.players - 1)
    decks = [_deck(rules, order, f"{path}.decks[{k}]") for k, order in enumerate(doc.decks)]
    try:
        state = new_game(rules, seed=doc.seed, dealer=first_dealer, decks=decks)
    except SetupError as exc:  # pragma: no cover - the parts were checked above
        raise _fail(path, str(exc)) from None
    return _replay(state, doc.moves, f"{path}.moves")


def _deck(rules: RuleSet, order: tuple[Card, ...], path: str) -> tuple[Card, ...]:
    """A deck order: exactly the rule set's deck."""
    check_length(order, path, rules.deck.size)
    distinct(order, path)
    mask = 0
    for card in order:
        mask |= 1 << card.index
    if len(order) != rules.deck.size or mask != rules.plan.deck_mask:
        raise _fail(path, "a deck order must hold exactly the rule set's deck")
    return order


_BIDDING = Phase.BIDDING


def _replay(state: GameState, moves: tuple[Move, ...], path: str) -> GameState:
    """``state`` after ``moves``, each checked by ``apply``; at most
    :data:`MAX_THROW_INS` deals thrown in on the way."""
    throw_ins = 0
    apply = GameState.apply
    for i, move in enumerate(moves):
        try:
            state = apply(state, move)
        except IllegalMoveError as exc:
            raise _fail(f"{path}[{i}]", f"move {i + 1} ({move}) is refused: {exc}") from None
        if type(move) is not Play and state.phase is _BIDDING and not state.calls:
            throw_ins += 1  # a call that ends the bidding with a new deal: thrown in
            if throw_ins > MAX_THROW_INS:
                raise _fail(
                    f"{path}[{i}]",
                    f"move {i + 1} ({move}) is refused: it throws in deal {throw_ins}, and a "
                    f"state document holds at most {MAX_THROW_INS} thrown-in deals",
                )
    return state
