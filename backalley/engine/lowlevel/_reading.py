"""Reading a position's raw facts: the fields the engine keeps, as card
indices and bit sets, without building public values (see the package's
description for the forms)."""

from __future__ import annotations

import warnings
from typing import NamedTuple

from backalley.cards import Suit
from backalley.cardset import CardSet
from backalley.engine import kernel
from backalley.engine.legality import legal_play_mask as _legal_play_mask
from backalley.engine.public import PublicFacts
from backalley.engine.state import GameState, Raw
from backalley.engine.views import PlayerView
from backalley.moves import Play
from backalley.rules.context import TRUMP_INDEX, DealContext
from backalley.rules.ruleset import RuleSet
from backalley.values import Phase, RawTrick

__all__ = [
    "DealRules",
    "RawPosition",
    "StateOrView",
    "broken",
    "core",
    "deal_context",
    "deal_rules",
    "deals_over",
    "dealt_bits",
    "discard_bits",
    "hand_bits",
    "history",
    "legal_play_mask",
    "out_of_play_bits",
    "played_bits",
    "played_from_start",
    "possible_bits",
    "raw_position",
    "stock_order",
    "thrown_in",
    "trick_cards",
    "trump_index",
    "turn_up_index",
]

StateOrView = GameState | PlayerView


def core(state: GameState) -> Raw:
    """The state's fields in one named tuple (its raw form,
    :class:`~backalley.engine.kernel.Raw`): rules, match, deal, phase, hands
    (bit sets, ``hand_bits``), leader, current trick (card indices,
    ``trick_cards``), completed tricks, trump broken, the deal's context, the
    calls so far and the bidding's node."""
    return state._raw


def deal_context(position: PublicFacts) -> DealContext:
    """The :class:`~backalley.rules.DealContext` the rule parts decide from."""
    return position._ctx


def hand_bits(position: PublicFacts, seat: int) -> int:
    """The hand of ``seat`` as a bit set (0 for a hand a view does not know)."""
    return position._hand_mask(seat)


def deals_over(state: GameState) -> int:
    """How many deals of the game are over, scored or thrown in (the kernel's
    :func:`~backalley.engine.kernel.deals_over`): a move ended a deal exactly
    when this count went up from the state before it to the state after."""
    return kernel.deals_over(state._raw)


def thrown_in(state: GameState) -> int:
    """How many deals of the game so far were thrown in (dealt, nobody
    contracted, dealt again): the deals over that were not scored."""
    return kernel.deals_over(state._raw) - len(state._raw.match.results)


def played_from_start(state: GameState) -> bool:
    """Whether ``state`` was played from a new game (its moves replay to it
    from ``new_game``), not opened mid-game as :func:`opening` opens a sample
    of a later deal: the moves of the deals over hold every card they scored."""
    match = state._raw.match
    plays = sum(1 for move in match.moves if type(move) is Play)
    return not match.results or plays == state.players * sum(r.hand_size for r in match.results)


def dealt_bits(state: GameState) -> tuple[int, ...]:
    """Every hand as dealt this deal (after the trump part's turn-up handling)."""
    return state._raw.deal.dealt_bits


def stock_order(state: GameState) -> tuple[int, ...]:
    """The undealt cards, top first."""
    return state._raw.deal.stock_order


def turn_up_index(position: PublicFacts) -> int | None:
    """The turned-up card's index, or ``None`` where none is turned up."""
    return position._turn_up_index


def discard_bits(position: PublicFacts) -> int:
    """The cards the trump part's opening set aside this deal (a bit set)."""
    return position._discard_bits


def out_of_play_bits(position: PublicFacts) -> int:
    """The cards no hand can hold this deal: the turn-up and the discards."""
    bits = position._discard_bits
    turn_up = position._turn_up_index
    if turn_up is not None:
        bits |= 1 << turn_up
    return bits


def trump_index(position: PublicFacts) -> int:
    """Deprecated: the effective trump as a number, 0..3 (C D H S) or 4 for
    none.  Read ``position.trump`` (a :class:`~backalley.Suit` or ``None``)
    instead: the trump crosses this interface as a suit."""
    warnings.warn(
        "lowlevel.trump_index is deprecated: read position.trump (a Suit, or None for no trump)",
        DeprecationWarning,
        stacklevel=2,
    )
    return TRUMP_INDEX[position._ctx.trump]


def trick_cards(position: PublicFacts) -> tuple[int, ...]:
    """The current trick's card indices in the order played (led by ``position.leader``)."""
    return position._trick_cards


def history(position: PublicFacts) -> tuple[RawTrick, ...]:
    """This deal's completed tricks: ``(leader, card indices, winner)``."""
    return position._history


def broken(position: PublicFacts) -> bool:
    """Whether trump has been broken this deal."""
    return position._broken


def played_bits(position: PublicFacts) -> int:
    """The cards played to tricks this deal (the current trick included)."""
    return position._played_bits()


def possible_bits(view: PlayerView, seat: int) -> int:
    """The cards ``seat`` may still hold as ``view`` sees it (see
    :meth:`~backalley.PlayerView.possible_cards`), as a bit set."""
    if seat == view.seat:
        return view._hand_mask(seat)
    return view._possible_bits(seat)


def legal_play_mask(position: PublicFacts) -> int:
    """The cards the seat to act may play, as a bit set (0 outside the play)."""
    if position.phase is not Phase.PLAYING:
        return 0
    return _legal_play_mask(position)


# ------------------------------------------------------------ a deal's rules


class DealRules(NamedTuple):
    """A rule set and the context of one deal it is applied to, without the
    facts of the play (the cards played before a trick, whether trump is
    broken): what the play's answers of :mod:`backalley.engine.lowlevel` are
    asked with (hashable, so a tool can key its memos by it)."""

    rules: RuleSet
    ctx: DealContext


def deal_rules(position: PublicFacts) -> DealRules:
    """The position's rule set and its deal's context, the facts of the play
    left out (see :class:`DealRules`)."""
    ctx = position._ctx
    if ctx.played or ctx.broken:  # the deal's context, the same for every position of the deal
        ctx = ctx._replace(played=CardSet(), broken=False, played_by=())
    return DealRules(position.rules, ctx)


class RawPosition(NamedTuple):
    """The raw facts of a state in the playing phase."""

    rules: DealRules
    """The rule set and the deal's context (see :class:`DealRules`)."""
    hands: tuple[int, ...]
    """Every seat's hand (bit sets)."""
    trick: tuple[int, ...]
    """The current trick's card indices, in the order played."""
    leader: int
    """The seat that led the current trick."""
    broken: bool
    """Whether trump has been broken."""
    trump: Suit | None
    """The deal's trump: a suit, or ``None`` for none."""
    board_bidders: frozenset[int]
    """The seats that bid board this deal."""
    played: int = 0
    """The cards played to the deal's earlier tricks (a bit set)."""
    played_by: tuple[int, ...] = ()
    """The same cards seat by seat (bit sets; empty before the first trick is complete)."""

    def owners(self) -> tuple[int, ...]:
        """The cards each seat held when the deal opened (bit sets): its hand,
        its card in the trick, and the cards it played to the earlier tricks."""
        owned = list(self.hands)
        for s, cards in enumerate(self.played_by):
            owned[s] |= cards
        n = len(owned)
        for k, c in enumerate(self.trick):
            owned[(self.leader + k) % n] |= 1 << c
        return tuple(owned)


def raw_position(state: GameState) -> RawPosition | None:
    """The raw facts of ``state`` (every hand, the trick, the deal's
    :class:`DealRules`, ...), or ``None`` when it is not in the playing phase."""
    if state.phase is not Phase.PLAYING:
        return None
    ctx = state._ctx
    return RawPosition(
        deal_rules(state),
        tuple(state._hand_mask(s) for s in range(state.players)),
        state._trick_cards,
        state.leader,
        state._broken,
        ctx.trump,
        ctx.board_bidders,
        int(ctx.played),
        tuple(map(int, ctx.played_by)),
    )
