"""Every player always returns one of our legal plays; the levels behave as described."""

from __future__ import annotations

import random

import pytest

from computer.context import MatchContext
from computer.players import BENCH_PLAYERS, LEVELS, ComputerPlayer, make_player
from computer.selfplay import game_points, play_game
from rules.position import Dice, Play, Position, legal_plays, parse_fixture
from tests.sampling import sample_or_full

from .test_engine import POSITIONS


def assert_legal(position: Position, dice: Dice, play: Play) -> None:
    assert play in legal_plays(position, dice), (position.to_fixture(), dice, play)


@pytest.mark.long
@pytest.mark.parametrize("share", sample_or_full(4, 1))
@pytest.mark.parametrize("name", BENCH_PLAYERS)
def test_never_an_illegal_play_on_random_positions(name: str, share: int) -> None:
    """Each player's choice on the corpus's positions is a legal play (``[sample]``: every
    4th of them; ``[full]``: all)."""
    player = make_player(name, seed=5)
    assert isinstance(player, ComputerPlayer)
    rng = random.Random(11)
    count = 600 if name in ("strong", "easy") else 2500
    for position in POSITIONS[:count:share]:
        dice = Dice(rng.randint(1, 6), rng.randint(1, 6))
        assert_legal(position, dice, player.choose_play(position, dice))


@pytest.mark.parametrize("games", sample_or_full(8, 24))
def test_never_an_illegal_play_in_seeded_games(games: int) -> None:
    """Seeded games of each pair of players in each match context (``[sample]``: the first 8,
    each pair of players and context twice; ``[full]``: 24)."""
    rng = random.Random(12)
    pairs = [("strong", "medium"), ("easy", "random"), ("gnubg0", "easy"), ("medium", "random")]
    contexts = [MatchContext(), MatchContext(5, 3, 4, True), MatchContext(1), MatchContext(7, 6, 0)]
    for i in range(games):
        a, b = pairs[i % len(pairs)]
        record = play_game(
            (make_player(a, i), make_player(b, i + 100)),
            rng,
            first=i % 2,
            context=contexts[i % len(contexts)],
            check=assert_legal,
        )
        assert record.winner in (0, 1) and record.points in (1, 2, 3)


def test_levels_are_known() -> None:
    assert set(LEVELS) <= set(BENCH_PLAYERS)
    with pytest.raises(ValueError):
        make_player("grandmaster")


def test_noise_is_reproducible() -> None:
    medium = make_player("medium", seed=3)
    for position in POSITIONS[:50]:
        assert medium.choose_play(position, Dice(4, 2)) == medium.choose_play(position, Dice(4, 2))


def test_strong_closes_the_board() -> None:
    # o has a checker on the bar, x has a five-point board and builders on 8 and 7:
    # with 6-5, 8/2 7/2 closes the board; nothing else comes close.
    position = parse_fixture("x 13:2 8:1 7:1 6:3 5:2 4:2 3:2 1:2; o bar:1 13:5 8:4 6:5")
    play = make_player("strong").choose_play(position, Dice(6, 5))
    assert play.position.board[2] == 2, [str(m) for m in play.moves]


def test_in_a_one_point_match_only_winning_counts() -> None:
    # In a 1-point match the net player maximises the chance to win the game, gammons ignored;
    # in a single game it sometimes prefers a gammonish play: the score changes its choices.
    from computer.engine import evaluate_after
    from computer.players import NetPlayer

    player = NetPlayer(plies=0)
    one_point = MatchContext(1)
    rng = random.Random(13)
    differs = 0
    for position in POSITIONS[:300]:
        dice = Dice(rng.randint(1, 6), rng.randint(1, 6))
        plays = legal_plays(position, dice)
        chosen = player.choose_play(position, dice, one_point)
        wins = [evaluate_after(p.position).win for p in plays]
        assert evaluate_after(chosen.position).win == pytest.approx(max(wins))
        differs += chosen != player.choose_play(position, dice)
    assert differs > 0


def test_easy_follows_the_tips() -> None:
    # Opening 3-1: making the 5 point (8/5 6/5) is tip 3's textbook play.
    play = make_player("easy", seed=1).choose_play(Position.start(), Dice(3, 1))
    assert sorted((m.from_point, m.to_point) for m in play.moves) == [(6, 5), (8, 5)]
    # Far ahead in a pure race (no contact): run home and bear off.
    race = parse_fixture("x 6:3 5:3 4:3; o 24:5 23:5 22:5")
    play = make_player("easy", seed=1).choose_play(race, Dice(6, 5))
    assert play.position.mover_off == race.mover_off + 2


def test_game_points() -> None:
    assert game_points(parse_fixture("x; o 6:2")) == 1
    assert game_points(parse_fixture("x; o 10:15")) == 2
    assert game_points(parse_fixture("x; o 20:1 10:14")) == 3
    assert game_points(parse_fixture("x; o 20:1 10:14"), no_triple=True) == 2
    assert game_points(parse_fixture("x; o 20:1 10:14").flip()) == 3
