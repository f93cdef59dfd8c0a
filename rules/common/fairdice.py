"""Provably fair dice: commit to a secret seed, mix in a value nobody controls, reveal after.

Standard library only, so anyone can run it::

    python -m rules.common.fairdice --seed <64 hex digits> --mix <value> --count 20 \
        [--commitment <64 hex digits>]

The derivation (version 1), precisely:

* ``seed`` is 32 random bytes, written as 64 lower-case hex digits. Before the match, the server
  publishes ``commitment = SHA-256(seed)`` (hex of the digest of the 32 raw bytes).
* ``mix`` is a text chosen after the commitment by something the server does not control
  (the Telegram id of the accepting tap). It is encoded as UTF-8.
* Block ``j`` (``j = 0, 1, 2, ...``) is ``HMAC-SHA256(key=seed, msg=mix + ":" + str(j))``, the
  counter written in decimal ASCII (``"abc:0"``, ``"abc:1"``, ...): 32 bytes per block.
* The bytes of block 0, then block 1, and so on, are read in order. A byte ``b < 252`` gives the
  die ``b % 6 + 1``; a byte ``b >= 252`` is skipped (rejection sampling: 252 = 6 x 42, so every
  face comes from exactly 42 byte values and the dice are exactly uniform).
* Die number ``n`` of the match (0-based) is the ``n``-th die of that stream. The match draws
  every die from it in order: opening rolls (one die each: player 0's first), tied openings
  rolled again, then each turn's two dice, across every game of the match.

Test vector: seed ``000102...1f`` (the bytes 0 to 31), mix ``"portes"``; the first 20 dice are
1 5 2 2 2 3 3 4 2 3 1 5 5 5 3 6 1 3 3 3 (:data:`TEST_VECTOR`). Block 0 is
``84ee55eb...``: 0x84 = 132 gives 132 % 6 + 1 = 1, 0xee = 238 gives 5, 0x55 = 85 gives 2, ...
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

ACCEPT_BELOW = 252
"""Bytes 0-251 are dice (``b % 6 + 1``); 252-255 are skipped."""
SEED_BYTES = 32

TEST_VECTOR_SEED = bytes(range(32)).hex()
TEST_VECTOR_MIX = "portes"
TEST_VECTOR_COMMITMENT = "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
TEST_VECTOR: tuple[int, ...] = (1, 5, 2, 2, 2, 3, 3, 4, 2, 3, 1, 5, 5, 5, 3, 6, 1, 3, 3, 3)
"""The first 20 dice for :data:`TEST_VECTOR_SEED` and :data:`TEST_VECTOR_MIX`."""


def commitment(seed: bytes | str) -> str:
    """The public commitment to a seed: hex SHA-256 of its raw bytes (hex text accepted)."""
    return hashlib.sha256(_seed_bytes(seed)).hexdigest()


def verify_commitment(seed: bytes | str, expected: str) -> bool:
    """True when ``seed`` hashes to the commitment ``expected`` (hex, any case)."""
    return hmac.compare_digest(commitment(seed), expected.strip().lower())


def new_seed() -> bytes:
    """A fresh secret seed from :mod:`secrets`."""
    import secrets

    return secrets.token_bytes(SEED_BYTES)


def _seed_bytes(seed: bytes | str) -> bytes:
    if isinstance(seed, str):
        try:
            return bytes.fromhex(seed.strip())
        except ValueError as exc:
            raise ValueError("the seed must be hex digits") from exc
    return bytes(seed)


def _mix_bytes(mix: str | bytes) -> bytes:
    return mix.encode("utf-8") if isinstance(mix, str) else bytes(mix)


def block(seed: bytes | str, mix: str | bytes, counter: int) -> bytes:
    """Block ``counter`` of the stream: HMAC-SHA256(seed, mix ":" counter)."""
    msg = _mix_bytes(mix) + b":" + str(counter).encode("ascii")
    return hmac.new(_seed_bytes(seed), msg, hashlib.sha256).digest()


def dice_from_bytes(data: bytes) -> list[int]:
    """The dice a run of stream bytes yields (bytes >= 252 skipped)."""
    return [b % 6 + 1 for b in data if b < ACCEPT_BELOW]


def stream(seed: bytes | str, mix: str | bytes) -> Iterator[int]:
    """Every die of the sequence, in order (endless)."""
    key, msg = _seed_bytes(seed), _mix_bytes(mix) + b":"
    counter = 0
    while True:
        digest = hmac.new(key, msg + str(counter).encode("ascii"), hashlib.sha256).digest()
        yield from dice_from_bytes(digest)
        counter += 1


class FairDice:
    """A :class:`rules.common.dice.DiceSource`: ``die(n)`` is the n-th die of the fair stream.

    Dice are derived a block at a time and cached, so ``die(n)`` is O(1) once derived and each
    block is computed once per instance.
    """

    def __init__(self, seed: bytes | str, mix: str | bytes) -> None:
        self.seed = _seed_bytes(seed)
        if not self.seed:
            raise ValueError("the seed is empty")
        self.mix = _mix_bytes(mix)
        self._dice: list[int] = []
        self._blocks = 0
        self._msg = self.mix + b":"

    def die(self, index: int) -> int:
        if index < 0:
            raise IndexError("die index must be >= 0")
        dice = self._dice
        while len(dice) <= index:
            digest = hmac.new(
                self.seed, self._msg + str(self._blocks).encode("ascii"), hashlib.sha256
            ).digest()
            dice.extend(b % 6 + 1 for b in digest if b < ACCEPT_BELOW)
            self._blocks += 1
        return dice[index]

    def dice(self, count: int) -> list[int]:
        """The first ``count`` dice."""
        if count > 0:
            self.die(count - 1)
        return self._dice[:count]

    @property
    def commitment(self) -> str:
        return commitment(self.seed)


Roll = tuple[int, int]


@dataclass(frozen=True)
class GameRolls:
    """One game's share of the match's dice, in the order they were drawn."""

    ties: tuple[Roll, ...]
    """Tied opening rolls (player 0's die, player 1's), rolled again."""
    opening: Roll
    """The opening roll: player 0's die, player 1's. The higher one starts and plays both."""
    rolls: tuple[Roll, ...]
    """The rolls after the opening, two dice each (die 1, die 2), in order."""
    winner_rolls: bool = False
    """The café habit: the previous game's winner started with a roll of his own (``opening``,
    both dice his, maybe a double), not an opening roll of one die each."""

    @property
    def first(self) -> Roll:
        """The first roll as the starter plays it: the higher die first (a winner's roll as
        rolled)."""
        a, b = self.opening
        return (a, b) if a > b or self.winner_rolls else (b, a)


def games_of(
    dice: Sequence[int], rolls_after_opening: Sequence[int], winner_rolls: Sequence[bool] = ()
) -> list[GameRolls]:
    """Split a match's dice into its games, the way the match draws them: each game opens with
    one die each (a tie is rolled again), then ``rolls_after_opening[g]`` rolls of two dice
    (one for each turn after the first, a pass included, and one more for a game resigned on
    a roll). The last game takes every die left, so its count may be left out.

    ``winner_rolls[g]`` true: game ``g`` began the café way, the previous game's winner rolling
    both dice (no opening roll, no ties: a double is his to play)."""
    pairs = [(dice[i], dice[i + 1]) for i in range(0, len(dice) - 1, 2)]
    games: list[GameRolls] = []
    at = 0
    while at < len(pairs):
        ties: list[Roll] = []
        cafe = len(games) < len(winner_rolls) and winner_rolls[len(games)]
        while not cafe and at < len(pairs) - 1 and pairs[at][0] == pairs[at][1]:
            ties.append(pairs[at])
            at += 1
        opening = pairs[at]
        at += 1
        g = len(games)
        end = at + rolls_after_opening[g] if g < len(rolls_after_opening) else len(pairs)
        games.append(GameRolls(tuple(ties), opening, tuple(pairs[at:end]), cafe))
        at = end
    return games


def _format(dice: Sequence[int], pairs: bool) -> str:
    if not pairs:
        return " ".join(str(d) for d in dice)
    return " ".join(
        f"{dice[i]}-{dice[i + 1]}" if i + 1 < len(dice) else str(dice[i])
        for i in range(0, len(dice), 2)
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m rules.common.fairdice",
        description="Recompute a Portes match's dice from its revealed seed and mixed-in value.",
    )
    parser.add_argument("--seed", required=True, help="the revealed seed, hex")
    parser.add_argument("--mix", required=True, help="the mixed-in value, as shown by the bot")
    parser.add_argument("--count", type=int, default=20, help="how many dice (default 20)")
    parser.add_argument("--commitment", help="the commitment shown before the match, hex")
    parser.add_argument("--pairs", action="store_true", help="print the dice two by two")
    args = parser.parse_args(argv)
    if args.count < 0:
        parser.error("--count must be >= 0")
    try:
        source = FairDice(args.seed, args.mix)
    except ValueError as exc:
        parser.error(str(exc))
    status = 0
    if args.commitment is not None:
        if verify_commitment(source.seed, args.commitment):
            print(f"commitment OK: sha256(seed) = {source.commitment}")
        else:
            print(
                f"commitment MISMATCH: sha256(seed) = {source.commitment}, "
                f"expected {args.commitment.strip().lower()}",
                file=sys.stderr,
            )
            status = 1
    print(_format(source.dice(args.count), args.pairs))
    return status


if __name__ == "__main__":
    sys.exit(main())
