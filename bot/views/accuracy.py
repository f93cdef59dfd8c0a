"""The accuracy figure's texts: under a match's end, in /stats, and beside the opponent in a
head to head (what the figure is: :mod:`computer.accuracy`)."""

from __future__ import annotations

from bot.views.i18n import N_, ONE_DECIMAL, Tr
from storage.accuracy import AccuracySummary, Figure
from storage.results import MatchView

EVALUATORS = (N_("GNU Backgammon 1-ply"), N_("GNU Backgammon 2-ply"),
              N_("hand evaluation 0-ply"), N_("the strong level's net 0-ply"))
"""The evaluators' names as :mod:`computer.evaluators` stores them, translated when shown (a
name without a translation, a net's registered later, is shown as it is)."""


def evaluator_text(t: Tr, stored: str) -> str:
    """What judged a match, in the reader's language (a rotation's evaluators joined)."""
    return " + ".join(t._(name) if name in EVALUATORS else name for name in stored.split(" + "))


def figure_text(t: Tr, figure: Figure) -> str:
    """"4.2 thousandths a move (PR 2.1)"."""
    return t._("{rate}‰ a move (PR {pr})", rate=t.number(figure.error_rate, ONE_DECIMAL),
               pr=t.number(figure.performance_rating, ONE_DECIMAL))


def end_lines(t: Tr, mv: MatchView, seat_names: tuple[str, str]) -> list[str]:
    """Under a match's end, once it is judged: each player's figure, then what judged it. A
    match that is not over has none (the figure is never shown during a match)."""
    if mv.accuracy is None or not mv.status.is_over:
        return []
    lines = [t._("🎯 {player}: {figure}", player=seat_names[seat], figure=figure_text(t, f))
             for seat, f in enumerate(mv.accuracy) if f.decisions]
    if lines:
        lines.append(t._("Accuracy by {evaluator}",
                         evaluator=evaluator_text(t, mv.accuracy[0].evaluator)))
    return lines


def stats_lines(t: Tr, summary: AccuracySummary) -> list[str]:
    """/stats: the average over the last judged matches and the best of them."""
    if summary.average is None or summary.best is None:
        return []
    return [
        t.ngettext("🎯 Accuracy, last {n} match: {figure}",
                   "🎯 Accuracy, last {n} matches: {figure}", summary.matches,
                   figure=figure_text(t, summary.average)),
        t._("Best: {figure} in match #{id}", figure=figure_text(t, summary.best),
            id=summary.best.match_id),
    ]


def head_to_head_line(t: Tr, name: str, summary: AccuracySummary) -> str | None:
    """Head to head: one player's average over their last judged matches against the other."""
    if summary.average is None:
        return None
    return t._("🎯 {player}: {figure}", player=name, figure=figure_text(t, summary.average))
