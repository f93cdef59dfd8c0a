"""The six quick tips of the rules page, as a score for a position (the "easy" level's brain).

Pure Python, no engine: a score for the position *after* a play, from the side that played it
(the opponent is about to roll). Higher is better; the unit is roughly "pips".
"""

from __future__ import annotations

from rules.position import ALL_ROLLS, Position

# Tip 1 and tip 3: what a made point (two or more checkers) is worth, by point.
_POINT_VALUE = (
    0.0,  # unused
    1.0, 2.0, 3.0, 5.0, 7.0, 6.0,  # home board: the 5 and 4 points are worth making early
    6.0, 3.0, 2.0, 1.5, 1.0, 1.0,  # the 7 (bar) point, then the outer board
    1.0, 0.5, 0.5, 0.5, 0.5, 1.0,  # the mid-point region
    2.0, 3.0, 3.0, 2.0, 1.5, 1.0,  # anchors in the opponent's home board
)
_HIT_VALUE = 6.0  # each opposing checker sent to the bar
_BACK_PENALTY = 2.0  # tip 4: each checker still in the opponent's home board (or on the bar)
_SHOT_WEIGHT = 0.5  # tip 2 and tip 6: expected pips lost to a hit, scaled
_PRIME_BONUS = 3.0  # consecutive made points, for each beyond the second


def _shots(board: tuple[int, ...]) -> float:
    """Expected pips the side that played loses to hits on its blots (the opponent rolls next).

    The opponent moves up our numbering (its bar counts as our point 0); our made points block
    the intermediate landing points of a combination shot (tip 6: a blot six away with nothing
    between is hit by 17 of 36 rolls, counted exactly here).
    """
    blots = [p for p in range(1, 25) if board[p] == 1]
    if not blots:
        return 0.0
    sources = [q for q in range(0, 25) if board[q] < 0]
    blot_set = set(blots)
    total = 0.0
    for roll in ALL_ROLLS:
        weight = 1 if roll.die1 == roll.die2 else 2
        worst = 0
        for q in sources:
            if roll.die1 == roll.die2:
                steps = [(roll.die1,) * n for n in range(1, 5)]
            else:
                steps = [(roll.die1,), (roll.die2,), (roll.die1, roll.die2), (roll.die2, roll.die1)]
            for path in steps:
                point = q
                for i, die in enumerate(path):
                    point += die
                    if point > 24:
                        break
                    if i < len(path) - 1 and board[point] >= 2:
                        break  # blocked on the way
                    if i == len(path) - 1 and point in blot_set:
                        worst = max(worst, 25 - point)
        total += weight * worst
    return total / 36.0


def tips_score(position: Position) -> float:
    """How much the six tips like ``position`` for the side that just played into it."""
    b = position.board
    mover_pips, opponent_pips = position.pips()
    highest_mover = 25 if b[25] else max((p for p in range(1, 25) if b[p] > 0), default=0)
    lowest_opponent = 0 if b[0] else min((p for p in range(1, 25) if b[p] < 0), default=25)
    race = (opponent_pips - mover_pips) + 8.0 * position.mover_off
    if highest_mover < lowest_opponent:
        # No contact: tip 5 taken to its end, just race and bear off.
        spread = sum(1 for p in range(1, 7) if b[p] > 0)
        return race + 0.5 * spread
    score = 0.3 * race
    if mover_pips < 0.8 * opponent_pips:
        # Tip 5: far ahead in the race, stop fighting and run home.
        score += 0.5 * race - 1.5 * sum(b[p] for p in range(19, 26) if b[p] > 0)
    run = 0
    for p in range(1, 25):
        if b[p] >= 2:
            score += _POINT_VALUE[p]
            run += 1
            if run > 2:
                score += _PRIME_BONUS
        else:
            run = 0
    score += _HIT_VALUE * -b[0]
    score -= _BACK_PENALTY * (b[25] + sum(b[p] for p in range(19, 25) if b[p] > 0))
    score -= _SHOT_WEIGHT * _shots(b)
    return score
