"""Full-information game states as plain data: the rules, the match so far,
and the current deal as dealt plus its moves; loading replays the moves
through the rules."""

from __future__ import annotations

from typing import Any

from backalley.cards import Card
from backalley.errors import IllegalMoveError
from backalley.moves import NameTrump
from backalley.rules.ruleset import RuleSet
from backalley.serialize.common import (
    CARD_TEXT,
    Pending,
    _card_indices,
    _card_or_none,
    _fail,
    _index_bits,
    _int,
    _list,
    _move,
    _object,
    _phase,
    _remember,
    _seed,
    _texts,
)
from backalley.serialize.results_doc import (
    check_results,
    deal_result_to_row,
    results_from_data,
)
from backalley.serialize.rules_doc import _rules_data, rules_from_data
from backalley.state import GameState, Match, open_deal
from backalley.values import Phase


def state_to_data(state: GameState) -> dict[str, Any]:
    """A full-information state: the rules, the match so far, and the current
    deal as dealt plus its moves (everything else is derived on loading)."""
    core = state._core
    match, deal = core.match, core.deal
    moves: list[str] = [str(c) for c in deal.calls]
    if core.rules.trump.choices(deal.ctx) and core.phase in (Phase.PLAYING, Phase.GAME_OVER):
        moves.append(str(NameTrump(state.trump)))
    for _lead, cards, _win in core.history:
        moves.extend("play " + CARD_TEXT[c] for c in cards)
    moves.extend("play " + CARD_TEXT[c] for c in core.trick_cards)
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


def state_from_data(value: Any, path: str = "$") -> GameState:
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
