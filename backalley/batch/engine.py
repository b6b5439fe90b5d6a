"""Many games in lock-step: :class:`BatchGames`.

Every game of a batch that is not over has one seat to act; a step takes one
action per game (the research adapters' action ids,
:class:`~backalley.adapters.encoding.Actions`) and moves every game on at
once.  Hands, tricks and the cards played are 64-bit bit sets (bit *i*: the
card of index *i*) in NumPy arrays; the legal actions come from the compiled tables
(:mod:`backalley.batch.compiled_tables`): the bidding automaton's legal calls, the
declarer's trump choices, and the lead and follow parts' expressions
evaluated on every position at once.

Once a deal, a game asks the rule set's plan what its deal's context gives
(the trump choices, the first leader, the points, the next dealer, the cards
the opening shows).  The answers are remembered per the facts of the context
that the part says its method reads (``context_reads``; every fact the
batch knows of a deal when the part says nothing), so a deal's end costs a
few array operations and a lookup per distinct context (remembered for every
batch of the rule set).

Chance: every game has a seed of its own (:func:`game_seed` of the batch's
seed and the game's place, or given); its first dealer and each of its
shuffles come from that seed alone (:func:`first_dealer`, :func:`deck_order`),
so a game deals the same in any batch, and its deck orders are kept, so that
:meth:`BatchGames.records` are :class:`~backalley.GameRecord` values the
one-game engine replays exactly.

One module, one job: the batch's arrays and the one step that moves them on;
each phase's part of the step reads and writes the same arrays.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any, TypeVar

import numpy as np

from backalley.batch import programs as prog
from backalley.batch.calls import outcome_of
from backalley.batch.compiled_tables import Tables, compile
from backalley.batch.seeds import deck_order, first_dealer, game_seed
from backalley.batch.verify import verify
from backalley.cards import CARDS
from backalley.cardset import CardSet
from backalley.engine.lowlevel import TRUMPS
from backalley.errors import RuleSetError, SetupError
from backalley.io.record import GameRecord
from backalley.moves import NameTrump
from backalley.rules import declared
from backalley.rules.context import DealContext
from backalley.rules.ruleset import RuleSet

__all__ = [
    "BIDDING",
    "NAMING",
    "OVER",
    "PLAYING",
    "BatchGames",
    "deck_order",
    "first_dealer",
    "game_seed",
]

BIDDING, NAMING, PLAYING, OVER = 0, 1, 2, 3
"""A game's phase, as :attr:`BatchGames.phase` holds it."""

Bools = np.ndarray[Any, np.dtype[np.bool_]]
Ints = np.ndarray[Any, np.dtype[np.intp]]
U64 = prog.U64
_BIT = prog.CARD_BITS
_ZERO = np.uint64(0)
T = TypeVar("T")

_FIELD_BITS = {"deal_index": 8, "hand_size": 7, "dealer": 4, "trump": 3, "outcome": 22, "shown": 20}
"""The facts of a deal's context the batch keeps per game, and the bits each takes in a code."""


_SCORE_ID_BITS, _TRICKS_BITS = 24, 6
"""The bits of a score key's number and of a side's tricks in the points' memo labels."""

P = TypeVar("P", int, Ints)


def _pack(code: P, columns: Sequence[tuple[Any, int]]) -> P:
    """``code`` followed by each column's values in its bits: the one layout
    of a memo label, for arrays of games and for a single label alike."""
    for column, bits in columns:
        code = (code << bits) | column
    return code


def _bits(rows: U64) -> list[int]:
    """Bit sets as Python ints."""
    out: list[int] = rows.tolist()
    return out


class BatchGames:
    """``n`` games of one rule set, played in lock-step (see the module's description).

    - :attr:`phase` ``(n,)``: :data:`BIDDING`, :data:`NAMING`, :data:`PLAYING` or :data:`OVER`;
    - :attr:`to_act` ``(n,)``: the seat to act (-1 once the game is over);
    - :meth:`legal` ``(n, actions)``: the legal actions of each game;
    - :meth:`step` one action per game; :attr:`scores` ``(n, sides)``;
    - :meth:`records`: every game as a :class:`~backalley.GameRecord`.

    Hands and other sets of cards are bit sets (``numpy.uint64``, bit *i*
    the card of index *i*): :attr:`hands` ``(n, players)``, :attr:`trick`,
    :attr:`played`, :attr:`shown` ``(n,)``.  ``seeds`` gives each game's seed
    (else :func:`game_seed` of ``seed`` and the game's place); ``seed`` also
    seeds :attr:`rng`, the generator of the random policy.
    """

    def __init__(
        self,
        rules: RuleSet | str | Tables,
        n: int,
        seed: int = 0,
        *,
        records: bool = True,
        seeds: Sequence[int] | None = None,
    ) -> None:
        if not isinstance(n, int) or isinstance(n, bool) or n < 1:
            raise SetupError(
                f"a batch holds at least one game: n must be a whole number >= 1, not {n!r}"
            )
        if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
            raise SetupError(f"seed must be a whole number >= 0, not {seed!r}")
        if seeds is None:
            game_seeds = [game_seed(seed, i) for i in range(n)]
        else:
            game_seeds = list(seeds)
            if len(game_seeds) != n or not all(
                isinstance(x, int) and not isinstance(x, bool) and 0 <= x < 1 << 64
                for x in game_seeds
            ):
                raise SetupError(
                    f"seeds must be {n} whole numbers from 0 to 2**64 - 1, one per game"
                )
        tables = rules if isinstance(rules, Tables) else compile(rules)
        if not tables.verified:
            verify(tables, BatchGames)
        self.tables = t = tables
        self.n = n
        self.rng = np.random.default_rng(seed)
        """The generator of the random policy (:func:`~backalley.batch.run`)."""
        self.seeds = np.array(game_seeds, dtype=np.uint64)
        p, s = t.players, t.sides
        self.actions = t.actions
        self._size = t.actions.size
        self._hand_size = np.array(t.hand_sizes, dtype=np.intp)
        self._first = np.array(t.first_bidders, dtype=np.intp)
        self._trump_base = t.actions.trump_base
        self._team = np.zeros((p, s), dtype=np.int64)
        self._team[np.arange(p), t.seat_teams] = 1
        self.keep_records = records
        self.decisions = 0
        """How many decisions (moves) the batch has played."""
        self.phase = np.zeros(n, dtype=np.intp)
        self.deal = np.zeros(n, dtype=np.intp)
        """Each game's deal number in the schedule (the deals scored so far)."""
        self.shuffles = np.zeros(n, dtype=np.intp)
        """Each game's shuffles so far (its deals dealt, thrown-in deals counted)."""
        self.dealer = first_dealer(self.seeds, p)
        self.first_dealer = self.dealer.copy()
        self.to_act = np.zeros(n, dtype=np.intp)
        self.scores = np.zeros((n, s), dtype=np.int64)
        self.hands = np.zeros((n, p), dtype=np.uint64)
        self.dealt = np.zeros((n, p), dtype=np.uint64)
        self.trump = np.zeros(n, dtype=np.intp)
        """Each deal's trump: 0..3 (clubs .. spades), 4 for no trump suit."""
        self.turn_up = np.full(n, 54, dtype=np.intp)
        """Each deal's turn-up (54: none)."""
        self.discards = np.zeros(n, dtype=np.uint64)
        self.shown = np.zeros(n, dtype=np.uint64)
        self.shown_id = np.zeros(n, dtype=np.intp)
        self.node = np.zeros(n, dtype=np.intp)
        self.outcome = np.zeros(n, dtype=np.intp)
        self.calls = np.full((n, p), -1, dtype=np.intp)
        """This deal's call of each seat (its action id; -1: not yet spoken)."""
        self.leader = np.zeros(n, dtype=np.intp)
        self.trick = np.zeros(n, dtype=np.uint64)
        self.trick_cards = np.full((n, p), -1, dtype=np.intp)
        """The card each seat played to the trick in progress (-1: none yet)."""
        self.in_trick = np.zeros(n, dtype=np.intp)
        self.led = np.zeros(n, dtype=np.intp)
        self.best = np.zeros(n, dtype=np.intp)
        self.winner = np.zeros(n, dtype=np.intp)
        self.tricks_done = np.zeros(n, dtype=np.intp)
        self.tricks_won = np.zeros((n, p), dtype=np.int64)
        self.broken = np.zeros(n, dtype=bool)
        self.played = np.zeros(n, dtype=np.uint64)
        self.seat_played = np.zeros((n, p), dtype=np.uint64)
        self.board = np.zeros((n, p), dtype=bool)
        self.naming = np.zeros((n, self._size), dtype=bool)
        memory = t.memory
        self._shown_sets: list[CardSet] = memory.shown_sets
        self._shown_bits: list[int] = memory.shown_bits
        self._shown_ids: dict[int, int] = memory.shown_ids
        self._memo: dict[str, dict[Any, Any]] = memory.answers
        self._score_keys: dict[Hashable, int] = memory.score_keys
        self._score_dealt: list[bool] = memory.score_dealt
        self._log = np.zeros((n, 128), dtype=np.int16)
        self._logged = np.zeros(n, dtype=np.intp)
        self._decks: list[tuple[Ints, Ints]] = []
        self._record_from = np.zeros(n, dtype=np.intp)
        """Each game's first chunk of :attr:`_decks` (its deals since it started)."""
        self._deal_games(np.arange(n))

    def restart(self, games: Sequence[int] | Ints, seeds: Sequence[int]) -> None:
        """Start each of ``games`` (places in the batch) anew as the game of
        seed ``seeds[i]``, at its first deal; the other games go on.  Its
        record starts afresh too."""
        places = np.asarray(games, dtype=np.intp).reshape(-1)
        if len(places) != len(seeds) or (
            len(places) and (places.min() < 0 or places.max() >= self.n)
        ):
            raise SetupError(
                f"restart takes places 0 to {self.n - 1} and one seed for each, not "
                f"{len(places)} place(s) and {len(seeds)} seed(s)"
            )
        if not all(
            isinstance(x, int) and not isinstance(x, bool) and 0 <= x < 1 << 64 for x in seeds
        ):
            raise SetupError("seeds must be whole numbers from 0 to 2**64 - 1")
        if not len(places):
            return
        t = self.tables
        self.seeds[places] = np.array(list(seeds), dtype=np.uint64)
        self.shuffles[places] = 0
        self.deal[places] = 0
        self.dealer[places] = first_dealer(self.seeds[places], t.players)
        self.first_dealer[places] = self.dealer[places]
        self.scores[places] = 0
        self._logged[places] = 0
        self._record_from[places] = len(self._decks)
        self._deal_games(places)

    # ------------------------------------------------- the deal's context

    def context(self, g: int) -> DealContext:
        """Game ``g``'s deal context as the parts see it at the start of the play
        (its outcome once the bidding is over, its trump once named)."""
        t = self.tables
        k = int(self.deal[g])
        outcome = t.calls.outcomes[int(self.outcome[g])] if self.phase[g] >= NAMING else None
        ctx = t.plan.deal_context(
            k, int(self.dealer[g]), t.hand_sizes[k], outcome, TRUMPS[int(self.trump[g])]
        )
        return ctx._replace(shown=self._shown_sets[int(self.shown_id[g])])

    def _codes(self, games: Ints, fields: frozenset[str]) -> Ints:
        """One number per game for the facts ``fields`` of its deal's context."""
        code = np.zeros(len(games), dtype=np.int64)
        for name, width in _FIELD_BITS.items():
            if name not in fields:
                continue
            if name == "deal_index":
                values = self.deal[games]
            elif name == "hand_size":
                values = self._hand_size[self.deal[games]]
            elif name == "dealer":
                values = self.dealer[games]
            elif name == "trump":
                values = self.trump[games]
            elif name == "outcome":
                values = self.outcome[games]
            else:
                values = self.shown_id[games]
            if len(values) and int(values.max()) >> width:
                raise RuleSetError(
                    [
                        f"the batch engine numbers a deal's {name.replace('_', ' ')} in "
                        f"{width} bits, and this rule set needs more"
                    ]
                )
            code = (code << width) | values
        return code

    def _ask(
        self,
        what: str,
        games: Ints,
        fields: frozenset[str],
        ask: Callable[[DealContext, int], T],  # (the context, the game's place in games)
        extra: Sequence[tuple[np.ndarray[Any, Any], int]] = (),
    ) -> list[T]:
        """Each game's answer of ``ask(ctx, i)`` (``i``: the game's place in
        ``games``), asked once per distinct ``fields`` of the context and
        values of the ``extra`` columns (each with the bits it takes, 0:
        any whole number), remembered under ``what`` for every batch of the
        rule set."""
        code = self._codes(games, fields)
        width = sum(_FIELD_BITS[name] for name in fields if name in _FIELD_BITS)
        memo = self._memo.setdefault(what, {})
        if extra and all(bits for _, bits in extra) and width + sum(b for _, b in extra) <= 63:
            code = _pack(code, [(column.astype(np.int64), bits) for column, bits in extra])
            extra = ()
        if extra:
            keys = np.column_stack([code, *(column.astype(np.int64) for column, _ in extra)])
            unique, first, inverse = np.unique(keys, axis=0, return_index=True, return_inverse=True)
            labels: list[Any] = [tuple(row) for row in unique.tolist()]
        else:
            unique, first, inverse = np.unique(code, return_index=True, return_inverse=True)
            labels = unique.tolist()
        answers = []
        for label, at in zip(labels, first.tolist()):
            found = memo.get(label)
            if found is None:
                found = memo[label] = ask(self.context(int(games[at])), at)
            answers.append(found)
        return [answers[i] for i in inverse.reshape(-1).tolist()]

    # ------------------------------------------------------------- dealing

    def _deal_games(self, games: Ints) -> None:
        """Deal each of ``games`` its next deal (its deal number and dealer as set)."""
        t = self.tables
        plan = t.plan
        m = len(games)
        rows = np.arange(m)
        size = len(t.deck_cards)
        k = self.deal[games]
        dealer = self.dealer[games]
        h = self._hand_size[k]
        orders = deck_order(self.seeds[games], self.shuffles[games], t.deck_cards)
        self.shuffles[games] += 1
        if self.keep_records:
            self._decks.append((games.copy(), orders))
        seats = t.receiver[h, dealer]
        hands = np.zeros((m, t.players), dtype=np.uint64)
        bits = _BIT[orders]
        for seat in range(t.players):
            hands[:, seat] = np.bitwise_or.reduce(np.where(seats == seat, bits, _ZERO), axis=1)
        discards = np.zeros(m, dtype=np.uint64)
        turn = np.full(m, 54, dtype=np.intp)
        form = t.opening
        if form.turns_up:
            at = np.arange(size)
            stock = at[None, :] >= (t.players * h)[:, None]
            candidates = stock & ~t.passes[orders]
            spot = np.where(candidates.any(axis=1), candidates.argmax(axis=1), size - 1)
            turn = orders[rows, spot]
            buried = stock & (at[None, :] < spot[:, None])
            if buried.any():
                discards = np.bitwise_or.reduce(np.where(buried, bits, _ZERO), axis=1)
            swap = t.swap_bits[turn]
            held = hands & swap[:, None]
            for i in np.flatnonzero((held != 0).any(axis=1) & (spot < size - 1)).tolist():
                seat = int(np.flatnonzero(held[i])[0])
                drawn = orders[i, size - 1] if form.draw_bottom else orders[i, spot[i] + 1]
                discards[i] |= held[i, seat]
                hands[i, seat] = (hands[i, seat] & ~swap[i]) | _BIT[drawn]
        self.hands[games] = hands
        self.dealt[games] = hands
        self.trump[games] = t.trump_of[k, dealer, turn]
        self.turn_up[games] = turn
        self.discards[games] = discards
        self.phase[games] = BIDDING
        self.shown_id[games] = 0
        # the cards the opening shows (the trump part's left_in_stock, asked per context)
        shown = self._ask(
            "shown",
            games,
            t.reads("trump", "left_in_stock"),
            lambda ctx, i: self._shown_id(
                plan.shown(ctx, None if turn[i] == 54 else int(turn[i]), int(discards[i]))
            ),
            ((turn, 6), (discards.view(np.int64), 54)),
        )
        ids = np.array(shown, dtype=np.intp)
        self.shown_id[games] = ids
        self.shown[games] = np.array(self._shown_bits, dtype=np.uint64)[ids]
        nodes = t.roots[h, self._first[dealer]]
        self.node[games] = nodes
        self.to_act[games] = t.calls.speaker[nodes]
        self.calls[games] = -1
        self.in_trick[games] = 0
        self.tricks_done[games] = 0
        self.tricks_won[games] = 0
        self.broken[games] = False
        self.played[games] = 0
        self.seat_played[games] = 0
        self.trick[games] = 0
        self.trick_cards[games] = -1
        self.board[games] = False

    def _shown_id(self, cards: CardSet) -> int:
        found = self._shown_ids.get(int(cards))
        if found is None:
            found = self._shown_ids[int(cards)] = len(self._shown_sets)
            self._shown_sets.append(cards)
            self._shown_bits.append(int(cards))
        return found

    # --------------------------------------------------------------- legal

    @property
    def over(self) -> Bools:
        """Which games are over."""
        out: Bools = self.phase == OVER
        return out

    def legal(self) -> Bools:
        """``(n, actions)``: each game's legal actions (none once it is over)."""
        out = np.zeros((self.n, self._size), dtype=bool)
        phase = self.phase
        bidding = np.flatnonzero(phase == BIDDING)
        if len(bidding):
            out[bidding] = self.tables.calls.legal[self.node[bidding]]
        naming = np.flatnonzero(phase == NAMING)
        if len(naming):
            out[naming] = self.naming[naming]
        playing = np.flatnonzero(phase == PLAYING)
        if len(playing):
            out[playing, :54] = prog.unpack(self.legal_cards(playing))
        return out

    def legal_cards(self, games: Ints) -> U64:
        """The cards the seat to play of each of ``games`` (all playing) may
        play, as bit sets: the lead or follow part's expressions, evaluated."""
        t = self.tables
        out = np.zeros(len(games), dtype=np.uint64)
        leading = self.in_trick[games] == 0
        for part, programs, mine in (
            ("lead", t.lead, np.flatnonzero(leading)),
            ("follow", t.follow, np.flatnonzero(~leading)),
        ):
            if not len(mine):
                continue
            g = games[mine] if len(mine) < len(games) else games
            trump = self.trump[g]
            situation = trump if part == "lead" else trump * 54 + self.led[g]
            for template, reads, where in programs.groups(situation):
                whole = len(where) == len(g)
                gw = g if whole else g[where]
                params = programs.params[situation if whole else situation[where]]
                found = prog.cards(template, self._env(gw, params, reads))
                if whole and len(mine) == len(games):
                    out = found
                else:
                    out[mine[where]] = found
        empty = out == 0
        if empty.any():
            hand = self.hands[games, self.to_act[games]]
            stuck = empty & (hand != 0)
            if stuck.any():
                i = int(np.flatnonzero(stuck)[0])
                part = "lead" if leading[i] else "follow"
                raise RuleSetError(
                    [
                        f"{part}: {declared.part_class_name(t.rules, part)} leaves seat "
                        f"{self.to_act[games][i]} nothing to play from a hand that is not empty"
                    ]
                )
        return out

    def _env(self, g: Ints, params: U64, uses: frozenset[str]) -> prog.Env:
        """The positions of ``g`` (their seat to act) for a template that
        reads ``uses``: only those sets and facts."""
        t = self.tables
        seat = self.to_act[g]
        nothing: Any = None
        return prog.Env(
            params=params,
            hand=self.hands[g, seat] if "hand" in uses else nothing,
            trick=self.trick[g] if "trick" in uses else nothing,
            played=self.played[g] if "played" in uses else nothing,
            shown=self.shown[g] if "shown" in uses else nothing,
            seat_played=self.seat_played[g, seat] if "seat-played" in uses else nothing,
            broken=self.broken[g] if "broken" in uses else nothing,
            first_trick=(self.tricks_done[g] == 0) if "first-trick" in uses else nothing,
            board_bidder=self.board[g, seat] if "board-bidder" in uses else nothing,
            opponent=(
                t.seat_teams[seat] != t.seat_teams[self.leader[g]]
                if "opponent" in uses
                else nothing
            ),
            strength=t.strength[self.trump[g]] if "strength" in uses else nothing,
            beats=(
                np.where(self.in_trick[g] > 0, t.beat_bits[self.trump[g], self.best[g]], _ZERO)
                if "beats" in uses
                else nothing
            ),
        )

    def random_actions(self, live: Ints) -> Ints:
        """One legal action of each of ``live`` (games not over, in order),
        each legal action of a game equally likely (from :attr:`rng`)."""
        out = np.empty(len(live), dtype=np.intp)
        playing = self.phase[live] == PLAYING
        if playing.any():
            mine = np.flatnonzero(playing)
            g = live if len(mine) == len(live) else live[mine]
            out[mine] = _pick_bits(self.legal_cards(g), self.rng)
        if not playing.all():
            mine = np.flatnonzero(~playing)
            g = live[mine]
            legal = np.where(
                (self.phase[g] == BIDDING)[:, None],
                self.tables.calls.legal[self.node[g]],
                self.naming[g],
            )
            count = np.count_nonzero(legal, axis=1)
            pick = (self.rng.random(len(count)) * count).astype(np.intp)
            running = np.cumsum(legal, axis=1, dtype=np.int16)
            out[mine] = (running > pick[:, None]).argmax(axis=1)
        return out

    # ---------------------------------------------------------------- step

    def step(self, actions: Sequence[int] | np.ndarray[Any, Any]) -> None:
        """Play one action in each game that is not over (``actions[i]`` for
        game ``i``; ignored for a game that is over).  An action that is not
        legal raises :class:`~backalley.SetupError` and changes nothing."""
        acts = np.asarray(actions)
        if acts.shape != (self.n,) or not np.issubdtype(acts.dtype, np.integer):
            raise SetupError(
                f"step takes one whole-number action per game ({self.n}), not {actions!r}"
            )
        acts = acts.astype(np.intp)
        live = np.flatnonzero(self.phase != OVER)
        if not len(live):
            return
        a = acts[live]
        inside = (a >= 0) & (a < self._size)
        legal = self.legal()
        ok = inside & legal[live, np.clip(a, 0, self._size - 1)]
        if not ok.all():
            first = int(live[np.flatnonzero(~ok)[0]])
            raise SetupError(
                f"illegal action in {int((~ok).sum())} game(s), the first game {first}: "
                f"{int(acts[first])} is not among its legal actions "
                f"{np.flatnonzero(legal[first]).tolist()}"
            )
        self._apply(live, a)

    def step_unchecked(self, games: Ints, actions: Ints) -> None:
        """:meth:`step` for ``games`` (each not over, in increasing order) with
        actions known to be legal (taken from :meth:`legal`): no check."""
        self._apply(games, actions)

    def _apply(self, live: Ints, a: Ints) -> None:
        self.decisions += len(live)
        if self.keep_records:
            at = self._logged[live]
            if len(at) and at.max() >= self._log.shape[1]:
                self._log = np.concatenate([self._log, np.zeros_like(self._log)], axis=1)
            self._log[live, at] = a
            self._logged[live] = at + 1
        phase = self.phase[live]
        again: list[Ints] = []
        playing = phase == PLAYING
        if playing.all():
            self._play(live, a, again)
        else:
            bidding = phase == BIDDING
            if bidding.any():
                self._call(live[bidding], a[bidding], again)
            naming = phase == NAMING
            if naming.any():
                self._name_trump(live[naming], a[naming])
            if playing.any():
                self._play(live[playing], a[playing], again)
        if again:
            self._deal_games(np.concatenate(again) if len(again) > 1 else again[0])

    # ------------------------------------------------------------- bidding

    def _call(self, games: Ints, actions: Ints, again: list[Ints]) -> None:
        t = self.tables
        self.calls[games, self.to_act[games]] = actions
        after = t.calls.step(self.node[games], actions).astype(np.intp)
        open_ = after >= 0
        g_open = games[open_]
        self.node[g_open] = after[open_]
        self.to_act[g_open] = t.calls.speaker[after[open_]]
        if open_.all():
            return
        over = games[~open_]
        outcome = outcome_of(after[~open_])
        thrown = t.calls.thrown_in[outcome]
        if thrown.any():
            redeal = over[thrown]
            self.dealer[redeal] = t.redealer[self.dealer[redeal]]
            again.append(redeal)
            over, outcome = over[~thrown], outcome[~thrown]
        if not len(over):
            return
        self.outcome[over] = outcome
        self.board[over] = t.calls.board[outcome]
        self.phase[over] = NAMING  # the context has its outcome from here on
        plan = t.plan
        choices = self._ask(
            "choices", over, t.reads("trump", "choices"), lambda ctx, i: plan.trump_choices(ctx)
        )
        names = np.array([bool(c) for c in choices], dtype=bool)
        if names.any():
            named = over[names]
            rows = np.zeros((len(named), self._size), dtype=bool)
            for i, options in enumerate(c for c in choices if c):
                for suit in options:
                    rows[i, self.actions.id_of(NameTrump(suit))] = True
            self.naming[named] = rows
            declarer = t.calls.declarer[self.outcome[named]]
            if (declarer < 0).any():
                raise RuleSetError(
                    [
                        f"trump and bidding: {declared.part_class_name(t.rules, 'trump')} has the "
                        f"declarer name trump, but {declared.part_class_name(t.rules, 'bidding')}"
                        ".outcome named no "
                        "declarer"
                    ]
                )
            self.to_act[named] = declarer
        plays = over[~names]
        if len(plays):
            self._begin_play(plays)

    def _name_trump(self, games: Ints, actions: Ints) -> None:
        self.trump[games] = actions - self._trump_base
        self._begin_play(games)

    def _begin_play(self, games: Ints) -> None:
        t = self.tables
        plan = t.plan
        leader = self._ask(
            "first_leader",
            games,
            t.reads("lead", "first_leader"),
            lambda ctx, i: plan.first_leader(ctx),
        )
        first = np.array(leader, dtype=np.intp)
        self.phase[games] = PLAYING
        self.leader[games] = first
        self.to_act[games] = first

    # ---------------------------------------------------------------- play

    def _play(self, games: Ints, cards: Ints, again: list[Ints]) -> None:
        t = self.tables
        seat = self.to_act[games]
        bit = _BIT[cards]
        self.hands[games, seat] &= ~bit
        self.trick[games] |= bit
        self.trick_cards[games, seat] = cards
        count = self.in_trick[games]
        first = count == 0
        best = self.best[games]
        trump = self.trump[games]
        ahead = first | ((t.beat_bits[trump, best] & bit) != 0)
        self.led[games] = np.where(first, cards, self.led[games])
        self.best[games] = np.where(ahead, cards, best)
        self.winner[games] = np.where(ahead, seat, self.winner[games])
        count = count + 1
        self.in_trick[games] = count
        nxt = seat + 1
        nxt[nxt == t.players] = 0
        self.to_act[games] = nxt
        complete = count == t.players
        if complete.all():
            self._end_trick(games, again)
        elif complete.any():
            self._end_trick(games[complete], again)

    def _end_trick(self, games: Ints, again: list[Ints]) -> None:
        t = self.tables
        breaks = t.breaks
        open_ = np.flatnonzero(~self.broken[games])
        if len(open_):
            g = games[open_]
            situation = self.trump[g] * 54 + self.led[g]
            for template, reads, where in breaks.groups(situation):
                gw = g[where]
                env = self._env(gw, breaks.params[situation[where]], reads)
                self.broken[gw] = prog.holds(template, env)
        won = self.winner[games]
        self.tricks_won[games, won] += 1
        self.played[games] |= self.trick[games]
        held = self.trick_cards[games]
        self.seat_played[games] |= _BIT[held]
        self.trick_cards[games] = -1
        self.trick[games] = 0
        self.in_trick[games] = 0
        self.leader[games] = won
        self.to_act[games] = won
        done = self.tricks_done[games] + 1
        self.tricks_done[games] = done
        over = done == self._hand_size[self.deal[games]]
        if over.all():
            self._end_deal(games, again)
        elif over.any():
            self._end_deal(games[over], again)

    def _end_deal(self, games: Ints, again: list[Ints]) -> None:
        t = self.tables
        plan = t.plan
        tricks = self.tricks_won[games] @ self._team
        keys = self._ask("score_key", games, t.reads("scoring", "score_key"), self._score_id)
        ids = np.array(keys, dtype=np.intp)
        dealt = np.array([self._score_dealt[i] for i in keys], dtype=bool)
        points = np.zeros((len(games), t.sides), dtype=np.int64)
        if dealt.any():  # points that read the hands as dealt: asked game by game
            for i in np.flatnonzero(dealt).tolist():
                g = int(games[i])
                points[i] = plan.score(
                    self.context(g), tuple(tricks[i].tolist()), _bits(self.dealt[g])
                )
        rest = np.flatnonzero(~dealt)
        if len(rest):
            sub = games[rest]
            found = self._ask(
                "points",
                sub,
                frozenset(),
                lambda ctx, i: plan.score(
                    ctx, tuple(tricks[rest[i]].tolist()), _bits(self.dealt[sub[i]])
                ),
                (
                    (ids[rest], _SCORE_ID_BITS),
                    *((tricks[rest, j], _TRICKS_BITS) for j in range(t.sides)),
                ),
            )
            points[rest] = found
        self.scores[games] += points
        k = self.deal[games] + 1
        finished = k >= t.deals
        if finished.any():
            ended = games[finished]
            self.deal[ended] += 1
            self.phase[ended] = OVER
            self.to_act[ended] = -1
        going = games[~finished]
        if not len(going):
            return
        # the next dealer, asked with the deal's context (its deal number as played)
        pts = points[~finished]
        by_points = t.reads_argument("dealer", "dealer_after", "points")
        dealer = self._ask(
            "dealer_after",
            going,
            t.reads("dealer", "dealer_after"),
            lambda ctx, i: plan.dealer_after(ctx, tuple(pts[i].tolist())),
            tuple((pts[:, j], 0) for j in range(t.sides)) if by_points else (),
        )
        self.deal[going] += 1
        self.dealer[going] = dealer
        again.append(going)

    def _score_id(self, ctx: DealContext, i: int) -> int:
        """The number of the scoring part's key for ``ctx`` (and whether its
        points read the hands as dealt)."""
        t = self.tables
        key = t.score_key(ctx)
        found = self._score_keys.get(key)
        if found is None:
            found = self._score_keys[key] = len(self._score_dealt)
            reads_dealt = bool(t.score_reads_dealt(ctx))
            self._score_dealt.append(reads_dealt)
            if t.sides == 2 and not reads_dealt:
                # every split of the deal's tricks, remembered as _end_deal looks them up
                memo = self._memo.setdefault("points", {})
                h = ctx.hand_size
                for won in range(h + 1):
                    label = _pack(
                        0, ((found, _SCORE_ID_BITS), (won, _TRICKS_BITS), (h - won, _TRICKS_BITS))
                    )
                    memo[label] = t.plan.score(ctx, (won, h - won), [0] * t.players)
        return found

    # ------------------------------------------------------------- records

    def records(self) -> tuple[GameRecord, ...]:
        """Every game as a :class:`~backalley.GameRecord` (the moves so far)
        that :func:`backalley.replay` replays."""
        if not self.keep_records:
            raise SetupError("this batch keeps no records (records=False)")
        decks: list[list[tuple[str, ...]]] = [[] for _ in range(self.n)]
        text = [str(card) for card in CARDS]
        start = self._record_from.tolist()
        for chunk, (games, orders) in enumerate(self._decks):
            for g, order in zip(games.tolist(), orders.tolist()):
                if chunk >= start[g]:
                    decks[g].append(tuple(text[c] for c in order))
        move_of = self.actions.move_of
        moves_of: dict[int, Any] = {}
        out = []
        for g in range(self.n):
            moves = []
            for a in self._log[g, : self._logged[g]].tolist():
                move = moves_of.get(a)
                if move is None:
                    move = moves_of[a] = move_of(a)
                moves.append(move)
            out.append(
                GameRecord(
                    rules=self.tables.rules,
                    first_dealer=int(self.first_dealer[g]),
                    decks=tuple(decks[g]),
                    moves=tuple(moves),
                )
            )
        return tuple(out)


def _pick_bits(legal: U64, rng: np.random.Generator) -> Ints:
    """One set bit of each bit set, each equally likely: the k-th lowest, k
    uniform below the number of bits."""
    count = np.bitwise_count(legal)
    k = (rng.random(len(legal)) * count).astype(np.uint8)
    # binary search for the bit below which k bits are set
    low = np.zeros(len(legal), dtype=np.uint64)
    for width in _WIDTHS:
        mid = low + width
        right = np.bitwise_count(legal & ((_ONE << mid) - _ONE)) <= k
        low = np.where(right, mid, low)
    out: Ints = low.astype(np.intp)
    return out


_ONE = np.uint64(1)
_WIDTHS = tuple(np.uint64(w) for w in (32, 16, 8, 4, 2, 1))
