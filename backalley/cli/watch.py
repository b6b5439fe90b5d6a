"""Telling a game as it is played: a :class:`Narrator` turns each move (the
state before, the move, the state after) into lines a person can follow.

Per deal: the dealer, the hand size, the turn-up and trump; the calls in
calling order, each labelled by its seat; the contracts; every trick (each
card with its player, in the order played, and who won it); the deal's tricks
and points per side and the running score.  ``quiet`` tells each deal on one
line, with the same names.  Only what the whole table sees is told (the hands
only when asked for, when nobody at the table is a person).  Seats and sides
are named (North, N-S; see :mod:`backalley.cli.text`) and deals counted from 1.
"""

from __future__ import annotations

from collections.abc import Callable

from backalley import DealResult, GameState, Move, NameTrump, Phase, Play
from backalley.cli.text import TextTable
from backalley.engine import lowlevel

__all__ = ["Narrator", "score_table"]


class Narrator:
    """Writes the story of one game through ``write`` (one line per call)."""

    def __init__(
        self,
        table: TextTable,
        write: Callable[[str], None],
        *,
        show_hands: bool = False,
        quiet: bool = False,
    ) -> None:
        self.table = table
        self.write = write
        self.show_hands = show_hands
        self.quiet = quiet
        self._calls = ""
        self._tricks = 0

    # --------------------------------------------------------------- events

    def start(self, state: GameState) -> None:
        """The game's first deal."""
        if not self.quiet:
            self._deal_header(state)

    def step(self, before: GameState, move: Move, after: GameState) -> None:
        """Tell the move ``move`` that took ``before`` to ``after``."""
        t = self.table
        seat = before.to_act
        assert seat is not None
        scored = after.deals_played > before.deals_played
        if isinstance(move, Play):
            if self.quiet:
                if scored:
                    self._quiet_deal(after)
                return
            trick = (*before.trick, (seat, move.card))
            if len(trick) == before.players:
                if scored:
                    winner = lowlevel.winner_if(before, move.card.index)
                else:
                    winner = after.tricks[-1].winner
                self._tricks += 1
                self.write(f"  Trick {self._tricks:>2}: {t.plays(trick)}   won by {t.seat(winner)}")
            if scored:
                self._deal_end(after)
            return
        if isinstance(move, NameTrump):
            if not self.quiet:
                self.write(f"  {t.seat(seat)} names trump: {t.suit(move.suit)}.")
            return
        if before.phase is not Phase.BIDDING:
            return
        ended = after.phase is not Phase.BIDDING or not after.calls
        if not ended:
            return
        self._calls = t.calls(before.first_bidder, (*before.calls, move))
        if self.quiet:
            if scored:  # a deal the calls alone settle
                self._quiet_deal(after)
            return
        self.write("  Bids: " + self._calls)
        if scored:
            self._deal_end(after)
        elif after.phase is Phase.BIDDING:
            self.write("  Nobody contracted: the deal is thrown in and dealt again.")
            self._deal_header(after)
        else:
            contracts = after.contracts or ()
            parts = [f"{t.side(s)} {t.contract(c)}" for s, c in enumerate(contracts)]
            line = "  Contracts: " + ", ".join(parts)
            if after.declarer is not None:
                line += f"; declarer {t.seat(after.declarer)}"
            self.write(line)

    def finish(self, state: GameState) -> None:
        """The end of the game (or of the part of it that was played)."""
        t = self.table
        if not self.quiet:
            if state.deal_results:
                self.write("")
                for line in score_table(t, state.deal_results):
                    self.write(line)
            self.write("")
        if not state.is_over:
            self.write(
                f"Stopped after {state.deals_played} deals. Score: {t.scores(state.scores)}."
            )
        elif state.winner is None:
            self.write(f"Final score: {t.scores(state.scores)}. A draw.")
        else:
            winner = t.side(state.winner)
            verb = "win" if t.partnerships else "wins"
            self.write(f"Final score: {t.scores(state.scores)}. {winner} {verb}.")

    # -------------------------------------------------------------- details

    def _deal_header(self, state: GameState) -> None:
        t = self.table
        number = state.deals_played + 1
        total = len(state.rules.schedule.hand_sizes)
        cards = "card" if state.hand_size == 1 else "cards"
        self.write("")
        self.write(
            f"Deal {number} of {total}: {t.seat(state.dealer)} deals {state.hand_size} {cards}."
        )
        if state.turn_up is not None:
            trump = state.trump
            self.write(f"  Turn-up {t.card(state.turn_up)}: trump {t.suit(trump)}.")
        elif state.phase is Phase.BIDDING and state.trump is not None:
            self.write(f"  Trump: {t.suit(state.trump)}.")
        if self.show_hands:
            for seat, hand in enumerate(state.hands):
                self.write(f"  {t.seat(seat):<7} {t.hand(hand, state.trump)}")
        self._calls = ""
        self._tricks = 0

    def _deal_end(self, after: GameState) -> None:
        t = self.table
        result = after.deal_results[-1]
        for side, (contract, tricks, points) in enumerate(
            zip(result.contracts, result.tricks, result.points)
        ):
            word = "trick" if tricks == 1 else "tricks"
            if contract is None:
                verdict = "no contract"
            else:
                verdict = f"{'made' if made(contract.tricks, tricks) else 'set'} {contract}"
            self.write(f"  {t.side(side)}: {tricks} {word}, {verdict}: {points:+d}")
        self.write(f"  Score: {t.scores(after.scores)}")
        if not after.is_over:
            self._deal_header(after)

    def _quiet_deal(self, after: GameState) -> None:
        """The deal just scored on one line: ``Deal  1: 13 cards, South deals,
        trump ♣ (turn-up 5♣) | bids West bid 3, ... | contracts N-S 3, E-W 5 |
        tricks N-S 8, E-W 5 | points N-S +20, E-W +25 | score N-S 20, E-W 25``."""
        t = self.table
        r = after.deal_results[-1]
        turn = f" (turn-up {t.card(r.turn_up)})" if r.turn_up is not None else ""
        contracts = ", ".join(f"{t.side(s)} {t.contract(c)}" for s, c in enumerate(r.contracts))
        if r.declarer is not None:
            contracts += f"; declarer {t.seat(r.declarer)}"
        tricks = ", ".join(f"{t.side(s)} {n}" for s, n in enumerate(r.tricks))
        points = ", ".join(f"{t.side(s)} {p:+d}" for s, p in enumerate(r.points))
        self.write(
            f"Deal {r.number:>2}: {r.hand_size} {'card' if r.hand_size == 1 else 'cards'}, "
            f"{t.seat(r.dealer)} deals, trump {t.suit(r.trump)}{turn} | bids {self._calls} | "
            f"contracts {contracts} | tricks {tricks} | points {points} | "
            f"score {t.scores(after.scores)}"
        )


def made(contracted: int, taken: int) -> bool:
    """A contract is made when the side takes at least the tricks it contracted."""
    return taken >= contracted


def score_table(table: TextTable, results: tuple[DealResult, ...]) -> list[str]:
    """The score sheet: per deal the hand size, trump and each side's points
    and running total."""
    sides = [table.side(s) for s in range(len(table.teams))]
    width = max(14, *(len(s) for s in sides))
    head = f"{'Deal':>4} {'Cards':>5} {'Trump':<8} " + " ".join(f"{s:>{width}}" for s in sides)
    lines = [head, "-" * len(head)]
    totals = [0] * len(sides)
    for r in results:
        totals = [a + b for a, b in zip(totals, r.points)]
        cells = " ".join(f"{f'{p:+d} = {s}':>{width}}" for p, s in zip(r.points, totals))
        lines.append(f"{r.number:>4} {r.hand_size:>5} {table.suit(r.trump):<8} {cells}")
    return lines
