"""The .mat export of a stored match, read back by GNU Backgammon: every play and the score."""

from __future__ import annotations

import random
import re
from pathlib import Path

from storage.matfile import match_text, play_text, safe_name
from storage.results import MatchRecord, MatchView
from storage.usecases import UseCases
from tests.storage.gnubg import gnubg_or_skip, gnubg_reexport
from tests.storage.helpers import new_match, play_random_turn, play_to_end

PLAY = re.compile(r"(\d\d):((?:\s+\d+/\d+\*?)*)|Wins (\d+) points?")


def tokens(text: str) -> list[list[str]]:
    """Each game's plays and its result, formatting aside: moves sorted (gnubg orders them its
    own way) and the points hit apart (when two checkers land on a blot, gnubg may star the
    other one)."""
    games: list[list[str]] = []
    for line in text.splitlines():
        if line.strip().startswith("Game "):
            games.append([])
            continue
        if not games or re.match(r"\s*\S+ : \d+", line):
            continue
        for m in PLAY.finditer(re.sub(r"^\s*\d+\)", "", line)):
            if m.group(3):
                games[-1].append(f"wins {m.group(3)}")
            else:
                moves = m.group(2).split()
                hits = sorted({mv.split("/")[1].rstrip("*") for mv in moves if "*" in mv})
                plain = sorted(mv.rstrip("*") for mv in moves)
                games[-1].append(f"{m.group(1)} {' '.join(plain)} hits {','.join(hits)}")
    return games


def assert_same(back: list[list[str]], ours: list[list[str]], shown: str) -> None:
    """gnubg's reading equals ours; else name the first play that differs."""
    for g, (theirs, mine) in enumerate(zip(back, ours, strict=False), 1):
        for i, (a, b) in enumerate(zip(theirs, mine, strict=False)):
            assert a == b, f"game {g}, item {i + 1}: gnubg {a!r}, ours {b!r}\n{shown}"
        assert len(theirs) == len(mine), f"game {g}: gnubg {len(theirs)}, ours {len(mine)}"
    assert len(back) == len(ours), shown


def scores(text: str) -> list[str]:
    """The score line of each game, spaces squeezed."""
    return [" ".join(line.split()) for line in text.splitlines()
            if re.fullmatch(r"\s*\S+ : \d+\s+\S+ : \d+\s*", line)]


async def finished(uc: UseCases, length: int, seed: int) -> tuple[MatchView, MatchRecord]:
    start = (await new_match(uc, length=length, mix=f"mat-{seed}")).match
    assert start is not None
    final = await play_to_end(uc, start, seed=seed)
    record = await uc.match_record(final.id)
    assert record is not None
    return final, record


async def test_mat_text_names_every_play(uc: UseCases) -> None:
    final, record = await finished(uc, 3, 11)
    text = match_text(record, ("Alice", "Bob"))
    assert text.startswith(" 3 point match\n\n Game 1\n Alice : 0")
    for turn in record.turns:
        assert play_text(turn) in text
    assert text.count(" Game ") == len(record.games)
    assert "Doubles" not in text and "Takes" not in text
    winner = final.state.winner
    assert winner is not None
    last_game = record.games[-1]
    assert last_game.points is not None
    assert f"Wins {last_game.points} point" in text.rstrip().splitlines()[-1]
    assert safe_name("Ana Maria: x") == "Ana_Maria__x"


async def test_gnubg_reads_back_every_play_and_the_score(uc: UseCases, tmp_path: Path) -> None:
    gnubg_or_skip()
    _final, record = await finished(uc, 5, 23)
    text = match_text(record, ("Alice", "Bob"))
    back = gnubg_reexport(text, tmp_path)
    assert_same(tokens(back), tokens(text), back)
    assert len(tokens(back)) == len(record.games)
    assert scores(back) == scores(text)
    plays = [t for game in tokens(back) for t in game if not t.startswith("wins")]
    assert len(plays) == len(record.turns)


async def test_gnubg_reads_resigned_games_and_a_resigned_match(
    uc: UseCases, tmp_path: Path
) -> None:
    gnubg_or_skip()
    view = (await new_match(uc, length=7, mix="mat-resign")).match
    assert view is not None
    rng = random.Random(5)
    for points in (2, 1, 0):  # two games resigned after a few plays, then the match given up
        for _ in range(3):
            view = (await play_random_turn(uc, view, rng)).match  # type: ignore[assignment]
            assert view is not None
        if not points:
            break
        mover = view.state.turn
        actor, other = view.seats[mover].player, view.seats[1 - mover].player
        assert actor is not None and other is not None
        offered = await uc.offer_resignation(view.id, actor.id, view.version, points)
        assert offered.match is not None
        answered = await uc.answer_resignation(view.id, other.id, offered.match.version,
                                               accept=True)
        assert answered.ok and answered.match is not None
        view = answered.match
    loser = view.seats[0].player
    assert loser is not None
    resigned = await uc.resign_match(view.id, loser.id)
    assert resigned.ok
    record = await uc.match_record(view.id)
    assert record is not None
    text = match_text(record, ("Άλκης", "Bob"))
    assert "Wins 2 points" in text and "Wins 1 point\n" in text
    assert text.rstrip().endswith("Wins 3 points")  # Bob needed 4: a .mat game gives 3 at most
    back = gnubg_reexport(text, tmp_path)
    assert tokens(back) == tokens(text), back
    assert scores(back) == scores(text) and len(scores(back)) == 3



async def test_a_game_resigned_on_its_opening_roll_is_read_with_its_points(
        uc: UseCases, tmp_path: Path) -> None:
    gnubg_or_skip()
    view = (await new_match(uc, length=5, mix="mat-opening")).match
    assert view is not None
    # game 1: the player on roll resigns it for 2 points before moving; the other accepts
    mover = view.state.turn
    actor, other = view.seats[mover].player, view.seats[1 - mover].player
    assert actor is not None and other is not None
    offered = await uc.offer_resignation(view.id, actor.id, view.version, 2)
    assert offered.match is not None
    answered = await uc.answer_resignation(view.id, other.id, offered.match.version, accept=True)
    assert answered.ok and answered.match is not None
    # game 2: the player on roll gives the match up before moving
    view = answered.match
    loser = view.seats[view.state.turn].player
    assert loser is not None
    assert (await uc.resign_match(view.id, loser.id)).ok
    record = await uc.match_record(view.id)
    assert record is not None and not record.turns
    text = match_text(record, ("Alice", "Bob"), "Bob won")
    assert text.startswith('; [Comment "Bob won"]\n\n 5 point match')
    back = gnubg_reexport(text, tmp_path)
    games = tokens(back)
    assert games == tokens(text), back
    # each game: its opening roll, no moves, then the points (gnubg reads no game without it)
    assert [len(g) for g in games] == [2, 2] and [g[1] for g in games] == ["wins 2", "wins 3"]
    assert all(g[0].endswith("  hits ") for g in games), games
    assert scores(back) == scores(text) and len(scores(back)) == 2
    assert '; [Comment "Bob won"]' in back
