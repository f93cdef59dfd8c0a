"""A review's yardstick: the error rate per decision in thousandths of a point, and the grade
GNU Backgammon gives that rate.

The grades and their limits are GNU Backgammon's own (``arThrsRating`` and ``aszRating`` in its
``analysis.c``, as in 1.07; the same table is in Albert Silver's "All About GNU", shipped as
``/usr/share/doc/gnubg/allabout.html``, section "Analysis Results and Grade": "0.000 - 0.002
Supernatural, 0.002 - 0.005 World Class, 0.005 - 0.008 Expert, 0.008 - 0.012 Advanced, 0.012 -
0.018 Intermediate, 0.018 - 0.026 Casual Player, 0.026 - 0.035 Beginner, 0.035 - oo Awful!").
gnubg grades the equity lost per unforced decision, as :mod:`computer.review` counts it; a rate
under a limit earns that limit's grade (gnubg's ``GetRating``: ``rError < threshold``).
"""

from __future__ import annotations

from bot.views.i18n import N_, Tr

GRADES: tuple[tuple[float, str], ...] = (
    (2.0, N_("Supernatural")),
    (5.0, N_("World class")),
    (8.0, N_("Expert")),
    (12.0, N_("Advanced")),
    (18.0, N_("Intermediate")),
    (26.0, N_("Casual player")),
    (35.0, N_("Beginner")),
)
"""``(limit, grade)``: a rate (thousandths of a point per decision) under ``limit`` earns
``grade``; at 35 or more, :data:`WORST`."""
WORST = N_("Awful!")


def thousandths(equity: float) -> float:
    """Equity in points per game as thousandths of a point (gnubg's "millipoints")."""
    return 1000.0 * equity


def grade_of(rate: float) -> str:
    """The grade (an English msgid) of an error rate in thousandths of a point per decision."""
    return next((grade for limit, grade in GRADES if rate < limit), WORST)


def grade_text(t: Tr, rate: float) -> str:
    return t._(grade_of(rate))


def scale_text(t: Tr) -> str:
    """The yardstick, in one line: every grade and its limits."""
    bands = []
    low = 0.0
    for limit, grade in GRADES:
        bands.append(f"{t._(grade)} {low:g}–{limit:g}")
        low = limit
    bands.append(f"{t._(WORST)} {low:g}+")
    return t._("GNU Backgammon's grades: {bands}.", bands=", ".join(bands))
