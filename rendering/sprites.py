"""Everything drawn once and cached: the empty board per theme and orientation, and the sprites
(checkers, ghosts, rings, dots, hits, tints, frames, slabs, dice).

Each is drawn at SS times the size and reduced with Lanczos, which antialiases it; a render
then only copies and pastes these.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw, ImageFilter, ImageFont

from rendering.geometry import (
    CHECKER,
    DIE,
    HEIGHT,
    POINT_LEN,
    POINT_W,
    SLAB_H,
    TRAY_W,
    WIDTH,
    Box,
    Home,
    board_geometry,
)
from rendering.theme import CheckerStyle, Colour, Theme

SS = 3  # supersampling factor for everything drawn once and cached
NUMBER_SIZE = 40  # point numbers: about 12 px tall at a 400 px wide view
SHADOW = 4  # room around a checker sprite for its shadow


@lru_cache(maxsize=32)
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's built-in scalable font (Aileron), so nothing has to be installed."""
    return ImageFont.load_default(size=size)


BANDS = 4
"""The empty board is drawn at SS x in this many horizontal bands, each reduced on its own:
the whole board at 3 x is 3840 x 2724 pixels (42 MB in Pillow, 56 MB at its peak with the
reduction), a band about a quarter of that, and the result is the same image."""
BAND_MARGIN = 4
"""Output rows drawn beyond each band's edges and cropped off after the reduction: more than
the LANCZOS filter's reach (3 source pixels of the output, i.e. 1 output row at SS = 3)."""


@lru_cache(maxsize=8)
def empty_board(theme: Theme, home: Home) -> Image.Image:
    """Frame, surface, triangles, bar, trays and point numbers, drawn at SS x and reduced."""
    out = Image.new("RGB", (WIDTH, HEIGHT), theme.frame)
    step = -(-HEIGHT // BANDS)
    for top in range(0, HEIGHT, step):
        bottom = min(HEIGHT, top + step)
        lo, hi = max(0, top - BAND_MARGIN), min(HEIGHT, bottom + BAND_MARGIN)
        big = Image.new("RGB", (WIDTH * SS, (hi - lo) * SS), theme.frame)
        _draw_empty(ImageDraw.Draw(big), theme, home, lo * SS)
        small = big.resize((WIDTH, hi - lo), Image.Resampling.LANCZOS)
        del big
        out.paste(small.crop((0, top - lo, WIDTH, bottom - lo)), (0, top))
    return out


def _draw_empty(draw: ImageDraw.ImageDraw, theme: Theme, home: Home, dy: int) -> None:
    """The empty board at SS x, shifted up by ``dy`` big pixels (one band of it)."""
    geo = board_geometry(home)

    def s(box: Box) -> tuple[int, int, int, int]:
        return box[0] * SS, box[1] * SS - dy, box[2] * SS - 1, box[3] * SS - 1 - dy

    edge = 2 * SS
    for half in (geo.left_half, geo.right_half):
        draw.rectangle(s(half), fill=theme.felt, outline=theme.frame_edge, width=edge)
    draw.rectangle(s(geo.bar), fill=theme.bar, outline=theme.frame_edge, width=edge)
    for tray in (geo.top_tray, geo.bottom_tray):
        draw.rounded_rectangle(
            s(tray), radius=8 * SS, fill=theme.tray, outline=theme.frame_edge, width=edge
        )
    for point in range(1, 25):
        colour = theme.point_odd if point % 2 else theme.point_even
        tri = [(x * SS, y * SS - dy) for x, y in geo.triangle(point)]
        draw.polygon(tri, fill=colour)
    # Re-draw the halves' outlines over the triangle bases.
    for half in (geo.left_half, geo.right_half):
        draw.rectangle(s(half), outline=theme.frame_edge, width=edge)
    font = ImageFont.load_default(size=NUMBER_SIZE * SS)
    for point in range(1, 25):
        x, y = geo.number_position(point)
        draw.text(
            (x * SS, y * SS - dy),
            str(point),
            font=font,
            fill=theme.numbers,
            anchor="mm",
            stroke_width=SS,
            stroke_fill=theme.numbers,
        )


def shrink(big: Image.Image) -> Image.Image:
    """A sprite drawn at SS x, reduced to its size (which antialiases it)."""
    return big.resize((big.width // SS, big.height // SS), Image.Resampling.LANCZOS)


@lru_cache(maxsize=16)
def checker_sprite(style: CheckerStyle) -> Image.Image:
    """A checker with a rim, a groove and a soft shadow; RGBA, centred."""
    size = CHECKER + 2 * SHADOW
    big = Image.new("RGBA", (size * SS, size * SS), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    c = size * SS // 2
    r = CHECKER * SS // 2
    shadow = Image.new("RGBA", big.size, (0, 0, 0, 0))
    ImageDraw.Draw(shadow).ellipse(
        (c - r + SS, c - r + 2 * SS, c + r + SS, c + r + 2 * SS), fill=(0, 0, 0, 110)
    )
    big = Image.alpha_composite(big, shadow.filter(ImageFilter.GaussianBlur(2 * SS)))
    draw = ImageDraw.Draw(big)
    draw.ellipse((c - r, c - r, c + r - 1, c + r - 1), fill=style.rim)
    inner = r - 3 * SS
    draw.ellipse((c - inner, c - inner, c + inner - 1, c + inner - 1), fill=style.fill)
    groove = round(r * 0.66)
    draw.ellipse(
        (c - groove, c - groove, c + groove - 1, c + groove - 1),
        outline=_mix(style.fill, style.rim, 0.55),
        width=2 * SS,
    )
    return shrink(big)


@lru_cache(maxsize=32)
def ghost_sprite(style: CheckerStyle, mark: Colour) -> Image.Image:
    """Where a checker was: a faint checker inside a dashed-looking ring of the mark colour."""
    sprite = checker_sprite(style).copy()
    alpha = sprite.getchannel("A").point(lambda a: a * 35 // 100)
    sprite.putalpha(alpha)
    ring = ring_sprite(mark, CHECKER - 4, 5)
    out = Image.new("RGBA", sprite.size, (0, 0, 0, 0))
    out.alpha_composite(sprite)
    out.alpha_composite(
        ring, ((sprite.width - ring.width) // 2, (sprite.height - ring.height) // 2)
    )
    return out


@lru_cache(maxsize=32)
def ring_sprite(colour: Colour, diameter: int, width: int) -> Image.Image:
    """A ring of the colour with a dark edge, so it shows on any checker or felt."""
    size = diameter + 4
    big = Image.new("RGBA", (size * SS, size * SS), (0, 0, 0, 0))
    c = size * SS // 2
    r = diameter * SS // 2
    draw = ImageDraw.Draw(big)
    dark = (0, 0, 0, 160)
    draw.ellipse(
        (c - r - SS, c - r - SS, c + r + SS, c + r + SS), outline=dark, width=(width + 2) * SS
    )
    draw.ellipse((c - r, c - r, c + r, c + r), outline=(*colour, 255), width=width * SS)
    return shrink(big)


@lru_cache(maxsize=32)
def dot_sprite(colour: Colour, diameter: int) -> Image.Image:
    """Where a checker arrived: a dot of the mark colour on a dark disc."""
    size = diameter + 6
    big = Image.new("RGBA", (size * SS, size * SS), (0, 0, 0, 0))
    c = size * SS // 2
    r = diameter * SS // 2
    draw = ImageDraw.Draw(big)
    draw.ellipse(
        (c - r - 2 * SS, c - r - 2 * SS, c + r + 2 * SS, c + r + 2 * SS), fill=(0, 0, 0, 200)
    )
    draw.ellipse((c - r, c - r, c + r, c + r), fill=(*colour, 255))
    return shrink(big)


@lru_cache(maxsize=8)
def hit_sprite(colour: Colour) -> Image.Image:
    """A hit: a white cross on a disc of the hit colour."""
    size = 40
    big = Image.new("RGBA", (size * SS, size * SS), (0, 0, 0, 0))
    c = size * SS // 2
    r = 17 * SS
    draw = ImageDraw.Draw(big)
    draw.ellipse(
        (c - r - 2 * SS, c - r - 2 * SS, c + r + 2 * SS, c + r + 2 * SS), fill=(0, 0, 0, 220)
    )
    draw.ellipse((c - r, c - r, c + r, c + r), fill=(*colour, 255))
    a = 8 * SS
    for (x0, y0), (x1, y1) in (((c - a, c - a), (c + a, c + a)), ((c - a, c + a), (c + a, c - a))):
        draw.line((x0, y0, x1, y1), fill=(255, 255, 255, 255), width=5 * SS)
    return shrink(big)


@lru_cache(maxsize=16)
def triangle_sprite(colour: Colour, *, top: bool) -> tuple[Image.Image, Image.Image]:
    """A translucent tint over a point's triangle: (colour image, mask), at the point's box."""
    big = Image.new("L", (POINT_W * SS, POINT_LEN * SS), 0)
    tip = (POINT_LEN - CHECKER // 3) * SS
    if top:
        poly = [(0, 0), (POINT_W * SS - 1, 0), (POINT_W * SS // 2, tip)]
    else:
        h = POINT_LEN * SS - 1
        poly = [(0, h), (POINT_W * SS - 1, h), (POINT_W * SS // 2, h - tip)]
    ImageDraw.Draw(big).polygon(poly, fill=170)
    mask = big.resize((POINT_W, POINT_LEN), Image.Resampling.LANCZOS)
    return Image.new("RGB", mask.size, colour), mask


@lru_cache(maxsize=8)
def frame_sprite(colour: Colour, w: int, h: int) -> Image.Image:
    """A highlight around a tray (bearing off is a target)."""
    big = Image.new("RGBA", (w * SS, h * SS), (0, 0, 0, 0))
    ImageDraw.Draw(big).rounded_rectangle(
        (0, 0, w * SS - 1, h * SS - 1), radius=8 * SS, outline=(*colour, 255), width=6 * SS
    )
    return shrink(big)


@lru_cache(maxsize=8)
def slab_sprite(style: CheckerStyle) -> Image.Image:
    """A borne-off checker seen edge-on, in its tray."""
    w = TRAY_W - 24
    big = Image.new("RGBA", (w * SS, SLAB_H * SS), (0, 0, 0, 0))
    ImageDraw.Draw(big).rounded_rectangle(
        (0, 0, w * SS - 1, SLAB_H * SS - 1),
        radius=5 * SS,
        fill=style.fill,
        outline=style.rim,
        width=2 * SS,
    )
    return shrink(big)


# Pip positions on a die, in thirds of its face.
_PIPS = {
    1: [(1, 1)],
    2: [(0, 0), (2, 2)],
    3: [(0, 0), (1, 1), (2, 2)],
    4: [(0, 0), (2, 0), (0, 2), (2, 2)],
    5: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)],
    6: [(0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)],
}


@lru_cache(maxsize=64)
def die_sprite(style: CheckerStyle, value: int, faded: bool) -> Image.Image:
    """A die in the colours of its side's checkers; ``faded`` once it has been played."""
    size = DIE + 2 * SHADOW
    big = Image.new("RGBA", (size * SS, size * SS), (0, 0, 0, 0))
    o = SHADOW * SS
    d = DIE * SS
    shadow = Image.new("RGBA", big.size, (0, 0, 0, 0))
    ImageDraw.Draw(shadow).rounded_rectangle(
        (o + SS, o + 2 * SS, o + d + SS, o + d + 2 * SS), radius=12 * SS, fill=(0, 0, 0, 120)
    )
    big = Image.alpha_composite(big, shadow.filter(ImageFilter.GaussianBlur(2 * SS)))
    draw = ImageDraw.Draw(big)
    draw.rounded_rectangle(
        (o, o, o + d - 1, o + d - 1),
        radius=12 * SS,
        fill=style.fill,
        outline=style.rim,
        width=3 * SS,
    )
    pip = 6 * SS
    for col, row in _PIPS[value]:
        x = o + d * (col + 1) // 4
        y = o + d * (row + 1) // 4
        draw.ellipse((x - pip, y - pip, x + pip, y + pip), fill=style.ink)
    sprite = shrink(big)
    if faded:
        sprite.putalpha(sprite.getchannel("A").point(lambda a: a * 40 // 100))
    return sprite


def _mix(a: Colour, b: Colour, t: float) -> Colour:
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )
