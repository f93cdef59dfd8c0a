"""A strength run's games kept on disk, so that a run of 1,000 games can be stopped and resumed
(``bench/steps_strength.py --record DIR``), across sessions and machines.

One JSON line per file describes what was played, then one per game::

    {"game": "plakoto", "a": "strong", "b": "medium", "seed": 1, "code": "<sha256>"}
    {"i": 17, "points": 1.0, "a": [[wall, cpu], ...], "b": [[wall, cpu], ...]}

``code`` is a digest of everything that decides the games (the ``computer`` and ``rules``
packages' sources and the game's net): games played by other code are not the same experiment,
so a record whose digest differs is refused rather than mixed in. Think times are kept in
tenths of a millisecond. A line cut short by a killed run is dropped on reading (that game is
played again).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

Think = tuple[float, float]
"""One decision's thinking time in ms: wall clock, and the CPU time of the thread (what the
search itself cost; the difference is the machine's other work)."""

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Game:
    index: int
    points: float
    think_a: list[Think]
    think_b: list[Think]


def code_digest(game: str) -> str:
    """What decides a game of ``game``: the sources of ``computer`` and ``rules``, and its net."""
    digest = hashlib.sha256()
    files = sorted((ROOT / "computer").rglob("*.py")) + sorted((ROOT / "rules").rglob("*.py"))
    net = ROOT / "computer" / "nets" / f"{game}.npz"
    for path in [*files, net] if net.exists() else files:
        digest.update(str(path.relative_to(ROOT)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def _times(values: list[Think]) -> list[list[int]]:
    return [[round(wall * 10), round(cpu * 10)] for wall, cpu in values]


def _read_times(values: list[list[int]]) -> list[Think]:
    return [(wall / 10, cpu / 10) for wall, cpu in values]


@dataclass
class Record:
    path: Path
    games: list[Game] = field(default_factory=list)

    @classmethod
    def open(cls, path: Path, game: str, levels: tuple[str, str], seed: int) -> Record:
        """The record at ``path``, started if it does not exist; refused (``SystemExit``) if it
        holds another experiment."""
        header = {"game": str(game), "a": levels[0], "b": levels[1], "seed": seed,
                  "code": code_digest(str(game))}
        record = cls(path)
        if not path.exists() or path.stat().st_size == 0:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(header) + "\n")
            return record
        text = path.read_text()
        lines = text.splitlines()
        first = json.loads(lines[0])
        if first != header:
            differs = sorted(k for k in header if first.get(k) != header[k])
            raise SystemExit(f"{path} holds another experiment ({', '.join(differs)} differ): "
                             "give another --record directory, or remove the file")
        seen: set[int] = set()
        for line in lines[1:]:
            try:
                item = json.loads(line)
            except json.JSONDecodeError:
                continue  # the last line of a killed run
            if item["i"] in seen:
                continue
            seen.add(item["i"])
            record.games.append(Game(item["i"], float(item["points"]),
                                     _read_times(item["a"]), _read_times(item["b"])))
        if not text.endswith("\n"):
            with path.open("a") as out:
                out.write("\n")  # so that the next game starts a line of its own
        return record

    def add(self, game: Game) -> None:
        self.games.append(game)
        line = {"i": game.index, "points": game.points, "a": _times(game.think_a),
                "b": _times(game.think_b)}
        with self.path.open("a") as out:
            out.write(json.dumps(line, separators=(",", ":")) + "\n")
