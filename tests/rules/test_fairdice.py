"""Provably fair dice: the documented derivation, its test vector, and its uniformity."""

from __future__ import annotations

import hashlib
import hmac
import subprocess
import sys
from collections import Counter

import pytest

from rules.common import fairdice
from rules.common.dice import DiceSource
from rules.common.fairdice import (
    ACCEPT_BELOW,
    TEST_VECTOR,
    TEST_VECTOR_COMMITMENT,
    TEST_VECTOR_MIX,
    TEST_VECTOR_SEED,
    FairDice,
    GameRolls,
    commitment,
    dice_from_bytes,
    games_of,
    verify_commitment,
)
from rules.match import GameStarted, Match, Phase, TurnPlayed

VECTOR = (1, 5, 2, 2, 2, 3, 3, 4, 2, 3, 1, 5, 5, 5, 3, 6, 1, 3, 3, 3)


def test_the_published_test_vector() -> None:
    assert bytes(range(32)).hex() == TEST_VECTOR_SEED
    assert TEST_VECTOR == VECTOR
    assert FairDice(TEST_VECTOR_SEED, TEST_VECTOR_MIX).dice(20) == list(VECTOR)
    assert commitment(TEST_VECTOR_SEED) == TEST_VECTOR_COMMITMENT
    assert hashlib.sha256(bytes(range(32))).hexdigest() == TEST_VECTOR_COMMITMENT


def test_derivation_from_first_principles() -> None:
    """An independent re-implementation of the documented derivation agrees."""
    seed, mix = bytes(range(32)), "portes"
    stream: list[int] = []
    counter = 0
    while len(stream) < 500:
        digest = hmac.new(seed, f"{mix}:{counter}".encode(), hashlib.sha256).digest()
        stream += [b % 6 + 1 for b in digest if b < 252]
        counter += 1
    assert FairDice(seed, mix).dice(500) == stream[:500]


def test_rejection_sampling_boundary() -> None:
    assert ACCEPT_BELOW == 252 == 6 * 42
    assert dice_from_bytes(bytes([0, 5, 6, 245, 246, 251])) == [1, 6, 1, 6, 1, 6]
    assert dice_from_bytes(bytes([252, 253, 254, 255])) == []
    # every face comes from exactly 42 byte values
    assert Counter(dice_from_bytes(bytes(range(256)))) == dict.fromkeys(range(1, 7), 42)


def test_rejected_bytes_shift_the_stream() -> None:
    """Find a block with a rejected byte and check the next die comes from the next byte."""
    for counter in range(200):
        digest = fairdice.block(TEST_VECTOR_SEED, "boundary", counter)
        if any(b >= 252 for b in digest):
            break
    else:
        pytest.fail("no block with a rejected byte")
    source = FairDice(TEST_VECTOR_SEED, "boundary")
    before = sum(
        len(dice_from_bytes(fairdice.block(TEST_VECTOR_SEED, "boundary", c)))
        for c in range(counter)
    )
    accepted = dice_from_bytes(digest)
    assert len(accepted) < 32
    assert source.dice(before + len(accepted))[before:] == accepted


def test_deterministic_and_random_access() -> None:
    a = FairDice(TEST_VECTOR_SEED, "x")
    b = FairDice(TEST_VECTOR_SEED, "x")
    assert a.die(1000) == b.dice(1001)[1000]
    assert [a.die(i) for i in (5, 3, 4)] == [b.die(5), b.die(3), b.die(4)]
    assert next(iter(fairdice.stream(TEST_VECTOR_SEED, "x"))) == a.die(0)
    assert FairDice(TEST_VECTOR_SEED, "y").dice(40) != a.dice(40)
    with pytest.raises(IndexError):
        a.die(-1)
    with pytest.raises(ValueError):
        FairDice("zz", "x")


def test_is_a_dice_source_for_the_match() -> None:
    source: DiceSource = FairDice(TEST_VECTOR_SEED, TEST_VECTOR_MIX)
    match, _events = Match.new(1).start(source)
    # the opening roll consumes dice in pairs, ties rolled again: 1-5 is the first pair
    assert match.opening == (1, 5) and match.turn == 1


def test_commitment_verification() -> None:
    assert verify_commitment(TEST_VECTOR_SEED, TEST_VECTOR_COMMITMENT.upper())
    assert not verify_commitment(TEST_VECTOR_SEED, "00" * 32)


CHI2_CRITICAL_5DF_P001 = 20.515


def chi_square(dice: list[int] | bytes) -> float:
    counts = Counter(dice)
    expected = len(dice) / 6
    return sum((counts.get(face, 0) - expected) ** 2 / expected for face in range(1, 7))


def test_chi_square_over_a_million_dice() -> None:
    dice: list[int] = []
    for seed in range(4):
        dice += FairDice(bytes([seed]) * 32, f"chi-{seed}").dice(250_000)
    assert len(dice) == 1_000_000
    assert chi_square(dice) < CHI2_CRITICAL_5DF_P001


def test_chi_square_catches_a_modulo_biased_derivation() -> None:
    """The same stream without rejection (b % 6 + 1 on every byte) is biased, and the test
    above would catch it."""
    biased: list[int] = []
    counter = 0
    while len(biased) < 1_000_000:
        digest = fairdice.block(bytes(32), "chi", counter)
        biased += [b % 6 + 1 for b in digest]
        counter += 1
    assert chi_square(biased[:1_000_000]) > CHI2_CRITICAL_5DF_P001


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rules.common.fairdice", *args], capture_output=True, text=True
    )


def test_cli_prints_the_dice_and_checks_the_commitment() -> None:
    ok = run_cli(
        "--seed",
        TEST_VECTOR_SEED,
        "--mix",
        TEST_VECTOR_MIX,
        "--count",
        "20",
        "--commitment",
        TEST_VECTOR_COMMITMENT,
    )
    assert ok.returncode == 0
    lines = ok.stdout.splitlines()
    assert lines[0].startswith("commitment OK")
    assert tuple(int(d) for d in lines[1].split()) == VECTOR
    bad = run_cli("--seed", TEST_VECTOR_SEED, "--mix", "portes", "--commitment", "ab" * 32)
    assert bad.returncode == 1 and "MISMATCH" in bad.stderr
    pairs = run_cli("--seed", TEST_VECTOR_SEED, "--mix", "portes", "--count", "4", "--pairs")
    assert pairs.stdout.strip() == "1-5 2-2"


def test_fairdice_imports_only_the_standard_library() -> None:
    import ast
    from pathlib import Path

    tree = ast.parse(Path(fairdice.__file__).read_text())
    names = {
        a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names
    }
    names |= {
        n.module.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module
    }
    assert names <= set(sys.stdlib_module_names) | {"__future__"}


def played_match(mix: str, *, resign_game_at: int | None, resign_match_at: int | None
                 ) -> tuple[Match, list[object], list[tuple[int, int] | None]]:
    """A 5-point match of random legal plays on fair dice; game 1 is resigned on its turn
    ``resign_game_at`` (the roll on the table unplayed), the match on turn ``resign_match_at``
    of a later game. Returns the match, its events and, per game, the roll resigned on when it
    was drawn after the opening (resigning on the opening roll draws nothing more)."""
    import random

    rng = random.Random(mix)
    dice = FairDice(TEST_VECTOR_SEED, mix)
    match, events = Match.new(5).start(dice)
    log: list[object] = list(events)
    resigned_on: list[tuple[int, int] | None] = [None]
    while match.phase == Phase.PLAYING:
        assert match.dice is not None
        later = tuple(match.dice) if match.turn_number > 0 else None
        if match.game == 1 and match.turn_number == resign_game_at:
            resigned_on[-1] = later  # type: ignore[assignment]
            match, _ = match.offer_resignation(match.turn, 1)
            match, events = match.accept_resignation(1 - match.turn, dice)
        elif match.game > 1 and match.turn_number == resign_match_at:
            resigned_on[-1] = later  # type: ignore[assignment]
            match, events = match.resign_match(match.turn)
        else:
            match, events = match.play(match.turn, rng.choice(match.legal_plays()), dice)
        log += events
        resigned_on += [None] * sum(isinstance(e, GameStarted) for e in events)
    return match, log, resigned_on


@pytest.mark.parametrize("mix", ["games-a", "games-b", "games-c", "games-d"])
@pytest.mark.parametrize(("resign_game_at", "resign_match_at"), [(0, None), (7, 3), (None, 0)])
def test_the_dice_split_into_games_as_the_match_drew_them(
        mix: str, resign_game_at: int | None, resign_match_at: int | None) -> None:
    match, log, resigned_on = played_match(mix, resign_game_at=resign_game_at,
                                           resign_match_at=resign_match_at)
    starts = [e for e in log if isinstance(e, GameStarted)]
    turns = [e for e in log if isinstance(e, TurnPlayed)]
    expected = []
    for start, on_table in zip(starts, resigned_on, strict=True):
        played = [tuple(t.dice) for t in turns if t.game == start.game]
        expected.append((start.ties, start.opening, played[:1],
                         played[1:] + ([on_table] if on_table is not None else [])))
    counts = [len(rolls) for *_, rolls in expected[:-1]]
    games = games_of(FairDice(TEST_VECTOR_SEED, mix).dice(match.dice_drawn), counts)
    assert [(len(g.ties), g.opening, [g.first][:len(first)], list(g.rolls))
            for g, (_, _, first, _) in zip(games, expected, strict=True)] == expected
    assert all(a == b for g in games for a, b in g.ties)


def test_the_last_game_takes_the_dice_left() -> None:
    dice = [3, 3, 5, 2, 6, 4, 1, 1, 2, 5, 4, 4, 6, 1]
    first, second = games_of(dice, [2])
    assert first == GameRolls(ties=((3, 3),), opening=(5, 2), rolls=((6, 4), (1, 1)))
    assert second == GameRolls(ties=(), opening=(2, 5), rolls=((4, 4), (6, 1)))
    assert second.first == (5, 2)
    assert games_of([], []) == []
