"""Board images for a match, from one player's side, through :func:`rendering.render_board`.

Drawing takes tens of milliseconds of CPU, in a worker thread, and the last few images are kept
in a small cache keyed by everything drawn. A board is drawn when a turn begins and again for
each move the player to move makes or takes back (the board they play on only, see
:mod:`storage.delivery.outbox`); choosing a checker changes only the keyboard.

A player's private board is drawn from their side. A board several people read (a group's,
:data:`SHARED_SIDE`) is drawn from one side for the whole match, every game of it, whoever is
to move, with both players' names beside their colours (``names``).
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import cast

from bot.views.games import game_name
from bot.views.i18n import DEFAULT_LANG, lang_of, tr
from rendering import OPPOSITE_WAYS, SAME_WAY, TableView, points_of, render_board, render_table
from rendering.geometry import Side
from rendering.leaderboard import drawable
from rendering.paint import OPPONENT, VIEWER
from rendering.theme import CLASSIC, THEMES
from rules.common.dice import Dice
from rules.game import DEFAULT_KIND, GAMES, find_kind, game_of
from rules.match import Match, Phase
from rules.position import Move, Position
from rules.steps.board import StepsPosition, other_side_point
from storage.results import PlayerView


@dataclass(frozen=True)
class Look:
    """How a board is drawn for whoever reads it: a theme's name (``rendering.THEMES``), the
    side of the viewer's home board and the language of the game's name drawn on it. A group's
    boards have the default look in the group's language; a player's private boards theirs
    (``/settings``)."""

    theme: str = CLASSIC.name
    home: str = "right"
    lang: str = DEFAULT_LANG

    @classmethod
    def of(cls, player: PlayerView | None) -> Look:
        if player is None:
            return DEFAULT_LOOK
        theme = player.theme if player.theme in THEMES else CLASSIC.name
        return cls(theme, "left" if player.home == "left" else "right", lang_of(player.language))

    @classmethod
    def shared(cls, lang: str | None) -> Look:
        """A group's board: the standard look, the group's language."""
        return cls(lang=lang_of(lang))


DEFAULT_LOOK = Look()
SHARED_SIDE = 0
"""The seat a group's board is drawn from, for the whole match: the first seat's checkers
(white) at the bottom, its home bottom right, the points numbered from its side; the other
player's (black) come down from the top."""


IMAGES_KEPT = 32
"""Images kept (about 120 kB each): the same board drawn again soon (a retry, a move taken
back, the same board for two places) is not drawn twice. More would mostly keep the boards of
matches long moved on: 256 of them held 30 MB."""


@functools.lru_cache(maxsize=IMAGES_KEPT)
def _draw(
    position: Position,
    viewer_on_roll: bool,
    colour: str,
    dice: tuple[int, int] | None,
    last_play: tuple[Move, ...],
    last_by_viewer: bool,
    score: tuple[int, int, int],
    look: Look = DEFAULT_LOOK,
    title: str = "",
    moves_made: tuple[Move, ...] = (),
    names: tuple[str, str] | None = None,
) -> bytes:
    if not game_of(position).caps.bar_and_hits:  # the table of the step-engine games
        board = cast(StepsPosition, position)
        return render_table(replace(
            tavli_view(board, viewer_on_roll, colour, dice, last_play, last_by_viewer, score,
                       look, moves_made, title), names=names))
    return render_board(
        position,
        viewer_on_roll=viewer_on_roll,
        viewer_color="white" if colour == "white" else "black",
        dice=dice,
        last_play=last_play,
        last_play_by="viewer" if last_by_viewer else "opponent",
        moves_made=moves_made,
        score=score,
        theme=THEMES[look.theme],
        home="left" if look.home == "left" else "right",
        title=title,
        names=names,
    )


def board_title(match: Match, lang: str = DEFAULT_LANG) -> str:
    """The game's name on a board, in the reader's language (a group's board: the group's),
    in English where the font cannot draw it. The default game's boards have it only in a
    rotation, where the games change (a Portes match's boards have none)."""
    if match.game_key == DEFAULT_KIND and not find_kind(match.game_type).is_rotation:
        return ""
    return drawn_game_name(match.game_key, lang)


def drawn_game_name(game: str, lang: str) -> str:
    name = game_name(tr(lang), game)
    return name if drawable(name) else game_name(tr(DEFAULT_LANG), game)


def tavli_view(
    position: StepsPosition,
    viewer_on_roll: bool,
    colour: str,
    dice: tuple[int, int] | None,
    last_play: tuple[Move, ...],
    last_by_viewer: bool,
    score: tuple[int, int, int],
    look: Look,
    moves_made: tuple[Move, ...] = (),
    title: str | None = None,
) -> TableView:
    """A Plakoto, Fevga or Long Nardy board (``position`` from the viewer's side) as the
    renderer's neutral view: stacks bottom to top (a pinned checker under its pinner), each
    side's course, the last play's hops in the viewer's numbering, and the moves so far this
    turn of the side on roll (``moves_made``, in its numbering, already played on ``position``)
    with the dice they used, and the game's name (``title``; ``None``: in the look's
    language)."""
    stacks: dict[int, list[Side]] = {}
    for point in range(1, 25):
        n, pin = position.board[point], position.pins[point]
        top: Side = VIEWER if n > 0 else OPPONENT
        under: list[Side] = [VIEWER] if pin == 1 else [OPPONENT] if pin == -1 else []
        if n or under:
            stacks[point] = [*under, *([top] * abs(n))]
    variant = position.variant

    def seen(by_viewer: bool, point: int) -> int:
        if by_viewer or point in (0, 25):
            return point
        return other_side_point(variant, point)

    return TableView(
        points_of(stacks),
        title=drawn_game_name(game_of(position).key, look.lang) if title is None else title,
        courses=SAME_WAY if game_of(position).caps.same_way else OPPOSITE_WAYS,
        off=(position.mover_off, position.opponent_off),
        viewer_color="white" if colour == "white" else "black",
        viewer_on_roll=viewer_on_roll, dice=dice,
        last_play=tuple((seen(last_by_viewer, m.from_point), seen(last_by_viewer, m.to_point))
                        for m in last_play),
        last_play_by=VIEWER if last_by_viewer else OPPONENT,
        moves_made=tuple((seen(viewer_on_roll, m.from_point), seen(viewer_on_roll, m.to_point))
                         for m in moves_made),
        dice_used=tuple(m.die for m in moves_made),
        score=score, theme=THEMES[look.theme], home="left" if look.home == "left" else "right",
    )


def board_key(match: Match, viewer: int, look: Look = DEFAULT_LOOK,
              names: tuple[str, str] | None = None) -> tuple[object, ...]:
    """Everything the image of ``match`` from ``viewer``'s side depends on. The moves so far
    this turn (``match.chosen``) are played on the board and marked, as the caption lists
    them, from either side (a group's board, drawn from :data:`SHARED_SIDE`, shows the other
    player's too). ``names``: the seats' names, drawn beside their colours (a group's board)."""
    on_roll = viewer == match.turn
    playing = match.phase == Phase.PLAYING
    made: tuple[Move, ...] = tuple(match.chosen) if playing else ()
    position = match.current_position() if made else match.position
    if not on_roll:
        position = position.flip()
    # the higher die first, as the captions write the roll ("6-2")
    dice = (max(match.dice), min(match.dice)) if match.dice is not None and playing else None
    last = match.last_play
    last_moves: tuple[Move, ...] = last.moves if last is not None else ()
    last_by_viewer = last is not None and last.player == viewer
    score = (match.score[viewer], match.score[1 - viewer], match.length)
    colour = "white" if viewer == 0 else "black"
    drawn = None if names is None else (names[viewer], names[1 - viewer])
    return (position, on_roll, colour, dice, last_moves, last_by_viewer, score, look,
            board_title(match, look.lang), made, drawn)


_RENDERER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="render")
"""One drawing thread: drawing is CPU-bound, so more threads would add memory (each a few
full-size images and its own malloc arena), not speed."""


async def draw_board_async(match: Match, viewer: int, look: Look = DEFAULT_LOOK,
                           names: tuple[str, str] | None = None) -> bytes:
    """``match`` drawn from ``viewer``'s side (see :func:`board_key`)."""
    key = board_key(match, viewer, look, names)
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(_RENDERER, _draw, *key)


def warm_up(submit: Callable[..., object] | None = None) -> None:
    """At start: draw a Portes and a Plakoto board in the drawing thread (not waited for), with
    names as a group's board has them. The first drawing of a process loads the fonts and
    sprites (most of a second); a player's first tap, which draws their move, should not pay
    for it. ``submit(fn, *args)`` runs the drawings instead (e.g. at once, in a process that
    must start no thread); the boards drawn stay in the cache, so a second warm-up is free."""
    renderers: dict[bool, str] = {}
    for key, game_rules in GAMES.items():
        renderers.setdefault(game_rules.caps.bar_and_hits, key)
    run = submit or _RENDERER.submit
    for game in renderers.values():  # a board of each renderer, its dice drawn too
        match = replace(Match.new(1, game_type=game), phase=Phase.PLAYING, dice=Dice(6, 5))
        run(_draw, *board_key(match, 0, DEFAULT_LOOK, ("Portes", "Tavli")))
