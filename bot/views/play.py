"""What players see of "find me an opponent" (``/play``), the group ladder (``/ladder``) and
vacations (``/vacation``): texts and keyboards, pure.

The /play card is one message whose buttons edit it: ``pl:0:0:<game letter><length, 0 any>
h<hours>[s]@<owner>`` (``s``: search now with these choices), ``pl:0:0:x<request id>`` (stop
waiting). The ladder card's buttons: ``ld:0:0:join`` / ``leave``, ``ld:<challenge id>:0:start``
(a pairing's second player starts its match; the card stays as it is); vacation's:
``vc:0:0:<days>``.
Blocking: ``bk:<player id>:0`` (never paired with that player again; a forged id only
changes whom the tapper is paired with)."""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from datetime import datetime

from telegram import InlineKeyboardButton as Btn
from telegram import InlineKeyboardMarkup as Markup

from bot.views.callbacks import Action, encode
from bot.views.game_choice import game_rows as rows_of_games
from bot.views.games import GAME_LETTERS, GAME_OF_LETTER, game_name
from bot.views.i18n import N_, Tr
from bot.views.player_settings import MOVE_HOURS, move_time
from rules.game import find_kind
from storage.matchmaking.results import LadderEntry, WaitingView

PLAY_ARG_RE = re.compile(r"([a-z])([0-9])h([0-9]{1,3})(s?)")
CANCEL_ARG_RE = re.compile(r"x([0-9]{1,12}|a)")
VACATION_DAYS = (1, 3, 7, 14)
PLAY_ERRORS = {
    "already_waiting": N_("You are already waiting for an opponent in this game."),
    "too_many_requests": N_("You are already waiting in as many games as allowed. Cancel "
                            "one first (/play)."),
    "invalid_action": N_("That choice is not on offer."),
    "already_on_ladder": N_("You are on this group's ladder already."),
    "not_on_ladder": N_("You are not on this group's ladder."),
    "no_ladder": N_("This group has no ladder yet: send /ladder to open one."),
    "ladder_exists": N_("This group has a ladder already: send /ladder to see it."),
    "bad_setting": N_("That setting is not possible."),
    "not_member": N_("Only members of this group can open its ladder."),
    "on_vacation": N_("You are on vacation already."),
    "no_vacation_days": N_("You do not have that many vacation days left this year."),
    "cup_round": N_("A cup round you play in does not allow a vacation now."),
}


def play_error(t: Tr, code: str | None) -> str:
    return t._(PLAY_ERRORS.get(code or "", N_("Something went wrong. Please try again.")))


def hours_default(default_seconds: float) -> int:
    """The time per move ticked at first: the operator's default when /play offers it."""
    hours = round(default_seconds / 3600)
    return hours if hours in MOVE_HOURS else 24


def parse_play_arg(arg: str | None) -> tuple[str, int | None, int, bool] | None:
    """``(game, length or None for any, hours, search now)``, or ``None`` for anything the card
    never sends (an unknown game, a length it does not offer, hours not on offer)."""
    m = PLAY_ARG_RE.fullmatch(arg or "")
    if m is None:
        return None
    game = GAME_OF_LETTER.get(m.group(1))
    if game is None:
        return None
    length = int(m.group(2)) or None
    hours = int(m.group(3))
    if (length is not None and length not in find_kind(game).lengths) or hours not in MOVE_HOURS:
        return None
    return game, length, hours, bool(m.group(4))


def _arg(game: str, length: int | None, hours: int, search: bool = False) -> str:
    return f"{GAME_LETTERS[game]}{length or 0}h{hours}" + ("s" if search else "")


def play_card_text(t: Tr, game: str, length: int | None, hours: int,
                   waiting: Sequence[WaitingView]) -> str:
    lines = [t._("🔎 Find me an opponent: choose a game, a length and the time per move, "
                 "then Search. You are paired with someone waiting whose rating in that game "
                 "is close to yours; the longer you wait, the wider the range."),
             "",
             t._("Game: {game}", game=game_name(t, game)),
             t._("Length: {length}", length=length_text(t, length)),
             t._("Time per move: {time}", time=move_time(t, hours * 3600))]
    if waiting:
        lines += ["", t._("You are waiting for:")]
        lines += [waiting_line(t, w) for w in waiting]
    return "\n".join(lines)


def length_text(t: Tr, length: int | None) -> str:
    if length is None:
        return t._("any")
    return t.ngettext("{n} point", "{n} points", length)


def waiting_line(t: Tr, w: WaitingView) -> str:
    return "• " + t.ngettext(
        "{game}, {length}, {time} per move: {n} other player waiting",
        "{game}, {length}, {time} per move: {n} other players waiting", w.others,
        game=game_name(t, w.game_type), length=length_text(t, w.length),
        time=move_time(t, w.move_seconds))


def play_keyboard(t: Tr, game: str, length: int | None, hours: int,
                  waiting: Sequence[WaitingView], *, owner: int,
                  blocked: Sequence[tuple[int, str]] = ()) -> Markup:
    def data(arg: str) -> str:
        return encode(Action.FIND, 0, 0, arg, owner=owner)

    rows = [[Btn(("✔ " if g == game else "") + game_name(t, g),
                 callback_data=data(_arg(g, None, hours))) for g in row]
            for row in rows_of_games(t)]
    lengths = [None, *find_kind(game).lengths]
    rows.append([Btn(("✔ " if n == length else "") + (t._("any") if n is None else str(n)),
                     callback_data=data(_arg(game, n, hours))) for n in lengths])
    rows.append([Btn(("✔ " if h == hours else "") + "⏱ " + move_time(t, h * 3600),
                     callback_data=data(_arg(game, length, h))) for h in MOVE_HOURS])
    rows.append([Btn("🔎 " + t._("Search"), callback_data=data(_arg(game, length, hours, True)))])
    for w in waiting:
        rows.append([Btn("✖ " + t._("Stop waiting: {game}", game=game_name(t, w.game_type)),
                         callback_data=data(f"x{w.id}"))])
    for pid, name in blocked:
        rows.append([Btn("✅ " + t._("Pair me with them again") + ": " + name[:24],
                         callback_data=encode(Action.BLOCK, pid, 0, "u"))])
    return Markup(rows)


def paired_text(t: Tr, game: str, length: int, opponent: str, rating: float, *,
                start: bool) -> str:
    found = t._("🎲 Opponent found: {player} (rating {rating}) for {game}, {length}.",
                player=html.escape(opponent), rating=round(rating), game=game_name(t, game),
                length=length_text(t, length))
    if start:
        return found + "\n" + t._("Tap Start to begin the match (rated as usual).")
    return found + "\n" + t._("They start the match; your board comes when they do.")


def block_button(t: Tr, player_id: int) -> Btn:
    return Btn("🚫 " + t._("Never pair me with them"),
               callback_data=encode(Action.BLOCK, player_id, 0))


def ladder_text(t: Tr, entries: Sequence[LadderEntry], *, day: str | None = None,
                pairs: Sequence[tuple[str, str, str]] = (), plays: str | None = None) -> str:
    """The group's ladder: top rung first; ``pairs`` (first, second, state) the day's;
    ``plays``: what its matches play."""
    lines = [t._("🪜 The group's ladder. Once a day the players on the same rung (or the "
                 "nearest) are paired at random; a win moves you one rung up, a loss one down. "
                 "Vacations pause ladder matches too.")]
    if plays is not None:
        lines.append(t._("Its matches: {what}", what=html.escape(plays)))
    if day is not None:
        lines += ["", t._("Pairings of {day}:", day=day)]
        lines += [t._("• {first} vs {second}: {state}", first=html.escape(a),
                      second=html.escape(b), state=s) for a, b, s in pairs]
    lines.append("")
    if not entries:
        lines.append(t._("Nobody is on the ladder yet: tap Join."))
    for e in entries:
        lines.append(t._("Rung {rung}: {player} ({wins} won, {losses} lost)", rung=e.rung,
                         player=html.escape(e.name), wins=e.wins, losses=e.losses))
    return "\n".join(lines)


def ladder_state(t: Tr, status: str) -> str:
    return {"challenge": t._("waiting for the second player to tap Start"),
            "active": t._("playing"), "finished": t._("played"),
            "abandoned": t._("played")}.get(status, t._("not played"))


def ladder_keyboard(t: Tr, starts: Sequence[tuple[int, str]] = ()) -> Markup:
    """Join and Leave; ``starts``: a Start button per pairing (challenge id, label)."""
    rows = [[Btn("▶ " + label, callback_data=encode(Action.LADDER, cid, 0, "start"))]
            for cid, label in starts]
    rows.append([Btn("➕ " + t._("Join the ladder"),
                     callback_data=encode(Action.LADDER, 0, 0, "join")),
                 Btn("➖ " + t._("Leave"), callback_data=encode(Action.LADDER, 0, 0, "leave"))])
    return Markup(rows)


def vacation_text(t: Tr, ends_at: datetime | None, days_left: int) -> str:
    lines = [t._("🏖 Vacation: the clocks of your matches stand still while you are away; "
                 "your opponents are told. Ladder and ordinary matches pause; a cup round "
                 "with a deadline does not allow it.")]
    if ends_at is not None:
        lines.append(t._("You are on vacation until {when}.",
                         when=ends_at.strftime("%Y-%m-%d %H:%M UTC")))
    lines.append(t.ngettext("{n} vacation day left this year.",
                            "{n} vacation days left this year.", days_left))
    return "\n".join(lines)


def vacation_keyboard(t: Tr, days_left: int, *, owner: int) -> Markup | None:
    buttons = [Btn(t.ngettext("{n} day", "{n} days", d),
                   callback_data=encode(Action.VACATION, 0, 0, str(d), owner=owner))
               for d in VACATION_DAYS if d <= days_left]
    return Markup([buttons]) if buttons else None


def vacation_notice(t: Tr, player: str, match_id: int, until: datetime) -> str:
    return t._("🏖 {player} is on vacation until {when}: their clock in match #{id} "
               "stands still until then.", player=html.escape(player), id=match_id,
               when=until.strftime("%Y-%m-%d %H:%M UTC"))
