"""The trump part: how each deal's trump is fixed (see :ref:`rules-trump`).

Jokers always belong to the trump suit.  In a deal without a trump suit a
joker that is still in play forms a trump suit of its own (the only trumps),
as in the ``bab-online`` preset; under the gamerules turn-up no joker stays
in play then.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

import attrs

from backalley.cards import BJ_INDEX, CARDS, LJ_INDEX, SUITS, Card, Suit
from backalley.cardset import CardSet
from backalley.errors import RuleSetError
from backalley.reprs import fields_repr
from backalley.rules.base import Option, Part, has_jokers, is_bool
from backalley.rules.context import DealContext
from backalley.rules.registry import register

if TYPE_CHECKING:
    from backalley.rules.protocols import RuleSetFacts

__all__ = [
    "OpeningForm",
    "declared_opening",
    "open_by_form",
    "DeclarerNamesTrump",
    "FixedTrump",
    "JokerTurnUp",
    "NoTrump",
    "SwapDraw",
    "TrumpSetup",
    "TurnUpTrump",
    "TurnedBeforeDeal",
]


class JokerTurnUp(Option):
    """Option ``joker_turn_up``: what a turned-up joker does (see :ref:`rules-trump`)."""

    NO_TRUMP_SWAP_OTHER_JOKER = "no-trump-swap-other-joker"
    """No trump suit; the holder of the other joker discards it and draws the
    next stock card (gamerules default)."""
    TURN_NEXT_CARD = "turn-next-card"
    """Bury the joker and keep turning until a suited card appears (no trump if
    the stock runs out first)."""
    NO_TRUMP_OTHER_JOKER_STAYS = "no-trump-other-joker-stays"
    """No trump suit; the other joker stays in play as the only trump (bab-online)."""


class SwapDraw(Option):
    """Option ``swap_draw`` of the turn-up (read with ``joker_turn_up =
    no-trump-swap-other-joker``): which stock card the holder of the other
    joker draws (see :ref:`rules-trump`)."""

    TOP = "top"
    """The top card of the stock left after the turn-up (the gamerules sheet)."""
    BOTTOM = "bottom"
    """The last card of the deck, the bottom of the stock (denexa's page); on a
    deal that leaves one stock card after the turn-up it is the same card."""


@attrs.frozen(slots=True, repr=False)
class TrumpSetup:
    """What the trump part did to a freshly dealt deal."""

    __repr__ = fields_repr

    hands: tuple[CardSet, ...]
    """Every hand after the part's handling (a joker swapped for a stock card, ...)."""
    stock: tuple[Card, ...]
    """The stock that is left, top first (the turn-up is not in it)."""
    turn_up: Card | None
    """The card turned up (``None`` where nothing is turned)."""
    trump: Suit | None
    """The opening trump: a suit, or ``None`` for no trump suit."""
    discards: CardSet = attrs.field(factory=CardSet)
    """The cards put out of play besides the turn-up (a swapped or buried joker)."""


@attrs.frozen(slots=True)
class OpeningForm:
    """What a trump part's opening does to a dealt deal, as data (its
    ``opening_form``), which :func:`open_by_form` carries out - the part's
    own ``opening`` - and the batch engine carries out on many deals at once.

    - ``turns_up``: whether a stock card is turned up; the turn-up is the
      first stock card (top first) not in ``passes``, or the last stock card
      when every one is; the cards of ``passes`` turned before it are buried
      (put out of play, the deal's discards);
    - ``swap``: per card index (54 entries), the cards whose holder, when
      that card is the turn-up, discards it and draws a stock card - the next
      one, or with ``draw_bottom`` the last - if the stock has one left.
    """

    turns_up: bool = False
    passes: CardSet = attrs.field(factory=CardSet)
    swap: tuple[CardSet, ...] = attrs.field(factory=lambda: (CardSet(),) * 54)
    draw_bottom: bool = False


def declared_opening(part: object) -> OpeningForm | None:
    """The trump part's :class:`OpeningForm` when its ``opening`` is the one
    that carries out that form (a part whose class gives an ``opening`` of its
    own declares none), else ``None``."""
    if getattr(type(part), "opening", None) is not _TrumpPart.opening:
        return None
    form = part.opening_form()  # type: ignore[attr-defined]
    return form if isinstance(form, OpeningForm) else None


def open_by_form(
    form: OpeningForm, hands: tuple[CardSet, ...], stock: tuple[Card, ...]
) -> tuple[tuple[CardSet, ...], tuple[Card, ...], Card | None, CardSet]:
    """The opening ``form`` of a freshly dealt deal: the hands after it, the
    stock left (top first), the turn-up (``None``: none) and the discards."""
    if not form.turns_up or not stock:
        return hands, stock, None, CardSet()
    at = 0
    while at < len(stock) - 1 and stock[at] in form.passes:
        at += 1
    turn_up, rest = stock[at], stock[at + 1 :]
    discards = CardSet.of(stock[:at])
    swap = form.swap[turn_up.index]
    if swap and rest:
        for seat, hand in enumerate(hands):
            held = hand & swap
            if held:
                drawn = rest[-1] if form.draw_bottom else rest[0]
                rest = rest[:-1] if form.draw_bottom else rest[1:]
                hands = (*hands[:seat], (hand - held) | CardSet.of((drawn,)), *hands[seat + 1 :])
                discards |= held
                break
    return hands, rest, turn_up, discards


_JOKERS = CardSet.of((CARDS[LJ_INDEX], CARDS[BJ_INDEX]))
_NOTHING: frozenset[str] = frozenset()
_TURNS_NOTHING = OpeningForm()
"""The opening of a trump part that turns no card up."""


class _TrumpPart(Part):
    """Defaults of the trump protocol: no card turned up, nobody names trump."""

    __slots__ = ()

    def turns_up(self) -> bool:
        return False

    def stock_needed(self, deck: Any) -> int:
        """Cards the part needs beyond the hands (the turn-up, a card to draw)."""
        return 0

    def choices(self, ctx: DealContext) -> tuple[Suit | None, ...]:
        return ()

    def trump_for(self, ctx: DealContext, turn_up: Card | None) -> Suit | None:
        return None

    def discardable(self, ctx: DealContext, turn_up: Card | None) -> CardSet:
        return CardSet()

    def left_in_stock(self, ctx: DealContext, turn_up: Card | None, discards: CardSet) -> CardSet:
        """No opening shows where an unseen card is."""
        return CardSet()

    def opening_form(self) -> OpeningForm:
        """What the opening does (:class:`OpeningForm`): nothing is turned up."""
        return _TURNS_NOTHING

    def opening(
        self, ctx: DealContext, hands: tuple[CardSet, ...], stock: tuple[Card, ...]
    ) -> TrumpSetup:
        """The :meth:`opening_form` carried out; the trump is :meth:`trump_for`
        the turn-up."""
        hands, rest, turn_up, discards = open_by_form(self.opening_form(), hands, stock)
        return TrumpSetup(hands, rest, turn_up, self.trump_for(ctx, turn_up), discards)


@register
@attrs.frozen(slots=True, repr=False)
class TurnUpTrump(_TrumpPart):
    """After dealing, the top card of the stock is turned up; its suit is trump
    (see :ref:`rules-trump`).  A turned joker is handled by ``joker_turn_up``
    (under the swap, ``swap_draw`` says which stock card the other joker's
    holder draws)."""

    tag: ClassVar[str] = "turn-up"
    part: ClassVar[str] = "trump"

    def context_reads(self, method: str) -> frozenset[str] | None:
        """:meth:`choices` and :meth:`left_in_stock` read nothing of the deal's context."""
        return _NOTHING if method in ("choices", "left_in_stock") else None

    joker_turn_up: JokerTurnUp = attrs.field(
        default=JokerTurnUp.NO_TRUMP_SWAP_OTHER_JOKER, converter=JokerTurnUp
    )
    swap_draw: SwapDraw = attrs.field(default=SwapDraw.TOP, converter=SwapDraw)

    def turns_up(self) -> bool:
        return True

    def stock_needed(self, deck: Any) -> int:
        swap = self.joker_turn_up is JokerTurnUp.NO_TRUMP_SWAP_OTHER_JOKER and deck.has_jokers
        return 2 if swap else 1

    def trump_for(self, ctx: DealContext, turn_up: Card | None) -> Suit | None:
        """The turned card's suit; no trump suit for a turned joker (or none turned)."""
        return None if turn_up is None else turn_up.suit

    def discardable(self, ctx: DealContext, turn_up: Card | None) -> CardSet:
        """A turned joker swaps the other joker out; buried jokers are out too."""
        mode = self.joker_turn_up
        if turn_up is None or mode is JokerTurnUp.NO_TRUMP_OTHER_JOKER_STAYS:
            return CardSet()
        if mode is JokerTurnUp.TURN_NEXT_CARD or turn_up.is_joker:
            return _JOKERS - CardSet.of((turn_up,))
        return CardSet()

    def left_in_stock(self, ctx: DealContext, turn_up: Card | None, discards: CardSet) -> CardSet:
        """A turned joker with no joker swapped out (under the swap rule): the
        other joker was in no hand, so it is in the stock."""
        if (
            self.joker_turn_up is JokerTurnUp.NO_TRUMP_SWAP_OTHER_JOKER
            and turn_up is not None
            and turn_up.is_joker
            and not discards
        ):
            return _JOKERS - CardSet.of((turn_up,))
        return CardSet()

    def opening_form(self) -> OpeningForm:
        """The top stock card is turned up.  A turned joker (``joker_turn_up``):
        under ``turn-next-card`` the jokers are passed over and buried until a
        suited card shows (the last stock card stays turned if none does);
        under the swap, whoever holds the other joker discards it and draws
        the next stock card (``swap_draw = bottom``: the last one); under
        ``other-joker-stays`` nothing more happens."""
        mode = self.joker_turn_up
        if mode is JokerTurnUp.TURN_NEXT_CARD:
            return OpeningForm(turns_up=True, passes=_JOKERS)
        swap = [CardSet()] * 54
        if mode is JokerTurnUp.NO_TRUMP_SWAP_OTHER_JOKER:
            swap[LJ_INDEX] = CardSet.of((CARDS[BJ_INDEX],))
            swap[BJ_INDEX] = CardSet.of((CARDS[LJ_INDEX],))
        return OpeningForm(
            turns_up=True, swap=tuple(swap), draw_bottom=self.swap_draw is SwapDraw.BOTTOM
        )

    def describe(self) -> str:
        return self._describe(jokers=True)

    def describe_in(self, rules: RuleSetFacts) -> str:
        """Without jokers in the deck nothing is said of a turned joker."""
        return self._describe(jokers=has_jokers(rules))

    def _describe(self, jokers: bool) -> str:
        text = "After the deal the top stock card is turned up; its suit is trump."
        text += (
            " The turned-up card stays face up on the table for the whole deal: it belongs "
            "to no hand and is never played."
        )
        if not jokers:
            return text
        mode = self.joker_turn_up
        if mode is JokerTurnUp.NO_TRUMP_SWAP_OTHER_JOKER:
            drawn = (
                "the last card of the deck (the bottom of the stock)"
                if self.swap_draw is SwapDraw.BOTTOM
                else "the next stock card"
            )
            text += (
                " A turned joker means no trump suit: whoever holds the other joker discards "
                f"it and draws {drawn}, so no joker is in play."
            )
        elif mode is JokerTurnUp.TURN_NEXT_CARD:
            text += (
                " A turned joker is buried and the next card turned, until a suited card shows"
                " (if the stock runs out first, the deal has no trump suit and a joker in a "
                "hand is the only trump)."
            )
        else:
            text += (
                " A turned joker means no trump suit; the turned joker is out of play and the "
                "other joker stays in play as the only trump."
            )
        return text


def _to_suit(value: Any) -> Suit:
    if isinstance(value, Suit):
        return value
    try:
        return Suit.parse(value)
    except ValueError as exc:
        raise RuleSetError([f"trump: {exc}"]) from None


@register
@attrs.frozen(slots=True, repr=False)
class FixedTrump(_TrumpPart):
    """The same suit (e.g. spades) is trump in every deal; nothing is turned up."""

    tag: ClassVar[str] = "fixed"
    part: ClassVar[str] = "trump"

    def context_reads(self, method: str) -> frozenset[str] | None:
        """:meth:`choices` and :meth:`left_in_stock` read nothing of the deal's context."""
        return _NOTHING if method in ("choices", "left_in_stock") else None

    suit: Suit = attrs.field(default=Suit.SPADES, converter=_to_suit)

    def trump_for(self, ctx: DealContext, turn_up: Card | None) -> Suit | None:
        return self.suit

    def describe(self) -> str:
        return f"{self.suit.plural.capitalize()} are always trump; nothing is turned up."


@register
@attrs.frozen(slots=True, repr=False)
class TurnedBeforeDeal(_TrumpPart):
    """Before each deal the shuffled deck's top card is turned and its suit is
    trump; the card is shuffled back and the deck shuffled again before the
    deal, so the trump card may be in any hand (see :ref:`rules-trump`).  A
    turned joker is shuffled back too and the next card turned.  Nothing is
    turned up after the deal: this is how a deal that uses every card can
    have a trump suit."""

    tag: ClassVar[str] = "turned-before-deal"
    part: ClassVar[str] = "trump"

    def trump_before_deal(self, ctx: DealContext, deck: tuple[Card, ...]) -> Suit | None:
        """The suit of the first suited card of the deck shuffled before the
        deal (``None``, no trump suit, for a deck of jokers only)."""
        for card in deck:
            if card.suit is not None:
                return card.suit
        return None

    def trump_for(self, ctx: DealContext, turn_up: Card | None) -> Suit | None:
        """The trump drawn before the deal (``ctx.trump``)."""
        return ctx.trump

    def opening(
        self, ctx: DealContext, hands: tuple[CardSet, ...], stock: tuple[Card, ...]
    ) -> TrumpSetup:
        """The hands as dealt; the trump is the one drawn before the deal."""
        return TrumpSetup(hands, stock, None, ctx.trump)

    def describe(self) -> str:
        return (
            "Before each deal the dealer shuffles, turns the top card of the whole deck and "
            "shows it: its suit is trump (a joker is put back and the next card turned). The "
            "card goes back into the deck, which is shuffled again and dealt, so the card "
            "turned may be in anyone's hand; nothing is turned up after the deal."
        )


@register
@attrs.frozen(slots=True, repr=False)
class DeclarerNamesTrump(_TrumpPart):
    """The declarer names trump after the auction (see :ref:`rules-auction`); with
    ``allow_no_trump`` the declarer may also call no trump."""

    tag: ClassVar[str] = "declarer-names"
    part: ClassVar[str] = "trump"

    def context_reads(self, method: str) -> frozenset[str] | None:
        """:meth:`choices` and :meth:`left_in_stock` read nothing of the deal's context."""
        return _NOTHING if method in ("choices", "left_in_stock") else None

    allow_no_trump: bool = attrs.field(default=False, validator=is_bool)

    def needs(self) -> frozenset[str]:
        return frozenset({"declarer-every-deal"})

    def choices(self, ctx: DealContext) -> tuple[Suit | None, ...]:
        """The four suits (C D H S), then no trump when ``allow_no_trump``."""
        return (*SUITS, None) if self.allow_no_trump else SUITS

    def describe(self) -> str:
        return self._describe(jokers=True)

    def describe_in(self, rules: RuleSetFacts) -> str:
        return self._describe(jokers=has_jokers(rules))

    def _describe(self, jokers: bool) -> str:
        text = "The declarer names the trump suit after the auction"
        if not self.allow_no_trump:
            return text + " (one of the four suits)."
        return text + (
            ", or no trump (the jokers are then the only trumps)." if jokers else ", or no trump."
        )


@register
@attrs.frozen(slots=True, repr=False)
class NoTrump(_TrumpPart):
    """No deal has a trump suit (jokers, if any, are the only trumps)."""

    tag: ClassVar[str] = "none"
    part: ClassVar[str] = "trump"

    def context_reads(self, method: str) -> frozenset[str] | None:
        """:meth:`choices` and :meth:`left_in_stock` read nothing of the deal's context."""
        return _NOTHING if method in ("choices", "left_in_stock") else None

    def describe(self) -> str:
        return "No deal has a trump suit; jokers, if any, are the only trumps."

    def describe_in(self, rules: RuleSetFacts) -> str:
        if has_jokers(rules):
            return "No deal has a trump suit; the two jokers are the only trumps."
        return "No deal has a trump suit."
