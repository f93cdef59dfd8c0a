"""The screenshots in the docs: ``tools/chat_bubble.py`` draws a board the stand-in holds as a
chat shows it (photo, caption with the mention in the link colour, buttons under the bubble), and
the committed pictures exist, are small, and are shown in README.md and docs/bot.md. The
committed pictures are not made again here (``python tools/screenshots.py`` does that)."""

from __future__ import annotations

import importlib.util
import io
import re
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from PIL import Image

from standin import StandIn
from standin.players import live_board, start_group_match, start_the_bot

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ("screenshot-group.png", "screenshot-private.png", "screenshot-end.png",
         "screenshot-top.png", "screenshot-replay.png")


def chat_bubble() -> ModuleType:
    spec = importlib.util.spec_from_file_location("chat_bubble", ROOT / "tools" / "chat_bubble.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def colours(image: Image.Image, box: tuple[int, int, int, int]) -> set[tuple[int, int, int]]:
    return set(image.convert("RGB").crop(box).get_flattened_data())  # type: ignore[arg-type]


async def test_a_group_board_is_drawn_as_a_chat_shows_it(
        standin: StandIn, make_bot: Any, tmp_path: Path) -> None:
    cb = chat_bubble()
    await make_bot()
    alice = standin.user("Alice", username="alice")
    bob = standin.user("Bob", username="bob")
    group = standin.group("Kafeneio", alice, bob)
    await start_the_bot(alice, bob)
    await start_group_match(standin, alice, bob, group, "3 points")
    board = live_board(group)
    assert board is not None and board.photo_bytes is not None and board.caption
    assert board.caption_entities, "the caption mentions the player to move"
    buttons = [[(b.text, b.url is not None) for b in row] for row in board.buttons]
    assert buttons == [[("▶ Play in the private chat", True)]]

    image = cb.compose(board.photo_bytes, board.caption, board.caption_entities, buttons,
                       sender="Portes")
    size = cb.save(image, tmp_path / "shot.png")

    s = cb.S
    width = cb.BUBBLE_WIDTH * s
    photo_h = round(board.image().height * width / board.image().width)
    lines = board.caption.count("\n") + 1
    assert image.width == (2 * cb.MARGIN + cb.AVATAR + 8) * s + width
    # the photo, at least one line of text per caption line, one row of buttons
    assert image.height >= photo_h + lines * cb.LINE * s + cb.BUTTON_HEIGHT * s
    assert image.height < photo_h + 3 * lines * cb.LINE * s + 3 * cb.BUTTON_HEIGHT * s
    left = (cb.MARGIN + cb.AVATAR + 8) * s
    under_photo = (left, cb.MARGIN * s + (cb.PAD + cb.LINE) * s + photo_h + 6 * s,
                   left + width, image.height - (cb.GAP + cb.BUTTON_HEIGHT) * s - cb.MARGIN * s)
    seen = colours(image, under_photo)
    assert cb.BUBBLE in seen and cb.INK in seen
    assert cb.LINK in seen, "the mention is drawn in the link colour"
    inset = 10 * s  # past the rounded corners
    button = colours(image, (left + inset, image.height - (cb.MARGIN + cb.BUTTON_HEIGHT) * s + 2,
                             left + width - inset, image.height - cb.MARGIN * s - 2))
    assert (255, 255, 255) in button and cb.WALLPAPER not in button, "a button, with its words"
    saved = Image.open(io.BytesIO((tmp_path / "shot.png").read_bytes()))
    assert saved.format == "PNG" and saved.size == image.size
    assert size < 300_000


def test_entities_count_utf16_units_and_emoji_are_drawn_apart() -> None:
    cb = chat_bubble()
    text = "🎲 Portes\n👉 Bob, your move."
    # 🎲 and 👉 take two UTF-16 units each: "Bob" starts at unit 13
    style = cb.styles(text, [{"type": "text_mention", "offset": 13, "length": 3}])
    assert "".join(ch for ch, st in zip(text, style, strict=True) if st == "link") == "Bob"
    pieces = cb.runs("👉 Bob, your move.", style[len("🎲 Portes\n"):])
    assert pieces[0] == cb.Run("👉", "emoji")
    assert cb.Run("Bob", "link") in pieces
    assert all("👉" not in p.text for p in pieces[1:])
    # a long line is wrapped within the width
    words = cb.runs("lorem ipsum " * 20, ["plain"] * 240)
    lines = cb.wrap(words, 300, 30)
    assert len(lines) > 2
    for line in lines:
        *head, last = line
        bare = cb.Run(last.text.rstrip(" "), last.style)  # a trailing space may hang past
        assert sum(p.width(30) for p in head) + bare.width(30) <= 300


def test_the_committed_screenshots_are_small_pngs_shown_in_the_docs() -> None:
    readme = (ROOT / "README.md").read_text()
    bot_md = (ROOT / "docs" / "bot.md").read_text()
    for name in SHOTS:
        path = ROOT / "docs" / name
        assert path.exists(), name
        assert path.stat().st_size < 300_000, name
        with Image.open(path) as image:
            assert image.format == "PNG" and 600 <= image.width <= 1200, name
        assert re.search(rf'src="{re.escape(name)}"', bot_md), name
    assert 'src="docs/screenshot-group.png"' in readme
    assert 'src="docs/screenshot-private.png"' in readme
    assert "(docs/screenshot-end.png)" in readme
    assert 'src="docs/screenshot-top.png"' in readme
    assert 'src="docs/screenshot-replay.png"' in readme
    # the set-up commands stay at the top, before the pictures
    assert readme.index("portes-bot") < readme.index("pytest -q") < readme.index("screenshot")
