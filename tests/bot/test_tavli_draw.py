"""A drawn Plakoto end to end (issue 15): both mothers pinned, the game scores nothing and is
played again, in a Plakoto match and in the tavli rotation (the replayed game is Plakoto again).

The position is crafted: no seed leads two players to pin both mothers in a short test, so the
match's stored state is set to a late Plakoto position the way the storage keeps it (the state's
JSON in its row), and the player on turn then plays by typing, as any player may."""

from __future__ import annotations

from dataclasses import replace

from sqlalchemy import update

from rules.common.dice import Dice
from rules.games import format_play
from rules.steps.board import StepsPosition
from standin import Message, StandIn, User
from standin.players import board_version, live_board, next_private_turn, play_turn
from storage.models import MatchRow
from storage.usecases.rows import stored_state
from tests.bot.conftest import Running
from tests.bot.helpers.tavli import private_game, resign_game


def both_mothers_in_reach() -> StepsPosition:
    """From the mover's side: his mother pinned on his start (24) under an opposing checker,
    14 checkers on his 7 and 8; the opponent's mother alone on her start (the mover's 1), her
    other 13 at home. With 6-5 every play pins her mother (7/1*): both mothers are pinned."""
    board = [0] * 26
    board[24], board[1], board[19] = -1, -1, -13
    board[7], board[8] = 7, 7
    pins = [0] * 26
    pins[24] = 1
    return StepsPosition("plakoto", board, pins)


async def set_up_the_draw(bot: Running, match_id: int) -> str:
    """Put the match (a Plakoto game on turn) in :func:`both_mothers_in_reach` with 6-5 to play,
    as its stored state; returns a play that pins the second mother, as typed."""
    state = (await bot.uc.load_match(match_id)).match.state  # type: ignore[union-attr]
    assert state.game_key == "plakoto"
    crafted = replace(state, position=both_mothers_in_reach(), dice=Dice(6, 5), chosen=())
    with bot.uc.db.sessions.begin() as session:
        session.execute(update(MatchRow).where(MatchRow.id == match_id)
                        .values(**stored_state(crafted)))
    assert crafted.dice is not None
    play = next(p for p in crafted.legal_plays()
                if any(m.to_point == 1 for m in p.moves) and
                any(m.from_point == 8 for m in p.moves))
    return format_play(crafted.position, crafted.dice, play.moves, crafted.options)


async def play_the_draw(standin: StandIn, bot: Running, mover: User, users: list[User],
                        board: Message) -> tuple[User, Message]:
    """``mover`` (on turn on ``board``) types the play that pins both mothers: the next turn's
    board, that of the game played again."""
    typed = await set_up_the_draw(bot, 1)
    mover.send(mover.private, typed)
    return await next_private_turn(standin, users, board_version(board))


def english_board(alice: User, bob: User, mover: User, board: Message) -> str:
    """The caption Alice (who reads English) sees of the latest board."""
    mine = board if mover is alice else live_board(alice.private)
    assert mine is not None
    return mine.caption or ""


async def test_a_drawn_plakoto_scores_nothing_and_is_played_again(
        standin: StandIn, bot: Running) -> None:
    # Given a Plakoto match to 1 point, late in its first game, both mothers in reach
    alice, bob = await private_game(standin, "Plakoto")
    mover, board = await next_private_turn(standin, [alice, bob], 0)
    # When the player on turn pins the second mother
    mover, board = await play_the_draw(standin, bot, mover, [alice, bob], board)
    await standin.idle()
    # Then both read that the game is drawn and replayed, the score unchanged, game 2 begun
    caption = english_board(alice, bob, mover, board)
    assert "🤝 Both mothers pinned: a draw, the game is replayed." in caption
    assert "Game 2:" in caption and "wins" not in caption
    assert caption.startswith("🎲 Plakoto")
    greek = board if mover is bob else live_board(bob.private)
    assert greek is not None and "ισοπαλία" in (greek.caption or "")
    state = (await bot.uc.load_match(1)).match.state  # type: ignore[union-attr]
    assert state.score == (0, 0) and state.game == 2 and not state.results
    assert state.game_key == "plakoto" and state.winner is None
    assert state.position == StepsPosition.start_of("plakoto")  # the set-up again
    record = await bot.uc.match_record(1)
    assert record is not None and record.match.status != "finished"


async def test_a_drawn_plakoto_in_a_tavli_match_is_plakoto_again(
        standin: StandIn, bot: Running) -> None:
    # Given a tavli match to 3 whose Portes game Alice resigned (Bob leads 1-0)
    alice, bob = await private_game(standin, "Tavli", "3 points")
    mover, board = await next_private_turn(standin, [alice, bob], 0)
    while mover is not alice:
        await play_turn(standin, mover, mover.private, wait=False)
        mover, board = await next_private_turn(standin, [alice, bob], board_version(board))
    await resign_game(standin, alice, bob)
    mover, board = await next_private_turn(standin, [alice, bob], board_version(board))
    await standin.idle()
    assert "Tavli · Plakoto" in english_board(alice, bob, mover, board)
    assert mover is bob  # the café start: Bob won Portes and rolls first
    # When the Plakoto game is drawn (both mothers pinned)
    mover, board = await play_the_draw(standin, bot, mover, [alice, bob], board)
    await standin.idle()
    # Then the game is drawn and replayed: Plakoto again, the score still 1-0
    caption = english_board(alice, bob, mover, board)
    assert "🤝 Both mothers pinned: a draw, the game is replayed." in caption
    assert caption.startswith("🎲 Tavli · Plakoto"), caption
    state = (await bot.uc.load_match(1)).match.state  # type: ignore[union-attr]
    assert state.game_key == "plakoto" and state.game == 3
    assert sorted(state.score) == [0, 1] and len(state.results) == 1
    # the café start holds for the replayed game: Bob, the last winner, rolls first
    assert "Game 3: Βασίλης won the last game and rolls first." in caption
    assert mover is bob
