"""Move text in Plakoto, Fevga and Long Nardy: printing a play, reading what players type.

The text is Portes's (:mod:`rules.common.movetext`): ``24/18 13/11``, ``6/off``, ``8/5(2)``,
``24/13``,
with the points in the mover's own numbering; in Plakoto a ``*`` marks a pin (``13/7*``), as it
marks a hit in Portes. Reading takes the same lenient forms as Portes (:func:`rules.portes.notation.
parse_hops`) and never guesses: when text reads as several legal plays with different results,
the one that pins exactly where stars are written is taken, else it is refused as ambiguous.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.common.dice import Dice
from rules.common.errors import AmbiguousPlay, IllegalPlay, InvalidNotation, UnreadablePlay
from rules.common.movetext import checker_paths, format_moves
from rules.portes.board import OFF
from rules.portes.legal import Play
from rules.portes.moves import Move
from rules.portes.notation import Hop, parse_hops
from rules.steps.board import StepsPosition
from rules.steps.legal import legal_finals
from rules.steps.options import RuleOptions
from rules.steps.singles import Key, State, Steps, stepper

PASS_WORDS = ("-", "pass", "no move")

Reading = dict[Key, tuple[tuple[Move, ...], bool]]


def format_steps_play(
    position: StepsPosition,
    dice: Dice | tuple[int, int],
    moves: Sequence[Move],
    options: RuleOptions | None = None,
) -> str:
    """Text of a play that reads back as exactly this play (the short form when it does)."""
    moves = pins_made(position, dice, moves, options)
    text = format_moves(moves)
    if len(checker_paths(moves)) == len(moves):
        return text
    try:
        parsed = parse_steps_play(position, dice, text, options).position
        assert isinstance(parsed, StepsPosition)
        if _result(position, dice, moves, options) == (parsed.board, parsed.pins):
            return text
    except InvalidNotation:
        pass
    return format_moves(moves, full_path=True)


def pins_made(
    position: StepsPosition,
    dice: Dice | tuple[int, int],
    moves: Sequence[Move],
    options: RuleOptions | None = None,
) -> tuple[Move, ...]:
    """The moves with the ``*`` (``Move.hit``) only where the play leaves a pin it made: in
    Plakoto a checker that lands on a lone checker and goes on with the next die only passed
    over it (``12/7/5``, not ``12/7*/5``). A point pinned at the end is marked once, on the move
    that stays there (the last to land there, if none stays)."""
    if not any(m.hit for m in moves):
        return tuple(moves)
    pins = _result(position, dice, moves, options)[1]
    made = {p for p, mark in enumerate(pins) if mark == -1 and position.pins[p] != -1}
    chains: list[list[int]] = []  # the moves' indices, a checker's path each (checker_paths)
    for i, move in enumerate(moves):
        chain = next((c for c in chains if moves[c[-1]].to_point == move.from_point
                      and move.from_point != OFF), None)
        if chain is None:
            chains.append([i])
        else:
            chain.append(i)
    ends = {chain[-1] for chain in chains}
    keep = set()
    for point in made:
        landing = [i for i, m in enumerate(moves) if m.to_point == point]
        staying = [i for i in landing if i in ends]
        keep.add((staying or landing)[-1])
    return tuple(m._replace(hit=i in keep) for i, m in enumerate(moves))


def _result(
    position: StepsPosition,
    dice: Dice | tuple[int, int],
    moves: Sequence[Move],
    options: RuleOptions | None,
) -> Key:
    st = stepper(position, (dice[0], dice[1]), options)
    state = st.initial()
    for move in moves:
        state = next(a for m, a in st.steps(state, move.die) if m[:2] == tuple(move[:2]))
    return (state[0], state[1])


def _realisations(st: Steps, dice: Dice, hops: list[Hop], finals: dict[Key, int] | None) -> Reading:
    """Every way the hops can be played with the dice, by result (legal plays only with
    ``finals``)."""
    results: Reading = {}
    seen: set[object] = set()

    def walk(state: State, remaining: tuple[int, ...], cursors: tuple[int, ...],
             moves: tuple[Move, ...], literal: bool) -> None:
        mark = (state, remaining, literal, tuple(sorted(zip(cursors, range(len(hops)),
                                                            strict=True))))
        if mark in seen:
            return
        seen.add(mark)
        if all(c == hop.end for c, hop in zip(cursors, hops, strict=True)):
            key = (state[0], state[1])
            known = results.get(key)
            legal = finals is None or finals.get(key) == len(moves)
            if legal and (known is None or literal > known[1]):
                results[key] = (moves, literal)
            return
        if st.terminal(state):
            return
        for i, die in enumerate(remaining):
            if die in remaining[:i]:
                continue
            rest = remaining[:i] + remaining[i + 1 :]
            for raw, after in st.steps(state, die):
                move = Move(*raw)
                for h, hop in enumerate(hops):
                    if cursors[h] != move.from_point or cursors[h] == hop.end:
                        continue
                    if move.to_point == OFF and hop.end != OFF:
                        continue
                    if move.to_point != OFF and hop.end != OFF and move.to_point < hop.end:
                        continue
                    written = not move.hit or (move.to_point == hop.end and hop.star)
                    walk(after, rest, (*cursors[:h], move.to_point, *cursors[h + 1 :]),
                         (*moves, move), literal and written)

    if len(hops) <= len(dice.values()):
        walk(st.initial(), dice.values(), tuple(h.start for h in hops), (), True)
    return results


def parse_steps_play(
    position: StepsPosition,
    dice: Dice | tuple[int, int],
    text: str,
    options: RuleOptions | None = None,
) -> Play:
    """Read a whole play typed by a player (see the module's text); the errors are
    :func:`rules.portes.notation.parse_play`'s."""
    roll = Dice(*dice)
    cleaned = " ".join(text.replace(",", " ").split())
    finals = legal_finals(position, roll, options)
    if cleaned.lower() in (*PASS_WORDS, ""):
        if (position.board, position.pins) in finals and len(finals) == 1:
            return Play((), position)
        if not cleaned:
            raise InvalidNotation("No move given: write it like 24/18 13/11")
        raise IllegalPlay(f"You can move with {roll}: passing is not allowed")
    hops = parse_hops(cleaned)
    st = stepper(position, (roll.die1, roll.die2), options)
    found = _realisations(st, roll, hops, finals)
    if len(found) > 1:
        literal = {k: r for k, r in found.items() if r[1]}
        found = literal if len(literal) == 1 else found
    if len(found) == 1:
        ((key, (moves, _)),) = found.items()
        return Play(moves, StepsPosition.make(position.variant, key[0], key[1]))
    if found:
        readings = tuple(format_moves(m, full_path=True) for m, _ in found.values())
        raise AmbiguousPlay(
            f"{cleaned} could mean {' or '.join(readings)}: write the whole path", readings
        )
    if _realisations(st, roll, hops, None):
        raise IllegalPlay(
            f"{cleaned} is not a whole play with {roll}: you must play as many dice "
            "as you can (and the larger one if only one can be played)"
        )
    raise UnreadablePlay(f"{cleaned} could not be read as a legal play with {roll}")
