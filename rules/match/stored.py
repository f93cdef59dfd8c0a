"""A match's stored form: a JSON object, written and read back exactly.

Reading never trusts what it reads: anything missing, mistyped or inconsistent (a bad player, a
move no die makes, a match in play without dice, a partial turn the rules would refuse) is a
:class:`~rules.common.errors.CorruptState`.
"""

from __future__ import annotations

import json
from typing import Any, TypeVar

from rules.common.dice import Dice
from rules.common.errors import CorruptState, IllegalPlay, InvalidAction
from rules.common.scoring import GameKind, GameResult
from rules.game import GAMES, KINDS, Game
from rules.match.state import MATCH_LENGTHS, LastPlay, MatchState, Phase
from rules.portes.board import Position
from rules.portes.moves import Move
from rules.steps.board import NO_PINS, StepsPosition, Variant
from rules.steps.options import RuleOptions

FORMAT_VERSION = 1
FORMAT_VERSION_GAMES = 2
"""Written instead of :data:`FORMAT_VERSION` by a match of another game than Portes (its extra
fields: ``game_type``, ``game_key``, ``pins``, ``options``, ``winner_starts``, a 6th item in a
result), so that a reader that knows only Portes refuses it instead of misreading it. A Portes
match is written exactly as before.

The game being played was written as ``variant`` before it was called ``game_key`` (a variant
is one route of a checker now): such rows are still read; they are written with ``game_key``."""

OLD_GAME_KEY = "variant"
"""The key the game being played had in rows written before it was ``game_key`` (read only)."""

State = TypeVar("State", bound=MatchState)

# -- writing ----------------------------------------------------------------------------------


def _move_list(moves: tuple[Move, ...]) -> list[list[int]]:
    return [[m.from_point, m.to_point, m.die, int(m.hit)] for m in moves]


def _last_play_object(last: LastPlay | None) -> dict[str, Any] | None:
    if last is None:
        return None
    return {
        "player": last.player,
        "dice": list(last.dice),
        "moves": _move_list(last.moves),
        "text": last.text,
    }


def match_to_dict(match: MatchState) -> dict[str, Any]:
    """The match as a JSON-able object (see :data:`FORMAT_VERSION`)."""
    out: dict[str, Any] = {
        "format": FORMAT_VERSION,
        "length": match.length,
        "no_triple": match.no_triple,
        "phase": match.phase.value,
        "score": list(match.score),
        "game": match.game,
        "turn": match.turn,
        "turn_number": match.turn_number,
        "board": list(match.position.board),
        "dice": list(match.dice) if match.dice else None,
        "chosen": _move_list(match.chosen),
        "dice_drawn": match.dice_drawn,
        "opening": list(match.opening) if match.opening else None,
        "last_play": _last_play_object(match.last_play),
        "resign_offer": match.resign_offer,
        "plays_made": match.plays_made,
        "results": [_result_list(r) for r in match.results],
        "winner": match.winner,
        "end_reason": match.end_reason,
    }
    extra = _game_fields(match)
    if extra or any(r.game_key != Variant.PORTES for r in match.results):
        out.update(extra, format=FORMAT_VERSION_GAMES)
    return out


def _result_list(r: GameResult) -> list[Any]:
    out: list[Any] = [r.game, r.winner, r.kind.value, r.points, int(r.resigned)]
    return out if r.game_key == Variant.PORTES else [*out, r.game_key]


def _game_fields(match: MatchState) -> dict[str, Any]:
    """The fields of the other games, written only when not Portes's (a Portes match's stored
    form is as it was before them)."""
    out: dict[str, Any] = {}
    if match.game_type != Variant.PORTES or match.game_key != Variant.PORTES:
        out["game_type"] = match.game_type
        out["game_key"] = match.game_key
    position = match.position
    if isinstance(position, StepsPosition) and any(position.pins):
        out["pins"] = list(position.pins)
    if match.options != RuleOptions():
        out["options"] = match.options.to_dict()
    if match.winner_starts:
        out["winner_starts"] = True
    return out


def match_to_json(match: MatchState) -> str:
    """The match as compact JSON with sorted keys (the same match always gives the same text)."""
    return json.dumps(match_to_dict(match), separators=(",", ":"), sort_keys=True)


# -- reading ----------------------------------------------------------------------------------


def match_from_dict(cls: type[State], data: Any) -> State:
    """Read :func:`match_to_dict`'s object back as a ``cls``; :class:`CorruptState` if it is not
    one."""
    try:
        return _read(cls, data)
    except CorruptState:
        raise
    except (KeyError, TypeError, ValueError, IndexError, AttributeError, InvalidAction) as exc:
        raise CorruptState(f"The stored match state cannot be read: {exc!r}") from exc


def match_from_json(cls: type[State], text: str | bytes) -> State:
    """Read :func:`match_to_json`'s text back as a ``cls``; :class:`CorruptState` if it is not
    one."""
    try:
        data = json.loads(text)
    except (ValueError, TypeError) as exc:
        raise CorruptState(f"The stored match state is not JSON: {exc}") from exc
    return match_from_dict(cls, data)


def _player(value: Any) -> int:
    if value not in (0, 1) or isinstance(value, bool):
        raise ValueError(f"bad player {value!r}")
    return int(value)


def _moves(raw: Any) -> tuple[Move, ...]:
    out = []
    for item in raw:
        src, dest, die, hit = (int(x) for x in item)
        if not (0 <= dest < src <= 25 and 1 <= die <= 6):
            raise ValueError(f"bad move {item!r}")
        out.append(Move(src, dest, die, bool(hit)))
    return tuple(out)


def _dice(raw: Any) -> Dice | None:
    return None if raw is None else Dice.of(int(raw[0]), int(raw[1]))


def _last_play(last: Any) -> LastPlay | None:
    if not last:
        return None
    return LastPlay(
        _player(last["player"]),
        Dice.of(*last["dice"]),
        _moves(last["moves"]),
        str(last["text"]),
    )


def _results(raw: Any) -> tuple[GameResult, ...]:
    out = []
    for item in raw:
        g, w, k, p, r = item[:5]
        game_key = _game(item[5] if len(item) > 5 else Variant.PORTES).key
        out.append(GameResult(int(g), _player(w), GameKind(k), int(p), bool(r), game_key))
    return tuple(out)


def _game(key: Any) -> Game:
    game = GAMES.get(str(key))
    if game is None:
        raise CorruptState(f"Unknown game {key!r}")
    return game


def _position(data: dict[str, Any], game_key: str) -> Position:
    board = [int(x) for x in data["board"]]
    return _game(game_key).board(board, [int(x) for x in data.get("pins", NO_PINS)])


def _read(cls: type[State], data: Any) -> State:
    if not isinstance(data, dict):
        raise CorruptState("The stored match state is not an object")
    version = data.get("format")
    if version not in (FORMAT_VERSION, FORMAT_VERSION_GAMES):
        raise CorruptState(f"Unknown match state format {version!r}")
    last = data["last_play"]
    opening = data["opening"]
    score = data["score"]
    winner = data["winner"]
    game_key = _game(data.get("game_key", data.get(OLD_GAME_KEY, Variant.PORTES))).key
    game_type = str(data.get("game_type", Variant.PORTES))
    if game_type not in KINDS:
        raise CorruptState(f"Unknown game {game_type!r}")
    match = cls(
        length=int(data["length"]),
        no_triple=bool(data["no_triple"]),
        phase=Phase(data["phase"]),
        score=(int(score[0]), int(score[1])),
        game=int(data["game"]),
        turn=_player(data["turn"]),
        turn_number=int(data["turn_number"]),
        position=_position(data, game_key),
        dice=_dice(data["dice"]),
        chosen=_moves(data["chosen"]),
        dice_drawn=int(data["dice_drawn"]),
        opening=(int(opening[0]), int(opening[1])) if opening else None,
        last_play=_last_play(last),
        resign_offer=int(data["resign_offer"]),
        plays_made=int(data["plays_made"]),
        results=_results(data["results"]),
        winner=None if winner is None else _player(winner),
        end_reason=data["end_reason"],
        game_type=game_type,
        game_key=game_key,
        options=RuleOptions.from_dict(dict(data.get("options", {}))),
        winner_starts=bool(data.get("winner_starts", False)),
    )
    _check(match)
    return match


def _check(match: MatchState) -> None:
    """What each field allows alone is read above; these are the rules across fields."""
    if match.length not in MATCH_LENGTHS:
        raise CorruptState(f"Bad match length {match.length}")
    if match.phase == Phase.PLAYING and match.dice is None:
        raise CorruptState("A match in play has no dice")
    if match.chosen:
        try:
            match.turn_input().next_moves(match.chosen)
        except IllegalPlay as exc:
            raise CorruptState(f"The stored partial turn is not legal: {exc}") from exc
