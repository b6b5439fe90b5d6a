"""The ``heuristic`` bot: bids from hand strength, plays by card-play rules.

It reads only its :class:`~backalley.PlayerView`, asks the view what is legal,
and learns what each call would contract and what each trick is worth from the
rule set's own bidding and scoring parts (through :mod:`backalley.bots._rules`),
so it plays every rule set without knowing which one it is.

**Bidding.** Each card of the hand gets a chance of taking a trick under the
trump (the turn-up's suit, the fixed suit, or - when the declarer names trump
later - the hand's best suit): a trump with no higher trump unseen is a sure
trick, a lower one wins when the higher trumps are out of play (small deals
leave many cards undealt) or when it is guarded by enough smaller trumps; a
plain card likewise by the higher cards of its suit, less the chance that an
opponent is void by the round it wins and ruffs; spare trumps add ruffs for
voids and singletons.  The bids already made shrink the hand's share when
they claim more tricks than are left.  From these chances comes the
distribution of the side's tricks, and the bot makes the legal call (number,
pass, board, counter) whose contract gives the best expected points for its
side less the other sides' - so it bids board when every trick is likely and
counters when the auction's contract looks beatable by its own side.  Naming
trump, the declarer names the suit in which its hand is strongest.

**Play.** A trick is worth, to the bot's side, the points one more trick adds
for it plus the points it keeps from the others (averaged over how many tricks
may still come): positive while a contract is in doubt, zero when the
contract is made, or set, and the other side's fate is settled under a
scoring without overtrick points.  When the trick is worth taking the bot
wins it as cheaply as it safely can (a winner no later seat can beat,
the lowest trump to ruff), lets a partner's sure winner stand, and plays
second hand low; when it is not, it ducks with its highest losing card.
Leading, it cashes its masters (top trumps first while opponents may hold
trumps, then plain masters no void opponent can ruff), else leads low from
its longest plain suit; following rules are the view's legal moves.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from backalley.bots import _rules as R
from backalley.bots._base import rng_from_seed
from backalley.engine.legality import Phase
from backalley.engine.views import PlayerView
from backalley.errors import SetupError
from backalley.moves import Bid, Move, NameTrump, Play
from backalley.rules.bidding import Contract
from backalley.rules.ruleset import RuleSet

__all__ = ["HeuristicBot", "hand_chances", "trick_distribution"]

_PLAIN = (0x1FFF, 0x1FFF << 13, 0x1FFF << 26, 0x1FFF << 39)


def _cards(mask: int) -> list[int]:
    """Card indices of a bit set, highest first."""
    out = []
    while mask:
        top = mask.bit_length() - 1
        out.append(top)
        mask ^= 1 << top
    return out


def _void_chance(rounds: int, mean: float) -> float:
    """The chance that a hand holding on average ``mean`` cards of a suit holds
    fewer than ``rounds`` of them (Poisson)."""
    if rounds <= 0:
        return 0.0
    term = total = math.exp(-mean)
    for k in range(1, rounds):
        term *= mean / k
        total += term
    return min(1.0, total)


def hand_chances(view: PlayerView, t: int, hand: int | None = None) -> list[float]:
    """For each card of ``hand`` (the view's hand by default), the chance that
    it takes a trick when ``t`` is the trump (see the module docstring)."""
    rules = view.rules
    n = rules.players
    me = view.seat
    hand = R.hand_bits(view) if hand is None else hand
    unseen = R.deck_bits(rules) & ~(hand | R.out_of_play_bits(view) | R.played_bits(view))
    u = unseen.bit_count()
    others = sum(view.hand_counts[s] for s in range(n) if s != me)
    q = others / u if u else 0.0
    tm = R.trump_mask(t)
    mine_t = hand & tm
    unseen_t = unseen & tm
    chances: list[float] = []
    spare: list[int] = []
    for a, card in enumerate(_cards(mine_t)):
        k = (unseen_t & R.above(card)).bit_count()
        below = mine_t.bit_count() - 1 - a
        if k == 0:
            p = 1.0
        else:
            out = (1.0 - q) ** k
            guard = 0.6 if below >= k else (0.3 if below >= k - 1 else 0.03)
            p = out + (1.0 - out) * guard
        if p < 0.5:
            spare.append(len(chances))
        chances.append(p)
    opp_trump = 1.0 - math.exp(-unseen_t.bit_count() * q / max(1, n - 1))
    # in a small deal a plain suit is often never led while the card is held
    lead = min(1.0, 0.5 + view.hand_size / 12)
    shortness = 0.0
    for s in range(4):
        if s == t:
            continue
        suit = _PLAIN[s]
        mine_s = hand & suit
        length = mine_s.bit_count()
        unseen_s = unseen & suit
        mean = unseen_s.bit_count() * q / max(1, n - 1)
        if length == 0:
            shortness += 1.0 if mean >= 0.7 else 0.3
        elif length == 1:
            shortness += 0.5 if mean >= 1.5 else 0.1
        for j, card in enumerate(_cards(mine_s)):
            k = (unseen_s & R.above(card)).bit_count()
            if k == 0:
                p, rnd = 1.0, j + 1
            else:
                out = (1.0 - q) ** k
                guarded = length - j - 1 >= k
                guard = (0.5 if k == 1 else 0.25) if guarded else 0.02
                p, rnd = out + (1.0 - out) * guard, j + 1 + (k if guarded else 0)
            ruff = 1.0 - (1.0 - _void_chance(rnd, mean) * opp_trump) ** (n - 1)
            chances.append(p * (1.0 - ruff) * lead)
    # spare trumps ruff in the short suits
    ruffs = min(len(spare), int(shortness + 0.5)) if view.hand_size >= 3 else 0
    for i in spare[-ruffs:] if ruffs else ():
        chances[i] = max(chances[i], 0.55)
    # in a long deal low cards win some tricks too: late in the play, or when
    # the others have to discard
    low = max(0.0, 0.012 * (view.hand_size - 3))
    return [p + (1.0 - p) * low for p in chances]


def trick_distribution(chances: Sequence[float]) -> list[float]:
    """The distribution of the number of tricks taken (``dist[k]`` = chance of
    ``k``) when each card takes a trick independently with its chance."""
    dist = [1.0]
    for p in chances:
        nxt = [0.0] * (len(dist) + 1)
        for k, v in enumerate(dist):
            nxt[k] += v * (1.0 - p)
            nxt[k + 1] += v * p
        dist = nxt
    return dist


_TABLES: dict[tuple[object, int, int, Contract | None, int], tuple[int, ...]] = {}


def _table(
    rules: RuleSet, contracts: tuple[Contract | None, ...], side: int, hand_size: int
) -> tuple[int, ...]:
    """The points of ``side`` for 0..hand_size tricks under its contract
    (cached per contract: a side's points depend on its own contract and tricks)."""
    contract = contracts[side]
    key = (rules.scoring, rules.players, len(contracts), contract, hand_size)
    table = _TABLES.get(key)
    if table is None:
        if len(_TABLES) > 100_000:
            _TABLES.clear()
        same = (contract,) * len(contracts)
        table = _TABLES[key] = tuple(
            R.deal_points(rules, same, (k,) * len(contracts), hand_size)[0]
            for k in range(hand_size + 1)
        )
    return table


def _points(
    rules: RuleSet, contracts: tuple[Contract | None, ...], side: int, tricks: int, hand_size: int
) -> int:
    return _table(rules, contracts, side, hand_size)[min(tricks, hand_size)]


def _convolve(a: Sequence[float], b: Sequence[float]) -> list[float]:
    out = [0.0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                out[i + j] += x * y
    return out


def _poisson(mean: float, top: int) -> list[float]:
    dist = [math.exp(-mean)]
    for k in range(1, top + 1):
        dist.append(dist[-1] * mean / k)
    total = sum(dist)
    return [x / total for x in dist]


THROW_IN_PENALTY = 1e-6
"""How much less than nothing a call that throws the deal in is worth (a tie-break)."""


class HeuristicBot:
    """Bids from hand strength and plays by card-play rules (see the module
    docstring).  Its choices depend on the view alone (the seed is accepted
    for the bot factory protocol; the same view always gets the same move)."""

    def __init__(self, seed: object = None) -> None:
        self._rng = rng_from_seed(seed)

    def choose(self, view: PlayerView) -> Move:
        moves = view.legal_moves()
        if not moves:
            raise SetupError(f"seat {view.seat} has no legal move now")
        if len(moves) == 1:
            return moves[0]
        if view.phase is Phase.PLAYING:
            return self._play(view, moves)
        if isinstance(moves[0], NameTrump):
            return self._name_trump(view, moves)
        return self._call(view, moves)

    # ------------------------------------------------------------- bidding

    def _name_trump(self, view: PlayerView, moves: Sequence[Move]) -> Move:
        def strength(move: Move) -> float:
            suit = move.suit if isinstance(move, NameTrump) else None
            t = 4 if suit is None else suit.index
            return sum(hand_chances(view, t))

        return max(moves, key=strength)

    def _chances_for_bidding(self, view: PlayerView) -> list[float]:
        if R.trump_named_later(view):
            options = [hand_chances(view, t) for t in range(4)]
            return max(options, key=sum)
        return hand_chances(view, R.trump_of(view))

    def _call(self, view: PlayerView, moves: Sequence[Move]) -> Move:
        rules = view.rules
        n = rules.players
        h = view.hand_size
        me = view.seat
        my_side = R.side_of(rules, me)
        sides = len(R.teams(rules))
        chances = self._chances_for_bidding(view)
        numeric = [m for m in moves if isinstance(m, Bid)]
        probe = R.contracts_if(view, numeric[0] if numeric else moves[0])
        # an auction's winning call makes a declarer; once-around bids do not
        ascending = probe is not None and any(
            c is not None and c.declarer is not None for c in probe
        )
        first = view.first_bidder
        said = {(first + i) % n: c for i, c in enumerate(view.calls)}
        expected = sum(chances)
        if not ascending:
            # the bids already made claim tricks: shrink the hand's share
            claimed = sum(c.tricks for s, c in said.items() if isinstance(c, Bid))
            room = h - claimed
            if expected > room > 0:
                scale = max(0.5, room / expected)
                chances = [p if p >= 1.0 else p * scale for p in chances]
        dist = trick_distribution(chances)
        # the partners' tricks
        share = max(0.0, (h - expected) / max(1, n - 1))
        for seat in R.teams(rules)[my_side]:
            if seat == me:
                continue
            call = said.get(seat)
            if ascending:
                mean = share if not isinstance(call, Bid) else max(share, call.tricks - h / n)
                part = _poisson(mean, h)
            elif isinstance(call, Bid):
                x = call.tricks
                part = [0.0] * (x + 2)
                part[x] = 0.5
                part[x + 1] = 0.25
                part[max(0, x - 1)] += 0.25
            elif seat in said:  # passed
                part = _poisson(min(share, 0.7), h)
            else:  # speaks later and bids for itself
                part = [1.0]
            dist = _convolve(dist, part)
        # the numbers worth weighing: around the side's expected tricks (less
        # what a partner has already bid), and the lowest one offered
        mean = sum(k * p for k, p in enumerate(dist))
        if not ascending:
            mean -= sum(
                c.tricks
                for s, c in said.items()
                if isinstance(c, Bid) and s in R.teams(rules)[my_side]
            )
        weighed = [
            m
            for m in moves
            if not isinstance(m, Bid) or m is numeric[0] or abs(m.tricks - mean) <= 2.5
        ]
        best: tuple[float, int] | None = None
        choice = moves[0]
        for i, move in enumerate(weighed):
            contracts = R.contracts_if(view, move)
            if contracts is None:
                # a throw-in scores nothing: a call worth as much that gets
                # the deal played is preferred, so bots do not deal forever
                value = -THROW_IN_PENALTY
            else:
                value = 0.0
                tables = [_table(rules, contracts, s, h) for s in range(sides)]
                for k, p in enumerate(dist):
                    if p < 1e-4:
                        continue
                    k = min(k, h)
                    mine = tables[my_side][k]
                    rest = 0.0
                    if sides > 1:
                        each = round((h - k) / (sides - 1))
                        for s in range(sides):
                            if s != my_side:
                                rest += tables[s][each]
                        rest /= sides - 1
                    value += p * (mine - rest)
            key = (value, -i)
            if best is None or key > best:
                best, choice = key, move
        return choice

    # ---------------------------------------------------------------- play

    def _play(self, view: PlayerView, moves: Sequence[Move]) -> Move:
        legal = 0
        for m in moves:
            if isinstance(m, Play):
                legal |= 1 << m.card.index
        card = self.play_card(view, legal)
        for m in moves:
            if isinstance(m, Play) and m.card.index == card:
                return m
        return moves[0]  # pragma: no cover - the card comes from the legal set

    def trick_value(self, view: PlayerView) -> float:
        """What taking the current trick is worth to this seat's side (see
        the module docstring)."""
        rules = view.rules
        contracts = view.contracts
        if contracts is None:  # pragma: no cover - play follows the bidding
            return 1.0
        h = view.hand_size
        teams = R.teams(rules)
        my_side = R.side_of(rules, view.seat)
        won = view.tricks_won
        remaining = view.hand_counts[view.seat]
        value = 0.0
        others = 0.0
        for s, team in enumerate(teams):
            have = sum(won[x] for x in team)
            table = _table(rules, contracts, s, h)
            top = min(h, have + remaining)
            delta = (table[top] - table[min(h, have)]) / max(1, remaining)
            if s == my_side:
                value += delta
            else:
                others += delta
        if len(teams) > 1:
            value += others / (len(teams) - 1)
        return value

    def play_card(self, view: PlayerView, legal: int) -> int:
        """The card (an engine index) to play from the legal set ``legal``."""
        if legal & (legal - 1) == 0:
            return legal.bit_length() - 1
        rules = view.rules
        n = rules.players
        me = view.seat
        t = R.trump_of(view)
        tm = R.trump_mask(t)
        trick = R.trick_cards(view)
        unseen = R.deck_bits(rules) & ~(
            R.hand_bits(view) | R.out_of_play_bits(view) | R.played_bits(view)
        )
        value = self.trick_value(view)

        def cost(card: int) -> int:
            """How dear a card is to give up: trumps above plain cards, masters
            above the rest, high ranks above low."""
            rank = card - 39 if card >= 52 else card % 13
            c = rank
            if (1 << card) & tm:
                c += 60
            if not unseen & R.suit_cards(R.suit_of(card, t), t) & R.above(card):
                c += 20
            return c

        cards = _cards(legal)
        if not trick:
            return self._lead(view, legal, cards, value, unseen, cost)
        pos = len(trick)
        leader = view.leader
        later = [(leader + k) % n for k in range(pos + 1, n)]
        later_bits = 0
        for s in later:
            later_bits |= R.possible_bits(view, s)
        beat = R.beaters(trick, t)
        winners = [c for c in cards if (1 << c) & beat]
        if value <= 0:
            losers = [c for c in cards if not (1 << c) & beat]
            if losers:
                return max(losers, key=cost)
            return max(cards, key=cost)
        best_seat = (leader + R.winner(trick, t)) % n
        partner_winning = best_seat != me and R.side_of(rules, best_seat) == R.side_of(rules, me)
        safe = [c for c in winners if not R.beaters((*trick, c), t) & later_bits]
        if partner_winning:
            if not beat & later_bits:
                return min(cards, key=cost)
            if safe:
                return min(safe, key=cost)
            return min(cards, key=cost)
        if safe:
            return min(safe, key=cost)
        if winners and pos >= n - 2:
            return min(winners, key=cost)
        return min(cards, key=cost)

    def _lead(
        self,
        view: PlayerView,
        legal: int,
        cards: list[int],
        value: float,
        unseen: int,
        cost: Callable[[int], int],
    ) -> int:
        rules = view.rules
        n = rules.players
        me = view.seat
        t = R.trump_of(view)
        tm = R.trump_mask(t)
        if value <= 0:
            return min(
                cards,
                key=lambda c: (
                    bool(not unseen & R.suit_cards(R.suit_of(c, t), t) & R.above(c)),
                    cost(c),
                ),
            )
        opponents = [s for s in range(n) if R.side_of(rules, s) != R.side_of(rules, me)]
        opp_bits = {s: R.possible_bits(view, s) for s in opponents}
        opp_all = 0
        for bits in opp_bits.values():
            opp_all |= bits
        masters = [c for c in cards if not unseen & R.suit_cards(R.suit_of(c, t), t) & R.above(c)]
        trump_masters = [c for c in masters if (1 << c) & tm]
        if trump_masters and opp_all & tm:
            return max(trump_masters)
        plain_masters = []
        for c in masters:
            if (1 << c) & tm:
                continue
            suit = R.suit_cards(c // 13, t)
            ruffable = any(not bits & suit and bits & tm for bits in opp_bits.values())
            if not ruffable:
                plain_masters.append(c)
        if plain_masters:
            return max(
                plain_masters, key=lambda c: -((legal & R.suit_cards(c // 13, t)).bit_count())
            )
        if masters:
            return min(masters, key=cost)
        # lead low from the longest plain suit
        plain = [c for c in cards if not (1 << c) & tm]
        if plain:
            longest = max(plain, key=lambda c: ((legal & R.suit_cards(c // 13, t)).bit_count(), -c))
            suit = legal & R.suit_cards(longest // 13, t)
            return min(_cards(suit), key=cost)
        return min(cards, key=cost)
