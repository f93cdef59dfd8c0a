"""What players see of a group's league or cup: the card (sign-up, standings, bracket
caption), its buttons, the bracket picture's entries, the refusals, the lines of /history and
/stats. Built without calling Telegram, from a :class:`CompetitionView`.

The card's buttons: ``t:<competition id>:<version>:<op>`` (:data:`Action.TOURNAMENT`). Join
and Leave carry no version that matters (others' sign-ups change it); the organiser's settings,
Start and Cancel are refused on an older card. ``op``: ``j`` join, ``v`` leave, ``go`` start,
``x`` cancel, ``kl``/``kc`` league or cup, ``d0``/``d1`` single or double round robin,
``p0``/``p1`` gammons scored, ``g<letter>`` the game, ``l<n>`` the length, ``m<hours>`` the
time per move, ``s<hours>`` the sign-up's length.
"""

from __future__ import annotations

import html
import re
from datetime import datetime

from telegram import InlineKeyboardButton as Btn
from telegram import InlineKeyboardMarkup as Markup

from bot.views.callbacks import Action, encode
from bot.views.games import GAME_LETTERS, GAME_OF_LETTER, game_name
from bot.views.i18n import N_, Tr
from bot.views.player_settings import move_time
from rendering.bracket import Entry
from rules.competition import LEAGUE_MAX
from rules.competition.cup import CUP_MAX
from storage.usecases.competition_views import CompetitionView

MOVE_HOURS = (1, 24, 72)
SIGNUP_HOURS = (1, 24, 72)
LENGTHS = (1, 3, 5, 7)
OP_RE = re.compile(r"(j|v|go|x|k[lc]|d[01]|p[01]|g[a-z]|l[1357]|m[0-9]{1,3}|s[0-9]{1,3})")
"""Every ``op`` the card sends; anything else is forged and changes nothing."""

ERROR = N_("Something went wrong; please try again.")
REFUSALS = {
    "already_joined": N_("You are already signed up."),
    "not_joined": N_("You are not signed up."),
    "signup_closed": N_("The sign-up is closed: this competition has started or ended."),
    "competition_full": N_("The competition is full."),
    "not_organiser": N_("Only the organiser can do that."),
    "organiser_stays": N_("The organiser cannot leave; cancel the competition instead."),
    "too_few": N_("Too few players: a league needs 3, a cup 2."),
    "bad_setting": N_("That setting is not possible."),
    "one_open_here": N_("This group already has a competition; finish or cancel it first."),
    "not_found": N_("This competition no longer exists."),
    "stale": N_("This card has changed; look again."),
    "not_member": N_("Only members of this group can sign up."),
}


def refusal_text(t: Tr, code: str | None) -> str:
    return t._(REFUSALS.get(code or "", ERROR))


def kind_name(t: Tr, c: CompetitionView) -> str:
    if c.is_league:
        return t._("Double round robin league") if c.double else t._("Round robin league")
    return t._("Knockout cup")


def _when(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%d %H:%M UTC")


def _reliable(t: Tr, c: CompetitionView, pid: int) -> str:
    e = c.entrant(pid)
    if e is None:
        return ""
    return t._("{done} finished, {late} timed out", done=e.finished, late=e.timed_out)


def heading(t: Tr, c: CompetitionView) -> str:
    """The card's first lines: what is played, how."""
    lines = [f"🏆 <b>{html.escape(kind_name(t, c))}</b> · {html.escape(game_name(t, c.game_type))}",
             t.ngettext("Matches to {n} point", "Matches to {n} points", c.length)
             + " · ⏱ " + t._("{time} per move", time=move_time(t, c.move_seconds or 86400))]
    if c.is_league:
        lines.append(t._("All the league's matches are played at once, each where its "
                         "players normally play; it ends {time} after the start.",
                         time=move_time(t, c.round_seconds)))
        if c.gammons:
            lines.append(t._("A win scores the points of the deciding game (gammon 2, "
                             "backgammon 3)."))
    else:
        lines.append(t._("Seeded by the group's rating; one round at a time, all its matches "
                         "at once; each round has {time}. Vacations are not allowed during a "
                         "round.", time=move_time(t, c.round_seconds)))
    return "\n".join(lines)


def signup_text(t: Tr, c: CompetitionView) -> str:
    cap = LEAGUE_MAX if c.is_league else CUP_MAX
    lines = [heading(t, c), "",
             t._("Sign-up until {when}. Organiser: {name}.", when=_when(c.due_at),
                 name=html.escape(c.name(c.organiser_id))),
             t._("Signed up ({count} of {cap}):", count=len(c.entrants), cap=cap)]
    for i, e in enumerate(c.entrants, 1):
        lines.append(f"{i}. {html.escape(e.player.display_name)} · "
                     f"{_reliable(t, c, e.player.id)}")
    return "\n".join(lines)


def table_text(t: Tr, c: CompetitionView) -> str:
    """A league's standings as a fixed-width table, then the tie-breaks in words."""
    rows = c.table()
    width = max([len(c.name(r.player)) for r in rows] + [6])
    width = min(width, 16)
    player, won, lost = t._("Player"), t._("W"), t._("L")
    points, tiebreak = t._("Pts"), t._("SB")
    head = f"{'#':>2} {player:<{width}} {won:>2} {lost:>2} {points:>3} {tiebreak:>3}"
    lines = [head]
    for r in rows:
        name = c.name(r.player)[:width]
        mark = "*" if r.decided_by in ("sum", "head", "forfeits", "order") else " "
        lines.append(f"{r.place:>2} {name:<{width}} {r.won:>2} {r.lost:>2} {r.points:>3} "
                     f"{r.tiebreak:>3}{mark}")
    return "<pre>" + html.escape("\n".join(lines)) + "</pre>"


def standings_text(t: Tr, c: CompetitionView) -> str:
    """The league's card once it runs: the table, the tie-breaks stated, who left, what is
    left to play, the end."""
    lines = [heading(t, c), "", table_text(t, c),
             t._("Order: points, then SB (the points of the players you beat, once per win), "
                 "then head to head, then fewer forfeits. * marks a place decided after "
                 "points.")]
    lines += _left_lines(t, c)
    lines.append(_progress(t, c))
    return "\n".join(lines)


def _left_lines(t: Tr, c: CompetitionView) -> list[str]:
    return [t._("{name} left: their remaining matches are forfeits.",
                name=html.escape(e.player.display_name)) for e in c.entrants if e.left]


def _progress(t: Tr, c: CompetitionView) -> str:
    if c.status == "finished":
        if c.winner_id is None:
            return t._("The competition is over, without a winner.")
        return "🥇 " + t._("{name} wins!", name=html.escape(c.name(c.winner_id)))
    if c.status == "cancelled":
        return t._("The competition was cancelled.")
    return t.ngettext("{n} match left to play, until {when}.",
                      "{n} matches left to play, until {when}.", c.matches_left(),
                      when=_when(c.due_at))


def cup_caption(t: Tr, c: CompetitionView) -> str:
    """The cup's card under its bracket picture: the round, its matches, its deadline."""
    bracket = c.bracket()
    lines = [heading(t, c), ""]
    if c.status == "running":
        lines.append(t._("Round {number} of {of}, until {when}:", number=c.round + 1,
                         of=len(bracket.rounds), when=_when(c.due_at)))
        for g in bracket.rounds[c.round]:
            if g.a is None or g.b is None:
                continue
            done = "✔ " + html.escape(c.name(g.winner)) if g.winner is not None else "⏳"
            lines.append(f"{html.escape(c.name(g.a))} – {html.escape(c.name(g.b))}: {done}")
    lines += _left_lines(t, c)
    if c.status != "running":
        lines.append(_progress(t, c))
    return "\n".join(lines)[:1024]


def round_names(t: Tr, rounds: int) -> list[str]:
    names = []
    for r in range(rounds):
        left = rounds - r
        if left == 1:
            names.append(t._("Final"))
        elif left == 2:
            names.append(t._("Semi-finals"))
        else:
            names.append(t._("Round {number}", number=r + 1))
    return names


def bracket_entries(t: Tr, c: CompetitionView) -> list[list[Entry]]:
    """The bracket picture's games, names in place, the winners marked."""
    out: list[list[Entry]] = []
    for rnd in c.bracket().rounds:
        row = []
        for g in rnd:
            first = g.round == 0
            top = c.name(g.a) if g.a is not None else None
            bottom = c.name(g.b) if g.b is not None else (t._("bye") if first else None)
            won = None if g.winner is None else (0 if g.winner == g.a else 1)
            row.append(Entry(top, bottom, won, live=g.ready and g.round == c.round))
        out.append(row)
    return out


def champion_text(t: Tr, c: CompetitionView) -> str:
    if c.winner_id is None:
        return t._("The competition is over, without a winner.")
    what = kind_name(t, c)
    return "🏆 " + t._("{name} wins the {what} ({game})! Congratulations.",
                       name=html.escape(c.name(c.winner_id)), what=html.escape(what),
                       game=html.escape(game_name(t, c.game_type)))


def _tick(on: bool, label: str) -> str:
    return ("✔ " if on else "") + label


def card_keyboard(t: Tr, c: CompetitionView) -> Markup | None:
    """The sign-up card's buttons; none once it has started."""
    if not c.open:
        return None

    def b(label: str, op: str) -> Btn:
        return Btn(label, callback_data=encode(Action.TOURNAMENT, c.id, c.version, op))

    rows = [[b("➕ " + t._("Join"), "j"), b("➖ " + t._("Leave"), "v")],
            [b(_tick(c.is_league, t._("League")), "kl"),
             b(_tick(not c.is_league, t._("Cup")), "kc")]]
    if c.is_league:
        rows.append([b(_tick(not c.double, t._("Single")), "d0"),
                     b(_tick(c.double, t._("Double")), "d1"),
                     b(("☑ " if c.gammons else "☐ ") + t._("Gammons"),
                       "p0" if c.gammons else "p1")])
    games = [b(_tick(g == c.game_type, game_name(t, g)), "g" + letter)
             for g, letter in GAME_LETTERS.items()]
    rows += [games[:3], games[3:]]
    rows.append([b(_tick(n == c.length, str(n)), f"l{n}") for n in LENGTHS])
    rows.append([b(_tick((c.move_seconds or 86400) == h * 3600, "⏱ " + move_time(t, h * 3600)),
                   f"m{h}") for h in MOVE_HOURS])
    signup = round((c.due_at - c.created_at).total_seconds())
    rows.append([b(_tick(signup == h * 3600, "✍ " + move_time(t, h * 3600)), f"s{h}")
                 for h in SIGNUP_HOURS])
    rows.append([b("▶ " + t._("Start now"), "go"), b("✖ " + t._("Cancel"), "x")])
    return Markup(rows)


def changes_of(op: str) -> dict[str, object] | None:
    """The settings an organiser's ``op`` sets, or ``None`` for an op that is not a setting."""
    if op in ("kl", "kc"):
        return {"kind": "league" if op == "kl" else "cup"}
    if op in ("d0", "d1"):
        return {"double": op == "d1"}
    if op in ("p0", "p1"):
        return {"gammons": op == "p1"}
    if op.startswith("g") and op[1:] in GAME_OF_LETTER:
        return {"game_type": GAME_OF_LETTER[op[1:]]}
    if op.startswith("l"):
        return {"length": int(op[1:])}
    if op.startswith("m") and int(op[1:]) in MOVE_HOURS:
        return {"move_seconds": int(op[1:]) * 3600}
    if op.startswith("s") and int(op[1:]) in SIGNUP_HOURS:
        return {"signup_seconds": int(op[1:]) * 3600}
    return None


def history_lines(t: Tr, comps: list[CompetitionView]) -> list[str]:
    """/history's lines for the competitions a player signed up to."""
    out = []
    for c in comps:
        status = {"signup": t._("sign-up"), "running": t._("running"),
                  "finished": t._("finished"), "cancelled": t._("cancelled")}[c.status]
        won = (" · 🥇 " + html.escape(c.name(c.winner_id))) if c.winner_id else ""
        out.append(f"🏆 #{c.id} {html.escape(kind_name(t, c))} · "
                   f"{html.escape(game_name(t, c.game_type))} · {status}{won}")
    return out


def titles_line(t: Tr, titles: dict[str, int]) -> str | None:
    """/stats's line of titles won, or ``None`` when none."""
    leagues, cups = titles.get("league", 0), titles.get("cup", 0)
    if not leagues and not cups:
        return None
    return "🏆 " + t._("Titles: {leagues} leagues, {cups} cups won.", leagues=leagues, cups=cups)
