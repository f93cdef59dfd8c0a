"""The Jellyfish match text (``.mat``) of a stored match, which GNU Backgammon and eXtreme Gammon
import (``import mat file.mat`` in gnubg).

The text is built from the match's move log alone (:class:`storage.results.MatchRecord`)::

     5 point match

     Game 1
     Alice : 0                            Bob : 0
      1)                              31: 8/5 6/5
      2) 64: 24/18 13/9               52: 13/11 13/8
     ...
     12) 62: 6/0 6/0
          Wins 2 points

Player 0 (the challenge's author) is the left column, player 1 the right. Each play is written
one die at a time from the mover's own side, as gnubg writes it (points 24..1, the bar 25, off
0, ``*`` for a hit), since the rules core already numbers points from the side to move. A turn
with no legal play is its dice alone. Portes has no cube: no cube action is ever written. A
resigned game ends with ``Wins N points`` at the resignation. A game given up before anyone
moved is its opening roll with no moves, then the ``Wins`` line, as gnubg itself writes a game
resigned on its opening roll (without a play gnubg reads no game at all). The format cannot say
"the match was given up" (or lost on time): that last game ends with the winner's ``Wins`` line
for the points still missing, at most 3 (a backgammon, the most a resignation gives without a
cube, and all gnubg reads), so an importer may show the match unfinished by a few points; the
caller's ``comment`` (a ``; [Comment "..."]`` header line, which gnubg shows as the match's
comment and keeps) can say how it really ended.

Only the games GNU Backgammon plays are written (:func:`gnubg_games`): a tavli match's Portes
games, each under its own number and the match score it was played at (the other games' points
included), which gnubg reads as they are.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.game import find_game
from storage.results import GameRecord, LoggedTurn, MatchRecord

COLUMN = 28
"""Width of the left column's play text, as gnubg's own .mat export pads it."""
MAX_RESIGN = 3
"""The most a resignation can give without a cube (a backgammon): gnubg reads no more."""


def safe_name(name: str) -> str:
    """A player's name as one .mat token: no spaces, no colon (the score line's separator)."""
    cleaned = "".join("_" if ch.isspace() or ch == ":" else ch for ch in name.strip())
    return cleaned or "Player"


def play_text(turn: LoggedTurn) -> str:
    """``64: 24/18 13/9``: the dice, larger first, then each single move (a pass: dice only)."""
    d1, d2 = sorted((turn.dice.die1, turn.dice.die2), reverse=True)
    moves = " ".join(f"{m.from_point}/{m.to_point}{'*' if m.hit else ''}" for m in turn.moves)
    return f"{d1}{d2}: {moves}".rstrip()


def wins_text(points: int) -> str:
    return f"Wins {points} point" + ("" if points == 1 else "s")


def _line(number: int, left: str, right: str) -> str:
    return f"{number:3d}) {left:<{COLUMN}} {right}".rstrip()


def game_lines(turns: Sequence[LoggedTurn], wins: tuple[int, int] | None,
               unplayed: tuple[int, str] | None = None) -> list[str]:
    """The numbered lines of one game, each play in its player's column, then ``wins``
    (``(winner, points)``) on a line of its own in the winner's column, as gnubg writes it.
    ``unplayed`` (``(player, "31:")``): for a game with no play, its opening roll."""
    lines: list[str] = []
    row: list[str] = ["", ""]
    filled = -1  # the last column filled on the current row
    if not turns and unplayed is not None:
        row[unplayed[0]], filled = unplayed[1], unplayed[0]
    for turn in turns:
        if turn.player <= filled:
            lines.append(_line(len(lines) + 1, *row))
            row = ["", ""]
        row[turn.player] = play_text(turn)
        filled = turn.player
    if filled >= 0:
        lines.append(_line(len(lines) + 1, *row))
    if wins is not None:
        indent = 6 if wins[0] == 0 else COLUMN + 6
        lines.append(" " * indent + wins_text(wins[1]))
    return lines


def game_variants(record: MatchRecord) -> dict[int, str]:
    """The game each game number of ``record`` played (a game's key), from its results
    and the game last played; a drawn Plakoto, played again, has no result and is not here."""
    state = record.match.state
    games = {result.game: result.game_key for result in state.results}
    if state.game and state.game not in games:
        games[state.game] = state.game_key
    return games


def gnubg_games(record: MatchRecord) -> frozenset[int]:
    """The numbers of the games of ``record`` that GNU Backgammon plays: all of a Portes match,
    the Portes games of a tavli match."""
    return frozenset(n for n, game in game_variants(record).items() if find_game(game).caps.gnubg)


def _missing_win(record: MatchRecord, score: tuple[int, int]) -> tuple[int, int] | None:
    """For a match that ended without its last game ending (given up, lost on time): the winner
    and the points they still needed."""
    state = record.match.state
    if state.winner is None or score[state.winner] >= state.length:
        return None
    return state.winner, min(MAX_RESIGN, state.length - score[state.winner])


def _game_result(game: GameRecord) -> tuple[int, int] | None:
    if game.winner is None or game.points is None:
        return None
    return game.winner, game.points


def _unplayed(record: MatchRecord, index: int) -> tuple[int, str] | None:
    """Who rolled a game's opening roll, and the roll as a .mat play (``"31:"``): the winner of
    the last game won before it with the café habit, else the higher die (as
    :meth:`rules.match.Match.start` decides)."""
    game = record.games[index]
    if game.opening is None:
        return None
    a, b = game.opening
    earlier = [g.winner for g in record.games[:index] if g.winner is not None]
    starter = earlier[-1] if record.match.state.winner_starts and earlier else int(b > a)
    return starter, f"{max(a, b)}{min(a, b)}:"


def comment_line(comment: str) -> str:
    """A ``.mat`` header line gnubg reads as the match's comment (one line, no double quote)."""
    return '; [Comment "' + " ".join(comment.replace('"', "'").split()) + '"]'


def match_text(record: MatchRecord, names: tuple[str, str], comment: str | None = None) -> str:
    """The whole .mat text of ``record`` (finished or still being played): its games that GNU
    Backgammon plays, with ``comment`` in the header."""
    length = record.match.state.length
    n0, n1 = safe_name(names[0]), safe_name(names[1])
    out = [comment_line(comment), ""] if comment else []
    out += [f" {length} point match", ""]
    written = gnubg_games(record)
    score = [0, 0]
    for index, game in enumerate(record.games):
        wins = _game_result(game)
        if wins is None and index == len(record.games) - 1:
            wins = _missing_win(record, (score[0], score[1]))
        if game.number in written:
            turns = [t for t in record.turns if t.game == game.number]
            left = f"{n0} : {score[0]}"
            out += [f" Game {game.number}", f" {left:<{COLUMN + 3}}{n1} : {score[1]}"]
            out += game_lines(turns, wins, _unplayed(record, index) if wins else None)
            out.append("")
        if wins is not None:
            score[wins[0]] += wins[1]
    return "\n".join(out) + "\n"
