"""A position as a compact text table: what ``print(state.diagram())`` shows.

:func:`diagram` draws a :class:`~backalley.GameState` (every hand face up) or
a :class:`~backalley.PlayerView` (its own hand face up, the other hands as a
count of cards) as a few lines of text::

    gamerules · deal 1 of 25 · 13 cards · turn-up 5♣ · trump ♣
    Trick 1 of 13: East to play
      North (heuristic)     bid 2    won 0   ♠ A 7 5  ♣ K J 8  ♦ Q 10 9 5 3 2
    ▶ East (heuristic)      bid 2    won 0   ♠ K 6 3  ♥ A* 10* 7* 3*  ♣ A 3 2
      ...
    Trick: West led 4♥, North 6♥
    Legal: A♥ 10♥ 7♥ 3♥
    Scores: N-S 0 (contract 3, won 0) · E-W 0 (contract 5, won 0)

With ``ascii=True`` it uses letters only (``S: A K 5``, ``>`` for the seat to
act).  :func:`table_of` reads the same facts into a :class:`DiagramFacts`,
which the picture (:mod:`backalley.render.svg`) draws too.

Seats and sides are named by :mod:`backalley.rules.seats`: North, East,
South, West (seats 0 to 3) in a four-player partnership game, and Seat 1 ..
Seat n otherwise; sides are the partnerships (``N-S``, ``E-W``, written
with an en dash unless ``ascii``) or, in a cutthroat game, the seats.  Players' names (a record's
``players``) are shown beside the seat names, never instead of them.

This module reads only the public properties that states and views share
(``rules.players``, ``rules.teams``, ``phase``, ``to_act``, ``dealer``,
``bids``, ``contracts``, ``trick``, ``tricks_won``, ``scores`` ...) and
``hands`` on a state versus ``seat``/``hand``/``hand_counts`` on a view, so
that the engine can offer ``state.diagram()`` without an import cycle.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from typing import TYPE_CHECKING, Union, cast

import attrs

from backalley.cards import Card, Rank, Suit
from backalley.errors import SetupError
from backalley.moves import Move, Play
from backalley.rules.seats import seat_names, side_names

if TYPE_CHECKING:
    from backalley.engine.state import GameState
    from backalley.engine.views import PlayerView

__all__ = ["SUIT_ORDER", "DiagramFacts", "SeatFacts", "diagram", "table_of"]

StateOrView = Union["GameState", "PlayerView"]
"""A full state or one seat's view."""

SUIT_ORDER: tuple[Suit, ...] = (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS)
"""The order suits are shown in a hand (colours alternate); jokers come first."""

SYMBOLS: dict[Suit, str] = {
    Suit.CLUBS: "♣",
    Suit.DIAMONDS: "♦",
    Suit.HEARTS: "♥",
    Suit.SPADES: "♠",
}
EN_DASH = "\u2013"


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
    """The seat's name: North, East, ... (or Seat 1 ..)."""
    player: str | None
    """Who sits there (a record's player name), shown beside the seat's name."""
    hand: tuple[Card, ...] | None
    """The cards, sorted for showing; ``None`` where they are hidden."""
    count: int
    call: Move | None
    won: int
    dealer: bool
    declarer: bool
    to_act: bool

    @property
    def label(self) -> str:
        """The seat's name with its player beside it: ``North (heuristic)``, or ``North``."""
        return self.name if self.player is None else f"{self.name} ({self.player})"


@attrs.frozen
class DiagramFacts:
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

    @property
    def legal_cards(self) -> frozenset[Card]:
        """The cards the seat to act may play now (empty outside the play, or
        in a view of another seat)."""
        return frozenset(m.card for m in self.legal if isinstance(m, Play))


def table_of(
    position: StateOrView, *, players: Sequence[str] | None = None, dash: str = EN_DASH
) -> DiagramFacts:
    """The facts of ``position`` to draw (see :class:`DiagramFacts`).

    Seats are named by the rules (:func:`backalley.rules.seats.seat_names`);
    ``players`` gives who sits in each seat (one name per seat, e.g. a
    record's players), shown beside the seat's name (an empty name, or the
    seat's own name, is not repeated).  Sides' names join their
    seats' initials with ``dash``.  Only what the position knows is read: a
    view's other hands are counts.  Raises :class:`~backalley.SetupError` for
    ``players`` that are not one text per seat.
    """
    rules = position.rules
    n = rules.players
    teams = rules.teams
    names = seat_names(rules)
    if players is not None:
        if isinstance(players, str) or not isinstance(players, Sequence):
            raise SetupError(f"players: give one name (text) per seat, {n} in all")
        players = tuple(players)
        if len(players) != n or not all(isinstance(x, str) for x in players):
            raise SetupError(f"players: give one name (text) per seat, {n} in all")
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
            player=_player(players, s, names[s]),
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
    sides = side_names(rules, dash=dash)
    contracts = position.contracts
    winner = position.winner
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
    return DiagramFacts(
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
        side_tricks=position.side_tricks,
        winner=winner,
        legal=position.legal_moves(),
    )


def _player(players: Sequence[str] | None, seat: int, name: str) -> str | None:
    """Who sits in ``seat``, unless no one is named or the name is the seat's own."""
    if players is None:
        return None
    player = " ".join(players[seat].split())
    return None if not player or player.lower() == name.lower() else player


def _wins(team: Sequence[int]) -> str:
    return "wins" if len(team) == 1 else "win"


def _contract(contract: object) -> str | None:
    return None if contract is None else str(contract)


def hand_text(cards: Iterable[Card], ascii: bool = False, marked: Collection[Card] = ()) -> str:
    """A hand grouped by suit: ``BJ  ♠ A K 10  ♥ Q 3`` (``S: A K T  H: Q 3`` with
    ``ascii``); each card of ``marked`` is followed by ``*`` (``♥ Q* 3``)."""
    cards = sorted_hand(cards)
    groups: list[str] = []

    def star(card: Card, text: str) -> str:
        return text + "*" if card in marked else text

    jokers = [star(c, str(c)) for c in cards if c.suit is None]
    if jokers:
        groups.append(" ".join(jokers))
    for suit in SUIT_ORDER:
        ranks = [star(c, c.rank.letter if ascii else rank_text(c)) for c in cards if c.suit is suit]
        if ranks:
            head = f"{suit.letter}:" if ascii else SYMBOLS[suit]
            groups.append(head + " " + " ".join(ranks))
    return "  ".join(groups) if groups else "(no cards)"


PLAYER_TEXT = 24
"""The most characters of a player's name the text diagram shows (longer ones are cut)."""


def diagram(
    position: StateOrView,
    *,
    ascii: bool = False,
    players: Sequence[str] | None = None,
    legal: bool = False,
) -> str:
    """``position`` as a compact multi-line text table (see the module docstring).

    One line of deal facts (variant, deal, hand size, turn-up, trump), the
    status (whose turn, to do what), one line per seat (``▶``, ``>`` with
    ``ascii``, marks the seat to act, ``D`` the dealer, ``d`` the declarer;
    the seat's name with its player beside it when ``players`` are given
    (``North (heuristic)``, a name longer than :data:`PLAYER_TEXT` characters
    cut), the call, the tricks won and the hand, or the number of hidden
    cards), the current trick by seat with the leader's card first and marked
    (``Trick: West led 4♥, North 6♥``; between tricks, the last trick and who
    won it), and the scores with each side's contract.  ``ascii`` writes suits
    as letters and separators as plain ASCII.  ``legal`` marks the cards the
    seat to act may play with ``*`` in its hand (as the position knows them:
    a view of another seat marks none) and adds a line with its legal moves.
    """
    dash = "-" if ascii else EN_DASH
    dot = "|" if ascii else "·"
    table = table_of(position, players=players, dash=dash)

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
    labels = [_label(s, ascii) for s in table.seats]
    width = max(len(label) for label in labels)
    marked = table.legal_cards if legal else frozenset()
    for s, label in zip(table.seats, labels):
        mark = (">" if ascii else "▶") if s.to_act else " "
        tags = ("D" if s.dealer else " ") + ("d" if s.declarer else " ")
        if s.hand is None:
            hand = f"({s.count} cards)"
        else:
            hand = hand_text(s.hand, ascii, marked if s.to_act else ())
        lines.append(
            f"{mark} {label:<{width}} {tags}  {call_text(s.call):<8} won {s.won:<3} {hand}"
        )
    trick, last = table.trick, table.last_trick
    if trick:
        lines.append(f"Trick: {_plays(table, trick, ascii)}")
    elif last is not None:
        plays, winner = last
        lines.append(
            f"Last trick: {_plays(table, plays, ascii)}, won by {table.seats[winner].name}"
        )
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


def _label(seat: SeatFacts, ascii: bool) -> str:
    """The seat's name with its player (cut to :data:`PLAYER_TEXT` characters)."""
    player = seat.player
    if player is None:
        return seat.name
    if len(player) > PLAYER_TEXT:
        cut = "..." if ascii else "…"
        player = player[: PLAYER_TEXT - len(cut)] + cut
    return f"{seat.name} ({player})"


def _plays(table: DiagramFacts, plays: Sequence[tuple[int, Card]], ascii: bool) -> str:
    """A trick by seat, the leader's card marked: ``West led 4♥, North 6♥``."""
    return ", ".join(
        f"{table.seats[s].name}{' led' if k == 0 else ''} {card_text(c, ascii)}"
        for k, (s, c) in enumerate(plays)
    )


def _move_text(move: Move, ascii: bool) -> str:
    if isinstance(move, Play) and not ascii:
        return card_text(move.card)
    return str(move)
