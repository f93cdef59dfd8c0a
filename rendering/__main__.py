"""Draw a board from the command line, for people and for review.

python -m rendering --position-id 4HPwATDgc/ABMA --dice 6 5 -o board.png
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from rendering.board import ImageFormat, render_board
from rendering.theme import THEMES
from rules.common.errors import PortesError
from rules.portes.notation import parse_hops
from rules.position import BAR, OFF, Move, Position


def _moves(text: str | None) -> list[Move]:
    """Move text (``24/18 13/11*``, ``bar/22``, ``6/off``) as single moves, without checking them
    against a position: the board drawn is the one after the play."""
    if not text:
        return []
    moves = []
    for hop in parse_hops(text):
        start = 25 if hop.start == BAR else hop.start
        die = start - hop.end if hop.end != OFF else min(start, 6)
        moves.append(Move(hop.start, hop.end, die, hop.star))
    return moves


def _point(text: str) -> int:
    word = text.lower()
    if word == "bar":
        return BAR
    if word == "off":
        return OFF
    return int(word)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m rendering",
        description="Draw a Portes board image.",
    )
    parser.add_argument(
        "--position-id",
        default=None,
        help="GNU Backgammon Position ID, from the side on roll (default: the starting position)",
    )
    parser.add_argument(
        "--dice", type=int, nargs=2, metavar="D", help="the roll of the side on roll"
    )
    parser.add_argument(
        "--opening",
        type=int,
        nargs=2,
        metavar="D",
        help="the opening roll instead: the viewer's die, then the opponent's",
    )
    parser.add_argument(
        "--perspective",
        choices=("on-roll", "other"),
        default="on-roll",
        help="draw the board for the side on roll (default) or for the other side",
    )
    parser.add_argument("--theme", choices=sorted(THEMES), default="classic")
    parser.add_argument(
        "--color", choices=("white", "black"), default="white", help="the viewer's checkers"
    )
    parser.add_argument(
        "--home", choices=("right", "left"), default="right", help="the viewer's home board side"
    )
    parser.add_argument(
        "--last-play",
        metavar="MOVES",
        help='the last play, by the side not on roll, in its numbering: "24/18 13/11*"',
    )
    parser.add_argument(
        "--moves", metavar="MOVES", help="moves already made this turn by the side on roll"
    )
    parser.add_argument(
        "--chosen", type=_point, metavar="POINT", help="the checker picked (or bar)"
    )
    parser.add_argument(
        "--targets", type=_point, nargs="+", default=[], metavar="POINT", help="points (or off)"
    )
    parser.add_argument(
        "--score", type=int, nargs=3, metavar="N", help="viewer's score, opponent's, match length"
    )
    parser.add_argument("--no-pips", action="store_true", help="leave the pip counts out")
    parser.add_argument("--format", choices=("png", "jpeg"), help="default: from the file name")
    parser.add_argument("-o", "--output", type=Path, required=True, help="the image file to write")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        position = Position.from_id(args.position_id) if args.position_id else Position.start()
        last_play = _moves(args.last_play)
        moves_made = _moves(args.moves)
    except (PortesError, ValueError) as exc:
        parser.error(str(exc))
    on_roll = args.perspective == "on-roll"
    image_format: ImageFormat = "png" if args.output.suffix.lower() == ".png" else "jpeg"
    if args.format:
        image_format = "png" if args.format == "png" else "jpeg"
    try:
        data = render_board(
            position if on_roll else position.flip(),
            viewer_on_roll=on_roll,
            viewer_color=args.color,
            dice=tuple(args.dice) if args.dice else None,
            opening_roll=tuple(args.opening) if args.opening else None,
            last_play=last_play,
            last_play_by="opponent" if on_roll else "viewer",
            moves_made=moves_made if on_roll else (),
            chosen_point=args.chosen,
            targets=args.targets,
            score=tuple(args.score) if args.score else None,
            show_pips=not args.no_pips,
            theme=THEMES[args.theme],
            home=args.home,
            image_format=image_format,
        )
    except ValueError as exc:
        parser.error(str(exc))
    args.output.write_bytes(data)
    print(f"{args.output}: {len(data) // 1024} KB", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
