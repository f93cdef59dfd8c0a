"""The cup's bracket picture: its geometry (pure) and the picture drawn from a bracket."""

from __future__ import annotations

import io

from PIL import Image

from rendering.bracket import BOX_HEIGHT, Entry, layout, render_bracket


def test_each_later_game_sits_between_the_two_it_follows() -> None:
    width, height, boxes = layout(4, 3)
    where = {(b.round, b.slot): b for b in boxes}
    assert len(boxes) == 4 + 2 + 1
    for b in boxes:
        if b.round:
            up, down = where[(b.round - 1, 2 * b.slot)], where[(b.round - 1, 2 * b.slot + 1)]
            assert b.y + BOX_HEIGHT // 2 == (up.y + down.y + BOX_HEIGHT) // 2
            assert b.x > up.x
    assert all(b.x >= 0 and b.y + BOX_HEIGHT <= height for b in boxes)
    assert max(b.x for b in boxes) < width


def test_a_64_player_bracket_is_one_picture_telegram_takes() -> None:
    rounds = [[Entry(f"Player {i}", f"Παίκτης {i}", 0) for i in range(32)]]
    games = 16
    while games >= 1:
        rounds.append([Entry(None, None) for _ in range(games)])
        games //= 2
    picture = Image.open(io.BytesIO(render_bracket("Cup", ["1", "2", "3", "4", "5", "6"],
                                                   rounds, footer="64")))
    assert picture.format == "JPEG"
    w, h = picture.size
    assert w + h <= 10_000 and max(w, h) / min(w, h) <= 20  # Telegram's limits for a photo


def test_a_winner_is_drawn_on_green() -> None:
    rounds = [[Entry("Alice", "Bob", 1)]]
    picture = Image.open(io.BytesIO(render_bracket("Cup", ["Final"], rounds))).convert("RGB")
    _, _, [box] = layout(1, 1)
    top = picture.getpixel((box.x + 200, box.y + 4))
    bottom = picture.getpixel((box.x + 200, box.y + BOX_HEIGHT - 4))
    assert bottom[1] > bottom[0] and bottom != top  # Bob's half is the winner's colour
