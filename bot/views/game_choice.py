"""Which game ``/top`` and ``/stats`` show: ratings, leaderboards and records are kept per game
(issue 15), so each answer is about one game, named in its title, with buttons to switch.

- **Named**: ``/top plakoto``, ``/stats Φεύγα``, ``/top μακρύ νάρδι``: the English or the Greek
  name, any case, with or without accents (:func:`split_game`). ``tavli`` is the tavli match
  (Portes, Plakoto and Fevga in turn), a game of its own with its own ratings.
- **Not named**: the game of the player's last ended match (against anyone, the computer too;
  for head to head, the last between the two, else the player's last), else Portes. Someone who
  has just finished a Plakoto match and sends ``/top`` wants Plakoto's leaderboard; someone who
  never played sees Portes's, the game most played.
- **Buttons** under the answer, one per game, the game shown ticked (``✔ Plakoto``). Callback
  data: ``lb:0:0:<letter>@<owner>`` under ``/top`` and ``sg:<player>:0:<letter>[-<other>]@<player>``
  under ``/stats``: the owner's taps switch the card; anyone else tapping it in a group gets a
  new message of their own (this chat's leaderboard of that game with their place, or their own
  record), and the card stays as it was (:mod:`bot.handlers.guard`). The letters are
  :data:`bot.views.games.GAME_LETTERS`; anything else is refused and changes nothing.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from telegram import InlineKeyboardButton as Btn
from telegram import InlineKeyboardMarkup as Markup

from bot.views.callbacks import Action, encode
from bot.views.echo import echoed
from bot.views.games import GAME_LETTERS, GAME_NAMES, GAME_OF_LETTER, game_name
from bot.views.i18n import Tr
from rules.match import MATCH_LENGTHS

DEFAULT_GAME = "portes"
ROWS = (("portes", "plakoto", "fevga"), ("tavli", "nardy"))
"""The switch buttons, in /new's order."""


def plain(text: str) -> str:
    """``text`` for comparing names: no accents, case-folded (``ς`` is ``σ``), single spaces."""
    decomposed = unicodedata.normalize("NFD", text)
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(bare.casefold().split())


ALIASES = {plain(name): game for game, names in {
    "portes": ("portes", "Πόρτες"),
    "plakoto": ("plakoto", "Πλακωτό"),
    "fevga": ("fevga", "Φεύγα"),
    "tavli": ("tavli", "Τάβλι"),
    "nardy": ("nardy", "nardi", "long nardy", "long nardi", "Νάρδι", "Μακρύ νάρδι"),
}.items() for name in names}
"""Every name a game is known by (English and Greek), as :func:`plain` leaves it."""


def split_game(args: Sequence[str]) -> tuple[str | None, list[str]]:
    """The game named among a command's words (two words first: "long nardy", "μακρύ νάρδι")
    and the other words; ``None`` when no game is named."""
    words = list(args)
    for size in (2, 1):
        for i in range(len(words) - size + 1):
            game = ALIASES.get(plain(" ".join(words[i:i + size])))
            if game is not None:
                return game, words[:i] + words[i + size:]
    return None, words


def new_args(args: Sequence[str]) -> tuple[str | None, int | None] | None:
    """What ``/new`` was given: a game (named as :func:`split_game` reads it) and a match
    length (1, 3, 5 or 7), each optional, in any order; ``None`` when a word is neither."""
    game, rest = split_game(args)
    if len(rest) > 1 or (rest and rest[0] not in {str(n) for n in MATCH_LENGTHS}):
        return None
    return game, int(rest[0]) if rest else None


def bad_new_args_text(t: Tr, words: Sequence[str]) -> str:
    return t._("I do not understand \"{words}\". Send /new alone for the card, or name a game "
               "and a length: /new plakoto 5. The games: {games}; the lengths: {lengths}.",
               words=" ".join(words), games=games_list(t),
               lengths=", ".join(str(n) for n in MATCH_LENGTHS))


def games_list(t: Tr) -> str:
    """The games' names in the reader's language, in /new's order."""
    return ", ".join(game_name(t, game) for game in GAME_NAMES)


def unknown_game_text(t: Tr, word: str, command: str) -> str:
    return t._("I do not know the game \"{word}\". The games: {games} (for example "
               "{command} plakoto).", word=echoed(word), games=games_list(t), command=command)


def game_keyboard(t: Tr, shown: str, data: dict[str, str]) -> Markup:
    """One button per game (``data``: each game's callback data), ``shown`` ticked."""
    return Markup([
        [Btn(("✔ " if game == shown else "") + game_name(t, game), callback_data=data[game])
         for game in row] for row in ROWS
    ])


def top_keyboard(t: Tr, shown: str, owner: int) -> Markup:
    """The game switch under ``owner``'s /top."""
    return game_keyboard(t, shown, {
        game: encode(Action.TOP_GAME, 0, 0, letter, owner=owner)
        for game, letter in GAME_LETTERS.items()})


def stats_keyboard(t: Tr, shown: str, player: int, other: int | None) -> Markup:
    """The game switch under ``player``'s /stats (theirs, or head to head with ``other``)."""
    tail = "" if other is None else f"-{other}"
    return game_keyboard(t, shown, {
        game: encode(Action.STATS_GAME, player, 0, letter + tail, owner=player)
        for game, letter in GAME_LETTERS.items()})


def players_keyboard(player: int, choices: Sequence[tuple[int, str, str]]) -> Markup:
    """``/stats <name>`` when the name is not one player's: a button per ``(other, label,
    game)``, each the head to head of ``player`` and ``other`` in ``game`` (the game switch's
    data: the tap turns the card into that answer, for its owner)."""
    return Markup([[Btn(label, callback_data=encode(
        Action.STATS_GAME, player, 0, f"{GAME_LETTERS[game]}-{other}", owner=player))]
        for other, label, game in choices])


_STATS_ARG = re.compile(r"([a-z])(?:-([0-9]{1,19}))?")


def top_game(match_id: int, version: int, arg: str | None) -> str | None:
    """The game of a ``/top`` button's data, ``None`` when the data is not one we send."""
    if match_id != 0 or version != 0:
        return None
    return GAME_OF_LETTER.get(arg or "")


def stats_game(version: int, arg: str | None) -> tuple[str, int | None] | None:
    """The game and the other player (head to head) of a ``/stats`` button's data, ``None``
    when the data is not one we send."""
    m = _STATS_ARG.fullmatch(arg or "")
    game = GAME_OF_LETTER.get(m.group(1)) if m else None
    if m is None or game is None or version != 0:
        return None
    return game, int(m.group(2)) if m.group(2) else None
