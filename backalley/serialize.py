"""JSON for everything: moves, cards, rule sets, states, views, records.

One :mod:`cattrs` converter (:data:`converter`) knows every document type.
Cards and moves are written as their canonical text, each policy as a table
with its stable ``type`` tag, and every top-level document carries
``"format"`` (its kind) and ``"version"``.

Loading checks consistency, not only shape: a state is rebuilt by replaying
the current deal's moves from its deal through the rules, so overlapping
hands, a card twice, a hand of the wrong size, a phase that does not fit or
scores that the deal results cannot produce are refused.  Every problem
raises :class:`~backalley.SerializationError` with the path of the offending
field; nothing malformed ever becomes a value.
"""

from __future__ import annotations

import copy
import enum
import json
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any, TypeVar, cast

import attrs
import cattrs

from backalley.cards import CARDS, SUITS, Card, Rank, Suit, indices_of_mask, parse_card
from backalley.errors import (
    BackAlleyError,
    IllegalMoveError,
    NotationError,
    RuleSetError,
    SerializationError,
)
from backalley.legality import Phase
from backalley.moves import MOVE_TYPES, Bid, BoardBid, Counter, Move, NameTrump, Pass, parse_move
from backalley.rules.bidding import Contract
from backalley.rules.deck import deck_mask
from backalley.rules.ruleset import PART_NAMES, PART_TYPES, RuleSet
from backalley.rules.scoring import Rainbow
from backalley.rules.trump import FixedTrump, TurnUpTrump

__all__ = [
    "FORMAT_VERSION",
    "converter",
    "from_data",
    "from_json",
    "rules_from_data",
    "rules_to_data",
    "to_data",
    "to_json",
]

FORMAT_VERSION = 1
T = TypeVar("T")


def _fail(path: str, message: str) -> SerializationError:
    return SerializationError(message, path)


def _expect(value: Any, kind: type | tuple[type, ...], path: str, what: str) -> Any:
    if isinstance(value, bool) and kind is not bool and (kind is int or kind == (int,)):
        raise _fail(path, f"expected {what}, got {json.dumps(value)}")
    if not isinstance(value, kind):
        raise _fail(path, f"expected {what}, got {_show(value)}")
    return value


def _show(value: Any) -> str:
    try:
        text = json.dumps(value)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _int(value: Any, path: str, low: int | None = None, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _fail(path, f"expected a whole number, got {_show(value)}")
    if (low is not None and value < low) or (high is not None and value > high):
        raise _fail(path, f"{value} is out of range {low}..{high}")
    return value


def _list(value: Any, path: str, what: str = "a list") -> list[Any]:
    if not isinstance(value, list):
        raise _fail(path, f"expected {what}, got {_show(value)}")
    return value


def _object(value: Any, path: str, keys: Mapping[str, bool], what: str) -> dict[str, Any]:
    """A JSON object with the given keys (``True``: required); unknown keys are refused."""
    if not isinstance(value, dict):
        raise _fail(path, f"expected {what} (an object), got {_show(value)}")
    for key in value:
        if key not in keys:
            known = ", ".join(keys)
            raise _fail(f"{path}.{key}", f"unknown key {key!r} in {what}; known keys: {known}")
    for key, required in keys.items():
        if required and key not in value:
            raise _fail(f"{path}.{key}", f"missing key {key!r} in {what}")
    return value


# ----------------------------------------------------------------- leaves


def _card(value: Any, path: str) -> Card:
    if not isinstance(value, str):
        raise _fail(path, f'expected a card like "QS", got {_show(value)}')
    try:
        return parse_card(value)
    except NotationError as exc:
        raise _fail(path, str(exc)) from None


def _cards(value: Any, path: str) -> tuple[Card, ...]:
    return tuple(_card(v, f"{path}[{i}]") for i, v in enumerate(_list(value, path)))


def _card_or_none(value: Any, path: str) -> Card | None:
    return None if value is None else _card(value, path)


def _move(value: Any, path: str) -> Move:
    if not isinstance(value, str):
        raise _fail(path, f'expected a move like "bid 3", got {_show(value)}')
    try:
        return parse_move(value)
    except NotationError as exc:
        raise _fail(path, str(exc)) from None


def _suit(value: Any, path: str) -> Suit | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise _fail(path, f"expected a suit letter C, D, H or S, got {_show(value)}")
    try:
        return Suit.parse(value)
    except NotationError as exc:
        raise _fail(path, str(exc)) from None


_PHASES = {p.value: p for p in Phase}


def _phase(value: Any, path: str) -> Phase:
    if not isinstance(value, str) or value not in _PHASES:
        raise _fail(path, f"expected one of {', '.join(_PHASES)}; got {_show(value)}")
    return _PHASES[value]


def _bits(cards: tuple[Card, ...], path: str) -> int:
    mask = 0
    for i, card in enumerate(cards):
        bit = 1 << card.index
        if mask & bit:
            raise _fail(f"{path}[{i}]", f"{card} appears twice")
        mask |= bit
    return mask


def _texts(mask: int) -> list[str]:
    return [str(CARDS[i]) for i in indices_of_mask(mask)]


# ---------------------------------------------------------------- policies

_PARAM_TYPES: dict[type, dict[str, Any]] = {}


def _param_types(cls: type) -> dict[str, Any]:
    if cls not in _PARAM_TYPES:
        hints = typing.get_type_hints(cls)
        _PARAM_TYPES[cls] = {a.name: hints[a.name] for a in attrs.fields(cls)}
    return _PARAM_TYPES[cls]


def _unstructure_param(value: Any) -> Any:
    if isinstance(value, Rank):
        return value.letter
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, frozenset):
        return [_unstructure_param(v) for v in sorted(value)]
    if isinstance(value, tuple):
        return [_unstructure_param(v) for v in value]
    if isinstance(value, Rainbow):
        return {"hand_size": value.hand_size, "points": value.points}
    return value


def policy_to_data(policy: Any) -> dict[str, Any]:
    """A policy as plain data: ``{"type": tag, <parameter>: <value>, ...}``."""
    data: dict[str, Any] = {"type": policy.tag}
    for name, value in policy.options().items():
        data[name] = _unstructure_param(value)
    return data


def _param(value: Any, tp: Any, path: str) -> Any:
    if tp is bool:
        return _expect(value, bool, path, "true or false")
    if tp is int:
        return _int(value, path)
    if tp is Suit:
        suit = _suit(value, path)
        if suit is None:
            raise _fail(path, "expected a suit letter C, D, H or S, got null")
        return suit
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        choices = [m.value for m in tp]
        if value not in choices:
            raise _fail(path, f"expected one of {', '.join(map(str, choices))}; got {_show(value)}")
        return tp(value)
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin is tuple:
        return tuple(_param(v, args[0], f"{path}[{i}]") for i, v in enumerate(_list(value, path)))
    if origin is frozenset:
        ranks = []
        for i, v in enumerate(_list(value, path)):
            where = f"{path}[{i}]"
            if isinstance(v, str):
                try:
                    ranks.append(Rank.parse(v))
                except NotationError as exc:
                    raise _fail(where, str(exc)) from None
            else:
                ranks.append(Rank(_int(v, where, 2, 14)))
        return frozenset(ranks)
    if origin in (typing.Union, types.UnionType) and type(None) in args:
        if value is None:
            return None
        inner = next(a for a in args if a is not type(None))
        return _param(value, inner, path)
    if tp is Rainbow:
        obj = _object(value, path, {"hand_size": False, "points": False}, "a rainbow bonus")
        kwargs = {k: _int(v, f"{path}.{k}") for k, v in obj.items()}
        try:
            return Rainbow(**kwargs)
        except RuleSetError as exc:
            raise _fail(path, str(exc)) from None
    raise _fail(path, f"cannot read a value of type {tp}")  # pragma: no cover


def policy_from_data(part: str, value: Any, path: str, base: Any | None = None) -> Any:
    """A policy of rule part ``part`` from plain data; with ``base``, missing
    parameters come from ``base`` when the type (tag) is the same."""
    classes: dict[str, Any] = {cls.tag: cls for cls in cast(Any, PART_TYPES[part])}
    if not isinstance(value, dict):
        raise _fail(path, f"expected a table for the {part} part, got {_show(value)}")
    tag = value.get("type", base.tag if base is not None else None)
    if tag is None:
        if len(classes) == 1:
            tag = next(iter(classes))
        else:
            raise _fail(f"{path}.type", f"missing key 'type'; one of: {', '.join(classes)}")
    if not isinstance(tag, str) or tag not in classes:
        raise _fail(f"{path}.type", f"unknown {part} type {tag!r}; known: {', '.join(classes)}")
    cls = classes[tag]
    params = _param_types(cls)
    kwargs: dict[str, Any] = {}
    if base is not None and base.tag == tag:
        kwargs.update(base.options())
    for key, item in value.items():
        if key == "type":
            continue
        if key not in params:
            known = ", ".join(params) or "none"
            raise _fail(
                f"{path}.{key}", f"unknown option {key!r} for {part} type {tag!r}; known: {known}"
            )
        kwargs[key] = _param(item, params[key], f"{path}.{key}")
    try:
        return cls(**kwargs)
    except RuleSetError as exc:
        raise _fail(path, "; ".join(exc.problems)) from None


def rules_to_data(rules: RuleSet) -> dict[str, Any]:
    """A rule set as plain data: ``name`` and one table per part (a fresh copy)."""
    return copy.deepcopy(_rules_data(rules))


def _rules_data(rules: RuleSet) -> dict[str, Any]:
    """The rule set's plain data, built once per rule set and shared: never mutate it."""
    data = rules._data
    if data is None:
        data = {"name": rules.name}
        for name, part in rules.parts().items():
            data[name] = policy_to_data(part)
        object.__setattr__(rules, "_data", data)
    return data  # type: ignore[no-any-return]


_RULES_CACHE: dict[str, RuleSet] = {}


_RULES_KEYS = {"name": False, "base": False, **{p: False for p in PART_NAMES}}


def rules_from_data(value: Any, path: str = "$", *, allow_base: bool = True) -> RuleSet:
    """A rule set from plain data.  ``base`` names a registered variant to start
    from; each part table then overrides that part (its parameters only, when
    the ``type`` is unchanged).  Parts not given keep their default (or the
    base's)."""
    obj = _object(value, path, _RULES_KEYS, "a rule set")
    if "base" in obj and not allow_base:
        raise _fail(f"{path}.base", "'base' is not allowed here")
    key = repr(obj)  # exact for JSON data (1 != 1.0 != True), and fast
    cached = _RULES_CACHE.get(key)
    if cached is not None:
        return cached
    rules = _rules_from_object(obj, path, allow_base)
    if len(_RULES_CACHE) >= 64:
        _RULES_CACHE.clear()
    _RULES_CACHE[key] = rules
    return rules


def _rules_from_object(obj: dict[str, Any], path: str, allow_base: bool) -> RuleSet:
    base = RuleSet()
    if "base" in obj:
        if not allow_base:
            raise _fail(f"{path}.base", "'base' is not allowed here")
        name = obj["base"]
        if not isinstance(name, str):
            raise _fail(f"{path}.base", f"expected a variant name, got {_show(name)}")
        from backalley import variants

        try:
            base = variants.get(name)
        except BackAlleyError as exc:
            raise _fail(f"{path}.base", str(exc)) from None
    parts = base.parts()
    for part in PART_NAMES:
        if part in obj:
            parts[part] = policy_from_data(part, obj[part], f"{path}.{part}", base=parts[part])
    name = obj.get("name")
    if name is not None and not isinstance(name, str):
        raise _fail(f"{path}.name", f"expected text, got {_show(name)}")
    try:
        return RuleSet(**parts, name=name)
    except RuleSetError as exc:
        raise RuleSetError([f"{path}: {p}" for p in exc.problems]) from None


# --------------------------------------------------------- records of deals


def contract_to_data(c: Contract | None) -> dict[str, Any] | None:
    if c is None:
        return None
    return {
        "tricks": c.tricks,
        "board": c.board,
        "multiplier": c.multiplier,
        "declarer": c.declarer,
    }


def contract_from_data(value: Any, path: str) -> Contract | None:
    if value is None:
        return None
    obj = _object(
        value,
        path,
        {"tricks": True, "board": False, "multiplier": False, "declarer": False},
        "a contract",
    )
    declarer = obj.get("declarer")
    return Contract(
        tricks=_int(obj["tricks"], f"{path}.tricks", 0),
        board=_expect(obj.get("board", False), bool, f"{path}.board", "true or false"),
        multiplier=_int(obj.get("multiplier", 1), f"{path}.multiplier", 1),
        declarer=None if declarer is None else _int(declarer, f"{path}.declarer", 0, 15),
    )


def _contract_document(value: Any, path: str) -> Contract:
    """A contract as a document of its own: ``null`` (no contract) is not one."""
    contract = contract_from_data(value, path)
    if contract is None:
        raise _fail(path, "expected a contract (an object), got null")
    return contract


def deal_result_to_data(r: Any) -> dict[str, Any]:
    """A deal result as plain data, built once per result and shared: never mutate it."""
    data = r._data
    if data is None:
        data = _deal_result_data(r)
        object.__setattr__(r, "_data", data)
    return data  # type: ignore[no-any-return]


def _deal_result_data(r: Any) -> dict[str, Any]:
    return {
        "number": r.number,
        "dealer": r.dealer,
        "hand_size": r.hand_size,
        "turn_up": None if r.turn_up is None else str(r.turn_up),
        "trump": None if r.trump is None else r.trump.value,
        "bids": [None if b is None else str(b) for b in r.bids],
        "contracts": [contract_to_data(c) for c in r.contracts],
        "declarer": r.declarer,
        "tricks": list(r.tricks),
        "points": list(r.points),
    }


_RESULT_KEYS = {
    "number": True,
    "dealer": True,
    "hand_size": True,
    "turn_up": False,
    "trump": False,
    "bids": True,
    "contracts": True,
    "declarer": False,
    "tricks": True,
    "points": True,
}


_RESULTS_CACHE: dict[str, Any] = {}


def deal_result_from_data(value: Any, path: str) -> Any:
    """A deal result from plain data (memoized: results recur in every later state)."""
    key = repr(value)  # exact for JSON data (1 != 1.0 != True), and fast
    result = _RESULTS_CACHE.get(key)
    if result is None:
        result = _deal_result_from_data(value, path)
        if len(_RESULTS_CACHE) >= 4096:
            _RESULTS_CACHE.clear()
        _RESULTS_CACHE[key] = result
    return result


def _deal_result_from_data(value: Any, path: str) -> Any:
    from backalley.state import DealResult

    obj = _object(value, path, _RESULT_KEYS, "a deal result")
    declarer = obj.get("declarer")
    return DealResult(
        number=_int(obj["number"], f"{path}.number", 1),
        dealer=_int(obj["dealer"], f"{path}.dealer", 0, 15),
        hand_size=_int(obj["hand_size"], f"{path}.hand_size", 1),
        turn_up=_card_or_none(obj.get("turn_up"), f"{path}.turn_up"),
        trump=_suit(obj.get("trump"), f"{path}.trump"),
        bids=tuple(
            None if b is None else _move(b, f"{path}.bids[{i}]")
            for i, b in enumerate(_list(obj["bids"], f"{path}.bids"))
        ),
        contracts=tuple(
            contract_from_data(c, f"{path}.contracts[{i}]")
            for i, c in enumerate(_list(obj["contracts"], f"{path}.contracts"))
        ),
        declarer=None if declarer is None else _int(declarer, f"{path}.declarer", 0, 15),
        tricks=tuple(
            _int(t, f"{path}.tricks[{i}]", 0)
            for i, t in enumerate(_list(obj["tricks"], f"{path}.tricks"))
        ),
        points=tuple(
            _int(p, f"{path}.points[{i}]")
            for i, p in enumerate(_list(obj["points"], f"{path}.points"))
        ),
    )


def _trick_to_data(raw: tuple[int, tuple[int, ...], int]) -> dict[str, Any]:
    lead, cards, winner = raw
    return {"leader": lead, "cards": [str(CARDS[c]) for c in cards], "winner": winner}


# ------------------------------------------------------------------- states


def state_to_data(state: Any) -> dict[str, Any]:
    """A full-information state: the rules, the match so far, and the current
    deal as dealt plus its moves (everything else is derived on loading)."""
    match = state.match
    moves: list[str] = [str(c) for c in state.calls]
    if state.rules.trump.named_by_declarer and state.phase in (Phase.PLAYING, Phase.GAME_OVER):
        trump = state.trump_index
        moves.append(str(NameTrump(None if trump is None else SUITS[trump])))
    for _lead, cards, _win in state.history:
        moves.extend(f"play {CARDS[c]}" for c in cards)
    moves.extend(f"play {CARDS[c]}" for c in state.trick_cards)
    return {
        "rules": _rules_data(state.rules),
        "seed": match.seed,
        "first_dealer": match.first_dealer,
        "decks": [[str(CARDS[i]) for i in order] for order in match.decks],
        "deal_number": match.deal_number,
        "scores": list(match.scores),
        "deal_results": [deal_result_to_data(r) for r in match.results],
        "phase": state.phase.value,
        "deal": {
            "dealer": state.dealer,
            "hand_size": state.hand_size,
            "hands": [_texts(h) for h in state.dealt_bits],
            "stock": [str(CARDS[i]) for i in state.stock_order],
            "turn_up": None if state.turn_up_index is None else str(CARDS[state.turn_up_index]),
            "discards": _texts(state.discard_bits),
            "moves": moves,
        },
    }


_STATE_KEYS = {
    "rules": True,
    "seed": True,
    "first_dealer": True,
    "decks": False,
    "deal_number": True,
    "scores": True,
    "deal_results": True,
    "phase": True,
    "deal": True,
}
_DEAL_KEYS = {
    "dealer": True,
    "hand_size": True,
    "hands": True,
    "stock": True,
    "turn_up": False,
    "discards": False,
    "moves": True,
}


def state_from_data(value: Any, path: str = "$") -> Any:
    from backalley.state import Match, open_deal

    obj = _object(value, path, _STATE_KEYS, "a game state")
    rules = rules_from_data(obj["rules"], f"{path}.rules", allow_base=False)
    players = rules.players
    full = deck_mask(rules.deck)
    seed = _int(obj["seed"], f"{path}.seed")
    first_dealer = _int(obj["first_dealer"], f"{path}.first_dealer", 0, players - 1)
    decks = []
    for k, order in enumerate(_list(obj.get("decks", []), f"{path}.decks")):
        where = f"{path}.decks[{k}]"
        cards = _cards(order, where)
        if _bits(cards, where) != full or len(cards) != rules.deck.size:
            raise _fail(where, "a deck order must hold exactly the rule set's deck")
        decks.append(tuple(c.index for c in cards))
    deal_number = _int(obj["deal_number"], f"{path}.deal_number", 1)
    results = tuple(
        deal_result_from_data(r, f"{path}.deal_results[{i}]")
        for i, r in enumerate(_list(obj["deal_results"], f"{path}.deal_results"))
    )
    phase_text = obj["phase"]
    phase = _phase(phase_text, f"{path}.phase")
    schedule = rules.schedule.hand_sizes
    if len(results) > len(schedule):
        raise _fail(
            f"{path}.deal_results",
            f"{len(results)} deal results, but the rules have {len(schedule)} deals",
        )
    over = phase is Phase.GAME_OVER
    if over != (len(results) == len(schedule)):
        raise _fail(
            f"{path}.phase",
            f"phase {phase.value!r} does not fit {len(results)} scored deals of {len(schedule)}",
        )
    earlier = results[:-1] if over else results
    scores = tuple(
        _int(s, f"{path}.scores[{i}]") for i, s in enumerate(_list(obj["scores"], f"{path}.scores"))
    )
    check_results(rules, results, scores, path, "deal_results")

    deal = _object(obj["deal"], f"{path}.deal", _DEAL_KEYS, "a deal")
    dpath = f"{path}.deal"
    dealer = _int(deal["dealer"], f"{dpath}.dealer", 0, players - 1)
    hand_size = _int(deal["hand_size"], f"{dpath}.hand_size", 1)
    expected_size = schedule[len(earlier)]
    if hand_size != expected_size:
        raise _fail(
            f"{dpath}.hand_size",
            f"deal {len(earlier) + 1} has {expected_size} cards, not {hand_size}",
        )
    hands_data = _list(deal["hands"], f"{dpath}.hands")
    if len(hands_data) != players:
        raise _fail(f"{dpath}.hands", f"expected {players} hands, got {len(hands_data)}")
    seen = 0
    hands = []
    for seat, hand in enumerate(hands_data):
        where = f"{dpath}.hands[{seat}]"
        cards = _cards(hand, where)
        if len(cards) != hand_size:
            raise _fail(where, f"a hand of this deal has {hand_size} cards, this one {len(cards)}")
        bits = _bits(cards, where)
        hands.append(bits)
        seen = _disjoint(seen, bits, full, where)
    stock_cards = _cards(deal["stock"], f"{dpath}.stock")
    seen = _disjoint(seen, _bits(stock_cards, f"{dpath}.stock"), full, f"{dpath}.stock")
    turn_up = _card_or_none(deal.get("turn_up"), f"{dpath}.turn_up")
    if turn_up is not None:
        seen = _disjoint(seen, 1 << turn_up.index, full, f"{dpath}.turn_up")
    discard_cards = _cards(deal.get("discards", []), f"{dpath}.discards")
    discards = _bits(discard_cards, f"{dpath}.discards")
    seen = _disjoint(seen, discards, full, f"{dpath}.discards")
    if seen != full:
        missing = " ".join(_texts(full & ~seen))
        raise _fail(dpath, f"the hands, stock, turn-up and discards miss {missing} of the deck")
    trump = _opening_trump(rules, turn_up, f"{dpath}.turn_up")
    match = Match(
        seed,
        first_dealer,
        tuple(decks),
        deal_number,
        tuple(_sum_points(earlier, len(scores))),
        earlier,
    )
    state = open_deal(
        rules,
        match,
        dealer,
        hand_size,
        tuple(hands),
        tuple(c.index for c in stock_cards),
        None if turn_up is None else turn_up.index,
        discards,
        trump,
    )
    for i, text in enumerate(_list(deal["moves"], f"{dpath}.moves")):
        move = _move(text, f"{dpath}.moves[{i}]")
        if (
            state.is_over
            or state.deals_played != len(earlier)
            or state.match.deal_number != deal_number
        ):
            raise _fail(f"{dpath}.moves[{i}]", "moves go on past the end of this deal")
        try:
            state = state.apply(move)
        except IllegalMoveError as exc:
            raise _fail(f"{dpath}.moves[{i}]", f"illegal move {move}: {exc}") from None
    if state.match.deal_number != deal_number or state.dealt_bits != tuple(hands):
        raise _fail(f"{dpath}.moves", "the moves end this deal, so the state would be another deal")
    if state.phase is not phase:
        raise _fail(
            f"{path}.phase", f"the moves lead to phase {state.phase.value!r}, not {phase.value!r}"
        )
    if state.deal_results != results:
        raise _fail(f"{path}.deal_results", "the deal results do not match what the moves produce")
    return state


def check_results(
    rules: RuleSet, results: tuple[Any, ...], scores: tuple[int, ...] | None, path: str, key: str
) -> None:
    """Deal results that the rules could have produced, summing to ``scores``
    (when given): numbered in order, of the schedule's hand sizes, with one
    entry per side, tricks that add up to the hand size, bids of every seat."""
    sides = len(rules.teams)
    if scores is not None and len(scores) != sides:
        raise _fail(f"{path}.scores", f"expected {sides} scores, got {len(scores)}")
    schedule = rules.schedule.hand_sizes
    totals = [0] * sides
    for i, r in enumerate(results):
        where = f"{path}.{key}[{i}]"
        if r.number != i + 1 or i >= len(schedule) or r.hand_size != schedule[i]:
            raise _fail(where, "the deal number or hand size does not fit the schedule")
        for name in ("points", "tricks", "contracts"):
            if len(getattr(r, name)) != sides:
                raise _fail(f"{where}.{name}", f"expected {name} for {sides} sides")
        if len(r.bids) != rules.players or not 0 <= r.dealer < rules.players:
            raise _fail(f"{where}.bids", f"expected a dealer and the bids of {rules.players} seats")
        for j, call in enumerate(r.bids):
            if call is not None and not isinstance(call, (Pass, Bid, BoardBid, Counter)):
                raise _fail(f"{where}.bids[{j}]", f"{call} is not a call")
        if r.declarer is not None and not 0 <= r.declarer < rules.players:
            raise _fail(f"{where}.declarer", f"seat {r.declarer} does not exist")
        if sum(r.tricks) != r.hand_size:
            raise _fail(f"{where}.tricks", "the tricks do not add up to the hand size")
        totals = [a + b for a, b in zip(totals, r.points)]
    if scores is not None and tuple(totals) != tuple(scores):
        raise _fail(
            f"{path}.scores",
            f"the scores {list(scores)} are not the sum of the deal results {totals}",
        )


def _disjoint(seen: int, bits: int, full: int, path: str) -> int:
    if bits & ~full:
        raise _fail(path, f"{' '.join(_texts(bits & ~full))} not in this rule set's deck")
    if seen & bits:
        raise _fail(path, f"{' '.join(_texts(seen & bits))} already appears elsewhere in the deal")
    return seen | bits


def _sum_points(results: tuple[Any, ...], sides: int) -> list[int]:
    totals = [0] * sides
    for r in results:
        totals = [a + b for a, b in zip(totals, r.points)]
    return totals


def _opening_trump(rules: RuleSet, turn_up: Card | None, path: str) -> int | None:
    """The trump at the start of a deal, from the trump part and the turn-up."""
    trump = rules.trump
    if isinstance(trump, TurnUpTrump):
        if turn_up is None:
            raise _fail(path, "these rules turn up a card, but the deal has no turn-up")
        return None if turn_up.suit is None else turn_up.suit.index
    if turn_up is not None:
        raise _fail(path, "these rules turn up no card")
    if isinstance(trump, FixedTrump):
        return trump.suit.index
    return None


# -------------------------------------------------------------------- views


def view_to_data(view: Any) -> dict[str, Any]:
    """A player's view: only what that seat may know."""
    return {
        "rules": _rules_data(view.rules),
        "seat": view.seat,
        "phase": view.phase.value,
        "to_act": view.to_act,
        "dealer": view.dealer,
        "hand_size": view.hand_size,
        "hand": _texts(view.hand_bits),
        "hand_counts": list(view.hand_counts),
        "turn_up": None if view.turn_up_index is None else str(CARDS[view.turn_up_index]),
        "discards": _texts(view.discard_bits),
        "trump": None if view.trump_index is None else SUITS[view.trump_index].value,
        "calls": [str(c) for c in view.calls],
        "tricks": [_trick_to_data(t) for t in view.history],
        "trick": [str(CARDS[c]) for c in view.trick_cards],
        "leader": view.leader,
        "scores": list(view.scores),
        "deal_results": [deal_result_to_data(r) for r in view.deal_results],
    }


_VIEW_KEYS = {
    "rules": True,
    "seat": True,
    "phase": True,
    "to_act": True,
    "dealer": True,
    "hand_size": True,
    "hand": True,
    "hand_counts": True,
    "turn_up": False,
    "discards": False,
    "trump": False,
    "calls": True,
    "tricks": True,
    "trick": True,
    "leader": True,
    "scores": True,
    "deal_results": True,
}


def view_from_data(value: Any, path: str = "$") -> Any:
    from backalley.views import load_view

    obj = _object(value, path, _VIEW_KEYS, "a player view")
    rules = rules_from_data(obj["rules"], f"{path}.rules", allow_base=False)
    players = rules.players
    phase = _phase(obj["phase"], f"{path}.phase")
    to_act = obj["to_act"]
    tricks = []
    for i, t in enumerate(_list(obj["tricks"], f"{path}.tricks")):
        where = f"{path}.tricks[{i}]"
        tobj = _object(t, where, {"leader": True, "cards": True, "winner": True}, "a trick")
        cards = _cards(tobj["cards"], f"{where}.cards")
        tricks.append(
            (
                _int(tobj["leader"], f"{where}.leader", 0, players - 1),
                tuple(c.index for c in cards),
                _int(tobj["winner"], f"{where}.winner", 0, players - 1),
            )
        )
    counts = tuple(
        _int(c, f"{path}.hand_counts[{i}]", 0)
        for i, c in enumerate(_list(obj["hand_counts"], f"{path}.hand_counts"))
    )
    results = tuple(
        deal_result_from_data(r, f"{path}.deal_results[{i}]")
        for i, r in enumerate(_list(obj["deal_results"], f"{path}.deal_results"))
    )
    return load_view(
        rules=rules,
        seat=_int(obj["seat"], f"{path}.seat", 0, players - 1),
        phase=phase,
        to_act=None if to_act is None else _int(to_act, f"{path}.to_act", 0, players - 1),
        dealer=_int(obj["dealer"], f"{path}.dealer", 0, players - 1),
        hand_size=_int(obj["hand_size"], f"{path}.hand_size", 1),
        hand=_cards(obj["hand"], f"{path}.hand"),
        hand_counts=counts,
        turn_up=_card_or_none(obj.get("turn_up"), f"{path}.turn_up"),
        discards=_cards(obj.get("discards", []), f"{path}.discards"),
        trump=_suit(obj.get("trump"), f"{path}.trump"),
        calls=tuple(
            _move(c, f"{path}.calls[{i}]")
            for i, c in enumerate(_list(obj["calls"], f"{path}.calls"))
        ),
        history=tuple(tricks),
        trick=tuple(c.index for c in _cards(obj["trick"], f"{path}.trick")),
        leader=_int(obj["leader"], f"{path}.leader", 0, players - 1),
        scores=tuple(
            _int(s, f"{path}.scores[{i}]")
            for i, s in enumerate(_list(obj["scores"], f"{path}.scores"))
        ),
        deal_results=results,
        path=path,
    )


# ---------------------------------------------------------------- converter

converter = cattrs.Converter()
"""The one converter: ``converter.unstructure(x)`` gives plain data for any
document type, ``converter.structure(data, cls)`` reads it back (raising
:class:`~backalley.SerializationError`)."""

_KINDS: dict[type, str] = {}


def _register(
    cls: type, kind: str, dump: Callable[[Any], Any], load: Callable[[Any, str], Any]
) -> None:
    _KINDS[cls] = kind
    # predicate hooks: cattrs need not resolve the classes' type annotations
    converter.register_unstructure_hook_func(lambda t: t is cls, dump)
    converter.register_structure_hook_func(lambda t: t is cls, lambda data, _t: load(data, "$"))


def _register_all() -> None:
    from backalley.record import GameRecord, record_from_data, record_to_data
    from backalley.state import DealResult, GameState
    from backalley.views import PlayerView

    _register(Card, "card", str, _card)
    for move_type in MOVE_TYPES:
        _register(move_type, "move", str, _move_loader(move_type))
    _register(RuleSet, "rules", _rules_data, rules_from_data)
    _register(GameState, "state", state_to_data, state_from_data)
    _register(PlayerView, "view", view_to_data, view_from_data)
    _register(GameRecord, "record", record_to_data, record_from_data)
    _register(DealResult, "deal-result", deal_result_to_data, deal_result_from_data)
    _register(Contract, "contract", contract_to_data, _contract_document)
    for part, part_types in PART_TYPES.items():
        for cls in part_types:
            _register(cls, "policy", policy_to_data, _policy_loader(part, cls))
    converter.register_structure_hook_func(lambda t: t == Move, lambda data, _t: _move(data, "$"))


def _move_loader(cls: type) -> Callable[[Any, str], Any]:
    def load(data: Any, path: str) -> Any:
        move = _move(data, path)
        if not isinstance(move, cls):
            raise _fail(path, f"{move} is not a {getattr(cls, 'kind', cls.__name__)} move")
        return move

    return load


def _policy_loader(part: str, cls: type) -> Callable[[Any, str], Any]:
    def load(data: Any, path: str) -> Any:
        return _exact(policy_from_data(part, data, path), cls, path)

    return load


def _exact(value: Any, cls: type, path: str) -> Any:
    if not isinstance(value, cls):
        expected = getattr(cls, "tag", cls.__name__)
        raise _fail(f"{path}.type", f"expected a {expected!r} policy, got {value.tag!r}")
    return value


def to_data(value: Any) -> Any:
    """Plain data (dicts, lists, text, numbers) for any document type.

    Top-level documents carry ``format`` and ``version``.
    """
    return copy.deepcopy(_document(value))


def _document(value: Any) -> Any:
    """:func:`to_data` without the copy: parts of it may be shared caches."""
    if not _KINDS:
        _register_all()
    kind = _kind_of(value)
    data = converter.unstructure(value)
    if isinstance(data, dict):
        return {"format": f"backalley/{kind}", "version": FORMAT_VERSION, **data}
    return data


def _kind_of(value: Any) -> str:
    for cls, kind in _KINDS.items():
        if isinstance(value, cls):
            return kind
    raise SerializationError(f"cannot write a {type(value).__name__} as JSON", "$")


def from_data(data: Any, cls: type[T]) -> T:
    """Read plain data written by :func:`to_data` back as a ``cls`` value."""
    if not _KINDS:
        _register_all()
    kind = _KINDS.get(cls) if isinstance(cls, type) else None
    if kind is None and cast(Any, cls) == Move:  # the union of the move types
        kind = "move"
    if kind is None:
        raise SerializationError(f"cannot read a {getattr(cls, '__name__', cls)!r} from JSON", "$")
    if isinstance(data, dict) and kind not in ("card", "move"):
        data = dict(data)
        fmt = data.pop("format", None)
        version = data.pop("version", None)
        if fmt is not None and fmt != f"backalley/{kind}":
            raise _fail("$.format", f"this is a {fmt!r} document, not 'backalley/{kind}'")
        if version is not None and version != FORMAT_VERSION:
            raise _fail(
                "$.version",
                f"format version {_show(version)} is not supported (only {FORMAT_VERSION})",
            )
    try:
        return converter.structure(data, cls)
    except BackAlleyError:
        raise
    except RecursionError:
        raise SerializationError("the document is nested too deeply", "$") from None
    except (TypeError, ValueError, KeyError, AttributeError) as exc:  # pragma: no cover - defensive
        raise SerializationError(f"malformed document: {exc}", "$") from None


def to_json(value: Any, *, indent: int | None = None) -> str:
    """JSON text for a state, view, move, card, rule set, record or deal result
    (compact; ``indent=2`` for text meant for people)."""
    return json.dumps(_document(value), indent=indent, ensure_ascii=False)


def from_json(text: str | bytes, cls: type[T]) -> T:
    """Read JSON text as a ``cls`` value; malformed or inconsistent input raises
    :class:`~backalley.SerializationError` with the path of the offending field."""
    if not isinstance(text, (str, bytes, bytearray)):
        raise SerializationError(f"expected JSON text, got {type(text).__name__}", "$")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise SerializationError(f"not valid JSON: {exc}", "$") from None
    return from_data(data, cls)
