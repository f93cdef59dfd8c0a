"""The texts of a match's ``.mat`` download: the file's comment and the document's caption.

A ``.mat`` holds backgammon games only (:func:`storage.matfile.gnubg_games`), and cannot say that
a match was given up: the comment says what the file leaves out, and how the match really
ended when its last game could not say it.
"""

from __future__ import annotations

from bot.views.games import game_name
from bot.views.i18n import Tr
from bot.views.texts import Names, given_up_lines, match_won_text
from storage.matfile import game_variants, gnubg_games
from storage.results import MatchRecord


def left_out_text(t: Tr, record: MatchRecord) -> str | None:
    """Which games the file leaves out (a tavli match's Plakoto and Fevga), or None."""
    written = gnubg_games(record)
    numbers = [g.number for g in record.games if g.number not in written]
    if not numbers:
        return None
    variants = game_variants(record)
    games = dict.fromkeys(game_name(t, variants[n]) for n in numbers if n in variants)
    return t.ngettext(
        "Portes games only: game {numbers} ({games}) is left out, GNU Backgammon does not play "
        "it; the score counts its points.",
        "Portes games only: games {numbers} ({games}) are left out, GNU Backgammon does not "
        "play them; the score counts their points.",
        len(numbers), numbers=", ".join(map(str, numbers)), games=", ".join(games))


def mat_comment(t: Tr, record: MatchRecord, names: tuple[str, str]) -> str | None:
    """The file's comment: the games left out, and the end of a match given up (or lost on
    time), which a .mat game cannot tell (it gives 3 points at most)."""
    parts = [text for text in [left_out_text(t, record)] if text]
    state, plain = record.match.state, Names(*names)
    ended = given_up_lines(t, plain, state)
    if ended and state.winner is not None:
        parts += [match_won_text(t, plain, state), *ended]
    return " ".join(parts) or None


def mat_caption(t: Tr, record: MatchRecord) -> str:
    """The document's caption: what the file is for, and what it leaves out."""
    lines = [t._("Match #{id} for GNU Backgammon or eXtreme Gammon (Jellyfish .mat)",
                 id=record.match.id)]
    left_out = left_out_text(t, record)
    return "\n".join([*lines, left_out] if left_out else lines)
