"""A player view rebuilt from what its seat may know, through the kernel.

Loading a view document ends here: :mod:`backalley.io.serialize.view_doc`
reads the document's form and sizes, and :func:`replay_view` rebuilds the
current deal from an opening of the seat's knowledge by the kernel's own
transitions, refusing every fact the rules make otherwise.  It is the
engine's side of the view codec, as :meth:`GameState.apply
<backalley.GameState.apply>` is the state codec's: no rule is restated.
"""

from __future__ import annotations

from backalley.cards import CARDS, Card, Suit
from backalley.engine import kernel
from backalley.engine.views import PlayerView
from backalley.errors import SerializationError
from backalley.moves import Move, NameTrump
from backalley.rules.ruleset import RuleSet
from backalley.values import DealResult, Phase, RawTrick

__all__ = ["replay_view"]


def replay_view(
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
    """A view rebuilt from its public parts by moving its deal on through the
    step kernel from an opening of what the seat may know
    (:func:`backalley.engine.kernel.open_public`): the calls, the trump call
    and every play go through the kernel's own transitions, which ask the
    parts (the deal's last play, which would score the deal from the hands as
    dealt, ends its trick through the plan), and the seat's own plays are
    checked by the lead and follow parts.  The view is refused when any fact
    it states differs from what the rules make of the rest.

    The document's own checks come first (:mod:`backalley.io.serialize.view_doc`):
    its form and sizes, that ``phase`` fits the number of ``deal_results`` and
    ``hand_size`` the deal's place in the schedule, and the past deals' results.
    ``path`` is where the view sits in its document, for the errors.  Raises
    :class:`~backalley.SerializationError`."""

    def fail(where: str, message: str) -> SerializationError:
        return SerializationError(message, f"{path}.{where}" if where else path)

    plan = rules.plan
    n = rules.players
    full = plan.deck_mask
    over = phase is Phase.GAME_OVER
    current = len(deal_results) - 1 if over else len(deal_results)
    if over and dealer != deal_results[-1].dealer:
        raise fail("dealer", "the last deal's dealer is not its result's dealer")
    if len(hand_counts) != n:
        raise fail("hand_counts", f"expected {n} hand counts")
    ctx = plan.deal_context(current, dealer, hand_size)
    # the opening: the trump part's turn-up and trump
    if rules.trump.turns_up() != (turn_up is not None):
        raise fail(
            "turn_up",
            "these rules turn up a card" if turn_up is None else "these rules turn up no card",
        )
    opened = plan.opening_trump(ctx, None if turn_up is None else turn_up.index, trump)
    ctx = ctx._replace(trump=opened)
    # the cards the document shows: the seat's own hand, and who played what
    own = 0
    for card in hand:
        own |= 1 << card.index
    if own.bit_count() != len(hand) or own & ~full:
        raise fail("hand", "the hand has a card twice or a card not in the deck")
    tricks: tuple[tuple[int, tuple[int, ...], int | None], ...] = (*history, (leader, trick, None))
    known = [0] * n  # the cards each seat is known to hold at the opening
    for t_lead, cards, _winner in tricks:
        for k, c in enumerate(cards):
            known[(t_lead + k) % n] |= 1 << c
    known[seat] |= own
    discard_bits = 0
    for card in discards:
        discard_bits |= 1 << card.index
    # the deal from its opening, moved on by the kernel's own transitions
    raw = kernel.open_public(
        rules,
        ctx,
        tuple(known),
        None if turn_up is None else turn_up.index,
        discard_bits,
        scores,
        deal_results,
    )
    first = raw.leader
    for i, call in enumerate(calls):
        if raw.phase is not Phase.BIDDING:
            raise fail(f"calls[{i}]", "the bidding is over already")
        node = raw.node
        assert node is not None
        found = node.find(call)
        if found is None:
            why = plan.call_refusal(node.ctx, call)
            raise fail(f"calls[{i}]", f"illegal call {call}: {why[1] if why else 'not legal'}")
        moved = kernel.call_within_deal(raw, found)
        if moved is None:
            raise fail("calls", "these calls throw the deal in; the view would be of the next deal")
        raw = moved
    reached = raw.phase
    choices = plan.trump_choices(raw.ctx) if reached is not Phase.BIDDING else ()
    # the phase of the deal
    if reached is Phase.BIDDING:
        expected_phase = Phase.BIDDING
    elif reached is Phase.NAMING_TRUMP and phase is Phase.NAMING_TRUMP:
        expected_phase = Phase.NAMING_TRUMP
    else:
        expected_phase = Phase.GAME_OVER if over else Phase.PLAYING
    if phase is not expected_phase:
        raise fail(
            "phase", f"the calls lead to phase {expected_phase.value!r}, not {phase.value!r}"
        )
    # trump: named by the declarer, or as the opening made it
    if reached is Phase.NAMING_TRUMP and phase is not Phase.NAMING_TRUMP:
        if trump not in choices:
            raise fail(
                "trump",
                f"the declarer may name only {', '.join(str(c or 'no trump') for c in choices)}",
            )
        raw = kernel.name_trump(raw, NameTrump(trump))
    elif trump is not raw.ctx.trump or (choices and trump is not None):
        raise fail("trump", "the trump does not follow from the rules and the turn-up")
    ctx = raw.ctx
    # the turn-up and the discards
    seen = own
    allowed = int(rules.trump.discardable(ctx, turn_up))
    for card in discards:
        if not allowed >> card.index & 1:
            raise fail(
                "discards", f"{card} cannot be out of play: the trump part does not discard it"
            )
    for card in (*discards, *(() if turn_up is None else (turn_up,))):
        if seen >> card.index & 1 or not full >> card.index & 1:
            raise fail("discards", f"{card} is out of place")
        seen |= 1 << card.index
    playing = phase in (Phase.PLAYING, Phase.GAME_OVER)
    if (history or trick) and not playing:
        raise fail("tricks", "cards were played before the bidding was over")
    # the plays, card by card through the kernel (within the deal: its score
    # needs the hands as dealt)
    plays = [0] * n
    last = raw.ctx  # the context of the last trick begun (as a deal over keeps it)
    for i, (t_lead, cards, winner) in enumerate(tricks):
        where = f"tricks[{i}]" if winner is not None else "trick"
        complete = winner is not None
        if (
            t_lead != raw.leader
            or (complete and len(cards) != n)
            or len(cards) >= n + (1 if complete else 0)
        ):
            raise fail(where, "the trick's leader or size does not fit the tricks before it")
        if cards and len(raw.history) >= hand_size:
            raise fail("tricks", "the number of tricks does not fit the deal")
        if complete:
            last = raw.ctx
        for k, c in enumerate(cards):
            player = (t_lead + k) % n
            if player != seat and (seen >> c & 1 or not full >> c & 1):
                raise fail(
                    f"{where}.cards[{k}]" if complete else f"trick[{k}]",
                    f"{CARDS[c]} is out of place",
                )
            if player == seat:
                why = plan.play_refusal(
                    raw.ctx, seat, raw.hand_bits[seat], raw.trick_cards, raw.leader, raw.broken, c
                )
                if why is not None:
                    raise fail(
                        f"{where}.cards[{k}]" if complete else f"trick[{k}]",
                        f"your own play {CARDS[c]} is illegal: {why[1]}",
                    )
            seen |= 1 << c
            plays[player] += 1
            raw = kernel.play_within_deal(raw, c)
        if complete and winner != raw.history[-1][2]:
            raise fail(f"{where}.winner", "the winner is not who took the trick")
    ctx = last if over else raw.ctx
    if len(history) > hand_size or (len(history) == hand_size and not over) or (trick and over):
        raise fail("tricks", "the number of tricks does not fit the deal")
    for s in range(n):
        if hand_counts[s] != hand_size - plays[s]:
            raise fail(f"hand_counts[{s}]", f"seat {s} should hold {hand_size - plays[s]} cards")
    if hand_counts[seat] != len(hand):
        raise fail(
            "hand", f"the hand has {len(hand)} cards, but the count says {hand_counts[seat]}"
        )
    expected_to_act = None if over else kernel.to_act(raw)
    if to_act != expected_to_act:
        raise fail("to_act", f"seat {expected_to_act} is to act, not {to_act}")
    return PlayerView(
        rules=rules,
        seat=seat,
        phase=phase,
        to_act=to_act,
        ctx=ctx,
        hand_bits=own,
        hand_counts=hand_counts,
        turn_up_index=None if turn_up is None else turn_up.index,
        discard_bits=discard_bits,
        calls=calls,
        leader=raw.leader if playing else first,
        trick_cards=trick,
        history=history,
        broken=raw.broken,
        scores=scores,
        deal_results=deal_results,
    )
