"""Texts of the games of tavli (issue 15): the games' names, the /new game step, a pinned
mother and a drawn Plakoto, why hints are Portes only, and each game's rules on one page
(/rules)."""

from __future__ import annotations

from bot.views.i18n import N_, Tr
from rules.game import DEFAULT_KIND, GAMES, KINDS
from rules.match import Match

GAME_NAMES = {key: kind.name for key, kind in KINDS.items()}
"""What ``/new`` offers, in this order: a match's ``game_type`` -> its name (a message id,
from the registry of games, :mod:`rules.game`)."""

GAME_LETTERS = {key: kind.letter for key, kind in KINDS.items()}
"""The one letter a game takes in callback data."""
GAME_OF_LETTER = {letter: game for game, letter in GAME_LETTERS.items()}

CAFE_GAMES = frozenset(key for key, kind in KINDS.items() if kind.cafe_start)
"""The games whose /new card has the café start switch (the last game's winner rolls first in
the next game, no opening roll); Portes keeps its opening roll, as its rule sheet says."""


def cafe_default(game: str) -> bool:
    """The café start's default: on in a tavli match (the rotation is played the café way, as
    /rules tavli says), off elsewhere (an opening roll for every game, as in Portes)."""
    kind = KINDS.get(game)
    return kind is not None and kind.cafe_default


def cafe_line(t: Tr, game: str, on: bool, length: int | None = None) -> str | None:
    """The /new and challenge cards' line on how each game after the first begins (``None``
    where the switch does not apply). A match to 1 point (``length``) is one game, begun with
    an opening roll (so is a drawn Plakoto played again: a draw has no winner to roll first)."""
    if game not in CAFE_GAMES:
        return None
    if length == 1:
        return t._("The game starts with an opening roll.")
    if on:
        return t._("The winner of each game rolls first in the next (café style).")
    return t._("Each game starts with an opening roll.")


def game_name(t: Tr, game: str) -> str:
    """A kind's or a game's name in ``t``'s language (the registry's message id, so a game
    registered later is named too); an unknown key reads as the default kind."""
    named = KINDS.get(game) or GAMES.get(game) or KINDS[DEFAULT_KIND]
    return t._(named.name)


def game_title(t: Tr, match: Match) -> str:
    """The name at the head of a caption: the game, and in a rotation "Tavli · the game"."""
    name = game_name(t, match.game_key)
    kind = KINDS.get(match.game_type)
    return f"{t._(kind.name)} · {name}" if kind is not None and kind.is_rotation else name


ROTATION_LINES = {"tavli": N_("🎲 Tavli: Portes, Plakoto and Fevga in turn.")}
"""What the /new card says a rotation plays."""
ROTATION_DESCRIPTIONS = {
    "tavli": N_("Portes, Plakoto and Fevga in turn; a challenge with an Accept button")}
"""An inline result's description of a rotation."""


def game_line(t: Tr, game: str) -> str:
    """The game on the /new card (a rotation says what it plays)."""
    line = ROTATION_LINES.get(game)
    return t._(line) if line else "🎲 " + game_name(t, game)


def inline_description(t: Tr, game: str) -> str:
    """An inline result's description (a rotation says what it plays)."""
    line = ROTATION_DESCRIPTIONS.get(game)
    return t._(line) if line else t._("Post a challenge with an Accept button")


def games_intro(t: Tr) -> str:
    """The welcome's head: the five games, a short line each (a phone's width)."""
    return t._(
        "🎲 <b>Portes</b>: Greek backgammon (tavli) without the doubling cube, five games:\n"
        "• Portes: hit and make points\n"
        "• Plakoto: pin a lone checker, no hitting\n"
        "• Fevga: both run the same way round, no hitting\n"
        "• Tavli: the three in turn, café style\n"
        "• Long Nardy: Fevga's Russian cousin"
    )


def choosing_help(t: Tr) -> str:
    """/help: how to choose a game and where its rules are (the welcome presents them)."""
    return t._(
        "<b>The games</b>: on the /new card tap Portes, Plakoto, Fevga, Tavli (the three in "
        "turn) or Long Nardy, then a length. /rules: the rules of the game you are playing; "
        "/rules plakoto (portes, fevga, tavli, nardy): any game's."
    )


def mother_win_text(t: Tr, player: str) -> str:
    return t._("{player} wins: the mother checker is pinned, 2 points.", player=player)


def winner_starts_text(t: Tr, game: int, starter: str) -> str:
    return t._("Game {game}: {starter} won the last game and rolls first.", game=game,
               starter=starter)


def draw_text(t: Tr) -> str:
    return t._("Both mothers pinned: a draw, the game is replayed.")


def portes_only_text(t: Tr) -> str:
    """Why a hint, a review, a .mat file or GNU Backgammon IDs are not offered."""
    return t._("Hints, reviews, .mat files and GNU Backgammon IDs are for Portes only: "
               "GNU Backgammon does not play this game.")


def portes_rules(t: Tr) -> str:
    """/rules: Portes's rule sheet on one page."""
    return t._(
        "<b>Portes: the rules on one page</b>\n\n"
        "<b>1. Board and set-up.</b> Two players, 15 checkers each, 24 points, two dice. You "
        "number the points 1 to 24 from your home: 2 checkers on 24, 5 on 13, 3 on 8, 5 on 6. "
        "The opponent sets up the mirror image. You move from 24 towards 1; your home is 1-6.\n\n"
        "<b>2. Moving.</b> Each player rolls one die; the higher starts and plays both numbers. "
        "Each die is a separate move. Doubles are played four times. You may land on an empty "
        "point, your own, or a point with one opposing checker; two or more make a door (πόρτα), "
        "closed. If both dice can be played, both must be; if only one, that one; if either but "
        "not both, the larger. If nothing can be played, the turn is lost.\n\n"
        "<b>3. Hitting.</b> Landing on a lone opposing checker hits it to the bar. With a checker "
        "on the bar you move nothing else until it enters in the opponent's home (a 1 enters on "
        "your 24, a 6 on your 19).\n\n"
        "<b>4. Bearing off.</b> Only with all your checkers in your home. A die bears off from "
        "its point; a higher die bears off from your highest point.\n\n"
        "<b>5. Scoring.</b> Single win 1 point; double (gammon, the loser bore off nothing) 2; "
        "triple (backgammon, and a loser's checker is on the bar or in your home) 3, or 2 with "
        "\"no triple\". Matches to 1, 3, 5 or 7 points. No doubling cube.\n\n"
        "<b>6. Resigning.</b> On your turn you may offer to resign the game for 1, 2 or 3 "
        "points; the opponent accepts or declines. You may resign the whole match at any time. "
        "A match may be cancelled until someone moves or a game ends."
    )


def plakoto_rules(t: Tr) -> str:
    return t._(
        "<b>Plakoto (Πλακωτό): the rules on one page</b>\n\n"
        "<b>1. Set-up.</b> Both players start with all 15 checkers on the opponent's 1-point "
        "(your 24) and move towards their home (1-6), in opposite directions, as in Portes.\n\n"
        "<b>2. Moving.</b> As in Portes: each die a move, doubles four times, both dice if "
        "possible, else the larger. No hitting and no bar.\n\n"
        "<b>3. Pinning.</b> Landing on a lone opposing checker pins it (written 13/7*): it "
        "cannot move until all your checkers have left that point. A point is closed to you when "
        "the opponent has two or more checkers there, or one on top of a pinned checker.\n\n"
        "<b>4. The mother.</b> Your mother is the last checker on your starting point. If it is "
        "pinned there, you lose 2 points, unless the pinner still has checkers on his own "
        "start. Both mothers pinned: a draw, nobody scores and the game is played again.\n\n"
        "<b>5. Scoring.</b> Bearing off all 15 first wins 1 point, 2 when the loser has borne "
        "off none. No triple."
    )


def fevga_rules(t: Tr) -> str:
    return t._(
        "<b>Fevga (Φεύγα): the rules on one page</b>\n\n"
        "<b>1. Set-up.</b> Each player starts with all 15 checkers on his own starting point, "
        "in opposite corners (yours is your 24, the opponent's your 12), and both move the same "
        "way round.\n\n"
        "<b>2. Moving.</b> As in Portes: each die a move, doubles four times, both dice if "
        "possible, else the larger. No hitting: a single checker holds a point.\n\n"
        "<b>3. The first checker.</b> No second checker leaves your start until the first has "
        "reached the opponent's starting quarter (your 12-7).\n\n"
        "<b>4. Blocks.</b> Nobody may hold all six points of his own starting quarter. A block "
        "of six in a row right in front of all the opponent's checkers must be opened when a "
        "play can.\n\n"
        "<b>5. Scoring.</b> Bearing off all 15 first wins 1 point, 2 when the loser has borne "
        "off none. No triple."
    )


def nardy_rules(t: Tr) -> str:
    return t._(
        "<b>Long Nardy: the rules on one page</b>\n\n"
        "<b>1. Set-up.</b> Each player starts with all 15 checkers on his head (yours is your "
        "24, the opponent's your 12), and both move the same way round.\n\n"
        "<b>2. Moving.</b> As in Portes: each die a move, doubles four times, both dice if "
        "possible, else the larger. No hitting: a single checker holds a point.\n\n"
        "<b>3. The head.</b> Only one checker leaves the head per turn; on your first turn two "
        "may, with 6-6, 4-4 or 3-3.\n\n"
        "<b>4. Blocks.</b> No six points in a row unless an opposing checker is already past "
        "them.\n\n"
        "<b>5. Scoring.</b> Bearing off all 15 first wins 1 point, 2 (mars) when the loser has "
        "borne off none."
    )


def tavli_rules(t: Tr) -> str:
    """/rules tavli: the rotation; each game's sheet is one command away."""
    return t._(
        "<b>Tavli: the three games in turn</b>\n\n"
        "A tavli match is played to 3, 5 or 7 points, its games in turn: Portes, Plakoto, Fevga, "
        "then Portes again. The winner of a game starts the next one with his own roll (the café "
        "habit; the /new card can turn it off). A drawn Plakoto (both mothers pinned) scores "
        "nothing and is played again.\n\n"
        "Each game's rules: /rules portes, /rules plakoto, /rules fevga."
    )


GAME_RULES = {"portes": portes_rules, "plakoto": plakoto_rules, "fevga": fevga_rules,
              "nardy": nardy_rules, "tavli": tavli_rules}
"""/rules of each game, by ``Variant`` value."""
