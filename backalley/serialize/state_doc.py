"""Full-information game states as plain data: the rules, the match so far,
and the current deal as dealt plus its moves; loading replays the moves
through the rules."""

from __future__ import annotations

import json
from json.encoder import encode_basestring
from typing import Any

from backalley.cards import CARDS, Card
from backalley.chance import check_seed
from backalley.errors import IllegalMoveError
from backalley.lowlevel import playout
from backalley.memo import IdentityMemo
from backalley.moves import NameTrump
from backalley.rules.ruleset import RuleSet
from backalley.serialize.common import (
    _INDEX_OF_TEXT,
    _MOVE_OF_TEXT,
    _PHASES,
    _QUOTED_CARD,
    CACHE_KEY_LIMIT,
    CARD_TEXT,
    FORMAT_VERSION,
    MAX_NUMBER,
    Pending,
    _card_indices,
    _card_or_none,
    _fail,
    _fast_card_bits,
    _fast_cards,
    _index_bits,
    _int,
    _list,
    _move,
    _object,
    _phase,
    _quoted_cards,
    _remember,
    _seed,
    _texts,
)
from backalley.serialize.results_doc import (
    _quoted_row,
    check_results,
    deal_result_to_row,
    results_from_data,
)
from backalley.serialize.rules_doc import _rules_data, rules_from_data, rules_text
from backalley.state import GameState, Match, open_deal
from backalley.values import Phase


def state_to_data(state: GameState) -> dict[str, Any]:
    """A full-information state: the rules, the match so far, and the current
    deal as dealt plus its moves (everything else is derived on loading)."""
    core = state._core
    match, deal = core.match, core.deal
    moves = _move_texts(state, core)
    return {
        "rules": _rules_data(state.rules),
        "seed": match.seed,
        "first_dealer": match.first_dealer,
        "decks": [[CARD_TEXT[i] for i in order] for order in match.decks],
        "deal_number": match.deal_number,
        "scores": list(match.scores),
        "deal_results": [deal_result_to_row(r) for r in match.results],
        "phase": state.phase.value,
        "deal": {
            "dealer": state.dealer,
            "hand_size": state.hand_size,
            "hands": [_texts(h) for h in deal.dealt_bits],
            "stock": [CARD_TEXT[i] for i in deal.stock_order],
            "turn_up": None if deal.turn_up_index is None else CARD_TEXT[deal.turn_up_index],
            "discards": _texts(deal.discard_bits),
            "moves": moves,
        },
    }


def _move_texts(state: GameState, core: Any) -> list[str]:
    """This deal's moves in order, as text: the calls, the trump named, the cards played."""
    deal = core.deal
    moves: list[str] = [str(c) for c in deal.calls]
    if core.rules.trump.choices(deal.ctx) and core.phase in (Phase.PLAYING, Phase.GAME_OVER):
        moves.append(str(NameTrump(state.trump)))
    for _lead, cards, _win in core.history:
        moves.extend("play " + CARD_TEXT[c] for c in cards)
    moves.extend("play " + CARD_TEXT[c] for c in core.trick_cards)
    return moves


STATE_PREFIX = f'{{"format": "backalley/state", "version": {FORMAT_VERSION}, "rules": '
"""How the compact JSON text of every state document begins (its rules follow)."""


def state_to_text(state: GameState) -> str:
    """The compact JSON text of :func:`state_to_data`'s document, with its
    ``format`` and ``version``: the same text ``json.dumps`` writes for it,
    put together from the parts' texts (each card's, each result row's,
    the rule set's are made once)."""
    core = state._core
    match, deal = core.match, core.deal
    turn_up = deal.turn_up_index
    decks = ", ".join("[" + _order_text(d) + "]" for d in match.decks)
    return "".join(
        (
            STATE_PREFIX,
            rules_text(state.rules),
            f', "seed": {int(match.seed)}, "first_dealer": {int(match.first_dealer)}',
            f', "decks": [{decks}], "deal_number": {int(match.deal_number)}, "scores": [',
            ", ".join(str(int(s)) for s in match.scores),
            '], "deal_results": [',
            _results_text(match.results),
            '], "phase": ',
            encode_basestring(state.phase.value),
            f', "deal": {{"dealer": {int(state.dealer)}, "hand_size": {int(state.hand_size)}',
            ', "hands": [',
            _dealt_text(deal.dealt_bits),
            '], "stock": [',
            _stock_text(deal.stock_order),
            '], "turn_up": ',
            "null" if turn_up is None else _QUOTED_CARD[turn_up],
            ', "discards": ',
            _quoted_cards(deal.discard_bits),
            ', "moves": [',
            ", ".join(map(encode_basestring, _move_texts(state, core))),
            "]}}",
        )
    )


def _rows_text(results: tuple[Any, ...]) -> str:
    return ", ".join(map(_quoted_row, results))


def _hands_text(hands: tuple[int, ...]) -> str:
    return ", ".join(map(_quoted_cards, hands))


def _order_text(order: tuple[int, ...]) -> str:
    return ", ".join(map(_QUOTED_CARD.__getitem__, order))


# the texts of the parts every state of a deal shares, made once per part
_results_text: IdentityMemo[tuple[Any, ...], str] = IdentityMemo(_rows_text, 512)
_dealt_text: IdentityMemo[tuple[int, ...], str] = IdentityMemo(_hands_text, 256)
_stock_text: IdentityMemo[tuple[int, ...], str] = IdentityMemo(_order_text, 256)


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


_STATE_KEY_SET = frozenset(_STATE_KEYS)
_STATE_REQUIRED = frozenset(k for k, required in _STATE_KEYS.items() if required and k != "rules")
"""The keys a state document needs besides its rules."""
_DEAL_KEY_SET = frozenset(_DEAL_KEYS)
_DEAL_REQUIRED = frozenset(k for k, required in _DEAL_KEYS.items() if required)


def state_from_data(value: Any, path: str = "$") -> GameState:
    """A state from its document (without ``format`` and ``version``).

    A well-formed document takes a fast path (:func:`_state_fast`); anything
    it does not accept is read by :func:`_state_checked`, which gives each
    refusal its reason and path."""
    if type(value) is dict and "rules" in value:
        pending: Pending = []
        try:
            rules = rules_from_data(value["rules"], "$", allow_base=False, pending=pending)
            state = _state_fast(value, rules, pending)
        except Exception:  # the checked reading below names the problem
            state = None
        if state is not None:
            _remember(pending)
            return state
    return _state_checked(value, path)


_RULES_BY_TEXT: dict[int, dict[str, RuleSet]] = {}
"""Rule sets by their exact JSON text in state documents that loaded, by the
text's length (a document's rules are found by slicing its text)."""
_RULES_BY_TEXT_LIMIT = 64


def state_from_text(text: str) -> GameState | None:
    """The state of a compact state document whose rule set's text is one
    already seen in a state document that loaded, without parsing that text
    again; ``None`` when the text does not take this path (the caller then
    reads the whole document).

    ``text`` is ``STATE_PREFIX``, a known rule set's text ``R``, then ``, "``:
    a JSON reader reads ``R`` as one value whatever follows, so the document
    is ``R``'s rule set plus the object read from ``{`` and the rest of the
    text (unless that has a ``format``, ``version`` or ``rules`` key again).
    """
    if not text.startswith(STATE_PREFIX):
        return None
    start = len(STATE_PREFIX)
    for length, table in _RULES_BY_TEXT.items():
        end = start + length
        rules = table.get(text[start:end])
        if rules is not None and text.startswith(', "', end):
            break
    else:
        return None
    try:
        rest = json.loads("{" + text[end + 1 :])
    except (ValueError, RecursionError):
        return None
    if "format" in rest or "version" in rest or "rules" in rest:
        return None
    pending: Pending = []
    try:
        state = _state_fast(rest, rules, pending)
    except Exception:  # the whole document is read again, and refused with a reason
        return None
    if state is not None:
        _remember(pending)
    return state


def remember_rules_text(text: str, rules: RuleSet) -> None:
    """After a state document ``text`` has loaded with ``rules``: keep the rule
    set's text for :func:`state_from_text` when the document has it as written
    by this library (and the text reads as this very rule set)."""
    known = rules_text(rules)
    start = len(STATE_PREFIX)
    if not (text.startswith(STATE_PREFIX) and text.startswith(known, start)):
        return
    if not text.startswith(', "', start + len(known)) or len(known) > 4 * CACHE_KEY_LIMIT:
        return
    if _RULES_BY_TEXT.get(len(known), {}).get(known) is rules:
        return
    if rules_from_data(json.loads(known), allow_base=False) is not rules:
        return  # pragma: no cover - a rule set read from its own text is the cached one
    if sum(map(len, _RULES_BY_TEXT.values())) >= _RULES_BY_TEXT_LIMIT:
        _RULES_BY_TEXT.clear()
    _RULES_BY_TEXT.setdefault(len(known), {})[known] = rules


def _state_fast(obj: Any, rules: RuleSet, pending: Pending) -> GameState | None:
    """The state of a well-formed document ``obj`` read with ``rules``: the
    checks of :func:`_state_checked`, in bulk and without building paths;
    ``None`` (or an exception) for anything else, which is then read by
    :func:`_state_checked` for its reason.  It accepts only documents that
    :func:`_state_checked` accepts, and gives the same state."""
    if not (obj.keys() <= _STATE_KEY_SET and obj.keys() >= _STATE_REQUIRED):
        return None
    players = rules.players
    plan = rules.plan
    full = plan.deck_mask
    seed = obj["seed"]
    first_dealer = obj["first_dealer"]
    deal_number = obj["deal_number"]
    if (
        type(seed) is not int
        or check_seed(seed) is not None
        or type(first_dealer) is not int
        or not 0 <= first_dealer < players
    ):
        return None
    decks_data = obj.get("decks", [])
    if type(decks_data) is not list:
        return None
    decks = []
    for order in decks_data:
        got = _fast_cards(order)
        if got is None or got[1] != full or len(got[0]) != rules.deck.size:
            return None
        decks.append(got[0])
    if type(deal_number) is not int or not 1 <= deal_number <= MAX_NUMBER:
        return None
    results = results_from_data(obj["deal_results"], "$.deal_results", pending)
    phase_text = obj["phase"]
    phase = _PHASES.get(phase_text) if type(phase_text) is str else None
    if phase is None:
        return None
    schedule = rules.schedule.hand_sizes
    over = phase is Phase.GAME_OVER
    if len(results) > len(schedule) or over != (len(results) == len(schedule)):
        return None
    earlier = results[:-1] if over else results
    scores_data = obj["scores"]
    if type(scores_data) is not list:
        return None
    for s in scores_data:
        if type(s) is not int or not -MAX_NUMBER <= s <= MAX_NUMBER:
            return None
    scores = tuple(scores_data)
    deal = obj["deal"]
    if type(deal) is not dict or not (
        deal.keys() <= _DEAL_KEY_SET and deal.keys() >= _DEAL_REQUIRED
    ):
        return None
    dealer = deal["dealer"]
    hand_size = deal["hand_size"]
    if type(dealer) is not int or not 0 <= dealer < players:
        return None
    throw_ins = deal_number - len(results) - (0 if over else 1)
    if throw_ins < 0:
        return None
    check_results(
        rules,
        results,
        scores,
        "$",
        "deal_results",
        first_dealer=first_dealer,
        dealer=None if over else dealer,
        throw_ins=throw_ins,
    )
    if over and dealer != results[-1].dealer:
        return None
    if type(hand_size) is not int or hand_size != schedule[len(earlier)]:
        return None
    hands_data = deal["hands"]
    if type(hands_data) is not list or len(hands_data) != players:
        return None
    seen = 0
    hands = []
    for hand in hands_data:
        bits = _fast_card_bits(hand)
        if bits is None or len(hand) != hand_size or bits & ~full or bits & seen:
            return None
        hands.append(bits)
        seen |= bits
    got = _fast_cards(deal["stock"])
    if got is None or got[1] & ~full or got[1] & seen:
        return None
    stock = got[0]
    seen |= got[1]
    turn_up_text = deal.get("turn_up")
    turn_up = None
    if turn_up_text is not None:
        turn_up = _INDEX_OF_TEXT.get(turn_up_text) if type(turn_up_text) is str else None
        if turn_up is None or (1 << turn_up) & (~full | seen):
            return None
        seen |= 1 << turn_up
    discards = _fast_card_bits(deal.get("discards", []))
    if discards is None or discards & ~full or discards & seen:
        return None
    if seen | discards != full:
        return None
    ctx = plan.deal_context(len(earlier), dealer, hand_size)
    trump = _opening_trump(rules, ctx, None if turn_up is None else CARDS[turn_up], "$")
    match = Match(
        seed,
        first_dealer,
        tuple(decks),
        deal_number,
        tuple(s - p for s, p in zip(scores, results[-1].points)) if over else scores,
        earlier,
    )
    state = open_deal(rules, match, ctx, tuple(hands), stock, turn_up, discards, trump)
    moves = deal["moves"]
    if type(moves) is not list:
        return None
    parsed = []
    for text in moves:
        move = _MOVE_OF_TEXT.get(text) if type(text) is str else None
        parsed.append(_move(text, "$") if move is None else move)
    if len(parsed) > players * (hand_size + 8 * (hand_size + 2)):
        return None  # more moves than a deal's plays and any bidding: read them one by one
    if parsed:
        # the moves, each checked as ``apply`` checks it, without a state per
        # move; a move after the deal's end, or one that throws the deal in,
        # leaves another deal than the document's (refused below)
        remaining = iter(parsed)
        feed = remaining.__next__
        state = playout(state, lambda _legal: feed(), until="deal", decisions=len(parsed))
        if next(remaining, None) is not None:
            return None  # moves after the end of the deal
    core = state._core
    if (
        core.match.deal_number != deal_number
        or core.deal.dealt_bits != tuple(hands)
        or core.phase is not phase
        or state.deal_results != results
    ):
        return None
    return state


def _state_checked(value: Any, path: str) -> GameState:
    """A state from its document, each check in turn, refusing the first
    problem with its reason and path."""
    obj = _object(value, path, _STATE_KEYS, "a game state")
    pending: Pending = []
    rules = rules_from_data(obj["rules"], f"{path}.rules", allow_base=False, pending=pending)
    players = rules.players
    full = rules.plan.deck_mask
    seed = _seed(obj["seed"], f"{path}.seed")
    first_dealer = _int(obj["first_dealer"], f"{path}.first_dealer", 0, players - 1)
    decks = []
    for k, order in enumerate(_list(obj.get("decks", []), f"{path}.decks")):
        where = f"{path}.decks[{k}]"
        indices = _card_indices(order, where)
        if _index_bits(indices, where) != full or len(indices) != rules.deck.size:
            raise _fail(where, "a deck order must hold exactly the rule set's deck")
        decks.append(indices)
    deal_number = _int(obj["deal_number"], f"{path}.deal_number", 1)
    results = results_from_data(obj["deal_results"], f"{path}.deal_results", pending)
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
    deal = _object(obj["deal"], f"{path}.deal", _DEAL_KEYS, "a deal")
    dpath = f"{path}.deal"
    dealer = _int(deal["dealer"], f"{dpath}.dealer", 0, players - 1)
    # deals dealt: the scored ones, the one in progress, and any thrown in
    throw_ins = deal_number - len(results) - (0 if over else 1)
    if throw_ins < 0:
        raise _fail(
            f"{path}.deal_number",
            f"deal number {deal_number}, but {len(earlier) + 1} deals have been dealt",
        )
    check_results(
        rules,
        results,
        scores,
        path,
        "deal_results",
        first_dealer=first_dealer,
        dealer=None if over else dealer,
        throw_ins=throw_ins,
    )
    if over and dealer != results[-1].dealer:
        raise _fail(f"{dpath}.dealer", "the last deal's dealer is not its result's dealer")
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
        indices = _card_indices(hand, where)
        if len(indices) != hand_size:
            raise _fail(
                where, f"a hand of this deal has {hand_size} cards, this one {len(indices)}"
            )
        bits = _index_bits(indices, where)
        hands.append(bits)
        seen = _disjoint(seen, bits, full, where)
    stock = _card_indices(deal["stock"], f"{dpath}.stock")
    seen = _disjoint(seen, _index_bits(stock, f"{dpath}.stock"), full, f"{dpath}.stock")
    turn_up = _card_or_none(deal.get("turn_up"), f"{dpath}.turn_up")
    if turn_up is not None:
        seen = _disjoint(seen, 1 << turn_up.index, full, f"{dpath}.turn_up")
    discards = _index_bits(
        _card_indices(deal.get("discards", []), f"{dpath}.discards"), f"{dpath}.discards"
    )
    seen = _disjoint(seen, discards, full, f"{dpath}.discards")
    if seen != full:
        missing = " ".join(_texts(full & ~seen))
        raise _fail(dpath, f"the hands, stock, turn-up and discards miss {missing} of the deck")
    ctx = rules.plan.deal_context(len(earlier), dealer, hand_size)
    trump = _opening_trump(rules, ctx, turn_up, f"{dpath}.turn_up")
    match = Match(
        seed,
        first_dealer,
        tuple(decks),
        deal_number,
        # the points of the deals before this one (``check_results`` proved the sum)
        tuple(s - p for s, p in zip(scores, results[-1].points)) if over else scores,
        earlier,
    )
    state = open_deal(
        rules,
        match,
        ctx,
        tuple(hands),
        stock,
        None if turn_up is None else turn_up.index,
        discards,
        trump,
    )
    for i, text in enumerate(_list(deal["moves"], f"{dpath}.moves")):
        move = _move(text, f"{dpath}.moves[{i}]")
        if (
            state.is_over
            or state.deals_played != len(earlier)
            or state._core.match.deal_number != deal_number
        ):
            raise _fail(f"{dpath}.moves[{i}]", "moves go on past the end of this deal")
        try:
            state = state.apply(move)
        except IllegalMoveError as exc:
            raise _fail(f"{dpath}.moves[{i}]", f"illegal move {move}: {exc}") from None
    if state._core.match.deal_number != deal_number or state._core.deal.dealt_bits != tuple(hands):
        raise _fail(f"{dpath}.moves", "the moves end this deal, so the state would be another deal")
    if state.phase is not phase:
        raise _fail(
            f"{path}.phase", f"the moves lead to phase {state.phase.value!r}, not {phase.value!r}"
        )
    if state.deal_results != results:
        raise _fail(f"{path}.deal_results", "the deal results do not match what the moves produce")
    _remember(pending)
    return state


def _disjoint(seen: int, bits: int, full: int, path: str) -> int:
    if bits & ~full:
        raise _fail(path, f"{' '.join(_texts(bits & ~full))} not in this rule set's deck")
    if seen & bits:
        raise _fail(path, f"{' '.join(_texts(seen & bits))} already appears elsewhere in the deal")
    return seen | bits


def _opening_trump(rules: RuleSet, ctx: Any, turn_up: Card | None, path: str) -> int:
    """The trump at the start of a deal, from the trump part and the turn-up."""
    trump = rules.trump
    if trump.turns_up() and turn_up is None:
        raise _fail(path, "these rules turn up a card, but the deal has no turn-up")
    if not trump.turns_up() and turn_up is not None:
        raise _fail(path, "these rules turn up no card")
    return trump.trump_for(ctx, None if turn_up is None else turn_up.index)
