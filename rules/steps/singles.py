"""Single moves of Plakoto, Fevga and Long Nardy: which checker a die may move, one step at a
time, for the fast legal-play generator (:mod:`rules.steps.legal`) and the tap-by-tap input.

A *stepper* is built once per turn (position, dice, options) and knows what the turn's start
decides (the first turn of Long Nardy, the opponent's most advanced checker, Fevga's block to
open). It works on a raw state ``(board, pins, head)``: the position's slots, its pins and how
many checkers left the head this turn (Long Nardy). Rules enforced, per game:

* common: no bar and no hitting; a checker moves from 24 towards 1; bearing off once every
  checker is home (1-6), with the exact die, or a higher one from the highest point only;
* Plakoto: a point is closed by 2+ opposing checkers or by an opposing checker on top of a pinned
  one; landing on a lone opposing checker pins it (``Move.hit``); a pinned checker cannot move;
  when the last checker leaves a pinning point the pinned one is free again; a pinned checker of
  one's own counts as standing where it is (it stops bearing off outside home, and a higher die
  from a lower point); option: none off while one is pinned at home;
* Fevga: one checker holds a point; the first checker; the starting quarter; the block in front
  of all the opponent's checkers (:meth:`FevgaSteps.prefer`); optional Nardy-style block rule;
* Long Nardy: one checker holds a point; one checker from the head per turn (two on the first
  turn with the named doubles); no six in a row unless an opposing checker is ahead of them.

The block rules (Long Nardy's six in a row, Fevga's starting quarter) forbid *making* the block:
a move (or, checked at the end, a play) may not leave a forbidden block that was not there
before it, so a block the turn began with does not freeze the board.
"""

from __future__ import annotations

from rules.steps.board import StepsPosition, Variant, same_way_point
from rules.steps.options import FevgaOptions, NardyOptions, PlakotoOptions, RuleOptions

State = tuple[tuple[int, ...], tuple[int, ...], int]
"""``(board, pins, head)``: a position's slots and pins, and checkers taken from the head."""
Raw = tuple[int, int, int, bool]
"""A single move as the search makes it: ``(from, to, die, pin)`` (a :class:`Move`'s fields)."""
Key = tuple[tuple[int, ...], tuple[int, ...]]
"""A resulting position, as plays are deduplicated: ``(board, pins)``."""

_MINE = (0, *(same_way_point(q) for q in range(1, 25)))
"""Fevga and Nardy: the mover's point where the opponent's own point ``q`` lies."""


def plakoto_decision(b: tuple[int, ...], t: tuple[int, ...]) -> str | None:
    """After the mover's play: ``"mother"`` when the mover has won by pinning the opponent's
    mother (the last checker on his start, the mover's 1) and has no checker left on his own start
    (24); ``"draw"`` when both mothers are pinned; else None."""
    theirs = t[1] == -1
    if theirs and t[24] == 1:
        return "draw"
    if theirs and b[24] <= 0:
        return "mother"
    return None


class Steps:
    """A turn's single moves in one game (see the module's text); a base for each game."""

    variant: Variant
    simple = True
    """Whether :meth:`final_ok` and :meth:`terminal` always say True and False (the search
    then skips asking)."""

    def __init__(self, position: StepsPosition, dice: tuple[int, int]) -> None:
        self.position = position
        self.dice = dice

    def initial(self) -> State:
        return (self.position.board, self.position.pins, 0)

    def steps(self, state: State, die: int) -> list[tuple[Raw, State]]:
        raise NotImplementedError

    def final_ok(self, state: State) -> bool:
        """Whether a play may end in this state (the rules checked only at the end)."""
        return True

    def terminal(self, state: State) -> bool:
        """Whether the play ends here whatever dice are left (it has decided the game)."""
        return False

    def prefer(self, finals: dict[Key, tuple[Raw, ...]]) -> dict[Key, tuple[Raw, ...]]:
        """The legal plays among the maximal ones (Fevga's block to open)."""
        return finals


class PlakotoSteps(Steps):
    variant = Variant.PLAKOTO

    def __init__(
        self, position: StepsPosition, dice: tuple[int, int], options: PlakotoOptions
    ) -> None:
        super().__init__(position, dice)
        self.blocks = options.plakoto_pinned_blocks_bearoff
        self.ends = options.plakoto_mother_ends_turn
        self.simple = not self.ends

    def steps(self, state: State, die: int) -> list[tuple[Raw, State]]:
        b, t, _ = state
        out: list[tuple[Raw, State]] = []
        high = 24
        while high and b[high] <= 0 and t[high] != 1:
            high -= 1
        if not high:
            return out
        home = high <= 6 and not (self.blocks and 1 in t[1:7])
        for src in range(high, 0, -1):
            if b[src] <= 0:
                continue
            dest = src - die
            pin = False
            if dest > 0:
                v = b[dest]
                if v < 0:
                    if v != -1 or t[dest]:
                        continue
                    pin = True
            elif not home or (dest < 0 and src != high):
                continue
            else:
                dest = 0
            nb = list(b)
            nt = t
            nb[src] -= 1
            if not nb[src] and t[src] == -1:
                nb[src] = -1
                nt = (*t[:src], 0, *t[src + 1 :])
            if pin:
                nb[dest] = 1
                nt = (*nt[:dest], -1, *nt[dest + 1 :])
            elif dest:
                nb[dest] += 1
            out.append(((src, dest, die, pin), (tuple(nb), nt, 0)))
        return out

    def terminal(self, state: State) -> bool:
        return self.ends and plakoto_decision(state[0], state[1]) is not None


class SameWaySteps(Steps):
    """Fevga and Long Nardy: one checker holds a point; the block rule of Long Nardy."""

    head = False
    """Whether the state counts checkers taken from the head (Long Nardy)."""

    def __init__(self, position: StepsPosition, dice: tuple[int, int], prime: bool,
                 prime_check: str) -> None:
        super().__init__(position, dice)
        b = position.board
        # The opponent's most advanced checker, in his numbering (he does not move this turn).
        self.their_lowest = min((q for q in range(1, 25) if b[_MINE[q]] < 0), default=25)
        self.prime_step = prime and prime_check == "step"
        self.prime_end = prime and prime_check == "end"
        # Six in a row held when the turn begins are not made by it (the checker ahead of them
        # may have been borne off since): the block rule is about making one.
        self.held_at_start = frozenset(lo for lo in range(1, 20) if self._full(b, lo))
        self.simple = not self.prime_end

    def _sources(self, b: tuple[int, ...], h: int) -> range | tuple[int, ...]:
        return range(24, 0, -1)

    def _step_ok(self, nb: list[int], dest: int) -> bool:
        # Only a point just taken (nb[dest] == 1) can complete a new block.
        return not self.prime_step or nb[dest] != 1 or self._prime_ok(nb, same_way_point(dest))

    def _full(self, nb: list[int] | tuple[int, ...], lo: int) -> bool:
        return all(nb[_MINE[q]] > 0 for q in range(lo, lo + 6))

    def _prime_ok(self, nb: list[int] | tuple[int, ...], around: int) -> bool:
        """No six of the mover's points in a row along the opponent's path, containing the
        opponent's point ``around``, unless an opposing checker is ahead of it."""
        for lo in range(max(1, around - 5), min(19, around) + 1):
            if lo <= self.their_lowest and self._full(nb, lo):
                return False
        return True

    def final_ok(self, state: State) -> bool:
        if not self.prime_end:
            return True
        b = state[0]
        return not any(
            lo <= self.their_lowest and self._full(b, lo) and lo not in self.held_at_start
            for lo in range(1, 20)
        )

    def steps(self, state: State, die: int) -> list[tuple[Raw, State]]:
        b, t, h = state
        out: list[tuple[Raw, State]] = []
        high = 24
        while high and b[high] <= 0:
            high -= 1
        if not high:
            return out
        home = high <= 6
        for src in self._sources(b, h):
            if b[src] <= 0:
                continue
            dest = src - die
            if dest > 0:
                if b[dest] < 0:
                    continue
            elif not home or (dest < 0 and src != high):
                continue
            else:
                dest = 0
            nb = list(b)
            nb[src] -= 1
            if dest:
                nb[dest] += 1
                if not self._step_ok(nb, dest):
                    continue
            out.append(((src, dest, die, False), (tuple(nb), t, h + (src == 24 and self.head))))
        return out


class FevgaSteps(SameWaySteps):
    variant = Variant.FEVGA

    def __init__(
        self, position: StepsPosition, dice: tuple[int, int], options: FevgaOptions
    ) -> None:
        super().__init__(position, dice, options.fevga_prime == "nardy", options.prime_check)
        self.until = options.fevga_first_until
        # The quarter is about taking its last point: a board that already holds all six
        # (only a crafted one) does not forbid every move.
        held = all(position.board[p] > 0 for p in range(19, 25))
        self.quarter_step = options.fevga_start_quarter and options.prime_check == "step"
        self.quarter_end = options.fevga_start_quarter and options.prime_check == "end" \
            and not held
        self.must_open = self._block_to_open(options) if options.fevga_unblock else ()
        self.simple = self.simple and not self.quarter_end

    def _block_to_open(self, options: FevgaOptions) -> tuple[int, ...]:
        """The six points (mover's numbering) right in front of all the opponent's checkers, when
        they stand on one point and the mover holds all six; else ``()``."""
        b = self.position.board
        theirs = [p for p in range(1, 25) if b[p] < 0]
        if len(theirs) != 1:
            return ()
        s = same_way_point(theirs[0])
        if s < 7:
            return ()
        six = tuple(_MINE[q] for q in range(s - 6, s))
        return six if all(b[p] > 0 for p in six) else ()

    def _sources(self, b: tuple[int, ...], h: int) -> range | tuple[int, ...]:
        for p in range(1, self.until + 1):
            if b[p] > 0:
                return range(24, 0, -1)
        # No checker has reached the opponent's starting quarter yet: the one out moves alone.
        out = tuple(p for p in range(23, self.until, -1) if b[p] > 0)
        return out or (24,)

    def _step_ok(self, nb: list[int], dest: int) -> bool:
        if self.quarter_step and dest >= 19 and nb[dest] == 1 and \
                all(nb[p] > 0 for p in range(19, 25)):
            return False
        return super()._step_ok(nb, dest)

    def final_ok(self, state: State) -> bool:
        b = state[0]
        if self.quarter_end and all(b[p] > 0 for p in range(19, 25)):
            return False
        return super().final_ok(state)

    def prefer(self, finals: dict[Key, tuple[Raw, ...]]) -> dict[Key, tuple[Raw, ...]]:
        if not self.must_open:
            return finals
        opened = {k: m for k, m in finals.items() if any(k[0][p] <= 0 for p in self.must_open)}
        return opened or finals


class NardySteps(SameWaySteps):
    variant = Variant.NARDY
    head = True

    def __init__(
        self, position: StepsPosition, dice: tuple[int, int], options: NardyOptions
    ) -> None:
        super().__init__(position, dice, options.nardy_prime, options.prime_check)
        b = position.board
        first = b[24] == 15
        double = dice[0] == dice[1] and dice[0] in options.nardy_head_doubles
        self.head_limit = 2 if first and double else 1

    def _sources(self, b: tuple[int, ...], h: int) -> range | tuple[int, ...]:
        return range(24, 0, -1) if h < self.head_limit else range(23, 0, -1)


def stepper(
    position: StepsPosition, dice: tuple[int, int], options: RuleOptions | None = None
) -> Steps:
    """The turn's stepper for the position's game."""
    opts = options or RuleOptions()
    if position.variant == Variant.PLAKOTO:
        return PlakotoSteps(position, dice, opts.plakoto)
    if position.variant == Variant.FEVGA:
        return FevgaSteps(position, dice, opts.fevga)
    return NardySteps(position, dice, opts.nardy)
