"""The callback-data codec: ``<action>:<match id>:<version>[:<arg>][@<owner>]``, at most 64
bytes.

That shape is a match's buttons'. Buttons that are not about a match keep the same two numbers
(``Callback.match_id``, ``Callback.version``) for something else:
``<action>:<subject>:<state>[:<arg>][@<owner>]``, where the subject is ``0`` (the /new card,
/notices, /forgetme, /settings, /lang, the game switch under /top), a challenge id (Accept,
Withdraw; ``0`` for an inline card whose challenge is not made yet) or a player id (the game
switch under /stats: the player whose record it is), and the state is ``0`` or, for
/settings, the code of the settings the card shows (:mod:`bot.views.player_settings`), so a
tap on an older card is refused like an old keyboard. Each :class:`Action` below says which.

Buttons carry ids, versions and small indices, never move lists. The version is the match's own
version number, which changes with every accepted step, so a second tap on the same button (or a
tap on any older keyboard) no longer matches the match and changes nothing. The regexes the
handlers route on live here, beside the encoder. Every pattern is matched against the whole
data (``fullmatch``: ``$`` alone would let a trailing newline through) and knows only ASCII digits.

``@<owner>`` is the Telegram id of the user a personal card was made for (the one who sent
``/top``, ``/stats``, ``/history``, ``/new``...): every button of an action in :data:`PERSONAL`
carries it (:func:`encode` refuses one without), and the router (:mod:`bot.handlers.guard`)
lets only that user's taps edit the card; anyone else tapping it in a group gets their own new
message, or an alert. Data without it (cards posted before the owner existed) decodes with
``owner`` ``None``: such a card is nobody's, so in a group no tap edits it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

MAX_BYTES = 64


class Action(StrEnum):
    # the turn
    FROM = "f"  # arg: the point a checker leaves (25 = bar)
    MOVE = "m"  # arg: "<from>-<to>" (to 0 = off), one or several dice with the same checker
    BACK = "b"  # back from a chosen checker to the list of checkers (no change)
    PLAY = "p"  # arg: index of a whole play among the legal plays offered directly
    UNDO = "u"
    CONFIRM = "c"
    # resigning and cancelling
    RESIGN = "r"  # arg: 1/2/3 points for the game, "m" for the match
    RESIGN_ACCEPT = "ra"
    RESIGN_DECLINE = "rd"
    CANCEL = "x"
    # challenges: match id is the challenge's match, version is 0
    ACCEPT = "a"  # match id field: the challenge id (0 for an inline card not yet created)
    WITHDRAW = "w"  # match id field: the challenge id
    REMATCH = "rm"
    # the /new settings card: match id 0, version 0, arg "<length><t|n>[:<mode>]"
    NEW = "n"
    NEW_CANCEL = "nx"
    # /games: jump to a match, or close one whose stored state cannot be read
    SHOW = "s"
    CLOSE_UNREADABLE = "k"
    # /lang: arg "el" or "en"
    LANG = "l"
    # /notices: match id 0, version 0, arg "on" or "off" (the state the tap sets)
    NOTICES = "nt"
    # against the computer: the /new card's computer mode, match id 0, version 0,
    # arg "<o|length><t|n><level 1-3>" ("o": show the card; a length: create the challenge)
    NEW_COMPUTER = "nc"
    # the Hint button (games against the computer only)
    HINT = "h"
    # the post-match review of a finished match (version 0)
    REVIEW = "rv"
    # /history (version 0): Download the .mat; Replay, arg the step index; Position of a step
    DOWNLOAD = "hd"
    REPLAY = "hr"
    POSITION = "hp"
    # "which match?" when several could be meant: the match chosen, with the version offered
    PICK_PLAY = "tp"  # for the play typed in the message the question replies to
    PICK_RESIGN = "rs"  # for /resign: show that match's resignation card
    # /forgetme: match id 0, version 0, arg "yes" (delete my data) or "no"
    FORGET = "fg"
    # /settings: match id 0, version the settings' state code (bot.views.player_settings), arg the
    # change ("th-<theme>", "home-left", "lang-el", "nt-off"...)
    SETTINGS = "st"
    # the game switch under /top (match id 0, version 0, arg the game's letter) and under
    # /stats (match id the player whose record it is, version 0, arg "<letter>[-<other id>]")
    TOP_GAME = "lb"
    STATS_GAME = "sg"
    # a group's league or cup card (bot.views.competitions): match id the competition's id,
    # version its version, arg the operation ("j" join, "go" start, "l5" the length...)
    TOURNAMENT = "t"
    # the group /new card's way to a league or cup: match id 0, version 0
    TOURNAMENT_NEW = "tn"
    # /play (match id 0, version 0, arg bot.views.play: the choices, or "x<request id>" to stop
    # waiting); never pair me with the opponent of a match (match id the match, version 0);
    # the group's ladder card (match id 0, version 0, arg "join" or "leave"); /vacation
    # (match id 0, version 0, arg the days)
    FIND = "pl"
    BLOCK = "bk"
    LADDER = "ld"
    VACATION = "vc"


BOARD_ACTIONS = frozenset({
    Action.FROM, Action.MOVE, Action.BACK, Action.PLAY, Action.UNDO, Action.CONFIRM,
    Action.RESIGN, Action.RESIGN_ACCEPT, Action.RESIGN_DECLINE, Action.CANCEL, Action.SHOW,
    Action.HINT, Action.PICK_PLAY, Action.PICK_RESIGN,
})
"""Actions on an active match (the match id field is a match's): a tap on one of these is an
interaction with that match, for choosing where a typed play or /resign goes."""

ON_BOARD = frozenset({
    Action.FROM, Action.MOVE, Action.BACK, Action.PLAY, Action.UNDO, Action.CONFIRM,
    Action.HINT, Action.RESIGN_ACCEPT, Action.RESIGN_DECLINE,
})
"""The buttons only a match's board carries: a tap on one counts only from that board."""

PERSONAL = frozenset({
    Action.RESIGN, Action.CANCEL, Action.NEW, Action.NEW_CANCEL, Action.NEW_COMPUTER,
    Action.CLOSE_UNREADABLE, Action.NOTICES, Action.REPLAY, Action.PICK_PLAY,
    Action.PICK_RESIGN, Action.FORGET, Action.SETTINGS, Action.TOP_GAME, Action.STATS_GAME,
    Action.TOURNAMENT_NEW,
    Action.FIND, Action.VACATION,
})
"""The buttons of personal cards (the resignation card, the /new card, /games, /notices,
/history and its replay, "which match?", /forgetme, /settings, /top, /stats) whose handlers
edit or delete the tapped card, or set something of the tapper's: each carries its card's owner
(``@<owner>``). The other buttons of such cards (Download, Position, a /games board, Review)
only post something new, whoever taps them, and carry no owner. /lang's buttons carry none
either: in a private chat the card is its only reader's, and in a group it is the group's
language card, which any of the group's admins may use (the handler checks)."""


_ACTIONS = "|".join(sorted((re.escape(a.value) for a in Action), key=len, reverse=True))
_TAIL = r":([0-9]{1,12}):([0-9]{1,9})(?::([0-9A-Za-z_\-]{1,24}))?(?:@([0-9]{1,19}))?"
CALLBACK_RE = re.compile(rf"({_ACTIONS}){_TAIL}\Z")
"""Every callback data this bot sends matches this; anything else is forged or stale. It ends
in ``\\Z``: python-telegram-bot routes with ``re.match``, which a ``$`` would let end before a
trailing newline."""

_ARG_RE = re.compile(r"[0-9A-Za-z_\-]{1,24}")
MOVE_ARG_RE = re.compile(r"([0-9]{1,2})-([0-9]{1,2})(?:-([0-9]))?")

MAX_ID = 2**63 - 1
"""The largest id the database holds (a signed 64-bit integer)."""
_ID_RE = re.compile(r"#?([0-9]{1,19})")


def parse_id(text: str | None) -> int | None:
    """A match or challenge id typed by someone (``42`` or ``#42``), or ``None`` when it cannot
    be one (not ASCII digits, or past the 64-bit range the database holds): "not found"."""
    m = _ID_RE.fullmatch((text or "").strip())
    if m is None:
        return None
    value = int(m.group(1))
    return value if value <= MAX_ID else None


@dataclass(frozen=True)
class Callback:
    action: Action
    match_id: int
    version: int
    arg: str | None = None
    owner: int | None = None
    """The user the card was made for (``None``: not a personal card's button, or one from
    before owners were recorded)."""

    def encode(self) -> str:
        return encode(self.action, self.match_id, self.version, self.arg, owner=self.owner)

    def move(self) -> tuple[int, int, int]:
        """The ``(from, to, route)`` of a :attr:`Action.MOVE` argument."""
        m = MOVE_ARG_RE.fullmatch(self.arg or "")
        if not m:
            raise ValueError(f"not a move argument: {self.arg!r}")
        return int(m.group(1)), int(m.group(2)), int(m.group(3) or 0)

    def int_arg(self) -> int:
        if self.arg is None or not self.arg.isascii() or not self.arg.isdigit():
            raise ValueError(f"not a number: {self.arg!r}")
        return int(self.arg)


def encode(action: Action, match_id: int, version: int, arg: str | int | None = None, *,
           owner: int | None = None) -> str:
    """The data of a button; ``owner``: the user a personal card is for (required for the
    actions in :data:`PERSONAL`)."""
    if match_id < 0 or version < 0:
        raise ValueError("ids and versions are not negative")
    if action in PERSONAL and owner is None:
        raise ValueError(f"a {action.name} button belongs to a personal card: give its owner")
    text = f"{action.value}:{match_id}:{version}"
    if arg is not None:
        arg = str(arg)
        if not _ARG_RE.fullmatch(arg):
            raise ValueError(f"bad callback argument {arg!r}")
        text += f":{arg}"
    if owner is not None:
        if owner <= 0:
            raise ValueError("an owner is a user's id")
        text += f"@{owner}"
    if len(text.encode()) > MAX_BYTES:
        raise ValueError(f"callback data over {MAX_BYTES} bytes: {text!r}")
    return text


def move_arg(from_point: int, to_point: int) -> str:
    return f"{from_point}-{to_point}"


def decode(data: str | None) -> Callback | None:
    """The callback, or ``None`` for data this bot never sends (forged, truncated, foreign)."""
    if not data or len(data.encode()) > MAX_BYTES:
        return None
    m = CALLBACK_RE.fullmatch(data)
    if not m:
        return None
    owner = int(m.group(5)) if m.group(5) else None
    return Callback(Action(m.group(1)), int(m.group(2)), int(m.group(3)), m.group(4), owner)
