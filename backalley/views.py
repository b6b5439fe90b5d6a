"""What one seat may know: :class:`PlayerView`.

A view holds the seat's own hand and the public history of the game (calls,
contracts, trump and turn-up, the tricks played and who won them, scores,
whose turn), the number of cards in every hand - and nothing from which
another seat's hidden cards could be derived: no other hand, no stock order,
no seed, no deck orders.

Its :meth:`~PlayerView.legal_moves` and :meth:`~PlayerView.check` ask the same
rules (:mod:`backalley.legality`) as the full state, so they give the same
answers for the seat to act; another seat's view has no legal moves.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

from backalley.cards import CARDS, Card, Suit, cards_of_mask
from backalley.errors import IllegalMoveError, Reason, SetupError
from backalley.legality import Phase, legal_moves, refusal
from backalley.moves import Move
from backalley.play import TRUMP_MASKS, suit_mask, suit_of
from backalley.public import PublicFacts, RawTrick
from backalley.rules.bidding import BiddingContext, BiddingOutcome
from backalley.rules.deck import deck_mask
from backalley.rules.ruleset import RuleSet

if TYPE_CHECKING:
    from backalley.state import DealResult, GameState

__all__ = ["PlayerView", "make_view"]


@attrs.frozen(slots=True, repr=False)
class PlayerView(PublicFacts):
    """One seat's knowledge of a game (see the module docstring)."""

    rules: RuleSet
    seat: int
    phase: Phase
    to_act: int | None
    dealer: int
    hand_size: int
    hand_bits: int
    hand_counts: tuple[int, ...]
    turn_up_index: int | None
    discard_bits: int
    trump_index: int | None
    calls: tuple[Move, ...]
    outcome: BiddingOutcome | None
    leader: int
    trick_cards: tuple[int, ...]
    tricks_won: tuple[int, ...]
    history: tuple[RawTrick, ...]
    broken: bool
    scores: tuple[int, ...]
    deal_results: tuple[DealResult, ...]
    _legal: Any = attrs.field(default=None, init=False, eq=False, hash=False, repr=False)

    def __repr__(self) -> str:
        return (
            f"<PlayerView seat {self.seat}: {self.phase.value}, seat {self.to_act} to act, "
            f"hand {' '.join(map(str, self.hand))}>"
        )

    # reading --------------------------------------------------------------

    @property
    def hand(self) -> tuple[Card, ...]:
        """This seat's own cards."""
        return cards_of_mask(self.hand_bits)

    def hand_mask(self, seat: int) -> int:
        """This seat's hand as a bit set; 0 for any other seat (not known)."""
        return self.hand_bits if seat == self.seat else 0

    @property
    def is_my_turn(self) -> bool:
        return self.to_act == self.seat

    # legality ---------------------------------------------------------------

    def legal_moves(self) -> tuple[Move, ...]:
        """This seat's legal moves: the full state's answer when it is this
        seat's turn, else none."""
        if self.to_act != self.seat:
            return ()
        legal = self._legal
        if legal is None:
            legal = legal_moves(self)
            object.__setattr__(self, "_legal", legal)
        return legal  # type: ignore[no-any-return]

    def check(self, move: object) -> None:
        """Raise :class:`~backalley.IllegalMoveError` unless this seat may make ``move`` now."""
        if self.phase is not Phase.GAME_OVER and self.to_act != self.seat:
            if self.phase is Phase.NAMING_TRUMP:
                raise IllegalMoveError(
                    Reason.NOT_DECLARER,
                    f"seat {self.to_act} is the declarer and names trump, not you",
                )
            if self.phase is Phase.BIDDING and self.bids[self.seat] is not None:
                raise IllegalMoveError(
                    Reason.ALREADY_BID,
                    f"you have already called ({self.bids[self.seat]}) this deal",
                )
            raise IllegalMoveError(
                Reason.NOT_YOUR_TURN, f"it is seat {self.to_act}'s turn, not yours"
            )
        if move in self.legal_moves():
            return
        why = refusal(self, move)
        if why is None:  # pragma: no cover - the same rules answer both
            raise AssertionError(f"{move} is refused without a reason")
        raise IllegalMoveError(*why)

    # inference --------------------------------------------------------------

    def unseen_cards(self) -> tuple[Card, ...]:
        """The cards this seat has not seen: in other hands or in the stock."""
        return cards_of_mask(self._unseen_bits())

    def _unseen_bits(self) -> int:
        seen = self.hand_bits | self.discard_bits
        if self.turn_up_index is not None:
            seen |= 1 << self.turn_up_index
        for _lead, cards, _win in self.history:
            for c in cards:
                seen |= 1 << c
        for c in self.trick_cards:
            seen |= 1 << c
        return deck_mask(self.rules.deck) & ~seen

    def possible_cards(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` may still hold, given the public history: unseen
        cards, less every suit the seat has shown it lacks (failing to follow,
        or leading trump before it was broken), and the trumps a blooper lead
        showed it does not hold.  For this view's own seat: its hand."""
        if seat == self.seat:
            return self.hand
        return cards_of_mask(self._possible_bits(seat))

    def _possible_bits(self, seat: int) -> int:
        if not isinstance(seat, int) or not 0 <= seat < self.players:
            raise SetupError(f"there is no seat {seat!r}")
        if self.hand_counts[seat] == 0:
            return 0
        allowed = self._unseen_bits()
        trump = 4 if self.trump_index is None else self.trump_index
        tmask = TRUMP_MASKS[trump]
        n = self.players
        tricks = [*self.history, (self.leader, self.trick_cards, -1)]
        broken = False
        for lead, cards, _win in tricks:
            if not cards:
                continue
            led = cards[0]
            led_suit = suit_of(led, trump)
            for k, card in enumerate(cards):
                if (lead + k) % n != seat:
                    continue
                if k == 0:
                    led_trump = (1 << card) & tmask
                    exempt = self.rules.lead.may_lead_trump(
                        broken, self.outcome is not None and seat in self.outcome.board_bidders
                    )
                    if led_trump and not exempt:
                        allowed &= tmask  # led trump unbroken: held nothing but trumps
                    continue
                if suit_of(card, trump) != led_suit:
                    allowed &= ~suit_mask(led_suit, trump)
                if led >= 52 and (1 << card) & tmask:
                    forced = self.rules.follow.forces(
                        led == 53,
                        self.rules.seating.team_of(seat) != self.rules.seating.team_of(lead),
                    )
                    if forced and led == 53:
                        allowed &= ~(tmask & ~((1 << (card + 1)) - 1))
                    elif forced:
                        allowed &= ~(tmask & ((1 << card) - 1))
            if _win >= 0 and any((1 << c) & tmask for c in cards):
                broken = broken or self.rules.lead.breaks_trump(bool((1 << led) & tmask))
        return allowed

    def _repr_svg_(self) -> str:
        from backalley.svg import board

        return board(self)

    def diagram(self, ascii: bool = False) -> str:
        """A compact text table of this position (:func:`backalley.diagram.diagram`)."""
        from backalley.diagram import diagram

        return diagram(self, ascii=ascii)


def make_view(state: GameState, seat: int) -> PlayerView:
    """The view of ``state`` from ``seat``."""
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state.players:
        raise SetupError(f"there is no seat {seat!r}; seats are 0 to {state.players - 1}")
    return PlayerView(
        rules=state.rules,
        seat=seat,
        phase=state.phase,
        to_act=state.to_act,
        dealer=state.dealer,
        hand_size=state.hand_size,
        hand_bits=state.hand_bits[seat],
        hand_counts=tuple(h.bit_count() for h in state.hand_bits),
        turn_up_index=state.turn_up_index,
        discard_bits=state.discard_bits,
        trump_index=state.trump_index,
        calls=state.calls,
        outcome=state.outcome,
        leader=state.leader,
        trick_cards=state.trick_cards,
        tricks_won=state.tricks_won,
        history=state.history,
        broken=state.broken,
        scores=state.scores,
        deal_results=state.deal_results,
    )


def load_view(
    *,
    rules: RuleSet,
    seat: int,
    phase: Phase,
    to_act: int | None,
    dealer: int,
    hand_size: int,
    hand: tuple[Card, ...],
    hand_counts: tuple[int, ...],
    turn_up: Card | None,
    discards: tuple[Card, ...],
    trump: Suit | None,
    calls: tuple[Move, ...],
    history: tuple[RawTrick, ...],
    trick: tuple[int, ...],
    leader: int,
    scores: tuple[int, ...],
    deal_results: tuple[DealResult, ...],
    path: str = "$",
) -> PlayerView:
    """A view rebuilt from its public parts, checked for consistency: every
    derived fact (contracts, trick winners, hand counts, whose turn) is
    recomputed from the rules and must match.  Raises
    :class:`~backalley.SerializationError`."""
    from backalley.errors import SerializationError
    from backalley.play import breaks_trump, trick_winner
    from backalley.serialize import check_results
    from backalley.state import first_leader

    def fail(where: str, message: str) -> SerializationError:
        return SerializationError(message, f"{path}.{where}" if where else path)

    n = rules.players
    full = deck_mask(rules.deck)
    schedule = rules.schedule.hand_sizes
    over = phase is Phase.GAME_OVER
    if len(deal_results) > len(schedule) or over != (len(deal_results) == len(schedule)):
        raise fail("phase", f"phase {phase.value!r} does not fit {len(deal_results)} scored deals")
    current = len(deal_results) - 1 if over else len(deal_results)
    if hand_size != schedule[current]:
        raise fail(
            "hand_size", f"deal {current + 1} has {schedule[current]} cards, not {hand_size}"
        )
    check_results(rules, deal_results, scores, path, "deal_results")
    if len(hand_counts) != n:
        raise fail("hand_counts", f"expected {n} hand counts")
    # bidding
    ctx = BiddingContext(hand_size, n, rules.bidding.first(dealer, n), (), rules.teams)
    for i, call in enumerate(calls):
        if i >= n:
            raise fail(f"calls[{i}]", "every player has spoken already")
        ctx = attrs.evolve(ctx, calls=calls[:i])
        why = rules.bidding.refusal(ctx, call)
        if why is not None:
            raise fail(f"calls[{i}]", f"illegal call {call}: {why[1]}")
    outcome = None
    if len(calls) == n:
        outcome = rules.bidding.outcome(attrs.evolve(ctx, calls=calls))
        if outcome.thrown_in:
            raise fail("calls", "these calls throw the deal in; the view would be of the next deal")
    # trump
    trump_index = None if trump is None else trump.index
    if rules.trump.named_by_declarer:
        if (trump is not None) and phase in (Phase.BIDDING, Phase.NAMING_TRUMP):
            raise fail("trump", "trump is not named yet in this phase")
        no_trump_ok = getattr(rules.trump, "allow_no_trump", False)
        if trump is None and not no_trump_ok and phase in (Phase.PLAYING, Phase.GAME_OVER):
            raise fail("trump", "the declarer must name a trump suit under these rules")
    else:
        expected = None
        if rules.trump.turns_up and turn_up is not None and turn_up.suit is not None:
            expected = turn_up.suit.index
        fixed = getattr(rules.trump, "suit", None)
        if isinstance(fixed, Suit):
            expected = fixed.index
        if trump_index != expected:
            raise fail("trump", "the trump does not follow from the rules and the turn-up")
    # phase of the deal
    if len(calls) < n and phase is not Phase.BIDDING:
        raise fail("phase", f"phase {phase.value!r} before every player has called")
    if len(calls) == n and phase is Phase.BIDDING:
        raise fail("phase", "the bidding is complete, so the phase cannot be 'bidding'")
    # cards
    seen = 0
    own = 0
    for card in hand:
        own |= 1 << card.index
    if own.bit_count() != len(hand) or own & ~full:
        raise fail("hand", "the hand has a card twice or a card not in the deck")
    seen = own
    for card in (*discards, *(() if turn_up is None else (turn_up,))):
        if seen >> card.index & 1 or not full >> card.index & 1:
            raise fail("discards", f"{card} is out of place")
        seen |= 1 << card.index
    t = 4 if trump_index is None else trump_index
    bidding_over = outcome is not None and phase not in (Phase.BIDDING, Phase.NAMING_TRUMP)
    if (history or trick) and not bidding_over:
        raise fail("tricks", "cards were played before the bidding was over")
    if outcome is None or phase in (Phase.BIDDING, Phase.NAMING_TRUMP):
        lead = rules.bidding.first(dealer, n)
    else:
        lead = first_leader(rules, outcome, dealer)
    plays = [0] * n
    won = [0] * n
    broken = False
    for i, (t_lead, cards, winner) in enumerate(history):
        if t_lead != lead or len(cards) != n:
            raise fail(f"tricks[{i}]", "the trick's leader or size does not fit the game")
        for k, c in enumerate(cards):
            if seen >> c & 1 or not full >> c & 1:
                raise fail(f"tricks[{i}].cards[{k}]", f"{CARDS[c]} is out of place")
            seen |= 1 << c
            plays[(t_lead + k) % n] += 1
        if winner != (t_lead + trick_winner(cards, t)) % n:
            raise fail(f"tricks[{i}].winner", "the winner is not who took the trick")
        won[winner] += 1
        broken = broken or breaks_trump(rules.lead, cards, t)
        lead = winner
    if len(history) > hand_size or (len(history) == hand_size and not over):
        raise fail("tricks", "more tricks than the deal has")
    if leader != lead or len(trick) >= n or (trick and over):
        raise fail("trick", "the current trick does not fit the tricks before it")
    for k, c in enumerate(trick):
        if seen >> c & 1 or not full >> c & 1:
            raise fail(f"trick[{k}]", f"{CARDS[c]} is out of place")
        seen |= 1 << c
        plays[(lead + k) % n] += 1
    for s in range(n):
        if hand_counts[s] != hand_size - plays[s]:
            raise fail(f"hand_counts[{s}]", f"seat {s} should hold {hand_size - plays[s]} cards")
    if hand_counts[seat] != len(hand):
        raise fail(
            "hand", f"the hand has {len(hand)} cards, but the count says {hand_counts[seat]}"
        )
    if over:
        expected_to_act = None
    elif phase is Phase.BIDDING:
        expected_to_act = (rules.bidding.first(dealer, n) + len(calls)) % n
    elif phase is Phase.NAMING_TRUMP:
        expected_to_act = None if outcome is None else outcome.declarer
    else:
        expected_to_act = (lead + len(trick)) % n
    if to_act != expected_to_act:
        raise fail("to_act", f"seat {expected_to_act} is to act, not {to_act}")
    discard_bits = 0
    for card in discards:
        discard_bits |= 1 << card.index
    return PlayerView(
        rules=rules,
        seat=seat,
        phase=phase,
        to_act=to_act,
        dealer=dealer,
        hand_size=hand_size,
        hand_bits=own,
        hand_counts=hand_counts,
        turn_up_index=None if turn_up is None else turn_up.index,
        discard_bits=discard_bits,
        trump_index=trump_index,
        calls=calls,
        outcome=outcome,
        leader=leader,
        trick_cards=trick,
        tricks_won=tuple(won),
        history=history,
        broken=broken,
        scores=scores,
        deal_results=deal_results,
    )
