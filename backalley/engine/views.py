"""What one seat may know: :class:`PlayerView`.

A view holds the seat's own hand and the public history of the game (calls,
contracts, trump and turn-up, the tricks played and who won them, scores,
whose turn), the number of cards in every hand - and nothing from which
another seat's hidden cards could be derived: no other hand, no stock order,
no seed, no deck orders.

Its :meth:`~PlayerView.legal_moves` and :meth:`~PlayerView.check` ask the same
rules (:mod:`backalley.engine.legality`) as the full state, so they give the same
answers for the seat to act; another seat's view has no legal moves.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from backalley.cards import Card, cards_of_mask
from backalley.engine.legality import legal_moves, refusal, turn_refusal
from backalley.engine.public import PublicFacts, seat_number
from backalley.errors import IllegalMoveError, SetupError
from backalley.moves import Move
from backalley.rules.context import DealContext
from backalley.rules.ruleset import RuleSet
from backalley.values import DealResult, Phase, RawTrick

if TYPE_CHECKING:
    from backalley.engine.state import GameState

__all__ = ["PlayerView", "make_view"]


@attrs.frozen(slots=True, repr=False)
class PlayerView(PublicFacts):
    """One seat's knowledge of a game (see the module docstring)."""

    rules: RuleSet
    seat: int
    phase: Phase
    to_act: int | None
    _ctx: DealContext
    _hand_bits: int
    hand_counts: tuple[int, ...]
    _turn_up_index: int | None
    _discard_bits: int
    calls: tuple[Move, ...]
    leader: int
    _trick_cards: tuple[int, ...]
    _history: tuple[RawTrick, ...]
    _broken: bool
    scores: tuple[int, ...]
    deal_results: tuple[DealResult, ...]
    _legal: tuple[Move, ...] = attrs.field(
        default=attrs.Factory(lambda view: _legal_of(view), takes_self=True),
        eq=False,
        hash=False,
        repr=False,
    )
    """This seat's legal moves (none when another seat is to act), worked out when the view is built."""

    def __repr__(self) -> str:
        return (
            f"<PlayerView seat {self.seat}: {self.phase.value}, seat {self.to_act} to act, "
            f"hand {' '.join(map(str, self.hand))}>"
        )

    # reading --------------------------------------------------------------

    @property
    def hand(self) -> tuple[Card, ...]:
        """This seat's own cards."""
        return cards_of_mask(self._hand_bits)

    def _hand_mask(self, seat: int) -> int:
        """This seat's hand as a bit set; 0 for any other seat (not known)."""
        return self._hand_bits if seat == self.seat else 0

    @property
    def is_my_turn(self) -> bool:
        return self.to_act == self.seat

    # legality ---------------------------------------------------------------

    def legal_moves(self) -> tuple[Move, ...]:
        """This seat's legal moves: the full state's answer when it is this
        seat's turn, else none."""
        return self._legal

    def check(self, move: object, seat: int | None = None) -> None:
        """Raise :class:`~backalley.IllegalMoveError` unless this seat may make ``move`` now.

        The same signature as :meth:`backalley.GameState.check`: ``seat``, when
        given, must be this view's own seat (any other seat, or what is not a
        seat, raises :class:`~backalley.SetupError`: a view only answers for
        its seat).  The error carries ``move`` and ``seat`` (this view's seat).
        """
        own = self.seat
        if seat is not None and seat_number(self.players, seat) != own:
            raise SetupError(
                f"this is seat {own}'s view: it checks the moves of seat {own}, not seat {seat}"
            )
        turn = turn_refusal(self, own, you=True)
        if turn is not None:
            raise IllegalMoveError(*turn, move=move, seat=own)
        if move in self.legal_moves():
            return
        why = refusal(self, move)
        if why is None:  # pragma: no cover - the same rules answer both
            raise AssertionError(f"{move} is refused without a reason")
        raise IllegalMoveError(*why, move=move, seat=own)

    # inference --------------------------------------------------------------

    def unseen_cards(self) -> tuple[Card, ...]:
        """The cards this seat has not seen: in other hands or in the stock."""
        return cards_of_mask(self._unseen_bits())

    def _unseen_bits(self) -> int:
        seen = self._hand_bits | self._discard_bits | self._played_bits()
        if self._turn_up_index is not None:
            seen |= 1 << self._turn_up_index
        return self.rules.plan.deck_mask & ~seen

    def possible_cards(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` may still hold, given the public history: the
        unseen cards, less those the deal's opening showed to be in the stock
        (after a turned joker and no swap, the other joker), less every card whose holding would have made one of the
        seat's plays this deal illegal (a suit it failed to follow, a trump it
        could not have kept when leading one early or answering a blooper, or
        whatever the rule set's own lead and follow rules imply).  For this
        view's own seat: its hand."""
        seat = seat_number(self.players, seat)
        if seat == self.seat:
            return self.hand
        return cards_of_mask(self._possible_bits(seat))

    def _possible_bits(self, seat: int) -> int:
        """Each play of ``seat`` is tested against every unseen card ``x``:
        had the seat held ``x`` beside the card it played, would that card
        have been legal - in that trick's position: the cards played before
        it, whether trump was broken?  If not, the seat does not hold ``x``.  (The test is
        sound for rules under which a card legal from a hand stays legal from
        any smaller hand holding it - every built-in lead and follow rule; a
        rule that allows a card only because of other cards held can make it
        rule out a card the seat does hold.)  The plan answers, and remembers
        the answer by the public history (:meth:`~backalley.rules.plan.Plan.ruled_out`)."""
        if self.hand_counts[seat] == 0:
            return 0
        plan = self.rules.plan
        ctx = self._ctx
        allowed = self._unseen_bits() & ~plan.left_in_stock(
            ctx, self._turn_up_index, self._discard_bits
        )
        trick = (self.leader, self._trick_cards)
        return allowed & ~plan.ruled_out(ctx, self._history, trick, seat, allowed)

    def _repr_svg_(self) -> str:
        from backalley.render.svg import board

        return board(self)

    def diagram(self, ascii: bool = False) -> str:
        """A compact text table of this position (:func:`backalley.render.diagram.diagram`)."""
        from backalley.render.diagram import diagram

        return diagram(self, ascii=ascii)


def _legal_of(view: PlayerView) -> tuple[Move, ...]:
    """The legal moves of a view's seat: the full state's answer when it is its turn."""
    return legal_moves(view) if view.to_act == view.seat else ()


def make_view(state: GameState, seat: int) -> PlayerView:
    """The view of ``state`` from ``seat``: the state's own public fields
    (shared, not copied), the seat's hand and the number of cards in each
    hand, built through the view's constructor."""
    raw = state._raw
    hands = raw.hand_bits
    seat_number(raw.rules.players, seat)
    to_act = state.to_act
    deal = raw.deal
    match = raw.match
    return PlayerView(
        raw.rules,
        seat,
        raw.phase,
        to_act,
        raw.ctx,
        hands[seat],
        tuple([h.bit_count() for h in hands]),
        deal.turn_up_index,
        deal.discard_bits,
        raw.calls,
        raw.leader,
        raw.trick_cards,
        raw.history,
        raw.broken,
        match.scores,
        match.results,
        state.legal_moves() if to_act == seat else (),
    )
