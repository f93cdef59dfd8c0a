"""A board message drawn the way a Telegram chat shows it, for the screenshots in the docs.

:func:`compose` takes what the Bot API stand-in holds for a message (the photo's bytes, the
caption with its entities, the inline keyboard's rows) and draws, with Pillow, a chat bubble on a
plain wallpaper: the photo, the caption under it (wrapped; bold spans in bold, mentions and links
in the link colour), the time, and the inline buttons as rounded rectangles under the bubble (a
URL button with its small arrow). In a group the sender's name and avatar are drawn too.

Fonts: DejaVu Sans when the machine has it (Greek included), else Pillow's built-in font. Colour
emoji are not in those fonts: the few the bot uses are drawn by small functions here (a die, a
pointing hand, a chequered flag, a trophy, ...) rather than left as empty boxes.
:func:`save` writes a small palette PNG. ``tools/screenshots.py`` plays the matches and calls these.
"""

from __future__ import annotations

import functools
import io
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont

S = 2
"""Everything is drawn at twice the size of a phone's chat (about 400 px wide bubbles)."""

WALLPAPER = (200, 218, 186)
BUBBLE = (255, 255, 255)
INK = (20, 20, 20)
LINK = (42, 122, 196)
NAME = (210, 110, 40)
TIME = (150, 160, 165)
BUTTON = (0, 0, 0, 70)
"""Telegram's inline buttons: translucent dark over the wallpaper, white words."""
BUBBLE_WIDTH = 400
FONT_SIZE = 15
LINE = 20
PAD = 10
MARGIN = 14
AVATAR = 34
BUTTON_HEIGHT = 40
GAP = 4

FONT_DIRS = (Path("/usr/share/fonts/truetype/dejavu"), Path("/usr/share/fonts/TTF"),
             Path("/usr/share/fonts/dejavu"), Path("/usr/local/share/fonts"))

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


@functools.cache
def font(size: int, bold: bool = False) -> Font:
    """DejaVu Sans (bold or not) at ``size`` pixels, else Pillow's built-in font."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    for folder in FONT_DIRS:
        if (folder / name).exists():
            return ImageFont.truetype(str(folder / name), size)
    return ImageFont.load_default(size)


@functools.cache
def has_glyph(ch: str, bold: bool = False) -> bool:
    """Whether the text font draws ``ch`` (else it would draw its empty box, like U+10FFFF)."""
    def drawn(c: str) -> bytes:
        im = Image.new("L", (3 * FONT_SIZE * S, 2 * FONT_SIZE * S))
        ImageDraw.Draw(im).text((4, 4), c, font=font(FONT_SIZE * S, bold), fill=255)
        return im.tobytes()
    return drawn(ch) != drawn("\U0010ffff")


# -- emoji, drawn ------------------------------------------------------------------------------

Box = tuple[float, float, float]
"""An emoji's square: left, top, side."""


def _die(d: ImageDraw.ImageDraw, box: Box) -> None:
    x, y, s = box
    d.rounded_rectangle((x + .1 * s, y + .1 * s, x + .9 * s, y + .9 * s), radius=.18 * s,
                        fill=(222, 56, 56), outline=(160, 30, 30), width=max(1, round(s / 16)))
    for px, py in ((.3, .3), (.7, .3), (.5, .5), (.3, .7), (.7, .7)):
        r = .08 * s
        d.ellipse((x + px * s - r, y + py * s - r, x + px * s + r, y + py * s + r), fill="white")


def _hand(d: ImageDraw.ImageDraw, box: Box) -> None:
    x, y, s = box
    skin, edge, w = (255, 204, 77), (214, 150, 30), max(1, round(s / 18))
    d.rounded_rectangle((x + .3 * s, y + .3 * s, x + .98 * s, y + .5 * s), radius=.1 * s,
                        fill=skin, outline=edge, width=w)
    d.rounded_rectangle((x + .04 * s, y + .3 * s, x + .6 * s, y + .9 * s), radius=.16 * s,
                        fill=skin, outline=edge, width=w)
    for k in (.5, .65):
        d.line((x + .34 * s, y + (k + .05) * s, x + .58 * s, y + (k + .05) * s), fill=edge,
               width=w)


def _chequered_flag(d: ImageDraw.ImageDraw, box: Box) -> None:
    x, y, s = box
    d.line((x + .16 * s, y + .06 * s, x + .16 * s, y + .96 * s), fill=(90, 90, 90),
           width=max(2, round(s / 10)))
    cols, rows, left, top, w, h = 4, 3, x + .2 * s, y + .08 * s, .72 * s, .48 * s
    for i in range(cols):
        for j in range(rows):
            fill = (30, 30, 30) if (i + j) % 2 == 0 else (250, 250, 250)
            d.rectangle((left + i * w / cols, top + j * h / rows,
                         left + (i + 1) * w / cols, top + (j + 1) * h / rows), fill=fill)
    d.rectangle((left, top, left + w, top + h), outline=(30, 30, 30), width=max(1, round(s / 24)))


def _trophy(d: ImageDraw.ImageDraw, box: Box) -> None:
    x, y, s = box
    gold, edge, w = (247, 190, 40), (196, 136, 18), max(2, round(s / 12))
    d.arc((x + .04 * s, y + .14 * s, x + .4 * s, y + .5 * s), 90, 270, fill=edge, width=w)
    d.arc((x + .6 * s, y + .14 * s, x + .96 * s, y + .5 * s), 270, 90, fill=edge, width=w)
    d.chord((x + .2 * s, y - .3 * s, x + .8 * s, y + .62 * s), 0, 180, fill=gold, outline=edge)
    d.rectangle((x + .2 * s, y + .08 * s, x + .8 * s, y + .16 * s), fill=gold)
    d.rectangle((x + .44 * s, y + .6 * s, x + .56 * s, y + .76 * s), fill=edge)
    d.rounded_rectangle((x + .28 * s, y + .76 * s, x + .72 * s, y + .92 * s), radius=.04 * s,
                        fill=gold, outline=edge)


def _check(d: ImageDraw.ImageDraw, box: Box) -> None:
    x, y, s = box
    d.rounded_rectangle((x + .06 * s, y + .06 * s, x + .94 * s, y + .94 * s), radius=.2 * s,
                        fill=(88, 180, 70))
    d.line(((x + .25 * s, y + .52 * s), (x + .43 * s, y + .7 * s), (x + .76 * s, y + .32 * s)),
           fill="white", width=max(2, round(s / 8)), joint="curve")


def _bulb(d: ImageDraw.ImageDraw, box: Box) -> None:
    x, y, s = box
    d.ellipse((x + .2 * s, y + .04 * s, x + .8 * s, y + .64 * s), fill=(255, 214, 64),
              outline=(214, 160, 20), width=max(1, round(s / 18)))
    d.rectangle((x + .36 * s, y + .6 * s, x + .64 * s, y + .86 * s), fill=(150, 150, 150))
    d.line((x + .36 * s, y + .72 * s, x + .64 * s, y + .72 * s), fill=(110, 110, 110),
           width=max(1, round(s / 20)))


def _alarm_clock(d: ImageDraw.ImageDraw, box: Box) -> None:
    x, y, s = box
    red, w = (222, 56, 56), max(2, round(s / 11))
    for cx in (.2, .8):
        d.ellipse((x + (cx - .14) * s, y + .04 * s, x + (cx + .14) * s, y + .32 * s), fill=red)
    d.ellipse((x + .12 * s, y + .16 * s, x + .88 * s, y + .92 * s), fill="white", outline=red,
              width=w)
    cx, cy = x + .5 * s, y + .54 * s
    d.line(((cx, cy - .24 * s), (cx, cy), (cx + .18 * s, cy)), fill=INK, width=max(1, w // 2))


def _on_square(glyph: str, colour: tuple[int, int, int]) -> Callable[..., None]:
    """An emoji as a coloured rounded square with a white symbol the font has."""
    def draw(d: ImageDraw.ImageDraw, box: Box) -> None:
        x, y, s = box
        d.rounded_rectangle((x + .06 * s, y + .06 * s, x + .94 * s, y + .94 * s),
                            radius=.2 * s, fill=colour)
        d.text((x + .5 * s, y + .52 * s), glyph, font=font(round(.7 * s), True), fill="white",
               anchor="mm")
    return draw


def _chart(d: ImageDraw.ImageDraw, box: Box) -> None:
    x, y, s = box
    d.rounded_rectangle((x + .06 * s, y + .06 * s, x + .94 * s, y + .94 * s), radius=.14 * s,
                        fill=(250, 250, 250), outline=(170, 170, 170), width=max(1, round(s / 24)))
    for i, (h, colour) in enumerate(((.35, (66, 133, 244)), (.6, (222, 56, 56)),
                                     (.45, (88, 180, 70)))):
        left = x + (.2 + .22 * i) * s
        d.rectangle((left, y + (.82 - h) * s, left + .15 * s, y + .82 * s), fill=colour)


def _white_flag(d: ImageDraw.ImageDraw, box: Box) -> None:
    x, y, s = box
    d.line((x + .16 * s, y + .06 * s, x + .16 * s, y + .96 * s), fill=(90, 90, 90),
           width=max(2, round(s / 10)))
    d.polygon(((x + .2 * s, y + .1 * s), (x + .9 * s, y + .16 * s), (x + .8 * s, y + .36 * s),
               (x + .9 * s, y + .56 * s), (x + .2 * s, y + .56 * s)),
              fill="white", outline=(120, 120, 120))


def _pin(d: ImageDraw.ImageDraw, box: Box) -> None:
    x, y, s = box
    d.line((x + .5 * s, y + .4 * s, x + .5 * s, y + .96 * s), fill=(120, 120, 120),
           width=max(2, round(s / 12)))
    d.ellipse((x + .24 * s, y + .04 * s, x + .76 * s, y + .56 * s), fill=(222, 56, 56))


def _padlock(d: ImageDraw.ImageDraw, box: Box) -> None:
    x, y, s = box
    gold, edge = (247, 190, 40), (196, 136, 18)
    d.arc((x + .26 * s, y + .06 * s, x + .74 * s, y + .62 * s), 180, 360, fill=(245, 245, 245),
          width=max(2, round(s / 9)))
    d.line((x + .28 * s, y + .34 * s, x + .28 * s, y + .46 * s), fill=(245, 245, 245),
           width=max(2, round(s / 9)))
    d.line((x + .72 * s, y + .34 * s, x + .72 * s, y + .46 * s), fill=(245, 245, 245),
           width=max(2, round(s / 9)))
    d.rounded_rectangle((x + .14 * s, y + .44 * s, x + .86 * s, y + .94 * s), radius=.1 * s,
                        fill=gold, outline=edge, width=max(1, round(s / 20)))
    d.ellipse((x + .44 * s, y + .58 * s, x + .56 * s, y + .7 * s), fill=edge)


def _stopwatch(d: ImageDraw.ImageDraw, box: Box) -> None:
    x, y, s = box
    grey, w = (120, 120, 120), max(2, round(s / 11))
    d.rectangle((x + .42 * s, y + .02 * s, x + .58 * s, y + .12 * s), fill=grey)
    d.ellipse((x + .12 * s, y + .14 * s, x + .88 * s, y + .9 * s), fill="white", outline=grey,
              width=w)
    cx, cy = x + .5 * s, y + .52 * s
    d.line(((cx, cy), (cx + .16 * s, cy - .2 * s)), fill=(222, 56, 56), width=max(1, w // 2))


def _other(d: ImageDraw.ImageDraw, box: Box) -> None:
    """An emoji without a drawing here: a plain grey square (never an empty font box)."""
    x, y, s = box
    d.rounded_rectangle((x + .12 * s, y + .12 * s, x + .88 * s, y + .88 * s), radius=.2 * s,
                        fill=(180, 186, 190))


EMOJI: dict[str, Callable[[ImageDraw.ImageDraw, Box], None]] = {
    "🎲": _die, "👉": _hand, "🏁": _chequered_flag, "🏆": _trophy, "✅": _check, "💡": _bulb,
    "⏰": _alarm_clock, "🔁": _on_square("⇄", (66, 133, 244)), "📊": _chart, "🏳": _white_flag,
    "⏮": _on_square("⇤", (66, 133, 244)), "⏭": _on_square("⇥", (66, 133, 244)), "📍": _pin,
    "🔒": _padlock, "⏱": _stopwatch,
}


# -- text ----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Run:
    """A piece of a line in one style: "plain", "bold", "link", "button" or "emoji"."""

    text: str
    style: str

    def font(self, size: int) -> Font:
        return font(size, self.style in ("bold", "button"))

    def width(self, size: int) -> float:
        if self.style == "emoji":
            return 1.25 * size
        return self.font(size).getlength(self.text)


LINK_TYPES = {"text_mention", "mention", "text_link", "url", "bot_command"}


def styles(text: str, entities: Sequence[Mapping[str, Any]]) -> list[str]:
    """The style of each character of ``text`` (entity offsets count UTF-16 code units)."""
    at_u16: dict[int, int] = {}
    unit = 0
    for i, ch in enumerate(text):
        at_u16[unit] = i
        unit += 2 if ord(ch) > 0xFFFF else 1
    at_u16[unit] = len(text)
    style = ["plain"] * len(text)
    for e in entities:
        kind = "link" if e["type"] in LINK_TYPES else "bold" if e["type"] == "bold" else None
        start, end = at_u16.get(e["offset"]), at_u16.get(e["offset"] + e["length"])
        if kind is None or start is None or end is None:
            continue
        for i in range(start, end):
            style[i] = kind
    return style


def runs(text: str, style: Sequence[str]) -> list[Run]:
    """Words (each with its trailing space) in one style; each emoji the font lacks alone."""
    out: list[Run] = []
    word, kind = "", ""
    for ch, st in zip(text, style, strict=True):
        if ch == "\ufe0f":
            continue
        emoji = not has_glyph(ch)
        if word and (emoji or st != kind or (word.endswith(" ") and ch != " ")):
            out.append(Run(word, kind))
            word = ""
        if emoji:
            out.append(Run(ch, "emoji"))
            continue
        word, kind = word + ch, st
    if word:
        out.append(Run(word, kind))
    return out


def wrap(pieces: Sequence[Run], width: float, size: int) -> list[list[Run]]:
    """Greedy line breaking: a word goes to the next line when it would pass ``width``."""
    lines: list[list[Run]] = [[]]
    used = 0.0
    for piece in pieces:
        bare = Run(piece.text.rstrip(" "), piece.style).width(size) if piece.text.strip() else 0
        if lines[-1] and used + bare > width and piece.text.strip():
            lines.append([])
            used = 0.0
        if not lines[-1] and not piece.text.strip():
            continue
        lines[-1].append(piece)
        used += piece.width(size)
    return lines


def draw_runs(d: ImageDraw.ImageDraw, line: Sequence[Run], x: float, baseline: float,
              size: int, ink: Any) -> float:
    """Draw ``line`` from ``x`` on ``baseline``; return where it ended."""
    for piece in line:
        if piece.style == "emoji":
            side = 1.1 * size
            EMOJI.get(piece.text, _other)(d, (x + .07 * size, baseline - .95 * size, side))
        else:
            colour = LINK if piece.style == "link" else ink
            d.text((x, baseline), piece.text, font=piece.font(size), fill=colour, anchor="ls")
        x += piece.width(size)
    return x


# -- the bubble ----------------------------------------------------------------------------------

ButtonRow = Sequence[tuple[str, bool]]
"""A keyboard row: each button's text, and whether it opens a URL."""


def compose(photo: bytes | Image.Image, caption: str, entities: Sequence[Mapping[str, Any]] = (),
            buttons: Sequence[ButtonRow] = (), *, sender: str | None = None,
            time: str = "12:00") -> Image.Image:
    """The message as a chat shows it (see the module's docstring); ``sender``: the name above
    the photo and the avatar beside the bubble, as in a group."""
    image = photo if isinstance(photo, Image.Image) else Image.open(io.BytesIO(photo))
    width = BUBBLE_WIDTH * S
    picture = image.convert("RGB").resize((width, round(image.height * width / image.width)),
                                          Image.Resampling.LANCZOS)
    size, line_h = FONT_SIZE * S, LINE * S
    lines = [wrapped for paragraph, style in _paragraphs(caption, entities)
             for wrapped in wrap(runs(paragraph, style), width - 2 * PAD * S, size)]
    top = (PAD + LINE) * S if sender else 0
    caption_top = top + picture.height + 6 * S
    bubble_h = caption_top + len(lines) * line_h + (PAD + 8) * S
    left = (MARGIN + (AVATAR + 8 if sender else 0)) * S
    keys_h = sum((GAP + BUTTON_HEIGHT) * S for _ in buttons)
    canvas = Image.new("RGBA", (left + width + MARGIN * S, 2 * MARGIN * S + bubble_h + keys_h),
                       (*WALLPAPER, 255))
    _bubble(canvas, picture, (left, MARGIN * S), bubble_h, top)
    d = ImageDraw.Draw(canvas)
    if sender:
        d.text((left + PAD * S, (MARGIN + PAD + 13) * S), sender, font=font(size, True),
               fill=NAME, anchor="ls")
        _avatar(d, sender, (MARGIN * S, MARGIN * S + bubble_h - AVATAR * S))
    baseline = MARGIN * S + caption_top + 15 * S
    for line in lines:
        draw_runs(d, line, left + PAD * S, baseline, size, INK)
        baseline += line_h
    d.text((left + width - PAD * S, MARGIN * S + bubble_h - 7 * S), time,
           font=font(12 * S), fill=TIME, anchor="rs")
    _keyboard(canvas, buttons, left, MARGIN * S + bubble_h + GAP * S, width)
    return canvas.convert("RGB")


def _paragraphs(caption: str, entities: Sequence[Mapping[str, Any]]
                ) -> list[tuple[str, list[str]]]:
    style = styles(caption, entities)
    out, start = [], 0
    for paragraph in caption.split("\n"):
        out.append((paragraph, style[start:start + len(paragraph)]))
        start += len(paragraph) + 1
    return out


def _bubble(canvas: Image.Image, picture: Image.Image, at: tuple[int, int], height: int,
            top: int) -> None:
    """The white bubble (rounded, a faint shadow) with the photo at ``top`` inside it."""
    x, y = at
    w, r = picture.width, 14 * S
    shadow = Image.new("RGBA", canvas.size, (0, 0, 0, 0))
    ImageDraw.Draw(shadow).rounded_rectangle((x, y + S, x + w, y + height + S), radius=r,
                                             fill=(0, 0, 0, 40))
    canvas.alpha_composite(shadow)
    bubble = Image.new("RGBA", (w, height), (*BUBBLE, 255))
    bubble.paste(picture, (0, top))
    mask = Image.new("L", (w, height), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, w - 1, height - 1), radius=r, fill=255)
    canvas.paste(bubble, (x, y), mask)


def _avatar(d: ImageDraw.ImageDraw, name: str, at: tuple[int, int]) -> None:
    x, y = at
    side = AVATAR * S
    d.ellipse((x, y, x + side, y + side), fill=(242, 130, 60))
    d.text((x + side / 2, y + side / 2), name[:1].upper(), font=font(16 * S, True),
           fill="white", anchor="mm")


def _keyboard(canvas: Image.Image, rows: Sequence[ButtonRow], left: int, top: int,
              width: int) -> None:
    """Inline buttons: translucent rounded rectangles, the words centred (cut with … when
    too long), a small ↗ in the corner of a URL button."""
    size, h, gap = 14 * S, BUTTON_HEIGHT * S, GAP * S
    placed: list[tuple[float, int, float, str, bool]] = []
    for row in rows:
        w = (width - gap * (len(row) - 1)) / max(1, len(row))
        placed += [(left + i * (w + gap), top, w, text, is_url)
                   for i, (text, is_url) in enumerate(row)]
        top += h + gap
    layer = Image.new("RGBA", canvas.size, (0, 0, 0, 0))
    shapes = ImageDraw.Draw(layer)
    for x, y, w, _, _ in placed:
        shapes.rounded_rectangle((x, y, x + w, y + h), radius=8 * S, fill=BUTTON)
    canvas.alpha_composite(layer)
    d = ImageDraw.Draw(canvas)
    for x, y, w, text, is_url in placed:
        line = _fit(runs(text, ["button"] * len(text)), w - 12 * S, size)
        used = sum(p.width(size) for p in line)
        draw_runs(d, line, x + (w - used) / 2, y + h / 2 + .36 * size, size, "white")
        if is_url:
            d.text((x + w - 4 * S, y + 3 * S), "↗", font=font(10 * S, True), fill="white",
                   anchor="ra")


def _fit(pieces: list[Run], width: float, size: int) -> list[Run]:
    while len(pieces) > 1 and sum(p.width(size) for p in pieces) > width:
        last = pieces[-1]
        cut = last.text.rstrip("…")[:-1].rstrip()
        pieces = [*pieces[:-1], Run(cut + "…", last.style)] if cut else pieces[:-1]
    return pieces


def save(image: Image.Image, path: Path) -> int:
    """Write ``image`` as an optimised 256-colour PNG; its size in bytes."""
    small = image.quantize(colors=256, method=Image.Quantize.FASTOCTREE,
                           dither=Image.Dither.NONE)
    small.save(path, format="PNG", optimize=True)
    return path.stat().st_size
