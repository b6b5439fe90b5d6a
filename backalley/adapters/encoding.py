"""Numbers for learning programs: one action id per call and card, and a
fixed-size observation tensor of what one seat knows.

The research adapters (:mod:`backalley.adapters.openspiel`, :mod:`backalley.adapters.backalley_v0`)
share this module, so a policy trained in one framework reads the same numbers
in the other.  Nothing here needs a framework (or numpy).

**Action ids** (:class:`Actions`, for rule sets whose hands hold up to
``max_bid`` cards; ``max_bid`` is 13 for every registered variant, which gives
76 ids):

======================  ===============================================
id                      move
======================  ===============================================
``0 .. 53``             ``play`` the card of that index: ``2C`` .. ``AC``
                        are 0..12, diamonds 13..25, hearts 26..38,
                        spades 39..51, ``LJ`` 52, ``BJ`` 53
``54``                  ``pass``
``55 + n``              ``bid n`` for ``n`` in ``0 .. max_bid``
``56 + max_bid``        ``board``
``57 + max_bid``        ``counter`` (double, triple, quadruple)
``58 + max_bid + s``    ``trump C``, ``trump D``, ``trump H``, ``trump S``
``62 + max_bid``        ``trump NT`` (no trump, where the rules allow it)
``63 + max_bid + k``    ``counter x(k + 2)``, only for rule sets with
                        direct counters (``direct_counters`` ids, 0 for
                        every registered variant)
======================  ===============================================

**Observation tensor** (:func:`observation_layout`): named pieces laid end to
end; one-hot unless said otherwise, ``n`` the number of players and ``H`` =
``max_bid``:

- ``seat`` [n]: whose observation this is;
- ``phase`` [5]: dealing, bidding, naming trump, playing, game over;
- ``to_act`` [n]; ``dealer`` [n];
- ``hand_size`` [H]: the deal's hand size (1..H);
- ``hand`` [54]: the seat's own cards (all zero in a public observation);
- ``turn_up`` [54]; ``discards`` [54];
- ``trump`` [5]: clubs, diamonds, hearts, spades, none (no trump suit, or
  not named yet: the phase tells which);
- ``calls`` [n x (H + 4 + D)]: each seat's call this deal (pass, bid 0..H,
  board, counter, then the ``D`` direct counters ``counter x2`` ... of a rule
  set that has them), all zero for a seat that has not spoken;
- ``declarer`` [n]; ``leader`` [n]: who leads the current trick;
- ``trick`` [n x 54]: the card each seat has played to the current trick;
- ``played`` [n x 54]: the cards each seat played to this deal's completed tricks;
- ``tricks_won`` [n], ``hand_counts`` [n]: counts divided by H;
- ``trump_broken`` [1];
- ``scores`` [sides]: each side's points divided by 100;
- ``deals_played`` [1]: the fraction of the schedule's deals scored.

The information-state tensor (:func:`info_state_layout`) adds ``trick_order``
[H x (n + n x 54)]: for each completed trick of the deal, its leader and the
card each seat played, so the order of play within the deal is kept.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import attrs

from backalley.cards import CARDS, SUITS, Card
from backalley.engine.legality import Phase
from backalley.engine.views import PlayerView
from backalley.errors import NotationError
from backalley.moves import (
    BOARD,
    COUNTER,
    PASS,
    PLAYS,
    Bid,
    BoardBid,
    Counter,
    Move,
    NameTrump,
    Pass,
    Play,
)
from backalley.moves import bid as make_bid
from backalley.rules.ruleset import RuleSet

__all__ = [
    "DECK_SLOTS",
    "MAX_BID",
    "Actions",
    "SeatKnowledge",
    "Table",
    "encode",
    "info_state_layout",
    "observation_layout",
    "table_of_view",
]

DECK_SLOTS = 54
"""One slot per card of the full 54-card deck (whatever the rule set's deck)."""
MAX_BID = 13
"""The bid range every action layout covers at least (13 tricks)."""

PHASES = ("dealing", "bidding", "naming_trump", "playing", "game_over")
_PHASE_INDEX = {
    Phase.BIDDING: 1,
    Phase.NAMING_TRUMP: 2,
    Phase.PLAYING: 3,
    Phase.GAME_OVER: 4,
}


@attrs.frozen(slots=True)
class Actions:
    """The action ids of a rule set (see the module docstring)."""

    max_bid: int = MAX_BID
    direct_counters: int = 0
    """How many direct counter calls have ids: ``counter x2`` up to
    ``counter x(direct_counters + 1)`` (none by default)."""

    @classmethod
    def for_rules(cls, rules: RuleSet) -> Actions:
        """The layout for ``rules``: bids up to its largest hand (at least 13),
        and an id for each direct counter its bidding part may call."""
        return cls(
            max(MAX_BID, rules.schedule.largest), max(rules.plan.direct_counters, default=1) - 1
        )

    @property
    def pass_id(self) -> int:
        return DECK_SLOTS

    def bid_id(self, tricks: int) -> int:
        return DECK_SLOTS + 1 + tricks

    @property
    def board_id(self) -> int:
        return DECK_SLOTS + 2 + self.max_bid

    @property
    def counter_id(self) -> int:
        return DECK_SLOTS + 3 + self.max_bid

    @property
    def trump_base(self) -> int:
        return DECK_SLOTS + 4 + self.max_bid

    @property
    def direct_base(self) -> int:
        """The id of ``counter x2`` (when the layout has direct counters)."""
        return DECK_SLOTS + 9 + self.max_bid

    @property
    def size(self) -> int:
        """The number of distinct action ids."""
        return DECK_SLOTS + 9 + self.max_bid + self.direct_counters

    @property
    def call_slots(self) -> int:
        """Calls per seat in the observation: pass, bid 0..max_bid, board,
        counter, and the direct counters."""
        return self.max_bid + 4 + self.direct_counters

    def id_of(self, move: Move) -> int:
        """The action id of ``move``; :class:`~backalley.NotationError` if it has none."""
        if isinstance(move, Play):
            return move.card.index
        if isinstance(move, Pass):
            return self.pass_id
        if isinstance(move, Bid):
            if move.tricks > self.max_bid:
                raise NotationError(f"{move}: this action layout has bids up to {self.max_bid}")
            return self.bid_id(move.tricks)
        if isinstance(move, BoardBid):
            return self.board_id
        if isinstance(move, Counter):
            k = move.multiplier
            if k is None:
                return self.counter_id
            if k > self.direct_counters + 1:
                if not self.direct_counters:
                    raise NotationError(f"{move}: this action layout has no direct counters")
                top = self.direct_counters + 1
                raise NotationError(f"{move}: this action layout has direct counters x2..x{top}")
            return self.direct_base + k - 2
        if isinstance(move, NameTrump):
            return self.trump_base + (4 if move.suit is None else move.suit.index)
        raise NotationError(f"{move!r} is not a move")

    def move_of(self, action: int) -> Move:
        """The move of an action id; :class:`~backalley.NotationError` for an id out of range."""
        if isinstance(action, bool) or not isinstance(action, int):
            try:
                action = int(action)  # numpy integers
            except (TypeError, ValueError):
                raise NotationError(f"an action id is a whole number, not {action!r}") from None
        if 0 <= action < DECK_SLOTS:
            return PLAYS[action]
        if action == self.pass_id:
            return PASS
        if self.bid_id(0) <= action <= self.bid_id(self.max_bid):
            return make_bid(action - self.bid_id(0))
        if action == self.board_id:
            return BOARD
        if action == self.counter_id:
            return COUNTER
        if self.trump_base <= action < self.trump_base + 5:
            k = action - self.trump_base
            return NameTrump(None if k == 4 else SUITS[k])
        if self.direct_base <= action < self.size:
            return Counter(action - self.direct_base + 2)
        raise NotationError(f"action id {action} is out of range 0..{self.size - 1}")

    def call_slot(self, move: Move) -> int:
        """The slot of a call among the ``call_slots`` of a seat (pass, bids,
        board, counter, direct counters)."""
        action = self.id_of(move)
        if action >= self.direct_base:
            return self.max_bid + 4 + action - self.direct_base
        return action - self.pass_id


@attrs.frozen(slots=True)
class SeatKnowledge:
    """What one seat knows, in plain values: the input of :func:`encode`.

    Built from a :class:`~backalley.PlayerView` by :func:`table_of_view`, or
    directly while a deal is being dealt (``phase="dealing"``).
    """

    players: int
    sides: int
    total_deals: int
    seat: int
    phase: str
    to_act: int | None
    dealer: int | None
    hand_size: int
    hand: tuple[Card, ...]
    hand_counts: tuple[int, ...]
    turn_up: Card | None = None
    discards: tuple[Card, ...] = ()
    trump: int | None = None
    bids: tuple[Move | None, ...] = ()
    declarer: int | None = None
    leader: int | None = None
    trick: tuple[tuple[int, Card], ...] = ()
    tricks: tuple[tuple[int, tuple[tuple[int, Card], ...], int], ...] = ()
    tricks_won: tuple[int, ...] = ()
    trump_broken: bool = False
    scores: tuple[int, ...] = ()
    deals_played: int = 0


Table = SeatKnowledge
"""The former name of :class:`SeatKnowledge`, kept so that code written
against it still imports."""


def table_of_view(view: PlayerView) -> SeatKnowledge:
    """The :class:`SeatKnowledge` of a player view (its public properties only)."""
    n = view.players
    played = [0] * n
    tricks = tuple((t.leader, t.plays, t.winner) for t in view.tricks)
    for _lead, plays, _win in tricks:
        for s, _c in plays:
            played[s] += 1
    trick = view.trick
    for s, _c in trick:
        played[s] += 1
    over = view.phase is Phase.GAME_OVER
    counts = tuple(0 if over else view.hand_size - played[s] for s in range(n))
    return SeatKnowledge(
        players=n,
        sides=len(view.scores),
        total_deals=view.rules.schedule.deals,
        seat=view.seat,
        phase=PHASES[_PHASE_INDEX[view.phase]],
        to_act=view.to_act,
        dealer=view.dealer,
        hand_size=view.hand_size,
        hand=view.hand,
        hand_counts=counts,
        turn_up=view.turn_up,
        discards=view.discards,
        trump=None if view.trump is None else view.trump.index,
        bids=view.bids,
        declarer=view.declarer,
        leader=_leader(view),
        trick=trick,
        tricks=tricks,
        tricks_won=view.tricks_won,
        trump_broken=view.trump_broken,
        scores=view.scores,
        deals_played=view.deals_played,
    )


def _leader(view: PlayerView) -> int | None:
    """Who leads the current trick: its first player, or the seat to lead it."""
    if view.trick:
        return view.trick[0][0]
    return view.to_act if view.phase is Phase.PLAYING else None


def observation_layout(players: int, sides: int, actions: Actions) -> tuple[tuple[str, int], ...]:
    """The observation tensor's pieces: ``(name, size)`` in order."""
    n, h = players, actions.max_bid
    return (
        ("seat", n),
        ("phase", len(PHASES)),
        ("to_act", n),
        ("dealer", n),
        ("hand_size", h),
        ("hand", DECK_SLOTS),
        ("turn_up", DECK_SLOTS),
        ("discards", DECK_SLOTS),
        ("trump", 5),
        ("calls", n * actions.call_slots),
        ("declarer", n),
        ("leader", n),
        ("trick", n * DECK_SLOTS),
        ("played", n * DECK_SLOTS),
        ("tricks_won", n),
        ("hand_counts", n),
        ("trump_broken", 1),
        ("scores", sides),
        ("deals_played", 1),
    )


def info_state_layout(players: int, sides: int, actions: Actions) -> tuple[tuple[str, int], ...]:
    """The information-state tensor's pieces: the observation plus ``trick_order``."""
    n = players
    return (
        *observation_layout(players, sides, actions),
        ("trick_order", actions.max_bid * (n + n * DECK_SLOTS)),
    )


class Writable(Protocol):
    """A flat, zero-filled buffer of floats (a list or a numpy array)."""

    def __setitem__(self, index: int, value: float, /) -> None: ...


def encode(
    table: SeatKnowledge,
    actions: Actions,
    out: Writable,
    *,
    private: bool = True,
    trick_order: bool = False,
) -> None:
    """Write ``table`` into the zero-filled ``out`` (see the module docstring).

    ``private=False`` leaves the seat's own hand out (a public observation);
    ``trick_order=True`` writes the information-state tensor's extra piece.
    """
    layout = (info_state_layout if trick_order else observation_layout)(
        table.players, table.sides, actions
    )
    offsets: dict[str, int] = {}
    at = 0
    for name, size in layout:
        offsets[name] = at
        at += size
    n, h = table.players, actions.max_bid

    def one(name: str, index: int | None, value: float = 1.0) -> None:
        if index is not None:
            out[offsets[name] + index] = value

    one("seat", table.seat)
    one("phase", PHASES.index(table.phase))
    one("to_act", table.to_act)
    one("dealer", table.dealer)
    if 1 <= table.hand_size <= h:
        one("hand_size", table.hand_size - 1)
    if private:
        for card in table.hand:
            one("hand", card.index)
    if table.turn_up is not None:
        one("turn_up", table.turn_up.index)
    for card in table.discards:
        one("discards", card.index)
    one("trump", 4 if table.trump is None else table.trump)
    for seat, call in enumerate(table.bids):
        if call is not None:
            one("calls", seat * actions.call_slots + actions.call_slot(call))
    one("declarer", table.declarer)
    one("leader", table.leader)
    for seat, card in table.trick:
        one("trick", seat * DECK_SLOTS + card.index)
    for _lead, plays, _win in table.tricks:
        for seat, card in plays:
            one("played", seat * DECK_SLOTS + card.index)
    for seat, won in enumerate(table.tricks_won):
        one("tricks_won", seat, won / h)
    for seat, count in enumerate(table.hand_counts):
        one("hand_counts", seat, count / h)
    if table.trump_broken:
        one("trump_broken", 0)
    for side, score in enumerate(table.scores):
        one("scores", side, score / 100)
    one("deals_played", 0, table.deals_played / max(1, table.total_deals))
    if trick_order:
        width = n + n * DECK_SLOTS
        for k, (lead, plays, _win) in enumerate(table.tricks[:h]):
            one("trick_order", k * width + lead)
            for seat, card in plays:
                one("trick_order", k * width + n + seat * DECK_SLOTS + card.index)


def cards_text(cards: Sequence[Card]) -> str:
    """Cards as text, ``-`` for none."""
    return " ".join(map(str, cards)) or "-"


def describe(table: SeatKnowledge, *, private: bool = True) -> str:
    """A one-line text of ``table`` (the observation string of the adapters)."""
    parts = [
        f"seat {table.seat}",
        f"deal {table.deals_played + 1}/{table.total_deals}, {table.hand_size} cards, "
        f"dealer {'-' if table.dealer is None else table.dealer}",
        table.phase + ("" if table.to_act is None else f", seat {table.to_act} to act"),
    ]
    if private:
        parts.append(f"hand {cards_text(table.hand)}")
    parts.append(f"counts {' '.join(map(str, table.hand_counts))}")
    if table.turn_up is not None or table.discards:
        turn = "-" if table.turn_up is None else str(table.turn_up)
        parts.append(f"turn-up {turn} discards {cards_text(table.discards)}")
    if table.phase != "dealing":
        trump = "none" if table.trump is None else SUITS[table.trump].value
        parts.append(f"trump {trump}{' broken' if table.trump_broken else ''}")
    if table.bids:
        parts.append("calls " + " ".join("." if b is None else str(b) for b in table.bids))
    if table.declarer is not None:
        parts.append(f"declarer {table.declarer}")
    if table.tricks or table.trick:
        done = " ".join(
            f"{lead}:{''.join(str(c) for _s, c in plays)}>{win}"
            for lead, plays, win in table.tricks
        )
        now = " ".join(f"{s}:{c}" for s, c in table.trick)
        parts.append(f"tricks {done or '-'} trick {now or '-'}")
    if table.tricks_won:
        parts.append(f"won {' '.join(map(str, table.tricks_won))}")
    parts.append(f"scores {' '.join(map(str, table.scores))}")
    return " | ".join(parts)


def card_of(index: int) -> Card:
    """The card of a card action id (0..53)."""
    return CARDS[index]
