"""A position as a compact text table: what ``print(state.diagram())`` shows.

:func:`diagram` draws a :class:`~backalley.GameState` (every hand face up) or
a :class:`~backalley.PlayerView` (its own hand face up, the other hands as a
count of cards) as a few lines of text::

    gamerules · deal 1 of 25 · 13 cards · turn-up 7♥ · trump ♥
    Bidding: West to act
      North      bid 3   won 0  ♠ A K 5  ♥ Q 3 2  ...
      East   D   pass    won 0  (13 cards)
      ...
    Scores: N-S 0 · E-W 0

With ``ascii=True`` it uses letters only (``S: A K 5``, ``*`` for the seat to
act).  :func:`table_of` reads the same facts into a :class:`Table`, which the
picture (:mod:`backalley.render.svg`) draws too.

Seats are named North, East, South, West (seats 0 to 3) in a four-player
partnership game, and Seat 1 .. Seat n otherwise; sides are the partnerships
(``N-S``, ``E-W``, with an en dash) or, in a cutthroat game, the seats.

This module reads only the public properties that states and views share
(``rules.players``, ``rules.teams``, ``phase``, ``to_act``, ``dealer``,
``bids``, ``contracts``, ``trick``, ``tricks_won``, ``scores`` ...) and
``hands`` on a state versus ``seat``/``hand``/``hand_counts`` on a view, so
that the engine can offer ``state.diagram()`` without an import cycle.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Union, cast

import attrs

from backalley.cards import Card, Rank, Suit
from backalley.errors import SetupError
from backalley.moves import Move, Play

if TYPE_CHECKING:
    from backalley.engine.state import GameState
    from backalley.engine.views import PlayerView

__all__ = ["SUIT_ORDER", "SeatFacts", "Table", "diagram", "seat_names", "table_of"]

Position = Union["GameState", "PlayerView"]
"""A full state or one seat's view."""

SUIT_ORDER: tuple[Suit, ...] = (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS)
"""The order suits are shown in a hand (colours alternate); jokers come first."""

SYMBOLS: dict[Suit, str] = {
    Suit.CLUBS: "♣",
    Suit.DIAMONDS: "♦",
    Suit.HEARTS: "♥",
    Suit.SPADES: "♠",
}
_COMPASS = ("North", "East", "South", "West")
EN_DASH = "\u2013"


def seat_names(players: int, teams: Sequence[Sequence[int]]) -> tuple[str, ...]:
    """North, East, South, West for four players in two partnerships of
    opposite seats; Seat 1 .. Seat n otherwise."""
    if players == 4 and sorted(tuple(sorted(t)) for t in teams) == [(0, 2), (1, 3)]:
        return _COMPASS
    return tuple(f"Seat {s + 1}" for s in range(players))


def side_names(names: Sequence[str], teams: Sequence[Sequence[int]], dash: str) -> tuple[str, ...]:
    """A side's name: its seat's name, or the initials of a partnership (``N-S``)."""
    out = []
    for team in teams:
        if len(team) == 1:
            out.append(names[team[0]])
        elif names[team[0]] in _COMPASS:
            out.append(dash.join(names[s][0] for s in team))
        else:
            out.append(" + ".join(names[s] for s in team))
    return tuple(out)


def rank_text(card: Card) -> str:
    """The rank as printed on a card: ``2``..``10``, ``J``, ``Q``, ``K``, ``A``; ``BJ``/``LJ``."""
    if card.rank is Rank.TEN:
        return "10"
    return card.rank.letter


def card_text(card: Card, ascii: bool = False) -> str:
    """``Q♠``, ``10♥`` (with ``ascii`` the canonical ``QS``, ``TH``); jokers ``BJ``/``LJ``."""
    if card.suit is None or ascii:
        return str(card)
    return rank_text(card) + SYMBOLS[card.suit]


def sorted_hand(cards: Iterable[Card]) -> tuple[Card, ...]:
    """Jokers first (big, little), then by suit in :data:`SUIT_ORDER`, high to low."""
    order = {s: i for i, s in enumerate(SUIT_ORDER)}

    def key(card: Card) -> tuple[int, int]:
        if card.suit is None:
            return (-1, -card.rank.value)
        return (order[card.suit], -card.rank.value)

    return tuple(sorted(cards, key=key))


def call_text(move: Move | None) -> str:
    """A call as shown at the table: ``bid 3``, ``pass``, ``board``, ``counter``; ``-`` not yet."""
    return "-" if move is None else str(move)


@attrs.frozen
class SeatFacts:
    """One seat at the table as a picture shows it."""

    seat: int
    name: str
    hand: tuple[Card, ...] | None
    """The cards, sorted for showing; ``None`` where they are hidden."""
    count: int
    call: Move | None
    won: int
    dealer: bool
    declarer: bool
    to_act: bool


@attrs.frozen
class Table:
    """Everything a picture of a position shows, read from its public properties."""

    title: str
    viewer: int | None
    """The seat whose view this is; ``None`` for a full state."""
    phase: str
    """``bidding``, ``naming-trump``, ``playing`` or ``game-over``."""
    status: str
    deal: int
    deals: int
    hand_size: int
    turn_up: Card | None
    trump: Suit | None
    trump_known: bool
    """Whether the trump of this deal is settled (else it is still to be named)."""
    discards: tuple[Card, ...]
    seats: tuple[SeatFacts, ...]
    trick: tuple[tuple[int, Card], ...]
    last_trick: tuple[tuple[tuple[int, Card], ...], int] | None
    """The previous trick and its winner, shown while the next trick is empty."""
    sides: tuple[str, ...]
    side_seats: tuple[tuple[int, ...], ...]
    scores: tuple[int, ...]
    contracts: tuple[str | None, ...] | None
    side_tricks: tuple[int, ...]
    winner: int | None
    legal: tuple[Move, ...]

    @property
    def leader(self) -> int | None:
        """Who led the current trick (``None`` before its first card)."""
        return self.trick[0][0] if self.trick else None


def table_of(
    position: Position, *, names: Sequence[str] | None = None, dash: str = EN_DASH
) -> Table:
    """The facts of ``position`` to draw (see :class:`Table`).

    ``names`` replaces the seat names (one per seat).  Only what the position
    knows is read: a view's other hands are counts.
    """
    rules = position.rules
    n = rules.players
    teams = rules.teams
    if names is None:
        names = seat_names(n, teams)
    else:
        names = tuple(names)
        if len(names) != n or not all(isinstance(x, str) for x in names):
            raise SetupError(f"names: give one name (text) per seat, {n} in all")
    viewer: int | None = getattr(position, "seat", None)
    hands: list[tuple[Card, ...] | None]
    if viewer is None:
        full = cast("GameState", position).hands
        hands = list(full)
        counts = [len(h) for h in full]
    else:
        view = cast("PlayerView", position)
        counts = list(view.hand_counts)
        hands = [None] * n
        hands[viewer] = view.hand
    phase = position.phase.value
    over = phase == "game-over"
    to_act = position.to_act
    bids = position.bids
    won = position.tricks_won
    declarer = position.declarer
    seats = tuple(
        SeatFacts(
            seat=s,
            name=names[s],
            hand=None if hands[s] is None else sorted_hand(hands[s] or ()),
            count=counts[s],
            call=bids[s],
            won=won[s],
            dealer=s == position.dealer,
            declarer=s == declarer,
            to_act=s == to_act,
        )
        for s in range(n)
    )
    deals = rules.schedule.deals
    deal = position.deals_played if over else position.deals_played + 1
    trick = position.trick
    last = None
    if phase == "playing" and not trick and position.tricks:
        done = position.tricks[-1]
        last = (done.plays, done.winner)
    sides = side_names(names, teams, dash)
    contracts = position.contracts
    winner = rules.plan.game_winner(position.scores) if over else None
    if to_act is None:
        status = "Game over: " + (
            "a draw" if winner is None else f"{sides[winner]} {_wins(teams[winner])}"
        )
    elif phase == "bidding":
        status = f"Bidding: {names[to_act]} to call"
    elif phase == "naming-trump":
        status = f"{names[to_act]} names trump"
    else:
        status = f"Trick {sum(won) + 1} of {position.hand_size}: {names[to_act]} to play"
    trump_known = position.trump_known
    return Table(
        title=rules.name or "custom rules",
        viewer=viewer,
        phase=phase,
        status=status,
        deal=deal,
        deals=deals,
        hand_size=position.hand_size,
        turn_up=position.turn_up,
        trump=position.trump,
        trump_known=trump_known,
        discards=position.discards,
        seats=seats,
        trick=trick,
        last_trick=last,
        sides=sides,
        side_seats=tuple(tuple(t) for t in teams),
        scores=position.scores,
        contracts=None if contracts is None else tuple(_contract(c) for c in contracts),
        side_tricks=tuple(sum(won[s] for s in team) for team in teams),
        winner=winner,
        legal=position.legal_moves(),
    )


def _wins(team: Sequence[int]) -> str:
    return "wins" if len(team) == 1 else "win"


def _contract(contract: object) -> str | None:
    return None if contract is None else str(contract)


def hand_text(cards: Iterable[Card], ascii: bool = False) -> str:
    """A hand grouped by suit: ``BJ  ♠ A K 10  ♥ Q 3`` (``S: A K T  H: Q 3`` with ``ascii``)."""
    cards = sorted_hand(cards)
    groups: list[str] = []
    jokers = [str(c) for c in cards if c.suit is None]
    if jokers:
        groups.append(" ".join(jokers))
    for suit in SUIT_ORDER:
        ranks = [c.rank.letter if ascii else rank_text(c) for c in cards if c.suit is suit]
        if ranks:
            head = f"{suit.letter}:" if ascii else SYMBOLS[suit]
            groups.append(head + " " + " ".join(ranks))
    return "  ".join(groups) if groups else "(no cards)"


def diagram(
    position: Position,
    *,
    ascii: bool = False,
    names: Sequence[str] | None = None,
    legal: bool = False,
) -> str:
    """``position`` as a compact multi-line text table (see the module docstring).

    One line of deal facts (variant, deal, hand size, turn-up, trump), the
    status (whose turn, to do what), one line per seat (``>`` marks the seat
    to act, ``D`` the dealer, ``d`` the declarer; the call, the tricks won and
    the hand, or the number of hidden cards), the current trick with who led,
    and the scores with each side's contract.  ``ascii`` writes suits as
    letters and separators as plain ASCII; ``legal`` adds a line with the
    legal moves of the seat to act (as the position knows them).
    """
    dash = "-" if ascii else EN_DASH
    dot = "|" if ascii else "·"
    table = table_of(position, names=names, dash=dash)

    def card(c: Card) -> str:
        return card_text(c, ascii)

    facts = [table.title, f"deal {table.deal} of {table.deals}", f"{table.hand_size} cards"]
    if table.turn_up is not None:
        facts.append(f"turn-up {card(table.turn_up)}")
    if table.trump is not None:
        facts.append("trump " + (table.trump.letter if ascii else SYMBOLS[table.trump]))
    elif table.trump_known:
        facts.append("no trump")
    else:
        facts.append("trump not named yet")
    if table.discards:
        facts.append("out of play " + " ".join(card(c) for c in table.discards))
    lines = [f" {dot} ".join(facts)]
    status = table.status
    if table.viewer is not None:
        status += f" ({table.seats[table.viewer].name}'s view)"
    lines.append(status)
    width = max(len(s.name) for s in table.seats)
    for s in table.seats:
        mark = (">" if ascii else "▶") if s.to_act else " "
        tags = ("D" if s.dealer else " ") + ("d" if s.declarer else " ")
        hand = f"({s.count} cards)" if s.hand is None else hand_text(s.hand, ascii)
        lines.append(
            f"{mark} {s.name:<{width}} {tags}  {call_text(s.call):<8} won {s.won:<3} {hand}"
        )
    trick, last = table.trick, table.last_trick
    if trick:
        plays = ", ".join(f"{table.seats[s].name} {card(c)}" for s, c in trick)
        lines.append(f"Trick: {plays} ({table.seats[trick[0][0]].name} led)")
    elif last is not None:
        plays = ", ".join(f"{table.seats[s].name} {card(c)}" for s, c in last[0])
        lines.append(f"Last trick: {plays}, won by {table.seats[last[1]].name}")
    if legal and table.legal:
        lines.append("Legal: " + " ".join(_move_text(m, ascii) for m in table.legal))
    scores = []
    for k, side in enumerate(table.sides):
        text = f"{side} {table.scores[k]}"
        if table.contracts is not None and table.phase != "game-over":
            contract = table.contracts[k]
            bid = "no contract" if contract is None else f"contract {contract}"
            text += f" ({bid}, won {table.side_tricks[k]})"
        scores.append(text)
    lines.append("Scores: " + f" {dot} ".join(scores))
    return "\n".join(lines)


def _move_text(move: Move, ascii: bool) -> str:
    if isinstance(move, Play) and not ascii:
        return card_text(move.card)
    return str(move)
