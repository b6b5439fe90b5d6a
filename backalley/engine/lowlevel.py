"""The engine's raw forms, for code that needs speed more than comfort
(bots, solvers, adapters to other frameworks).

A card is an index 0..53 (clubs 0..12, diamonds 13..25, hearts 26..38,
spades 39..51, each from 2 up to the ace; ``LJ`` 52, ``BJ`` 53) and a set of
cards a bit set (an ``int`` with bit ``i`` for card ``i``).  The effective
trump is a suit index 0..3 (C D H S) or 4 for a deal without a trump suit.
A *position* is a :class:`~backalley.GameState` or a
:class:`~backalley.PlayerView`.

These functions read a position without building public values; they are
stable, but the values they return are the engine's own and carry no
validation.  :func:`deal_order` starts a deal from a known deck order (what
frameworks with explicit chance nodes need), and :func:`opening` the current
deal of a position (what a bot that samples hidden hands needs).  :func:`playout` plays many
moves for bots and simulations without building a state per move.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from backalley.cards import Card, parse_card
from backalley.engine import kernel
from backalley.engine.kernel import Deal, Match
from backalley.engine.legality import legal_play_mask as _legal_play_mask
from backalley.engine.public import PublicFacts
from backalley.engine.state import Core, GameState, _state
from backalley.engine.views import PlayerView
from backalley.errors import NotationError, SetupError
from backalley.moves import Move, Play
from backalley.rules.context import TRUMP_INDEX, DealContext
from backalley.rules.ruleset import RuleSet
from backalley.values import Phase, RawTrick

__all__ = [
    "Core",
    "Deal",
    "Match",
    "RawTrick",
    "broken",
    "core",
    "deal_context",
    "deal_order",
    "deals_over",
    "dealt_bits",
    "discard_bits",
    "hand_bits",
    "history",
    "legal_play_mask",
    "opening",
    "played_bits",
    "playout",
    "possible_bits",
    "receiver",
    "stock_order",
    "thrown_in",
    "trick_cards",
    "trump_index",
    "turn_up_index",
]

StateOrView = GameState | PlayerView


def core(state: GameState) -> Core:
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


def receiver(k: int, dealer: int, players: int, hand_size: int) -> int | None:
    """The seat that card ``k`` (from 0) of a deal's deck order goes to, or
    ``None`` for a card left in the stock: the kernel's dealing
    (:func:`~backalley.engine.kernel.receiver`), for frameworks that deal
    through chance nodes of their own."""
    return kernel.receiver(k, dealer, players, hand_size)


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
    return position._turn_up_index


def discard_bits(position: PublicFacts) -> int:
    return position._discard_bits


def trump_index(position: PublicFacts) -> int:
    """The effective trump: 0..3, or 4 for none (also while trump is not named yet)."""
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
    """The cards played to tricks this deal."""
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


def deal_order(state: GameState, order: Sequence[Card | str | int]) -> GameState:
    """The state at the opening of the current deal, dealt again from the deck
    ``order`` (cards, card texts or indices; top first) instead of the shuffle.

    Only at the opening of a deal (the bidding phase, before any call): this is
    how a framework that deals through its own chance nodes imposes the cards.
    Raises :class:`~backalley.SetupError` otherwise, or for an order that is not
    exactly the rule set's deck.
    """
    core = state._raw
    if core.phase is not Phase.BIDDING or core.calls:
        raise SetupError("a deck order can be dealt only at the opening of a deal (no call yet)")
    return _state(kernel.impose(state._raw, _deck(core.rules, order)))


def opening(position: StateOrView, order: Sequence[Card | str | int]) -> GameState:
    """A full state at the opening of ``position``'s current deal (a state or
    a player's view, in any phase), dealt from the deck ``order``.

    The state has the position's rule set, scores and deal results - so the
    same deal index, dealer, hand size and deal context, whatever a rule
    reads of them - and seed 0 for any later deal; its first dealer is a
    state's own, or for a view the dealer of the first deal result (a view
    does not show who dealt a deal that was thrown in).  At the game's first
    deal it is a new game (dealer the deal's, ``order`` its first deck order),
    which a state document can hold; a sample of a later deal began mid-game,
    and :func:`~backalley.to_json` refuses it.  Replaying the position's
    calls and plays on it gives a full state that agrees with a view: how a
    bot samples the hidden hands.  Raises :class:`~backalley.SetupError` for
    a finished game, or an order that is not exactly the rule set's deck.
    """
    if position.phase is Phase.GAME_OVER:
        raise SetupError("the game is over: there is no deal to open")
    rules = position.rules
    ctx = position._ctx
    results = position.deal_results
    deck = _deck(rules, order)
    if not results:  # the game's first deal: a game from its start, dealt from the order
        shuffles = _first_shuffles(rules, ctx, deck)
        return _state(kernel.begin(rules, 0, ctx.dealer, shuffles, order=deck))
    first = position.first_dealer if isinstance(position, GameState) else results[0].dealer
    raw = kernel.resume(
        rules, first, position.scores, results, ctx.dealer, ctx.hand_size, deck, ctx.trump
    )
    return _state(raw)


def _first_shuffles(
    rules: RuleSet, ctx: DealContext, deck: tuple[int, ...]
) -> tuple[tuple[int, ...], ...]:
    """The shuffles of a new game whose first deal is dealt from ``deck``:
    ``deck`` alone, or, when the trump part draws trump before the deal, a
    shuffle from which it draws the deal's trump ``ctx.trump`` (found by
    asking it: the deck, cut at each card in turn), then ``deck``."""
    plan = rules.plan
    if not plan.draws_before_deal:
        return (deck,)
    cards = plan.deck_cards
    for cut in range(len(cards)):
        shuffle = cards[cut:] + cards[:cut]
        if plan.trump_before_deal(ctx, shuffle) is ctx.trump:
            return (shuffle, deck)
    raise SetupError(f"no shuffle of the deck draws {ctx.trump or 'no trump'} before the deal")


def _deck(rules: RuleSet, order: Sequence[Card | str | int]) -> tuple[int, ...]:
    """The card indices of a deck ``order``, which must be exactly the rule set's deck."""
    indices = []
    for k, item in enumerate(order):
        if isinstance(item, (Card, str)):
            try:
                indices.append(parse_card(item).index)
            except NotationError as exc:
                raise SetupError(f"order[{k}]: {exc}") from None
        elif isinstance(item, int) and not isinstance(item, bool):
            if not 0 <= item < 54:
                raise SetupError(f"order[{k}]: {item} is not a card index 0..53")
            indices.append(item)
        else:
            raise SetupError(
                f"order[{k}]: a card is a Card, its text like 'QS' or its index, "
                f"not {type(item).__name__}"
            )
    mask = 0
    for i in indices:
        if mask >> i & 1:
            raise SetupError("the deck order holds a card twice")
        mask |= 1 << i
    if mask != rules.plan.deck_mask or len(indices) != rules.deck.size:
        raise SetupError("the deck order must hold exactly the rule set's deck")
    return tuple(indices)


_UNTIL = ("game", "deal", "trick")
_GAME_OVER = Phase.GAME_OVER


def playout(
    state: GameState,
    choose: Callable[[tuple[Move, ...]], Move],
    *,
    until: object = "game",
    decisions: object = None,
) -> GameState:
    """Play on from ``state``, asking ``choose`` for every move, and return the
    state reached: the same :class:`~backalley.GameState` as

    .. code-block:: python

        while not done:
            state = state.apply(choose(state.legal_moves()))

    but without building a state per move: the loop moves the game's raw form
    on through :mod:`backalley.engine.kernel` (the one transition ``apply`` uses too)
    and builds a state only where it stops.

    - ``choose(legal)`` gets the legal moves of the seat to act (the very tuple
      :meth:`~backalley.GameState.legal_moves` gives, in its order) and returns
      one of them; ``random.Random(seed).choice`` is a random playout.  A move
      that is not legal raises :class:`~backalley.IllegalMoveError` with the
      reason :meth:`~backalley.GameState.apply` gives, as ``apply`` would.
    - ``until``: ``"game"`` (play to the end of the game), ``"deal"`` (stop once
      a deal is scored: at the opening of the next deal, or the end), or
      ``"trick"`` (stop once a trick is complete, or a deal scored).
    - ``decisions``: stop after this many moves at most.

    A game that is over is returned as it is.
    """
    if until not in _UNTIL:
        raise SetupError(f"until must be one of {', '.join(map(repr, _UNTIL))}, not {until!r}")
    if decisions is None:
        budget = -1
    elif type(decisions) is int and decisions >= 0:
        budget = decisions
    else:
        raise SetupError(f"decisions must be a whole number >= 0, not {decisions!r}")
    stop_trick = until == "trick"
    stop_deal = until != "game"
    raw = state._raw
    plan = raw.rules.plan
    plays, remembered = plan.plays, plan._plays.get
    legal_of, advance = kernel.legal, kernel.advance
    while budget and raw.phase is not _GAME_OVER:
        legal = legal_of(raw)
        if isinstance(legal, int):
            move = choose(remembered(legal) or plays(legal))
        else:
            move = choose(legal)
        after = advance(raw, legal, move)
        if after is None:
            _state(raw).apply(move)  # raises, with the reason
            raise AssertionError(f"{move} is refused without a reason")  # pragma: no cover
        before, raw = raw, after
        budget -= 1
        if stop_deal and (raw.match.results is not before.match.results or raw.phase is _GAME_OVER):
            break
        if stop_trick and raw.history is not before.history:  # a trick is complete
            break
    return state if raw is state._raw else _state(raw)
