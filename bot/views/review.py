"""The computer's texts: a hint's alert, the post-match review (each player's error rate with
GNU Backgammon's grade for it, :mod:`bot.views.skill`), and /review's list."""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import TYPE_CHECKING

from bot.views.accuracy import evaluator_text
from bot.views.i18n import LUCK, ONE_DECIMAL, WHOLE, Tr
from bot.views.skill import grade_text, scale_text, thousandths
from bot.views.texts import move_words, names, opponent_name
from computer.hint import PlainHint
from rules.game import find_kind
from storage.results import MatchSummary, MatchView

if TYPE_CHECKING:  # the engine's value types only; texts need not load the engine
    from computer import Hint, MatchReview
    from computer.review import PlayerReview


def hint_text(t: Tr, h: Hint | PlainHint) -> str:
    """One short line (a callback alert holds 200 characters)."""
    if isinstance(h, PlainHint):
        text = t._("💡 Best play: {play}", play=move_words(t, h.text)) + "\n" + t._(
            "Equity {equity} · {evaluator}", equity=t.number(h.equity, LUCK),
            evaluator=evaluator_text(t, h.evaluator))
        return text[:200]
    text = t._("💡 Best play: {play}", play=move_words(t, h.text)) + "\n" + t._(
        "Win {win}% · gammon {gammon}% · lose a gammon {lose_gammon}%",
        win=t.number(100 * h.win, ONE_DECIMAL), gammon=t.number(100 * h.win_gammon, ONE_DECIMAL),
        lose_gammon=t.number(100 * h.lose_gammon, ONE_DECIMAL))
    return text[:200]


def review_text(t: Tr, mv: MatchView, review: MatchReview) -> str:
    """The post-match review: per player, the error rate per decision with GNU Backgammon's
    grade for it (:mod:`bot.views.skill`), the worst plays, luck; then the yardstick."""
    n = names(t, mv)
    lines = [t._("📊 <b>Review of match #{id}</b> ({p0} – {p1}, {s0}–{s1})", id=mv.id,
                 p0=n[0], p1=n[1], s0=mv.state.score[0], s1=mv.state.score[1])]
    for pr in review.players:
        lines += ["", player_review_line(t, n[pr.player], pr)]
        if pr.decisions and not pr.worst:
            lines.append(t._("No mistakes found."))
        for w in pr.worst:
            lines.append(t._("• {dice}: played {played}, better {best} (−{lost})",
                             dice=str(w.dice),
                             played=html.escape(move_words(t, w.played_text)),
                             best=html.escape(move_words(t, w.best_text)),
                             lost=t.number(thousandths(w.equity_lost), WHOLE)))
    lines += ["", t._("Error rate: the equity lost per decision against the engine's choice, in "
                      "thousandths of a point (so is a worst play's loss); luck in points, "
                      "positive when the dice were better than average."), scale_text(t)]
    # the position for analysis programs: here, one tap away, rather than on every board
    if find_kind(mv.state.game_type).gnubg:
        lines.append(t._("Final position for GNU Backgammon (PositionID:MatchID): {id}",
                         id=f"<code>{mv.state.gnubg_id()}</code>"))
    return "\n".join(lines)[:4096]


def player_review_line(t: Tr, name: str, pr: PlayerReview) -> str:
    """``Alice: Advanced, error rate 8.4 per decision (23 decisions), luck +0.42``."""
    if pr.luck is None:
        return plain_review_line(t, name, pr)
    if not pr.decisions:
        return t._("<b>{player}</b>: no decision to grade (every play was forced), luck {luck}",
                   player=name, luck=t.number(pr.luck, LUCK))
    rate = thousandths(pr.average_equity_lost)
    return t.ngettext(
        "<b>{player}</b>: {grade}, error rate {rate} per decision ({n} decision), luck {luck}",
        "<b>{player}</b>: {grade}, error rate {rate} per decision ({n} decisions), luck {luck}",
        pr.decisions, player=name, grade=grade_text(t, rate),
        rate=t.number(rate, ONE_DECIMAL), luck=t.number(pr.luck, LUCK))


def plain_review_line(t: Tr, name: str, pr: PlayerReview) -> str:
    """The line of a game whose luck is not measured (GNU Backgammon does not play it)."""
    if not pr.decisions:
        return t._("<b>{player}</b>: no decision to grade (every play was forced)",
                   player=name)
    rate = thousandths(pr.average_equity_lost)
    return t.ngettext(
        "<b>{player}</b>: {grade}, error rate {rate} per decision ({n} decision)",
        "<b>{player}</b>: {grade}, error rate {rate} per decision ({n} decisions)",
        pr.decisions, player=name, grade=grade_text(t, rate), rate=t.number(rate, ONE_DECIMAL))


def finished_matches_text(t: Tr, matches: Sequence[MatchSummary]) -> str:
    """/review: the player's recent finished matches, one line each."""
    lines = [t._("Your finished matches (tap one for its review):")]
    for s in matches:
        me, them = s.score[s.my_seat], s.score[1 - s.my_seat]
        lines.append(f"#{s.id} · {html.escape(opponent_name(t, s))} · {me}–{them}/{s.length}")
    return "\n".join(lines)
