"""The game state: an immutable value; every move returns a new state.

``GameState.apply`` checks the move (a bit test for a card, a look-up among
the legal calls for a call, with the full reason only for a refused move) and
hands it to :mod:`backalley.engine.kernel`, which owns the one transition: calls go to
the rule set's bidding part, the trump call to its trump part, cards to the
lead and follow parts, a completed trick to the ranking and lead parts, and a
finished deal to the scoring, dealer and schedule parts - all asked through the
rule set's :attr:`~backalley.RuleSet.plan`.  The engine never looks at a part's
type or options: it only asks the parts for decisions.

Internally cards are small integers and hands bit sets (see
:mod:`backalley.cards`); the public properties give :class:`~backalley.Card`
values, and :mod:`backalley.engine.lowlevel` documents the raw forms.

The optional compiled build compiles this module: an argument a caller may
get wrong (a seat, a move's text) is typed ``object`` and judged in Python
terms, so that it raises the library's own error there too.
"""

from __future__ import annotations

from typing import Any

import attrs

from backalley.cards import CARDS, Card, cards_of_mask
from backalley.engine import kernel
from backalley.engine.kernel import BITS, Deal, Legal, Match, Raw
from backalley.engine.legality import refusal, turn_refusal
from backalley.engine.public import PublicFacts, seat_number
from backalley.engine.views import PlayerView, make_view
from backalley.errors import IllegalMoveError
from backalley.moves import Move, parse_move
from backalley.rules.context import DealContext
from backalley.rules.ruleset import RuleSet
from backalley.values import BiddingOutcome, DealResult, Phase, RawTrick, Trick

__all__ = ["BITS", "Deal", "DealResult", "GameState", "Match", "Phase", "Raw", "Trick"]

_GAME_OVER = Phase.GAME_OVER



@attrs.frozen(slots=True, repr=False)
class GameState(PublicFacts):
    """One moment of a game, with full information (every hand, the stock, the seed).

    Build one with :func:`backalley.new_game`; move on with :meth:`apply`.
    The public reading is through the properties (``hands``, ``trick``,
    ``bids``, ``scores``, ...); :mod:`backalley.engine.lowlevel` reads the engine's
    compact form.
    """

    _raw: Raw
    """The game's raw form (see :class:`backalley.engine.kernel.Raw`)."""
    _legal: Legal | None = attrs.field(default=None, eq=False, hash=False, repr=False)
    """The legal moves once asked (:func:`backalley.engine.kernel.legal`: the
    legal plays as a bit set while playing, the tuple of legal moves
    otherwise); ``None`` until then.  Worked out when first asked by
    :meth:`legal_moves` or :meth:`check` and remembered (not compared, hashed,
    shown or pickled); :meth:`apply` uses them when they are known, else
    works them out for its move alone."""

    @property
    def _core(self) -> Raw:
        """The state's fields (see :func:`backalley.engine.lowlevel.core`)."""
        return self._raw

    @property
    def rules(self) -> RuleSet:
        return self._raw.rules

    @property
    def phase(self) -> Phase:
        return self._raw.phase

    @property
    def leader(self) -> int:
        """Who leads the current trick (the first bidder before the play)."""
        return self._raw.leader

    @property
    def is_over(self) -> bool:
        return self._raw.phase is _GAME_OVER

    @property
    def to_act(self) -> int | None:
        """The seat whose move it is (``None`` when the game is over)."""
        return kernel.to_act(self._raw)

    @property
    def moves(self) -> tuple[Move, ...]:
        """Every move made since the game began, in order (thrown-in deals included)."""
        raw = self._raw
        if raw.phase is _GAME_OVER:
            return raw.match.moves
        return raw.match.moves + kernel.deal_moves(
            raw.calls, raw.deal, raw.history, raw.trick_cards
        )

    @property
    def calls(self) -> tuple[Move, ...]:
        """This deal's calls in the order spoken."""
        return self._raw.calls

    @property
    def outcome(self) -> BiddingOutcome | None:
        """The bidding's result once every player has called (a
        :class:`~backalley.values.BiddingOutcome`), else ``None``."""
        return self._raw.ctx.outcome

    @property
    def dealer(self) -> int:
        return self._raw.ctx.dealer

    @property
    def hand_size(self) -> int:
        return self._raw.ctx.hand_size

    # the raw forms PublicFacts reads (see backalley.engine.lowlevel)
    @property
    def _ctx(self) -> DealContext:
        return self._raw.ctx

    @property
    def _trick_cards(self) -> tuple[int, ...]:
        return self._raw.trick_cards

    @property
    def _history(self) -> tuple[RawTrick, ...]:
        return self._raw.history

    @property
    def _broken(self) -> bool:
        return self._raw.broken

    @property
    def _turn_up_index(self) -> int | None:
        return self._raw.deal.turn_up_index

    @property
    def _discard_bits(self) -> int:
        return self._raw.deal.discard_bits

    def _hand_mask(self, seat: int) -> int:
        return self._raw.hand_bits[seat]

    def __reduce__(self) -> tuple[Any, ...]:
        # the state is its raw form; the bidding node and the legal moves are worked out again
        return (_restore, (kernel.reduced(self._raw),))

    # ------------------------------------------------------------------ reading

    def __repr__(self) -> str:
        name = self.rules.name or "custom"
        if self.phase is Phase.GAME_OVER:
            return f"<GameState {name}: game over after {self.deals_played} deals, scores {self.scores}>"
        return (
            f"<GameState {name}: deal {self.deals_played + 1}/{self.rules.schedule.deals} "
            f"({self.hand_size} cards), {self.phase.value}, seat {self.to_act} to act>"
        )

    @property
    def seed(self) -> int:
        """The seed all chance in this game comes from (full information only)."""
        return self._raw.match.seed

    @property
    def first_dealer(self) -> int:
        return self._raw.match.first_dealer

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        """Every seat's hand, each in card order."""
        return tuple(cards_of_mask(h) for h in self._raw.hand_bits)

    def hand(self, seat: object) -> tuple[Card, ...]:
        """The hand of ``seat``, in card order."""
        return cards_of_mask(self._raw.hand_bits[seat_number(self.players, seat)])

    @property
    def stock(self) -> tuple[Card, ...]:
        """The undealt cards, top first (the turn-up is not among them)."""
        return tuple(CARDS[i] for i in self._raw.deal.stock_order)

    @property
    def scores(self) -> tuple[int, ...]:
        """Cumulative points per side (team, or seat in a cutthroat game)."""
        return self._raw.match.scores

    @property
    def deal_results(self) -> tuple[DealResult, ...]:
        """One record per scored deal."""
        return self._raw.match.results

    # ---------------------------------------------------------------- legality

    def legal_moves(self) -> tuple[Move, ...]:
        """The legal moves of the seat to act, in a deterministic order."""
        legal = self._legal
        if legal is None:
            legal = _legal_of(self)
        if isinstance(legal, int):
            plan = self._raw.rules.plan
            return plan._plays.get(legal) or plan.plays(legal)
        return legal

    def is_legal(self, move: object) -> bool:
        """Whether ``move`` is legal for the seat to act now."""
        return self._find(move) is not None

    def _find(self, move: object) -> Move | None:
        """The legal move equal to ``move`` (``None`` if it is not legal)."""
        legal = self._legal
        if legal is None:
            legal = _legal_of(self)
        return kernel.find(self._raw, legal, move)

    def check(self, move: object, seat: object = None) -> None:
        """Raise :class:`~backalley.IllegalMoveError` if ``move`` is not legal now.

        With ``seat``, also refuse a move by a seat that is not to act
        (``NOT_YOUR_TURN``, ``ALREADY_BID`` for a seat that has spoken,
        ``NOT_DECLARER`` while the declarer names trump).  A ``seat`` that is
        not a seat of this game raises :class:`~backalley.SetupError`.  The
        error carries ``move`` and ``seat`` (``seat``, or the seat to act).
        """
        by = None if seat is None else seat_number(self.players, seat)
        if by is not None and self.phase is not Phase.GAME_OVER and by != self.to_act:
            raise _turn_error(self, move, by)
        if self._find(move) is not None:
            return
        why = refusal(self, move)
        if why is None:  # pragma: no cover - legal_moves and refusal ask the same parts
            raise AssertionError(f"{move} is refused without a reason")
        raise IllegalMoveError(*why, move=move, seat=self.to_act if by is None else by)

    def apply(self, move: Move) -> GameState:
        """The state after ``move`` by the seat to act.

        Raises :class:`~backalley.IllegalMoveError` (and leaves this state as it
        was: states never change) when the move is not legal.
        """
        raw = self._raw
        legal = self._legal
        if legal is None:  # worked out for this move alone (what a replay meets)
            legal = kernel.legal(raw)
        after = kernel.advance(raw, legal, move)
        if after is None:
            self.check(move)  # raises, with the reason
            raise AssertionError(f"{move} is refused without a reason")  # pragma: no cover
        return _state(after)

    def apply_text(self, text: object) -> GameState:
        """The state after the move written ``text`` (``"bid 3"``, ``"QS"``,
        ``"play Q♠"``: :func:`~backalley.parse_move`'s notation), by the seat
        to act: what a user interface calls with what a player typed.

        Raises :class:`~backalley.NotationError` for text that is no move
        (naming the part that is wrong) and
        :class:`~backalley.IllegalMoveError` for a move that is not legal."""
        return self.apply(parse_move(text))  # type: ignore[arg-type]  # it judges any object

    def apply_unchecked(self, move: Move) -> GameState:
        """The fast path for simulations: ``apply`` without validating ``move``.

        Only for moves taken from :meth:`legal_moves` of this very state; any
        other move gives an undefined (but still immutable) result.
        """
        return _state(kernel.step(self._raw, move))

    def view(self, seat: object) -> PlayerView:
        """What ``seat`` may know: see :class:`~backalley.PlayerView`."""
        return make_view(self, seat_number(self.players, seat))

    def _repr_svg_(self) -> str:
        from backalley.render.svg import board

        return board(self)

    def diagram(self, ascii: object = False) -> str:
        """A compact text table of this position (:func:`backalley.render.diagram.diagram`)."""
        from backalley.render.diagram import diagram

        return diagram(self, ascii=ascii)  # type: ignore[arg-type]  # any truth value


_new = object.__new__
_set_raw = GameState.__dict__["_raw"].__set__
_set_legal = GameState.__dict__["_legal"].__set__


def _state(raw: Raw) -> GameState:
    """The one builder of a :class:`GameState`: its raw form, the legal moves
    not yet asked (two slot stores: a state is built on every move)."""
    state = _new(GameState)
    _set_raw(state, raw)
    _set_legal(state, None)
    return state


def _legal_of(state: GameState) -> Legal:
    """The legal moves of ``state``, worked out on the first asking and kept
    in its cache slot (the builder's other store: the answer is a function of
    the state, so the state's value does not change)."""
    legal = kernel.legal(state._raw)
    _set_legal(state, legal)
    return legal


def _restore(raw: Raw) -> GameState:
    """A state from its pickled raw form: the bidding's node is found again."""
    return _state(kernel.restore(raw))


def _turn_error(state: GameState, move: object, seat: int) -> IllegalMoveError:
    """The refusal of ``move`` by ``seat``, a seat of the game that is not to act."""
    why = turn_refusal(state, seat)
    assert why is not None
    return IllegalMoveError(*why, move=move, seat=seat)
