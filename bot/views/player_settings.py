"""A player's settings (``/settings``) and the time per move chosen at ``/new``: texts and
keyboards (pure).

The settings card is one message whose buttons edit it in place. Its buttons carry
``st:0:<state>:<change>@<player>``: the version field is :func:`state_code` of the settings the card
shows, so a tap on a card that no longer shows the player's settings (changed by another card,
``/lang`` or ``/notices``) changes nothing and the card is drawn again as things are.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from telegram import InlineKeyboardButton as Btn
from telegram import InlineKeyboardMarkup as Markup

from bot.views.callbacks import Action, encode
from bot.views.i18n import N_, Tr, lang_name, langs
from rendering.theme import THEMES

THEME_NAMES = tuple(THEMES)
"""The themes a player may choose, in the order of their buttons."""
HOMES = ("right", "left")
THEME_LABELS = {"classic": N_("Classic"), "high-contrast": N_("High contrast")}
"""A button per theme; a theme added to ``rendering.THEMES`` needs its label here."""

CHANGE_RE = re.compile(r"(th|home|lang|nt)-([a-z\-]{2,16})")
"""A settings button's change, e.g. ``th-high-contrast``, ``home-left``, ``lang-el``,
``nt-off`` (matched whole)."""

MOVE_HOURS = (1, 12, 24, 72, 168)
"""The times per move offered at ``/new`` (with the operator's default, when it is not one of
them)."""


@dataclass(frozen=True)
class PlayerSettings:
    """What the settings card shows and changes."""

    theme: str
    home: str
    lang: str
    notices: bool


def state_code(s: PlayerSettings) -> int:
    """The settings as one small number: the version field of the card's buttons."""
    theme = THEME_NAMES.index(s.theme) if s.theme in THEME_NAMES else 0
    home = HOMES.index(s.home) if s.home in HOMES else 0
    offered = langs()
    lang = offered.index(s.lang) if s.lang in offered else 0
    return ((int(s.notices) * len(offered) + lang) * len(HOMES) + home) * len(THEME_NAMES) + theme


def parse_change(arg: str | None) -> tuple[str, str] | None:
    """A settings button's ``(what, value)``, or ``None`` for anything the card never sends."""
    m = CHANGE_RE.fullmatch(arg or "")
    if m is None:
        return None
    what, value = m.groups()
    allowed = {"th": THEME_NAMES, "home": HOMES, "lang": langs(), "nt": ("on", "off")}[what]
    return (what, value) if value in allowed else None


def settings_text(t: Tr, s: PlayerSettings) -> str:
    """The settings card: each setting as it is, and where it applies."""
    home = t._("Home board: on the left") if s.home == "left" else t._(
        "Home board: on the right")
    notices = "🔔 " + t._("Notices: on") if s.notices else "🔕 " + t._("Notices: off")
    return "\n".join((
        "⚙️ <b>" + t._("Your settings") + "</b>",
        "🎨 " + t._("Board: {theme}", theme=t._(THEME_LABELS.get(s.theme, s.theme))),
        "🏠 " + home,
        "🌐 " + t._("Language: {name}", name=lang_name(s.lang)),
        notices,
        "",
        t._("They apply here, in our private chat, and to the boards you get here. In a group, "
            "the group's language (/lang there) and the standard board are used."),
    ))


def settings_help(t: Tr) -> str:
    """/help's paragraph on /settings."""
    return t._(
        "<b>Settings</b>: /settings chooses your board (classic, or high contrast for "
        "colour-blind players), the side your home board is drawn on, your language and your "
        "notices. They apply in our private chat and to the boards you get there; in a group, "
        "the group's language (/lang) and the standard board are used.")


def settings_keyboard(t: Tr, s: PlayerSettings, owner: int) -> Markup:
    """A row per setting of ``owner``'s, the current choice ticked; every tap edits the card
    in place."""
    code = state_code(s)

    def button(label: str, chosen: bool, change: str) -> Btn:
        return Btn(("✔ " if chosen else "") + label,
                   callback_data=encode(Action.SETTINGS, 0, code, change, owner=owner))

    languages = [button(lang_name(lang), s.lang == lang, f"lang-{lang}") for lang in langs()]
    return Markup([
        [button("🎨 " + t._(THEME_LABELS.get(name, name)), s.theme == name, f"th-{name}")
         for name in THEME_NAMES],
        [button("◧ " + t._("Home left"), s.home == "left", "home-left"),
         button(t._("Home right") + " ◨", s.home == "right", "home-right")],
        *(languages[i:i + 2] for i in range(0, len(languages), 2)),
        [button("🔔 " + t._("Notices on"), s.notices, "nt-on"),
         button("🔕 " + t._("Notices off"), not s.notices, "nt-off")],
    ])


# -- time per move -------------------------------------------------------------------------


def move_time(t: Tr, seconds: float) -> str:
    """A time per move in words: whole days, else whole hours, else minutes."""
    whole = round(seconds)
    if whole >= 86400 and whole % 86400 == 0:
        return t.ngettext("{n} day", "{n} days", whole // 86400)
    if whole >= 3600 and whole % 3600 == 0:
        return t.ngettext("{n} hour", "{n} hours", whole // 3600)
    return t.ngettext("{n} minute", "{n} minutes", max(1, round(seconds / 60)))


def per_move_line(t: Tr, seconds: float) -> str:
    """The challenge card's line: how long each player has for a move."""
    return "⏱ " + t._("{time} per move", time=move_time(t, seconds))


def move_choices(default_seconds: float) -> list[int | None]:
    """The /new card's times, shortest first, as the hours in the button (``None``: the
    operator's default, which is preselected and ends up stored as "the default")."""
    hours = [h for h in MOVE_HOURS if h * 3600 != round(default_seconds)]
    choices: list[tuple[float, int | None]] = [(h * 3600.0, h) for h in hours]
    choices.append((default_seconds, None))
    return [h for _, h in sorted(choices, key=lambda c: c[0])]


def move_seconds_of(hours: int | None, default_seconds: float) -> int | None:
    """The time per move to store for a choice (``None``: the default), or ``ValueError``
    for a number of hours the card never offers (forged)."""
    if hours is None:
        return None
    if hours not in move_choices(default_seconds):
        raise ValueError(f"not a time per move on offer: {hours} h")
    return hours * 3600


def move_buttons(t: Tr, chosen: int | None, default_seconds: float,
                 data: Callable[[int | None], str]) -> list[list[Btn]]:
    """The /new card's rows of times per move, the chosen one ticked; ``data(hours)`` is the
    callback data of a choice (``None``: the default)."""
    buttons = []
    for hours in move_choices(default_seconds):
        seconds = default_seconds if hours is None else hours * 3600
        label = ("✔ " if hours == chosen else "") + "⏱ " + move_time(t, seconds)
        buttons.append(Btn(label, callback_data=data(hours)))
    return [buttons[i:i + 3] for i in range(0, len(buttons), 3)]
