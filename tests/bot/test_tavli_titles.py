"""Every board of a tavli match has its game's name on top (issue 27, item 17): the Portes
games too, like Plakoto's and Fevga's; a Portes match's boards stay as they were, untitled."""

from __future__ import annotations

from PIL import Image, ImageChops

from rendering.geometry import HEIGHT, WIDTH
from rendering.table_sprites import TITLE_H, title_band
from rendering.theme import CLASSIC
from standin import StandIn
from standin.players import live_board, next_private_turn, start_group_match
from tests.bot.conftest import Running
from tests.bot.helpers.tavli import private_game


def band_of(image: Image.Image) -> Image.Image:
    return image.convert("RGB").crop((0, 0, WIDTH, TITLE_H))


async def test_the_portes_board_of_a_tavli_match_has_its_title(
        standin: StandIn, bot: Running) -> None:
    # Given a tavli match, in its first game (Portes)
    alice, bob = await private_game(standin, "Tavli", "3 points")
    _, board = await next_private_turn(standin, [alice, bob], 0)
    assert (board.caption or "").startswith(("🎲 Tavli · Portes", "🎲 Τάβλι · Πόρτες"))
    # Then its image has the title band above the board, with the game's name
    image = board.image()
    assert image.size == (WIDTH, HEIGHT + TITLE_H)
    # in the language of whoever's board it is: Alice's in English, Βασίλης's in Greek
    greek = (board.caption or "").startswith("🎲 Τάβλι")
    expected = title_band(CLASSIC, "Πόρτες" if greek else "Portes", "right")
    difference = ImageChops.difference(band_of(image), expected.convert("RGB"))
    assert max(high for _, high in difference.getextrema()) < 40  # JPEG noise only


async def test_a_portes_match_board_has_no_title(standin: StandIn, bot: Running) -> None:
    alice = standin.user("Alice", username="alice")
    bob = standin.user("Bob", username="bob")
    group = standin.group("Kafeneio", alice, bob)
    await start_group_match(standin, alice, bob, group)
    board = live_board(group)
    # a group's board has the players' names above and below it (item 7), but no game's name
    assert board is not None and board.image().size == (WIDTH, HEIGHT + 2 * TITLE_H)
    band = band_of(board.image()).crop((0, 0, WIDTH // 2, TITLE_H))
    plain = title_band(CLASSIC, "", "right").convert("RGB").crop((0, 0, WIDTH // 2, TITLE_H))
    assert max(high for _, high in ImageChops.difference(band, plain).getextrema()) < 40
