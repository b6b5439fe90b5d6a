"""Starting a game: :func:`new_game`."""

from __future__ import annotations

import copyreg
from collections.abc import Iterable, Sequence
from typing import Any

import attrs

from backalley import chance, variants
from backalley.cards import CARDS, Card, Suit, cards_of_mask, parse_card
from backalley.errors import NotationError, SetupError
from backalley.memo import IdentityMemo
from backalley.moves import parse_move
from backalley.rules.ruleset import RuleSet
from backalley.state import Core, Deal, GameState, Match, _state, start_deal
from backalley.values import BiddingOutcome, Contract, DealResult, Phase

__all__ = ["new_game"]


def _builtin_rules(name: str) -> RuleSet:
    """A built-in variant by name (how a pickle refers to one)."""
    return variants.get(name)


_BUILTIN = {name: variants.get(name) for name in variants.names()}
"""The variants built into the library: pickled by name, as every process has them."""


def _reduce_rules(rules: RuleSet) -> Any:
    """Pickle a built-in variant as its name (a state then pickles in a few
    hundred bytes and unpickles without rebuilding the rule set); any other
    rule set as its parts."""
    name = rules.name
    if name is not None and _BUILTIN.get(name) is rules:
        return (_builtin_rules, (name,))
    return object.__reduce_ex__(rules, 4)


def _reduce_state(state: GameState) -> Any:
    """A state pickles as its fields (not its caches), the deal's context as
    its facts: the rule set's part of it comes back from the rules."""
    core = state._core
    values: list[Any] = list(core)
    deal = core.deal
    ctx = deal.ctx
    facts = [getattr(deal, name) for name in _DEAL_FACTS]
    facts[_CTX] = (
        ctx.deal_index,
        ctx.dealer,
        ctx.hand_size,
        _packed_outcome(ctx.outcome),
        ctx.trump,
    )
    values[_DEAL] = tuple(facts)
    values[_PHASE] = core.phase.value
    return (_unpickle_state, tuple(values))


_CORE_FIELDS = Core._fields
_RULES = _CORE_FIELDS.index("rules")
_DEAL = _CORE_FIELDS.index("deal")
_PHASE = _CORE_FIELDS.index("phase")
_DEAL_FACTS = tuple(a.name for a in attrs.fields(Deal) if a.eq)
"""A deal's facts (not its caches, such as the plan's bidding node)."""
_CTX = _DEAL_FACTS.index("ctx")
_PHASES = {p.value: p for p in Phase}


def _unpickle_state(*values: Any) -> GameState:
    """A state from its pickle (see :func:`_reduce_state`)."""
    fields = list(values)
    rules = fields[_RULES]
    facts = list(fields[_DEAL])
    index, dealer, size, outcome, trump = facts[_CTX]
    facts[_CTX] = rules.plan.deal_context(index, dealer, size, _outcome(outcome), trump)
    fields[_DEAL] = Deal(**dict(zip(_DEAL_FACTS, facts)))
    fields[_PHASE] = _PHASES[fields[_PHASE]]
    return _state(tuple(fields))


_OUTCOMES: dict[tuple[Any, ...], BiddingOutcome] = {}
"""Bidding outcomes already unpickled, by their packed facts (immutable values, shared)."""


def _packed_outcome(outcome: BiddingOutcome | None) -> tuple[Any, ...] | None:
    if outcome is None:
        return None
    return (
        tuple(
            None if c is None else (c.tricks, c.board, c.multiplier, c.declarer)
            for c in outcome.contracts
        ),
        outcome.highest_bidder,
        outcome.declarer,
        tuple(sorted(outcome.board_bidders)),
        outcome.thrown_in,
    )


def _outcome(packed: tuple[Any, ...] | None) -> BiddingOutcome | None:
    if packed is None:
        return None
    outcome = _OUTCOMES.get(packed)
    if outcome is None:
        contracts, highest, declarer, boards, thrown_in = packed
        outcome = BiddingOutcome(
            tuple(None if c is None else Contract(*c) for c in contracts),
            highest,
            declarer,
            frozenset(boards),
            thrown_in,
        )
        if len(_OUTCOMES) >= _RESULTS_SEEN_LIMIT:
            _OUTCOMES.clear()
        _OUTCOMES[packed] = outcome
    return outcome


def _reduce_match(match: Match) -> Any:
    """A match pickles with its deal results as plain tuples (see :func:`_match`)."""
    values = [getattr(match, a.name) for a in attrs.fields(Match)]
    values[_RESULTS] = tuple(map(_packed, match.results))
    return (_match, tuple(values))


_RESULTS = [a.name for a in attrs.fields(Match)].index("results")

_RESULTS_SEEN: dict[str, DealResult] = {}
"""Deal results already unpickled, by their packed text: a result is an
immutable value, so states unpickled in one process share them (as states
played there do), and unpickling a long game builds no result twice."""
_RESULTS_SEEN_LIMIT = 8192


def _pack_result(r: DealResult) -> str:
    """A deal result as one short text (one object to pickle): its fields
    separated by ``|``, lists by ``,``, ``-`` for ``None``, a contract as
    ``tricks/board/multiplier/declarer``."""

    def contract(c: Contract | None) -> str:
        if c is None:
            return "-"
        return f"{c.tricks}/{int(c.board)}/{c.multiplier}/{_opt(c.declarer)}"

    return "|".join(
        (
            str(r.number),
            str(r.dealer),
            str(r.hand_size),
            _opt(None if r.turn_up is None else r.turn_up.index),
            "-" if r.trump is None else r.trump.value,
            ",".join("-" if b is None else str(b) for b in r.bids),
            ",".join(map(contract, r.contracts)),
            _opt(r.declarer),
            ",".join(map(str, r.tricks)),
            ",".join(map(str, r.points)),
        )
    )


_packed: IdentityMemo[DealResult, str] = IdentityMemo(_pack_result, _RESULTS_SEEN_LIMIT)
"""Packed texts of results already pickled, by identity."""


def _opt(value: int | None) -> str:
    return "-" if value is None else str(value)


def _unopt(text: str) -> int | None:
    return None if text == "-" else int(text)


def _unpack_result(packed: str) -> DealResult:
    result = _RESULTS_SEEN.get(packed)
    if result is None:
        number, dealer, size, turn_up, trump, bids, contracts, declarer, tricks, points = (
            packed.split("|")
        )
        turn_up_index = _unopt(turn_up)
        result = DealResult(
            int(number),
            int(dealer),
            int(size),
            None if turn_up_index is None else CARDS[turn_up_index],
            None if trump == "-" else Suit.parse(trump),
            tuple(None if b == "-" else parse_move(b) for b in bids.split(",")),
            tuple(_unpack_contract(c) for c in contracts.split(",")),
            _unopt(declarer),
            tuple(map(int, tricks.split(","))),
            tuple(map(int, points.split(","))),
        )
        if len(_RESULTS_SEEN) >= _RESULTS_SEEN_LIMIT:
            _RESULTS_SEEN.clear()
        _RESULTS_SEEN[packed] = result
    return result


def _unpack_contract(text: str) -> Contract | None:
    if text == "-":
        return None
    tricks, board, multiplier, declarer = text.split("/")
    return Contract(int(tricks), board == "1", int(multiplier), _unopt(declarer))


def _match(*values: Any) -> Match:
    """A match from its pickle: the deal results from their packed facts."""
    fields = list(values)
    fields[_RESULTS] = tuple(map(_unpack_result, values[_RESULTS]))
    return Match(*fields)


def _reduce_deal(deal: Deal) -> Any:
    """A deal pickles as its facts, not its cached bidding node."""
    return (Deal, tuple(getattr(deal, a.name) for a in attrs.fields(Deal) if a.name != "node"))


copyreg.pickle(RuleSet, _reduce_rules)
copyreg.pickle(GameState, _reduce_state)
copyreg.pickle(Match, _reduce_match)
copyreg.pickle(Deal, _reduce_deal)


def new_game(
    rules: RuleSet | None = None,
    *,
    seed: int | None = None,
    dealer: int | None = None,
    decks: Iterable[Sequence[Card | str]] | None = None,
) -> GameState:
    """A new game under ``rules`` (the gamerules game by default), at the first deal's bidding.

    - ``seed``: all chance (the first dealer, every shuffle) comes from it; a
      random seed is drawn when none is given, and kept in the state, so the
      rest of the game is reproducible from the state alone.  Anyone who
      learns or guesses the seed knows every hand: a small seed (``7``, a
      counter, the time) is found from one player's own hand in a fraction of
      a second.  For real games leave ``seed`` out (63 random bits from the
      operating system, as :func:`backalley.secure_seed` draws) and keep the
      state's seed secret; pass small seeds only for tests and examples.
    - ``dealer``: the first dealer (else drawn from the seed).
    - ``decks``: deck orders (sequences of cards, or card texts), used one per
      deal - thrown-in deals included - before the seed's shuffles take over.
      Each must hold exactly the rule set's deck.  Dealing follows RULES.md 1.2.

    Raises :class:`~backalley.SetupError` for arguments that cannot start a game.
    """
    if rules is None:
        from backalley.variants import GAMERULES

        rules = GAMERULES
    if not isinstance(rules, RuleSet):
        raise SetupError(
            f"rules must be a RuleSet (e.g. backalley.variants.GAMERULES), not {rules!r}"
        )
    if seed is None:
        seed = chance.random_seed()
    elif chance.check_seed(seed) is not None:
        raise SetupError(f"seed: {chance.check_seed(seed)}")
    players = rules.players
    if dealer is None:
        dealer = chance.draw(seed, "dealer", players)
    elif not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < players:
        raise SetupError(f"dealer must be a seat from 0 to {players - 1}, not {dealer!r}")
    if decks is not None and (isinstance(decks, (str, bytes)) or not isinstance(decks, Iterable)):
        raise SetupError(f"decks must be a list of deck orders (lists of cards), not {decks!r}")
    orders = tuple(_deck_order(rules, order, k) for k, order in enumerate(decks or ()))
    match = Match(
        seed=seed,
        first_dealer=dealer,
        decks=orders,
        deal_number=0,
        scores=(0,) * len(rules.teams),
        results=(),
    )
    return start_deal(rules, match, dealer, rules.schedule.hand_sizes[0])


def _deck_order(rules: RuleSet, order: Sequence[Card | str], k: int) -> tuple[int, ...]:
    if isinstance(order, str):
        order = order.split()
    try:
        cards = tuple(parse_card(c) for c in order)
    except NotationError as exc:
        raise SetupError(f"decks[{k}]: {exc}") from None
    except TypeError:
        raise SetupError(f"decks[{k}] must be a sequence of cards, not {order!r}") from None
    indices = tuple(c.index for c in cards)
    expected = rules.plan.deck_mask
    seen = 0
    for card, i in zip(cards, indices):
        if seen >> i & 1:
            raise SetupError(f"decks[{k}]: {card} appears twice")
        if not expected >> i & 1:
            raise SetupError(f"decks[{k}]: {card} is not in this rule set's deck")
        seen |= 1 << i
    if seen != expected:
        missing = " ".join(str(c) for c in cards_of_mask(expected & ~seen))
        raise SetupError(f"decks[{k}]: the deck order is missing {missing}")
    return indices
