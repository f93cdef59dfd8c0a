"""The strong level's inputs in Plakoto, Fevga and Long Nardy: a batch of positions as a matrix.

A row describes a position *after* a play, seen from the side that played it ("us"; the other
side is to roll). Everything is computed for the whole batch at once in numpy (the candidates of
a roll in one go), so that self-play and the search stay cheap. The columns:

* **raw**, each side in its own numbering (1-24, moving down): per point, TD-Gammon's four units
  (at least 1, 2, 3 checkers, and half the checkers beyond 3) for the checkers on top;
  in Plakoto also the pinned checkers of each side, per point;
* **race**: checkers off, pip counts and their difference, checkers still on the start, in the
  home board, all home;
* **blocks**: the pips each side is expected to lose on its next roll for want of a single move
  (:func:`computer.steps_eval.blocked_pips` over the batch), the longest row of points closed to
  each side, and how many of the six points in front of each checker are closed, summed;
* Plakoto: the **mothers** (pinned, alone on the start), **pins** (how many, how far from home),
  **exposure** (each blot's chance to be pinned by the checkers behind it, in all, weighted by
  how far it has to go, and the mother's), and whether contact is over;
* Fevga and Long Nardy: the points each side holds in the other's **starting quarter**.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TypeAlias

import numpy as np
from numpy.typing import NDArray

from computer.steps_eval import LOST, SHOTS
from rules.steps.board import StepsPosition, Variant, other_side_point

Matrix: TypeAlias = NDArray[np.float64]

_POINTS = np.arange(25, dtype=np.float64)
_LOST_TABLE = np.array(LOST, dtype=np.float64)
_OTHER = {v: np.array([0, *(other_side_point(v, q) for q in range(1, 25)), 25])
          for v in (Variant.PLAKOTO, Variant.FEVGA, Variant.NARDY)}


def _log_miss() -> Matrix:
    """``M[q, p]``: log of the chance that a checker on ``q`` does not hit ``p`` (``p > q``)."""
    m = np.zeros((25, 25))
    for q in range(1, 25):
        for p in range(q + 1, 25):
            m[q, p] = math.log(1 - SHOTS.get(p - q, 0) / 36)
    return m


_LOG_MISS = _log_miss()

RAW = 24 * 4
COMMON = ("off_us", "off_them", "pips_us", "pips_them", "race", "start_us", "start_them",
          "home_us", "home_them", "all_home_us", "all_home_them", "lost_them", "lost_us",
          "row_us", "row_them", "ahead_them", "ahead_us", "points_us", "points_them")
"""The common columns after the raw ones (``row_us``: our longest row of points, closed to
them; ``lost_them``: their pips expected lost on their roll; ``ahead_them``: our points in front
of their checkers)."""
PLAKOTO = ("mother_pinned_us", "mother_pinned_them", "mother_alone_us", "mother_alone_them",
           "exposed_us", "exposed_far_us", "exposed_mother_us", "exposed_them",
           "exposed_far_them", "exposed_mother_them", "pins_them", "pins_us", "pinned_pips_them",
           "pinned_pips_us", "no_contact")
"""Plakoto's columns after the pinned checkers per point (``pins_them``: theirs we pin)."""
SAME_WAY = ("quarter_us", "quarter_them")
"""Fevga's and Long Nardy's: the points we hold in their starting quarter, and they in ours."""


def column(variant: Variant | str, name: str) -> int:
    """The index of a named column of :func:`features` in ``variant``."""
    if name in COMMON:
        return 2 * RAW + COMMON.index(name)
    if Variant(variant) == Variant.PLAKOTO:
        return 2 * RAW + len(COMMON) + 48 + PLAKOTO.index(name)
    return 2 * RAW + len(COMMON) + SAME_WAY.index(name)


def feature_count(variant: Variant | str) -> int:
    """The width of a row of :func:`features` in ``variant``."""
    extra = 48 + len(PLAKOTO) if Variant(variant) == Variant.PLAKOTO else len(SAME_WAY)
    return 2 * RAW + len(COMMON) + extra


def _units(counts: Matrix) -> Matrix:
    """(n, 25) counts -> (n, 96): TD-Gammon's four units per point 1-24."""
    c = counts[:, 1:25]
    return np.concatenate(
        [c >= 1, c >= 2, c >= 3, np.maximum(c - 3, 0) / 2], axis=1
    ).astype(np.float64)


_BITS = np.array([1 << p for p in range(25)], dtype=np.int64)
_LOW = np.array([(1 << (d + 1)) - 2 for d in range(7)], dtype=np.int64)
"""Bits of the points 1..d."""


def _mask(points: Matrix) -> NDArray[np.int64]:
    """(n, 25) -> a bit per point 0-24 where the entry is positive."""
    return np.asarray((points > 0).astype(np.int64) @ _BITS, dtype=np.int64)


def _lost(free: Matrix, closed: Matrix, home: NDArray[np.bool_]) -> Matrix:
    """Pips expected lost on the next roll (per 36 rolls, /36) for want of a move, per row:
    ``free`` the side's movable checkers, ``closed`` the points closed to it (both (n, 25), the
    side's own numbering)."""
    have = _mask(free)
    opened = ~_mask(closed) & ((1 << 25) - 2)  # points 1-24 not closed
    mask = np.zeros(len(free), dtype=np.int64)
    for d in range(1, 7):
        can = ((have >> d) & opened) != 0
        can |= home & ((have & _LOW[d]) != 0)
        mask |= can.astype(np.int64) << (d - 1)
    return _LOST_TABLE[mask]


def _row(closed: Matrix) -> Matrix:
    """The longest row of closed points (1-24), up to six, per row of the batch."""
    x = _mask(closed) & ~np.int64(1)
    best = np.zeros(len(closed))
    for _ in range(6):
        best += x != 0
        x = x & (x >> 1)
    return best


_AHEAD_TO = np.array([max(q - 1, 0) for q in range(25)])
_AHEAD_FROM = np.array([max(q - 7, 0) for q in range(25)])


def _ahead(counts: Matrix, closed: Matrix) -> Matrix:
    """Sum over a side's checkers of the closed points among the six in front of each."""
    cs = np.cumsum(closed, axis=1)  # cs[:, p] = closed points 0..p
    ahead = cs[:, _AHEAD_TO] - cs[:, _AHEAD_FROM]
    return np.asarray(np.sum(counts * ahead, axis=1), dtype=np.float64)


def features(variant: Variant | str, boards: Matrix, pins: Matrix | None = None) -> Matrix:
    """The inputs of a batch: ``boards`` (n, 26) signed counts, ``pins`` (n, 26) (Plakoto)."""
    game = Variant(variant)
    plakoto = game == Variant.PLAKOTO
    b = boards.astype(np.float64)
    n = len(b)
    other = _OTHER[game]
    t = pins.astype(np.float64) if plakoto and pins is not None else np.zeros((n, 26))
    ours = np.maximum(b, 0)[:, :25]
    theirs_here = np.maximum(-b, 0)  # their checkers on top, in our numbering
    theirs = theirs_here[:, other][:, :25]
    our_pinned = (t == 1).astype(np.float64)[:, :25]
    their_pinned_here = (t == -1).astype(np.float64)
    their_pinned = their_pinned_here[:, other][:, :25]
    our_all = ours + our_pinned
    their_all = theirs + their_pinned
    pips_us = our_all @ _POINTS
    pips_them = their_all @ _POINTS
    off_us = 15 - our_all.sum(axis=1)
    off_them = 15 - their_all.sum(axis=1)
    home_us = our_all[:, 1:7].sum(axis=1)
    home_them = their_all[:, 1:7].sum(axis=1)
    all_home_us = home_us == 15 - off_us
    all_home_them = home_them == 15 - off_them
    if plakoto:
        closed_us_here = (b <= -2) | ((b < 0) & (t == 1))  # closed to us, our numbering
        closed_them_here = (b >= 2) | ((b > 0) & (t == -1))
    else:
        closed_us_here = b < 0
        closed_them_here = b > 0
    closed_us = closed_us_here.astype(np.float64)[:, :25]
    closed_them = closed_them_here.astype(np.float64)[:, other][:, :25]
    common = [
        off_us / 15, off_them / 15, pips_us / 150, pips_them / 150, (pips_them - pips_us) / 50,
        our_all[:, 24] / 15, their_all[:, 24] / 15, home_us / 15, home_them / 15,
        all_home_us, all_home_them,
        _lost(theirs, closed_them, all_home_them) / 10, _lost(ours, closed_us, all_home_us) / 10,
        _row(closed_them) / 6, _row(closed_us) / 6,
        _ahead(their_all, closed_them) / 90, _ahead(our_all, closed_us) / 90,
        (our_all[:, 1:25] > 0).sum(axis=1) / 12, (their_all[:, 1:25] > 0).sum(axis=1) / 12,
    ]
    parts = [_units(ours), _units(theirs), np.stack(common, axis=1).astype(np.float64)]
    if plakoto:
        parts.append(our_pinned[:, 1:25])
        parts.append(their_pinned[:, 1:25])
        parts.append(_plakoto(b, t, ours, theirs_here, our_pinned, their_pinned))
    else:
        # Their starting quarter is their 19-24; ours is our 19-24.
        held_theirs_quarter = closed_them[:, 19:25].sum(axis=1) / 6
        held_our_quarter = closed_us[:, 19:25].sum(axis=1) / 6
        parts.append(np.stack([held_theirs_quarter, held_our_quarter], axis=1))
    return np.concatenate(parts, axis=1)


def _plakoto(b: Matrix, t: Matrix, ours: Matrix, theirs_here: Matrix, our_pinned: Matrix,
             their_pinned: Matrix) -> Matrix:
    """Mothers, pins and exposure (all in our numbering; their checkers move up it)."""
    our_blots = ((b == 1) & (t == 0))[:, :25].astype(np.float64)
    their_blots = ((b == -1) & (t == 0))[:, :25].astype(np.float64)
    their_free = (theirs_here[:, :25] > 0).astype(np.float64)
    our_free = (ours > 0).astype(np.float64)
    # Theirs on q hit our blot on p > q; ours on q hit theirs on p < q.
    our_hit = 1 - np.exp(their_free @ _LOG_MISS)
    their_hit = 1 - np.exp(our_free @ _LOG_MISS.T)
    our_exposed = our_blots * our_hit
    their_exposed = their_blots * their_hit
    pins_theirs = their_pinned[:, 1:25].sum(axis=1)  # by their numbering: q far from home
    pins_ours = our_pinned[:, 1:25].sum(axis=1)
    our_mother_pinned = t[:, 24] == 1
    their_mother_pinned = t[:, 1] == -1
    our_mother_alone = (b[:, 24] == 1) & (t[:, 24] == 0)
    their_mother_alone = (b[:, 1] == -1) & (t[:, 1] == 0)
    occupied_us = np.where((ours + our_pinned)[:, 1:25] > 0, _POINTS[1:25], 0)
    theirs_any = (theirs_here[:, 1:25] > 0) | (t[:, 1:25] == -1)
    lowest_theirs = np.where(theirs_any, _POINTS[1:25], 99).min(axis=1)
    no_contact = occupied_us.max(axis=1) < lowest_theirs
    cols = [
        our_mother_pinned, their_mother_pinned, our_mother_alone, their_mother_alone,
        our_exposed.sum(axis=1), our_exposed @ _POINTS / 24, our_exposed[:, 24],
        their_exposed.sum(axis=1), their_exposed @ (25 - _POINTS) / 24, their_exposed[:, 1],
        pins_theirs / 3, pins_ours / 3,
        their_pinned @ _POINTS / 50, our_pinned @ _POINTS / 50,
        no_contact,
    ]
    return np.stack(cols, axis=1).astype(np.float64)


def batch(positions: Sequence[StepsPosition]) -> Matrix:
    """The rows of :func:`features` for positions of one game."""
    variant = positions[0].variant
    boards = np.array([p.board for p in positions], dtype=np.float64)
    pins = (np.array([p.pins for p in positions], dtype=np.float64)
            if variant == Variant.PLAKOTO else None)
    return features(variant, boards, pins)
