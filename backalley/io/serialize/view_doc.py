"""Player views as documents: what one seat may know, and what it may do.

A view document holds the seat's own hand and the public facts of the game
(calls in order and per seat, contracts per side, trump and turn-up, whether
trump is broken, the tricks played and who won them, tricks per seat and per
side, the counts of every hand, scores, the results of past deals, whose
turn, the winner once the game is over) - and, as answers a user interface
can show without knowing the rules, the seat's legal moves and, for each card
of its hand and for each call the bidding knows, whether it may be made now
and if not the rule that refuses it (a :class:`~backalley.Reason` name) and
why::

    "legal_moves": ["play 2H", "play 9H"],
    "cards": [{"card": "2H", "playable": true, "reason": null, "message": null},
              {"card": "QS", "playable": false, "reason": "MUST_FOLLOW_SUIT",
               "message": "you hold a heart, so you must follow hearts"}, ...],
    "call_answers": [{"call": "bid 3", "legal": false, "reason": "BID_MAKES_TOTAL",
                      "message": "the bids may not add up to the hand size (5); ..."}, ...]

Every answer is the engine's: the facts are the view's own properties, the
calls are :meth:`~backalley.PlayerView.known_calls` (the bidding part's), and
each answer is :meth:`~backalley.PlayerView.check` - no rule is restated here.

Loading checks the document's form and counts first, then rebuilds the
current deal through the rules' own decisions in the engine
(:func:`~backalley.engine.view_replay.replay_view`: the bidding outcome, the
first leader, the trick winners, trump broken, the seat's own plays) and refuses a
view that contradicts itself; the results of past deals are public facts,
checked for their form only.  The facts worked out from the rest (see
:data:`OUTPUT_KEYS`), the legal moves and the answers are outputs: when a
document has them, they must be what the loaded view answers (documents
written before they existed load without them).
"""

from __future__ import annotations

from typing import Any

from backalley.engine.view_replay import replay_view
from backalley.engine.views import PlayerView
from backalley.errors import IllegalMoveError
from backalley.io.serialize.common import (
    CARD_TEXT,
    _card_or_none,
    _cards,
    _fail,
    _int,
    _list,
    _moves,
    _object,
    _phase,
    _show,
    _suit,
    _texts,
)
from backalley.io.serialize.limits import CALL_ROUNDS
from backalley.io.serialize.results_doc import (
    check_points,
    check_results,
    contract_to_data,
    deal_result_to_data,
    results_from_data,
)
from backalley.io.serialize.rules_doc import rules_from_data, rules_to_data
from backalley.moves import PLAYS, Move
from backalley.plain import same_data
from backalley.values import Phase

__all__ = [
    "OUTPUT_KEYS",
    "call_answers",
    "card_answers",
    "view_from_data",
    "view_to_data",
]


def view_to_data(view: PlayerView) -> dict[str, Any]:
    """A view's document (without ``format`` and ``version``)."""
    return {
        "rules": rules_to_data(view.rules),
        "seat": view.seat,
        "phase": view.phase.value,
        "to_act": view.to_act,
        "dealer": view.dealer,
        "hand_size": view.hand_size,
        "hand": _texts(view._hand_bits),
        "hand_counts": list(view.hand_counts),
        "turn_up": None if view.turn_up is None else str(view.turn_up),
        "discards": _texts(view._discard_bits),
        "trump": None if view.trump is None else view.trump.value,
        "calls": [str(c) for c in view.calls],
        **public_facts(view),
        "tricks": [
            {"leader": lead, "cards": [CARD_TEXT[c] for c in cards], "winner": winner}
            for lead, cards, winner in view._history
        ],
        "trick": [CARD_TEXT[c] for c in view._trick_cards],
        "leader": view.leader,
        "scores": list(view.scores),
        "deal_results": [deal_result_to_data(r) for r in view.deal_results],
        "legal_moves": [str(m) for m in view.legal_moves()],
        "cards": card_answers(view),
        "call_answers": call_answers(view),
    }


def public_facts(view: PlayerView) -> dict[str, Any]:
    """The facts a view document states beside its history, each the view's
    own property: ``bids`` (the calls per seat, ``null`` before a seat
    speaks), ``declarer``, ``contracts`` (per side once the bidding is over,
    else ``null``), ``trump_known``, ``trump_broken``, ``tricks_won`` (per
    seat) and ``side_tricks`` (per side) this deal, ``side_seats`` (the seats
    of each side, in the order of the scores), ``deals_played``, ``deals``
    (of the whole game) and ``winner`` (the winning side, or seat in a
    cutthroat game, once the game is over; ``null`` for a draw or before)."""
    contracts = view.contracts
    return {
        "bids": [None if b is None else str(b) for b in view.bids],
        "declarer": view.declarer,
        "contracts": None if contracts is None else [contract_to_data(c) for c in contracts],
        "trump_known": view.trump_known,
        "trump_broken": view.trump_broken,
        "tricks_won": list(view.tricks_won),
        "side_tricks": list(view.side_tricks),
        "side_seats": [list(seats) for seats in view.rules.teams],
        "deals_played": view.deals_played,
        "deals": view.rules.schedule.deals,
        "winner": view.winner,
    }


OUTPUT_KEYS = (
    "bids",
    "declarer",
    "contracts",
    "trump_known",
    "trump_broken",
    "tricks_won",
    "side_tricks",
    "side_seats",
    "deals_played",
    "deals",
    "winner",
)
"""The keys of :func:`public_facts`: worked out from the rest of the document,
so optional when read, and checked against the loaded view when given."""


def _answer(view: PlayerView, move: Move) -> tuple[str, str] | None:
    """The view's own answer to ``move``: ``None`` when its seat may make it
    now, else the :class:`~backalley.Reason` name and the sentence."""
    try:
        view.check(move)
    except IllegalMoveError as exc:
        return exc.reason.name, str(exc)
    return None


def call_answers(view: PlayerView) -> list[dict[str, Any]]:
    """For each call the bidding knows at this point
    (:meth:`~backalley.PlayerView.known_calls`, in the bidding part's order;
    none outside the bidding): whether the seat may call it now, and if not
    the :class:`~backalley.Reason` (its name) and the sentence of the refusal
    - the view's own :meth:`~backalley.PlayerView.check`."""
    out: list[dict[str, Any]] = []
    for call in view.known_calls():
        why = _answer(view, call)
        out.append(
            {
                "call": str(call),
                "legal": why is None,
                "reason": None if why is None else why[0],
                "message": None if why is None else why[1],
            }
        )
    return out


def card_answers(view: PlayerView) -> list[dict[str, Any]]:
    """For each card of the seat's hand: whether it may be played now, and
    if not the :class:`~backalley.Reason` (its name) and the sentence of the
    refusal - the view's own :meth:`~backalley.PlayerView.check`."""
    out: list[dict[str, Any]] = []
    for card in view.hand:
        why = _answer(view, PLAYS[card.index])
        out.append(
            {
                "card": str(card),
                "playable": why is None,
                "reason": None if why is None else why[0],
                "message": None if why is None else why[1],
            }
        )
    return out


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
    "legal_moves": False,
    "cards": False,
    "call_answers": False,
    **dict.fromkeys(OUTPUT_KEYS, False),
}
_TRICK_KEYS = {"leader": True, "cards": True, "winner": True}


def view_from_data(value: Any, path: str = "$") -> PlayerView:
    """The view of a document (without ``format`` and ``version``).
    Raises :class:`~backalley.SerializationError`."""
    obj = _object(value, path, _VIEW_KEYS, "a player view")
    rules = rules_from_data(obj["rules"], f"{path}.rules", allow_base=False)
    players = rules.players
    schedule = rules.schedule.hand_sizes
    hand_size = _int(obj["hand_size"], f"{path}.hand_size", 1, max(schedule))
    deck_size = rules.deck.size
    # the sizes first, from the rules: nothing longer than a deal can hold is read
    tricks = []
    for i, t in enumerate(_list(obj["tricks"], f"{path}.tricks", most=hand_size)):
        where = f"{path}.tricks[{i}]"
        tobj = _object(t, where, _TRICK_KEYS, "a trick")
        cards = _cards(tobj["cards"], f"{where}.cards", most=players)
        tricks.append(
            (
                _int(tobj["leader"], f"{where}.leader", 0, players - 1),
                tuple(c.index for c in cards),
                _int(tobj["winner"], f"{where}.winner", 0, players - 1),
            )
        )
    counts = tuple(
        _int(c, f"{path}.hand_counts[{i}]", 0, hand_size)
        for i, c in enumerate(_list(obj["hand_counts"], f"{path}.hand_counts", most=players))
    )
    results = results_from_data(obj["deal_results"], f"{path}.deal_results", most=len(schedule))
    to_act = obj["to_act"]
    # every field read, in the document's order, before any fact is checked
    seat = _int(obj["seat"], f"{path}.seat", 0, players - 1)
    phase = _phase(obj["phase"], f"{path}.phase")
    acting = None if to_act is None else _int(to_act, f"{path}.to_act", 0, players - 1)
    dealer = _int(obj["dealer"], f"{path}.dealer", 0, players - 1)
    hand = _cards(obj["hand"], f"{path}.hand", most=hand_size)
    turn_up = _card_or_none(obj.get("turn_up"), f"{path}.turn_up")
    discards = _cards(obj.get("discards", []), f"{path}.discards", most=deck_size)
    trump = _suit(obj.get("trump"), f"{path}.trump")
    calls = _moves(obj["calls"], f"{path}.calls", most=players * CALL_ROUNDS * (hand_size + 2))
    trick = tuple(c.index for c in _cards(obj["trick"], f"{path}.trick", most=players - 1))
    leader = _int(obj["leader"], f"{path}.leader", 0, players - 1)
    scores = tuple(
        _int(s, f"{path}.scores[{i}]")
        for i, s in enumerate(_list(obj["scores"], f"{path}.scores", most=players))
    )
    # the game's place: the phase, the deal's size and the past deals' results
    over = phase is Phase.GAME_OVER
    if len(results) > len(schedule) or over != (len(results) == len(schedule)):
        raise _fail(
            f"{path}.phase", f"phase {phase.value!r} does not fit {len(results)} scored deals"
        )
    current = len(results) - 1 if over else len(results)
    if hand_size != schedule[current]:
        raise _fail(
            f"{path}.hand_size",
            f"deal {current + 1} has {schedule[current]} cards, not {hand_size}",
        )
    check_results(rules, results, scores, path, "deal_results")
    check_points(rules, results, path, "deal_results")
    # the current deal, through the kernel
    view = replay_view(
        rules=rules,
        seat=seat,
        phase=phase,
        to_act=acting,
        dealer=dealer,
        hand_size=hand_size,
        hand=hand,
        hand_counts=counts,
        turn_up=turn_up,
        discards=discards,
        trump=trump,
        calls=calls,
        history=tuple(tricks),
        trick=trick,
        leader=leader,
        scores=scores,
        deal_results=results,
        path=path,
    )
    _check_answers(view, obj, path)
    return view


def _check_answers(view: PlayerView, obj: dict[str, Any], path: str) -> None:
    """The facts worked out from the rest, the legal moves and the answers of
    a document, when it has them, must be the loaded view's own."""
    facts = public_facts(view)
    for key in OUTPUT_KEYS:
        if key in obj and not same_data(obj[key], facts[key]):
            raise _fail(
                f"{path}.{key}", f"the view's {key} is {_show(facts[key])}, not {_show(obj[key])}"
            )
    if "legal_moves" in obj:
        legal = [str(m) for m in view.legal_moves()]
        given = _list(obj["legal_moves"], f"{path}.legal_moves", most=len(legal))
        if given != legal:
            raise _fail(
                f"{path}.legal_moves",
                f"the view's legal moves are {_show(legal)}, not {_show(given)}",
            )
    for key, answers, what, name in (
        ("cards", card_answers, "cards", "card"),
        ("call_answers", call_answers, "calls", "call"),
    ):
        if key not in obj:
            continue
        mine = answers(view)
        given = _list(obj[key], f"{path}.{key}", most=len(mine))
        if len(given) != len(mine):
            raise _fail(f"{path}.{key}", f"expected an answer for each of {len(mine)} {what}")
        for i, (ours, theirs) in enumerate(zip(mine, given)):
            if not same_data(theirs, ours):
                raise _fail(
                    f"{path}.{key}[{i}]",
                    f"the view answers {_show(ours)} for {ours[name]}, not {_show(theirs)}",
                )
