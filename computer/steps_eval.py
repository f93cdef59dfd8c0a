"""The medium level's evaluation in Plakoto, Fevga and Long Nardy: a position after a play, worth
so many pips to the side that played it (higher is better).

Both sides are judged alike, so the evaluation also serves one ply deeper, from the opponent's
side. The terms, in pips:

* **race**: the opponent's pip count minus ours, and a pip per checker still on the board (a
  checker borne off is one fewer to bear off);
* **mobility**: the pips a side is expected to lose on its next roll because the other side's
  points stop its dice (:func:`blocked_pips`, over the 36 rolls), weighted because a block lasts;
* **primes**: points held in a row right in front of the other side's checkers, by the number of
  checkers behind them;
* Plakoto only: **pins** (a pinned checker is stuck, worth more the further it has to go),
  **blots** within reach of the other side's checkers behind them (the chance of being pinned, by
  the cost of it), and the **mother** (the last checker on the start: pinned, she loses the game
  for 2 points);
* Fevga and Long Nardy only (no hitting, so blots do not matter): **piles** (more than three
  checkers on a point off the start waste the checkers' flexibility) and **spread** (points held).
"""

from __future__ import annotations

from collections.abc import Iterable

from rules.games import game_outcome
from rules.steps.board import StepsPosition, Variant, same_way_point

WIN = 40.0
"""A game point in pips, while the game goes on (a pinned mother is 2 of them)."""
DECIDED = 1000.0
"""A game point once the game is decided."""
MOBILITY = 2.5
PRIME = 0.6
PLAKOTO_PRIME = 0.0
PIN_BASE = 9.0
PIN_PIPS = 0.4
BLOT_SCALE = 1.0
THEIR_BLOTS = 0.25
PILE = 0.6
SPREAD = 0.4
CHECKER = 2.0

SHOTS = {1: 11, 2: 12, 3: 14, 4: 15, 5: 15, 6: 17, 7: 6, 8: 6, 9: 5, 10: 3, 11: 2, 12: 3,
          15: 1, 16: 1, 18: 1, 20: 1, 24: 1}
"""Rolls of 36 that move one checker exactly this far (the classic shot table)."""
_RUN = (0.0, 0.0, 0.5, 1.5, 3.0, 5.0, 9.0, 9.0, 9.0, 9.0, 9.0, 9.0, 9.0)
_ROLLS = tuple((a, b) for a in range(1, 7) for b in range(a, 7))


def blocked_pips(stacks: Iterable[int], blocked: set[int], home: bool) -> float:
    """Expected pips a side loses on its next roll for want of a single move, per 36 rolls /36.

    ``stacks``: the points (own numbering, moving down towards 0) of its free checkers;
    ``blocked``: the points closed to it; ``home``: whether it may bear off. A die counts as
    playable when some checker can move it (a first approximation: combinations are ignored).
    """
    mask = 0  # bit d - 1: die d playable
    for s in stacks:
        for d in range(1, 7):
            t = s - d
            if t < 1:
                if home:  # this die and every larger one bear off
                    mask |= 63 ^ ((1 << (d - 1)) - 1)
                break
            if t not in blocked:
                mask |= 1 << (d - 1)
        if mask == 63:
            return 0.0
    return LOST[mask]


def _lost(mask: int) -> float:
    """Pips lost over the 36 rolls /36 when only the dice in ``mask`` can be played."""
    movable = [False] + [bool(mask >> (d - 1) & 1) for d in range(1, 7)]
    lost = 0.0
    for a, b in _ROLLS:
        if a == b:
            lost += 0.0 if movable[a] else 4 * a
        else:
            lost += 2 * ((0 if movable[a] else a) + (0 if movable[b] else b))
    return lost / 36


LOST = tuple(_lost(mask) for mask in range(64))


def prime_value(stacks: dict[int, int], blocked: set[int]) -> float:
    """Points held in a row within the twelve in front of each stack, by its checkers."""
    value = 0.0
    for s, count in stacks.items():
        run = best = 0
        for t in range(s - 1, max(0, s - 13), -1):
            if t in blocked:
                run += 1
                if run > best:
                    best = run
            else:
                run = 0
        value += count * _RUN[best]
    return value


def _decided(position: StepsPosition) -> float | None:
    outcome = game_outcome(position)
    if outcome is None:
        return None
    if outcome.mover_wins is None:
        return 0.0
    return DECIDED * outcome.points * (1 if outcome.mover_wins else -1)


def evaluate(position: StepsPosition) -> float:
    """The position after a play, in pips, from the side that played it."""
    decided = _decided(position)
    if decided is not None:
        return decided
    if position.variant == Variant.PLAKOTO:
        return plakoto_eval(position)
    return same_way_eval(position)


def _race(position: StepsPosition) -> float:
    """Their pips minus ours, and ``CHECKER`` pips per checker still on the board, theirs less
    ours: a checker borne off is one fewer to bear off, and the pips of a roll that bears off
    from a low point are partly wasted."""
    b = position.board
    plakoto = position.variant == Variant.PLAKOTO
    mine = theirs = 0
    mine_on = theirs_on = 0
    for p in range(1, 25):
        c = b[p]
        if c > 0:
            mine += p * c
            mine_on += c
        elif c < 0:
            theirs -= (25 - p if plakoto else _OTHER[p]) * c
            theirs_on -= c
    for p in range(1, 25):  # pinned checkers lie under the other side's
        mark = position.pins[p]
        if mark == 1:
            mine += p
            mine_on += 1
        elif mark == -1:
            theirs += 25 - p
            theirs_on += 1
    return theirs - mine + CHECKER * (theirs_on - mine_on)


_OTHER = (0, *(same_way_point(p) for p in range(1, 25)))


# -- Plakoto -------------------------------------------------------------------------------


def _pin_chance(p: int, shooters: list[int]) -> float:
    miss = 1.0
    for q in shooters:
        miss *= 1 - SHOTS.get(abs(p - q), 0) / 36
    return 1 - miss


def _plakoto_blots(b: tuple[int, ...], t: tuple[int, ...]) -> float:
    """Ours exposed (a cost) minus theirs exposed (a smaller gain: they move first)."""
    theirs = [q for q in range(1, 25) if b[q] < 0]
    mine = [q for q in range(1, 25) if b[q] > 0 and t[q] != 1]
    cost = 0.0
    for p in mine:
        if b[p] != 1 or t[p] == -1:
            continue
        loss = PIN_BASE + PIN_PIPS * p
        if p == 24:  # our mother: pinned, she wins them the game once they leave their start
            loss = WIN * 2 * (1.0 if b[1] >= 0 else 0.6)
        cost += loss * _pin_chance(p, [q for q in theirs if q < p])
    gain = 0.0
    for p in theirs:
        if b[p] != -1:
            continue
        loss = PIN_BASE + PIN_PIPS * (25 - p)
        if p == 1:
            loss = WIN * 2 * (1.0 if b[24] <= 0 else 0.6)
        gain += loss * _pin_chance(p, [q for q in mine if q > p])
    return BLOT_SCALE * (THEIR_BLOTS * gain - cost)


def plakoto_eval(position: StepsPosition) -> float:
    b, t = position.board, position.pins
    score = _race(position)
    for p in range(1, 25):
        if t[p] == -1:  # theirs under ours: stuck, 25 - p pips from home
            score += PIN_BASE + PIN_PIPS * (25 - p) + (WIN if p == 1 else 0.0)
        elif t[p] == 1:
            score -= PIN_BASE + PIN_PIPS * p + (WIN if p == 24 else 0.0)
    score += _plakoto_blots(b, t)
    # Closed points: 2+ checkers, or one on top of a pinned checker.
    closed_to_them = {25 - p for p in range(1, 25) if b[p] >= 2 or (b[p] > 0 and t[p] == -1)}
    closed_to_us = {p for p in range(1, 25) if b[p] <= -2 or (b[p] < 0 and t[p] == 1)}
    ours = {p: b[p] for p in range(1, 25) if b[p] > 0}
    theirs = {25 - p: -b[p] for p in range(1, 25) if b[p] < 0}
    # No prime term in Plakoto: with it, 1-ply medium won 35 % of 100 games against easy, without
    # it about 50 % (a point there is made of blots first, and pins matter more).
    score += _blocking(ours, theirs, closed_to_us, closed_to_them, prime=PLAKOTO_PRIME)
    return score


def _blocking(
    ours: dict[int, int],
    theirs: dict[int, int],
    closed_to_us: set[int],
    closed_to_them: set[int],
    prime: float = PRIME,
) -> float:
    """Mobility and primes, ours against theirs (each side's points in its own numbering)."""
    our_home = all(p <= 6 for p in ours)
    their_home = all(p <= 6 for p in theirs)
    mobility = blocked_pips(theirs, closed_to_them, their_home) - blocked_pips(
        ours, closed_to_us, our_home
    )
    if not prime:
        return MOBILITY * mobility
    primes = prime_value(theirs, closed_to_them) - prime_value(ours, closed_to_us)
    return MOBILITY * mobility + prime * primes


# -- Fevga and Long Nardy --------------------------------------------------------------------


def same_way_eval(position: StepsPosition) -> float:
    b = position.board
    score = _race(position)
    ours = {p: b[p] for p in range(1, 25) if b[p] > 0}
    theirs = {same_way_point(p): -b[p] for p in range(1, 25) if b[p] < 0}
    closed_to_us = {p for p in range(1, 25) if b[p] < 0}
    closed_to_them = {same_way_point(p) for p in ours}
    score += _blocking(ours, theirs, closed_to_us, closed_to_them)
    score += _shape(ours) - _shape(theirs)
    return score


def _shape(stacks: dict[int, int]) -> float:
    """Piles off the start cost, points held help."""
    piles = sum(c - 3 for p, c in stacks.items() if c > 3 and p != 24)
    return SPREAD * len(stacks) - PILE * piles
