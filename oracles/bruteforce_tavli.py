"""A deliberately simple, slow move generator for Plakoto, Fevga and Long Nardy, written from the
rule text (``tavli-rules.md``) and separately from ``rules.tavlisteps`` / ``rules.tavlilegal``:
it shares only the position type. It checks the fast generator, nothing else.

The board is a stack of owners per point, bottom first (``"x"`` the side to move, ``"o"`` the
other), so a pinned checker is simply the bottom of a stack whose top is the other colour. Every
sequence of single moves is enumerated die by die, in every order of the dice, with no memo and
no pruning; the rules that judge a whole play are applied to the list of sequences at the end.
"""

from __future__ import annotations

from typing import Any

from rules.tavliboard import TavliPosition, Variant
from rules.tavlioptions import RuleOptions

Stacks = dict[int, list[str]]

# The other side's path in the mover's numbering (Fevga, Nardy): from his start (the mover's 12)
# down to 1, across to 24, down to 13 where he bears off.
THEIR_PATH = [*range(12, 0, -1), *range(24, 12, -1)]


def to_stacks(position: TavliPosition) -> Stacks:
    stacks: Stacks = {p: [] for p in range(1, 25)}
    for p in range(1, 25):
        count, pin = position.board[p], position.pins[p]
        if pin == 1:
            stacks[p].append("x")
        elif pin == -1:
            stacks[p].append("o")
        stacks[p].extend(["x" if count > 0 else "o"] * abs(count))
    return stacks


def from_stacks(variant: Variant, stacks: Stacks) -> TavliPosition:
    board = [0] * 26
    pins = [0] * 26
    for p, stack in stacks.items():
        if not stack:
            continue
        top = stack[-1]
        on_top = sum(1 for c in stack if c == top)
        board[p] = on_top if top == "x" else -on_top
        if stack[0] != top:
            pins[p] = 1 if stack[0] == "x" else -1
    return TavliPosition(variant, board, pins)


def copy(stacks: Stacks) -> Stacks:
    return {p: list(s) for p, s in stacks.items()}


def mover_points(stacks: Stacks) -> list[int]:
    """Every point where the mover has a checker (free or pinned)."""
    return [p for p, s in stacks.items() if "x" in s]


def holds(stacks: Stacks, p: int) -> bool:
    return bool(stacks[p]) and stacks[p][-1] == "x"


class Game:
    """One turn's rules for one game, read from the rule text."""

    def __init__(self, position: TavliPosition, dice: tuple[int, int], options: RuleOptions):
        self.variant = position.variant
        self.opts = options
        self.start = to_stacks(position)
        self.dice = dice
        self.first_turn = self.start[24].count("x") == 15

    # -- single moves -------------------------------------------------------------------------

    def may_bear_off(self, stacks: Stacks) -> bool:
        points = mover_points(stacks)
        if any(p > 6 for p in points):
            return False
        pinned_at_home = any(
            stacks[p] and stacks[p][0] == "x" and stacks[p][-1] == "o" for p in range(1, 7)
        )
        return not (
            self.variant == Variant.PLAKOTO
            and self.opts.plakoto.plakoto_pinned_blocks_bearoff
            and pinned_at_home
        )

    def may_land(self, stacks: Stacks, p: int) -> bool:
        s = stacks[p]
        if not s or s[-1] == "x":
            return True
        # An opposing checker is there: only Plakoto lands, and only on a lone one (a pin).
        return self.variant == Variant.PLAKOTO and s == ["o"]

    def movable_from(self, stacks: Stacks, heads: int) -> list[int]:
        """Points whose top checker is the mover's and may move now (game restrictions)."""
        tops = [p for p in range(1, 25) if holds(stacks, p)]
        if self.variant == Variant.FEVGA:
            until = self.opts.fevga.fevga_first_until
            reached = any(p <= until for p in mover_points(stacks))
            if not reached:
                away = [p for p in tops if p != 24]
                tops = away if away else [p for p in tops if p == 24]
        if self.variant == Variant.NARDY:
            limit = 1
            d1, d2 = self.dice
            if self.first_turn and d1 == d2 and d1 in self.opts.nardy.nardy_head_doubles:
                limit = 2
            if heads >= limit:
                tops = [p for p in tops if p != 24]
        return tops

    def moves(self, stacks: Stacks, die: int, heads: int) -> list[tuple[tuple[int, int, bool],
                                                                      Stacks, int]]:
        out = []
        for src in self.movable_from(stacks, heads):
            dest = src - die
            if dest >= 1:
                if not self.may_land(stacks, dest):
                    continue
            else:
                if not self.may_bear_off(stacks):
                    continue
                higher = any(p > src for p in mover_points(stacks))
                if dest < 0 and higher:
                    continue
                dest = 0
            after = copy(stacks)
            after[src].pop()
            pin = False
            if dest:
                pin = after[dest] == ["o"]
                after[dest].append("x")
            if not self.step_ok(stacks, after):
                continue
            out.append(((src, dest, pin), after, heads + (src == 24)))
        return out

    # -- rules on positions -------------------------------------------------------------------

    def prime_rule(self) -> bool:
        if self.variant == Variant.NARDY:
            return self.opts.nardy.nardy_prime
        return self.variant == Variant.FEVGA and self.opts.fevga.fevga_prime == "nardy"

    def check_at_step(self) -> bool:
        opts = self.opts.nardy if self.variant == Variant.NARDY else self.opts.fevga
        return opts.prime_check == "step"

    def bad_blocks(self, stacks: Stacks) -> set[object]:
        """The forbidden blocks the mover has: the full starting quarter (Fevga), and six
        points in a row along the other side's path with none of his checkers past them."""
        bad: set[object] = set()
        quarter = all(holds(stacks, p) for p in range(19, 25))
        if self.variant == Variant.FEVGA and self.opts.fevga.fevga_start_quarter and quarter:
            bad.add("quarter")
        if self.prime_rule():
            for i in range(len(THEIR_PATH) - 5):
                window = THEIR_PATH[i : i + 6]
                if all(holds(stacks, p) for p in window):
                    ahead = THEIR_PATH[i + 6 :]
                    if not any("o" in stacks[p] for p in ahead):
                        bad.add(i)
        return bad

    def made_bad_block(self, before: Stacks, after: Stacks) -> bool:
        """The rules forbid making such a block: one there before does not count."""
        if self.variant == Variant.PLAKOTO:
            return False
        return bool(self.bad_blocks(after) - self.bad_blocks(before))

    def step_ok(self, before: Stacks, after: Stacks) -> bool:
        return not self.check_at_step() or not self.made_bad_block(before, after)

    def end_ok(self, stacks: Stacks) -> bool:
        return self.check_at_step() or not self.made_bad_block(self.start, stacks)

    def decided(self, stacks: Stacks) -> bool:
        """Plakoto: a mother is pinned so that the game is over (a win or a draw)."""
        if self.variant != Variant.PLAKOTO:
            return False
        theirs = len(stacks[1]) > 1 and stacks[1][0] == "o" and stacks[1][-1] == "x"
        mine = len(stacks[24]) > 1 and stacks[24][0] == "x" and stacks[24][-1] == "o"
        return (theirs and mine) or (theirs and "x" not in stacks[24])

    def block_to_open(self) -> list[int]:
        if self.variant != Variant.FEVGA or not self.opts.fevga.fevga_unblock:
            return []
        theirs = [p for p, s in self.start.items() if "o" in s]
        if len(theirs) != 1:
            return []
        i = THEIR_PATH.index(theirs[0])
        six = THEIR_PATH[i + 1 : i + 7]
        if len(six) == 6 and all(holds(self.start, p) for p in six):
            return six
        return []

    # -- whole plays --------------------------------------------------------------------------

    def sequences(self) -> list[tuple[list[tuple[int, int, bool]], list[int], Stacks, bool]]:
        """Every sequence of single moves, as (moves, dice used, result, ended the game)."""
        d1, d2 = self.dice
        orders = [[d1] * 4] if d1 == d2 else [[d1, d2], [d2, d1]]
        found = []
        ends = self.variant == Variant.PLAKOTO and self.opts.plakoto.plakoto_mother_ends_turn

        def extend(stacks: Stacks, order: list[int], used: list[int], moves: list[Any],
                   heads: int) -> None:
            ended = ends and bool(moves) and self.decided(stacks)
            found.append((moves, used, stacks, ended))
            if ended or len(used) == len(order):
                return
            die = order[len(used)]
            for move, after, h in self.moves(stacks, die, heads):
                extend(after, order, [*used, die], [*moves, move], h)

        for order in orders:
            extend(self.start, order, [], [], 0)
        return found

    def legal_results(self) -> set[TavliPosition]:
        full = 4 if self.dice[0] == self.dice[1] else 2
        candidates = [
            (moves, used, stacks, ended)
            for moves, used, stacks, ended in self.sequences()
            if self.end_ok(stacks) or not moves
        ]
        most = max(full if ended else len(used) for _, used, _, ended in candidates)
        best = [c for c in candidates if (full if c[3] else len(c[1])) == most]
        if most == 1 and full == 2:
            larger = [c for c in best if c[1][0] == max(self.dice)]
            best = larger or best
        six = self.block_to_open()
        if six and most > 0:
            opened = [c for c in best if not all(holds(c[2], p) for p in six)]
            best = opened or best
        return {from_stacks(self.variant, c[2]) for c in best}


def brute_results(
    position: TavliPosition, dice: tuple[int, int], options: RuleOptions | None = None
) -> set[TavliPosition]:
    """The positions the legal plays lead to (the position itself alone: nothing can be
    played)."""
    return Game(position, dice, options or RuleOptions()).legal_results()
