"""Deal results and contracts as plain data, and the check that a game's
deal results are ones its rules could have produced."""

from __future__ import annotations

import re
from json.encoder import encode_basestring
from typing import Any

from backalley.rules.context import NO_TRUMP
from backalley.rules.ruleset import RuleSet
from backalley.serialize.common import (
    CACHE_KEY_LIMIT,
    CARD_TEXT,
    Pending,
    _card,
    _card_or_none,
    _expect,
    _fail,
    _int,
    _list,
    _move,
    _object,
    _show,
    _suit,
)
from backalley.values import Contract, DealResult


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
    """A deal result as plain data (an object with named keys), built once per
    result and shared: never mutate it."""
    cached = _cached(r)
    data = cached[1]
    if data is None:
        data = cached[1] = _deal_result_data(r)
    return data  # type: ignore[no-any-return]


def deal_result_to_row(r: Any) -> str:
    """A deal result as one compact row of text, as state and view documents
    write it (built once per result and shared)::

        number dealer hand_size turn_up trump;calls;contracts;declarer;tricks;points

    ``-`` for a missing turn-up, trump, call, contract or declarer; calls by
    seat and contracts, tricks and points by side, separated by commas; a
    contract as its tricks, then ``B`` for a board, ``xK`` for a multiplier
    other than 1 and ``@S`` for a declarer.  For example
    ``"3 2 11 QS S;bid 4,bid 2,pass,bid 3;6,3;-;7,4;60,-30"``.
    """
    cached = _cached(r)
    row = cached[0]
    if row is None:
        row = cached[0] = _deal_result_row(r)
    return row  # type: ignore[no-any-return]


def _quoted_row(r: Any) -> str:
    """:func:`deal_result_to_row` as a JSON string (built once per result and shared)."""
    cached = _cached(r)
    quoted = cached[2]
    if quoted is None:
        quoted = cached[2] = encode_basestring(deal_result_to_row(r))
    return quoted  # type: ignore[no-any-return]


def _cached(r: Any) -> list[Any]:
    """The result's document forms (row, object, row as JSON), filled on first use."""
    cached = r._data
    if cached is None:
        cached = [None, None, None]
        object.__setattr__(r, "_data", cached)
    return cached  # type: ignore[no-any-return]


def _deal_result_row(r: Any) -> str:
    turn_up = "-" if r.turn_up is None else str(r.turn_up)
    trump = "-" if r.trump is None else r.trump.value
    return ";".join(
        (
            f"{r.number} {r.dealer} {r.hand_size} {turn_up} {trump}",
            ",".join("-" if b is None else str(b) for b in r.bids),
            ",".join(_contract_token(c) for c in r.contracts),
            "-" if r.declarer is None else str(r.declarer),
            ",".join(map(str, r.tricks)),
            ",".join(map(str, r.points)),
        )
    )


def _contract_token(c: Contract | None) -> str:
    if c is None:
        return "-"
    text = f"{c.tricks}B" if c.board else str(c.tricks)
    if c.multiplier != 1:
        text += f"x{c.multiplier}"
    if c.declarer is not None:
        text += f"@{c.declarer}"
    return text


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


_RESULTS_CACHE: dict[Any, Any] = {}
"""Deal results already loaded, by their row of text, or the ``repr`` of their
object in a 1-tuple (exact for JSON data: 1, 1.0 and true differ), filled only
by documents that loaded."""
_RESULTS_LIMIT = 4096


def deal_result_from_data(value: Any, path: str) -> Any:
    """A deal result from plain data (its form only: :func:`check_results`
    checks it against the rules)."""
    return _deal_result_from_data(_object(value, path, _RESULT_KEYS, "a deal result"), path)


def results_from_data(values: Any, path: str, pending: Pending) -> tuple[Any, ...]:
    """The deal results of a document; those not seen before are added to
    ``pending``, to be cached once the whole document has loaded."""
    if type(values) is list:
        try:  # every row read before: no Python code per row
            return tuple(map(_RESULTS_CACHE.__getitem__, values))
        except (KeyError, TypeError):
            pass
    out = []
    for i, value in enumerate(_list(values, path)):
        # a row is its own key; an object its repr (exact for JSON data: 1 != 1.0 != True),
        # in a tuple (so that no text is taken for an object)
        key: Any = value if type(value) is str else (repr(value),)
        result = _RESULTS_CACHE.get(key)
        if result is None:
            result = _deal_result_from_data(value, f"{path}[{i}]")
            if len(key if type(key) is str else key[0]) <= CACHE_KEY_LIMIT:
                pending.append((_RESULTS_CACHE, _RESULTS_LIMIT, key, result))
        out.append(result)
    return tuple(out)


_ROW_FIELDS = tuple(_RESULT_KEYS)
"""The fields of a deal result's row, in order."""


def _deal_result_from_data(value: Any, path: str) -> Any:
    if isinstance(value, str):
        return _deal_result_from_row(value, path)
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


_ROW_LIMIT = 4096
"""The longest deal result row read (valid rows are far shorter)."""

_CONTRACT_TOKEN = re.compile(r"(\d+)(B?)(?:x(\d+))?(?:@(\d+))?")


def _deal_result_from_row(text: str, path: str) -> Any:
    """A deal result from its row of text (see :func:`deal_result_to_row`);
    only the canonical text of a result is read."""
    if len(text) > _ROW_LIMIT:
        raise _fail(path, f"a deal result row is at most {_ROW_LIMIT} characters")
    fields = text.split(";")
    head = fields[0].split(" ")
    if len(fields) != 6 or len(head) != 5:
        raise _fail(
            path,
            "expected a deal result row 'number dealer hand_size turn_up trump;calls;"
            f"contracts;declarer;tricks;points', got {_show(text)}",
        )
    number, dealer, hand_size, turn_up, trump = head
    _, calls, contracts, declarer, tricks, points = fields
    result = DealResult(
        number=_row_int(number, path, "number", 1),
        dealer=_row_int(dealer, path, "dealer", 0, 15),
        hand_size=_row_int(hand_size, path, "hand_size", 1),
        turn_up=None if turn_up == "-" else _card(turn_up, f"{path} (turn_up)"),
        trump=None if trump == "-" else _suit(trump, f"{path} (trump)"),
        bids=tuple(
            None if b == "-" else _move(b, f"{path} (bids[{i}])")
            for i, b in enumerate(calls.split(","))
        ),
        contracts=tuple(
            _contract_from_token(c, f"{path} (contracts[{i}])")
            for i, c in enumerate(contracts.split(","))
        ),
        declarer=None if declarer == "-" else _row_int(declarer, path, "declarer", 0, 15),
        tricks=tuple(_row_int(t, path, f"tricks[{i}]", 0) for i, t in enumerate(tricks.split(","))),
        points=tuple(_row_int(p, path, f"points[{i}]") for i, p in enumerate(points.split(","))),
    )
    canonical = _deal_result_row(result)
    if canonical != text:
        raise _fail(path, f"expected the row in canonical form, {_show(canonical)}")
    return result


def _row_int(
    text: str, path: str, field: str, low: int | None = None, high: int | None = None
) -> int:
    """A whole number in a row (its canonical form is checked with the whole row)."""
    try:
        value = int(text) if len(text) <= 20 else None
    except ValueError:
        value = None
    if value is None:
        raise _fail(path, f"{field}: expected a whole number, got {_show(text)}")
    return _int(value, f"{path} ({field})", low, high)


def _contract_from_token(token: str, path: str) -> Contract | None:
    """A contract in a row: ``-`` or tricks, ``B`` (board), ``xK`` (multiplier), ``@S`` (declarer)."""
    if token == "-":
        return None
    match = _CONTRACT_TOKEN.fullmatch(token)
    if match is None:
        raise _fail(path, f"expected a contract like 5, 13B, 7x2@1 or -, got {_show(token)}")
    tricks, board, multiplier, declarer = match.groups()
    return Contract(
        tricks=_row_int(tricks, path, "tricks", 0),
        board=board == "B",
        multiplier=1 if multiplier is None else _row_int(multiplier, path, "multiplier", 1),
        declarer=None if declarer is None else _row_int(declarer, path, "declarer", 0, 15),
    )


def _trick_to_data(raw: tuple[int, tuple[int, ...], int]) -> dict[str, Any]:
    lead, cards, winner = raw
    return {"leader": lead, "cards": [CARD_TEXT[c] for c in cards], "winner": winner}


def check_results(
    rules: RuleSet,
    results: tuple[Any, ...],
    scores: tuple[int, ...] | None,
    path: str,
    key: str,
    *,
    first_dealer: int | None = None,
    dealer: int | None = None,
    throw_ins: int | None = None,
) -> None:
    """Refuse deal results that the rules could not have produced.

    Each result is re-derived through the rule set's own decisions, as far
    as the recorded facts allow:

    - numbered in order, with the schedule's hand size, one entry per side,
      tricks that add up to the hand size, a call from every seat;
    - the calls, in bidding order from the bidding part's first bidder, each
      legal after the ones before; the contracts and declarer are the bidding
      part's outcome of them, and the deal was not thrown in;
    - the turn-up present exactly when the trump part turns one up, the
      trump the trump part's (from the turn-up, or one the declarer may name);
    - the points the scoring part gives for the contracts and tricks; a
      bonus that depends on the cards dealt (which a result does not hold,
      such as a rainbow) is only checked to be one the scoring part gives to
      some choice of seats;
    - each dealer the dealer part's choice after the deal before (from
      ``first_dealer`` for the first), allowing thrown-in deals redealt as
      the bidding part says; ``dealer`` (the deal in progress) likewise after
      the last result; with ``throw_ins`` (the number of thrown-in deals, when
      the document knows it) the redeals needed must not exceed it;
    - the sum of the points is ``scores`` (when given).
    """
    sides = len(rules.teams)
    if scores is not None and len(scores) != sides:
        raise _fail(f"{path}.scores", f"expected {sides} scores, got {len(scores)}")
    expected_dealer, redeals, totals = _checked_all(rules, results, path, key, first_dealer)
    if dealer is not None and expected_dealer is not None and results:
        steps = _redeals(rules, expected_dealer, dealer)
        if steps is None:
            raise _fail(
                f"{path}.dealer" if key == "deal_results" else path,
                f"seat {dealer} cannot deal deal {len(results) + 1}: the dealer part names seat "
                f"{expected_dealer} (or its redealer after a thrown-in deal)",
            )
        redeals += steps
    if throw_ins is not None and redeals > throw_ins:
        raise _fail(
            f"{path}.deal_number",
            f"the dealers need {redeals} thrown-in deals, but the deal number allows {throw_ins}",
        )
    if scores is not None and tuple(totals) != tuple(scores):
        raise _fail(
            f"{path}.scores",
            f"the scores {list(scores)} are not the sum of the deal results {totals}",
        )


_CHECKED_ALL: dict[tuple[Any, ...], tuple[Any, ...]] = {}
"""Lists of results already checked in order: by (rule set, first dealer, each
result), by identity (the entry holds them, so no identity is reused)."""
_CHECKED_ALL_LIMIT = 1024


def _checked_all(
    rules: RuleSet, results: tuple[Any, ...], path: str, key: str, first_dealer: int | None
) -> tuple[int | None, int, list[int]]:
    """Check ``results`` one by one and as a sequence of dealers: the dealer
    the last one hands on to, the redeals the dealers need, the points summed."""
    cache_key = (id(rules), first_dealer, *map(id, results))
    hit = _CHECKED_ALL.get(cache_key)
    if hit is not None:  # the entry holds the rule set and results: the ids are theirs
        return hit[2], hit[3], list(hit[4])
    totals = [0] * len(rules.teams)
    expected_dealer = first_dealer
    redeals = 0
    for i, r in enumerate(results):
        where = f"{path}.{key}[{i}]"
        next_dealer = _checked(rules, i, r, where)
        if expected_dealer is not None:
            steps = _redeals(rules, expected_dealer, r.dealer)
            if steps is None:
                raise _fail(
                    f"{where}.dealer",
                    f"seat {r.dealer} cannot deal deal {i + 1}: the dealer part names seat "
                    f"{expected_dealer} (or its redealer after a thrown-in deal)",
                )
            redeals += steps
        expected_dealer = next_dealer
        totals = [a + b for a, b in zip(totals, r.points)]
    if len(_CHECKED_ALL) >= _CHECKED_ALL_LIMIT:
        _CHECKED_ALL.clear()
    _CHECKED_ALL[cache_key] = (rules, results, expected_dealer, redeals, tuple(totals))
    return expected_dealer, redeals, totals


def _redeals(rules: RuleSet, start: int, target: int) -> int | None:
    """How many thrown-in deals take the deal from ``start`` to ``target`` (``None``: never)."""
    seat = start
    for k in range(rules.players):
        if seat == target:
            return k
        seat = rules.bidding.redealer(seat, rules.players)
    return None


_CHECKED: dict[tuple[int, int, int], tuple[Any, Any, int]] = {}
"""Results already checked: (rule set, result, the next deal's dealer), by identity."""
_CHECKED_LIMIT = 8192


def _checked(rules: RuleSet, i: int, r: Any, where: str) -> int:
    """Check deal result ``r`` (the ``i``-th) on its own; the next deal's dealer."""
    key = (id(rules), id(r), i)
    hit = _CHECKED.get(key)
    if hit is not None and hit[0] is rules and hit[1] is r:
        return hit[2]
    next_dealer = _check_result(rules, i, r, where)
    if len(_CHECKED) >= _CHECKED_LIMIT:
        _CHECKED.clear()
    _CHECKED[key] = (rules, r, next_dealer)
    return next_dealer


def _check_result(rules: RuleSet, i: int, r: Any, where: str) -> int:
    n = rules.players
    sides = len(rules.teams)
    schedule = rules.schedule.hand_sizes
    if r.number != i + 1 or i >= len(schedule) or r.hand_size != schedule[i]:
        raise _fail(where, "the deal number or hand size does not fit the schedule")
    for name in ("points", "tricks", "contracts"):
        if len(getattr(r, name)) != sides:
            raise _fail(f"{where}.{name}", f"expected {name} for {sides} sides")
    if len(r.bids) != n or not 0 <= r.dealer < n:
        raise _fail(f"{where}.bids", f"expected a dealer and the bids of {n} seats")
    if r.declarer is not None and not 0 <= r.declarer < n:
        raise _fail(f"{where}.declarer", f"seat {r.declarer} does not exist")
    if sum(r.tricks) != r.hand_size:
        raise _fail(f"{where}.tricks", "the tricks do not add up to the hand size")
    plan = rules.plan
    trump_part = rules.trump
    ctx = plan.deal_context(i, r.dealer, r.hand_size)
    # the opening: the turn-up and the trump it makes
    turn_up = None if r.turn_up is None else r.turn_up.index
    if trump_part.turns_up() != (turn_up is not None):
        why = "these rules turn up a card" if turn_up is None else "these rules turn up no card"
        raise _fail(f"{where}.turn_up", why)
    if turn_up is not None and not plan.deck_mask >> turn_up & 1:
        raise _fail(f"{where}.turn_up", f"{r.turn_up} is not in this rule set's deck")
    ctx = ctx._replace(trump=trump_part.trump_for(ctx, turn_up))
    # the calls, in bidding order, through the bidding part
    calls: list[Any] = []
    spoke: set[int] = set()
    while len(calls) <= n:
        bctx = plan.bidding_context(ctx, tuple(calls))
        seat = rules.bidding.speaker(bctx)
        if seat is None:
            break
        call = r.bids[seat]
        if call is None or seat in spoke:
            raise _fail(f"{where}.bids[{seat}]", f"seat {seat} made no call")
        if call not in plan.legal_calls(bctx):
            why = rules.bidding.explain(bctx, call)[1]
            raise _fail(f"{where}.bids[{seat}]", f"seat {seat} could not call {call}: {why}")
        calls.append(call)
        spoke.add(seat)
    for seat in range(n):
        if seat not in spoke and r.bids[seat] is not None:
            raise _fail(f"{where}.bids[{seat}]", f"seat {seat} does not speak in this bidding")
    outcome = rules.bidding.outcome(plan.bidding_context(ctx, tuple(calls)))
    if outcome.thrown_in:
        raise _fail(f"{where}.bids", "these calls throw the deal in: it would not be scored")
    if tuple(outcome.contracts) != tuple(r.contracts):
        raise _fail(f"{where}.contracts", "the contracts are not what the calls make")
    if outcome.declarer != r.declarer:
        raise _fail(f"{where}.declarer", "the declarer is not the one the calls make")
    ctx = ctx._replace(outcome=outcome)
    # the trump: named by the declarer, or as the opening made it
    choices = trump_part.choices(ctx)
    if choices:
        if r.trump not in choices:
            named = ", ".join(str(c or "no trump") for c in choices)
            raise _fail(f"{where}.trump", f"the declarer may name only {named}")
        ctx = ctx._replace(trump=NO_TRUMP if r.trump is None else r.trump.index)
    elif (NO_TRUMP if r.trump is None else r.trump.index) != ctx.trump:
        raise _fail(f"{where}.trump", "the trump does not follow from the rules and the turn-up")
    # the points, through the scoring part
    if not _scored(rules, ctx, r.tricks, r.points):
        raise _fail(f"{where}.points", "the points are not what the scoring part gives")
    return rules.dealer.dealer_after(ctx, r.points)


def _scored(rules: RuleSet, ctx: Any, tricks: tuple[int, ...], points: tuple[int, ...]) -> bool:
    """Whether ``points`` are what the scoring part gives for these tricks, for
    some dealt hands: exactly, when no seat is dealt anything that scores;
    else with each seat dealt either nothing or every card (the cards a
    result does not record), which gives every bonus for the cards held."""
    score = rules.scoring.score
    n = rules.players
    if tuple(score(ctx, tricks, (0,) * n)) == tuple(points):
        return True
    full = rules.plan.deck_mask
    if n > 10:  # pragma: no cover - 2**n hands to try; no rule set has so many seats
        return False
    for combo in range(1, 1 << n):
        dealt = tuple(full if combo >> s & 1 else 0 for s in range(n))
        if tuple(score(ctx, tricks, dealt)) == tuple(points):
            return True
    return False
