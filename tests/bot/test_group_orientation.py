"""A group's board keeps one side for the whole match (issue 27, item 7): drawn from the first
seat's side (white at the bottom, the points numbered from that side) on every player's turn,
with each player's name beside their colour above and below the board, and the caption saying
who has which colour. A player's private board keeps their own side. Played at Telegram's
limits (no call answered 429): Alice started the bot and plays privately, Bob never did and
plays tap by tap on the group's board, so that board also shows his moves so far, from
Alice's side."""

from __future__ import annotations

import io
from dataclasses import replace
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageStat

from bot.views.board_image import SHARED_SIDE, Look, _draw, board_key, draw_board_async
from bot.views.callbacks import Action
from rendering.geometry import HEIGHT, WIDTH, board_geometry
from rendering.table_sprites import TITLE_H
from rendering.theme import CLASSIC
from rules.common.dice import Dice
from rules.game import GAMES
from rules.match import Match, Phase
from rules.steps.board import StepsPosition, other_side_point
from standin import Chat, Message, StandIn, User
from standin.players import (
    live_board,
    play_turn,
    start_group_match,
    start_the_bot,
    tap_and_wait,
    turn_actions,
)
from storage.usecases import UseCases
from tests.bot.conftest import Running
from tests.bot.helpers.budget import telegram_limits, throttled

SIDES = "⚪ Alice: white, at the bottom · ⚫ Bob: black, at the top"
NAMES = ("Alice", "Bob")


async def state(uc: UseCases) -> Match:
    mv = (await uc.load_match(1)).match
    assert mv is not None
    return mv.state


async def fixed_drawing(uc: UseCases) -> bytes:
    """The match now, as a group's board must show it: from the first seat's side, names on."""
    return await draw_board_async(await state(uc), SHARED_SIDE, Look.shared("en"), NAMES)


async def shows_the_fixed_side(standin: StandIn, uc: UseCases, group: Chat) -> Message:
    """Wait until the group's live board is the drawing of the match as it is now from
    Alice's side (the bot draws the same bytes for the same state); then check the colours
    the picture shows on the starting points of both sides' back checkers and mid-points
    (Alice's 24 and 13 on top, Bob's, her 1 and 12, below): whose checkers stand there,
    from her side, whoever is to move."""
    expected = await fixed_drawing(uc)
    board: Message = await standin.wait_for(
        lambda: (b := live_board(group)) is not None and b.uploaded_bytes == expected and b,
        what="the group's board drawn from the first seat's side")
    match = await state(uc)
    seen = match.current_position() if match.chosen else match.position
    alices = seen if match.turn == 0 else seen.flip()
    image = board.image().convert("RGB")
    geo = board_geometry("right")
    for point in (24, 13, 12, 1):
        count = alices.board[point]
        if count:
            x, y = geo.checker_centers(point, 1)[0]
            colour = CLASSIC.white.fill if count > 0 else CLASSIC.black.fill
            assert near(rgb(image, (x, y + TITLE_H)), colour), (point, count)
    return board


def swatch_colour(image: Image.Image, top: bool) -> tuple[int, ...]:
    """The colour at the middle of the checker drawn beside a name (over the tray column: the
    board's home is on the right)."""
    tray = board_geometry("right").tray
    x = (tray[0] + tray[2]) // 2
    y = TITLE_H // 2 + 2 if top else TITLE_H + HEIGHT + TITLE_H // 2
    return rgb(image, (x, y))


def rgb(image: Image.Image, at: tuple[int, int]) -> tuple[int, ...]:
    return tuple(image.convert("RGB").getpixel(at))  # type: ignore[arg-type]


def band_distance(a: Image.Image, b: Image.Image) -> float:
    return sum(ImageStat.Stat(ImageChops.difference(a.convert("RGB"), b.convert("RGB"))).mean)


def near(pixel: tuple[int, ...], colour: tuple[int, int, int], tolerance: int = 40) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, colour, strict=False))


async def bobs_turn_tap_by_tap(standin: StandIn, uc: UseCases, bob: User,
                               group: Chat) -> list[Message]:
    """Bob plays his turn on the group's board, one checker at a time; after each move (and
    at the end) the group's board, as it then is."""
    seen: list[Message] = []
    for _ in range(12):
        board = live_board(group)
        assert board is not None
        actions = turn_actions(board)
        final = next(iter(actions.get(Action.CONFIRM) or actions.get(Action.PLAY) or []), None)
        choice = final or next(iter(actions.get(Action.MOVE) or actions.get(Action.FROM) or []),
                               None)
        assert choice is not None, board.button_texts
        before = await state(uc)
        alert = await tap_and_wait(standin, bob, board, choice)  # until the board changed
        assert alert is None, alert
        if final is not None:
            return seen
        now = await state(uc)
        if now.chosen != before.chosen:  # a move made: the group's board redrawn
            seen.append(await shows_the_fixed_side(standin, uc, group))
    raise AssertionError("a turn took more than 12 taps")


async def test_the_groups_board_keeps_the_first_seats_side_with_the_names_by_their_colours(
        standin: StandIn, make_bot: Any) -> None:
    made: list[Running] = []

    async def tap_by_tap(**options: Any) -> Running:
        running: Running = await make_bot(plays_direct=0, group_moves=0, **options)
        made.append(running)
        return running

    await telegram_limits(standin, tap_by_tap)
    uc = made[0].uc
    alice = standin.user("Alice", username="alice")
    bob = standin.user("Bob", username="bob")
    await start_the_bot(alice)  # Bob never did: he plays on the group's board
    group = standin.group("Kafeneio", alice, bob)
    await start_group_match(standin, alice, bob, group, "3 points")
    mv = (await uc.load_match(1)).match
    assert mv is not None and mv.seat_of(alice.id) == 0 and mv.seat_of(bob.id) == 1
    boards: dict[str, list[Message]] = {"Alice": [], "Bob": []}
    turns = 0
    while min(len(b) for b in boards.values()) < 2:
        board = await shows_the_fixed_side(standin, uc, group)
        turns += 1
        assert turns < 12
        if board.mentions(bob):
            boards["Bob"].append(board)
            # his moves so far are drawn on it, from Alice's side too
            boards["Bob"].extend(await bobs_turn_tap_by_tap(standin, uc, bob, group))
        else:
            boards["Alice"].append(board)
            await play_turn(standin, alice, group)
    shown = [b for bs in boards.values() for b in bs]
    assert len(boards["Bob"]) > 2  # a turn's first board and at least one of its moves
    for board in shown:
        image = board.image()
        # the names' bands above and below the board, each with a checker of its colour:
        # Bob's black on top, Alice's white below, whoever is to move
        assert image.size == (WIDTH, HEIGHT + 2 * TITLE_H)
        assert near(swatch_colour(image, top=True), CLASSIC.black.fill)
        assert near(swatch_colour(image, top=False), CLASSIC.white.fill)
        # and the caption says who has which colour, and where
        assert SIDES in (board.caption or ""), board.caption
    # the same picture around the board all along, on both players' turns (the bands)
    first, later = boards["Alice"][0].image(), boards["Bob"][-1].image()
    for box in ((0, 0, WIDTH, TITLE_H), (0, TITLE_H + HEIGHT, WIDTH, HEIGHT + 2 * TITLE_H)):
        assert band_distance(first.crop(box), later.crop(box)) < 3
    assert not throttled(standin)


async def test_a_private_board_keeps_its_players_side(standin: StandIn, bot: Running) -> None:
    """The group's board is drawn from the first seat's side; Bob's private board from his,
    without names (it is his alone)."""
    alice = standin.user("Alice", username="alice")
    bob = standin.user("Bob", username="bob")
    await start_the_bot(alice, bob)
    group = standin.group("Kafeneio", alice, bob)
    await start_group_match(standin, alice, bob, group, "3 points")
    for _ in range(4):
        board = live_board(group)
        assert board is not None
        if board.mentions(bob):
            break
        await play_turn(standin, alice, group)
    mine: Message = await standin.wait_for(
        lambda: (b := live_board(bob.private)) is not None and bool(turn_actions(b)) and b,
        what="Bob's private board")
    match = await state(bot.uc)
    assert mine.uploaded_bytes == await draw_board_async(match, 1, Look())
    assert Image.open(io.BytesIO(mine.uploaded_bytes or b"")).size == (WIDTH, HEIGHT)
    group_board = await shows_the_fixed_side(standin, bot.uc, group)
    assert SIDES in (group_board.caption or "")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_on_a_groups_board_marks_the_other_sides_move_at_its_place(game: str) -> None:
    """Portes, Plakoto, Fevga and Long Nardy (each game of the Tavli rotation too): with the
    second seat to move and one checker moved, the group's board (from the first seat's side)
    shows it played and marked where it is in the first seat's numbering, and the picture
    stands the same way round as when the first seat is to move."""
    start = replace(Match.new(1, game_type=game), phase=Phase.PLAYING, dice=Dice(6, 5), turn=1)
    move = start.next_moves()[0]
    moved = replace(start, chosen=(move,))
    image = Image.open(io.BytesIO(_draw(*board_key(moved, SHARED_SIDE, Look(), NAMES))))
    assert image.size == (WIDTH, HEIGHT + 2 * TITLE_H)
    seen = moved.current_position().flip()  # from the first seat's side
    point = move.to_point if move.to_point in (0, 25) else (
        other_side_point(seen.variant, move.to_point) if isinstance(seen, StepsPosition)
        else 25 - move.to_point)
    assert seen.board[point] < 0  # the second seat's checker, where the board says
    x, y = board_geometry("right").checker_centers(point, -seen.board[point])[-1]
    assert near(rgb(image, (x, y + TITLE_H)), CLASSIC.moved)  # its dot
    # the same names on the same sides as on the first seat's turn
    theirs = Image.open(io.BytesIO(_draw(*board_key(replace(start, turn=0), SHARED_SIDE,
                                                    Look(), NAMES))))
    for box in ((0, 0, WIDTH, TITLE_H), (0, TITLE_H + HEIGHT, WIDTH, HEIGHT + 2 * TITLE_H)):
        assert band_distance(image.crop(box), theirs.crop(box)) < 1
