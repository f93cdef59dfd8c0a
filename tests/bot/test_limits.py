"""Limits per player and isolation between chats: the /new cap (one notice a minute), the caps on
open challenges, a flood in one group leaving every other chat answered, and a tap accepted only
from its own match's board."""

from __future__ import annotations

from typing import Any

from bot.intake.pace import Admission, Pace
from bot.settings import ENV_HELP, Limits, RateLimits, from_env
from bot.views.callbacks import Action, Callback, decode
from standin import Message, StandIn, User
from standin.players import live_board, start_group_match, tap_and_wait
from tests.bot.conftest import Running


def first_turn_button(board: Message) -> tuple[str, Callback]:
    """The text and data of the first button of the turn's keyboard."""
    for row in board.buttons:
        for b in row:
            data = decode(b.callback_data)
            if data is not None and data.action in (Action.FROM, Action.PLAY, Action.MOVE):
                return b.text, data
    raise AssertionError(f"no turn button in {board.button_texts}")


def mover_of(board: Message, *players: User) -> User:
    return next(p for p in players if board.mentions(p))


async def test_new_over_the_cap_is_refused_with_one_notice(
    standin: StandIn, make_bot: Any
) -> None:
    await make_bot(limits=Limits(new_per_minute=2))
    alice = standin.user("Alice", username="alice")
    group = standin.group("Kafeneio", alice)
    for _ in range(6):
        alice.send(group, "/new")
    await standin.wait_for(lambda: len(group.bot_messages()) >= 3, what="two cards and a notice")
    await standin.idle()
    texts = [m.text or "" for m in group.bot_messages()]
    assert len(texts) == 3, texts
    assert sum("at most 2 challenges a minute" in t for t in texts) == 1, texts


async def test_open_challenges_over_the_cap_are_refused(
    standin: StandIn, make_bot: Any
) -> None:
    await make_bot(limits=Limits(new_per_minute=0))  # the storage caps: 3 in a group
    alice = standin.user("Alice", username="alice")
    group = standin.group("Kafeneio", alice)
    answers = []
    for _ in range(4):
        cmd = alice.send(group, "/new")
        card = await group.wait_for_answer(cmd)
        answers.append(await alice.tap(card, "1 point"))
    assert [a.show_alert for a in answers] == [False, False, False, True]
    assert "too many open challenges in this chat" in (answers[3].text or "")
    await standin.idle()
    cards = [m for m in group.bot_messages() if "SHA-256" in (m.text or "")]
    assert len(cards) == 3


async def test_a_flood_in_one_group_leaves_other_chats_answered(
    standin: StandIn, make_bot: Any
) -> None:
    # Telegram's limits as in production (20 messages a minute in a group), and no /new cap:
    # the flood fills the group's bucket, as one busy group would.
    await make_bot(rate=RateLimits(), limits=Limits(new_per_minute=0))
    alice, bob = standin.user("Alice", username="alice"), standin.user("Bob", username="bob")
    quiet = standin.group("Quiet", alice, bob)
    board = await start_group_match(standin, alice, bob, quiet)
    flooder = standin.user("Flooder")
    busy = standin.group("Busy", flooder)
    for _ in range(120):
        flooder.send(busy, "/new")
    # about one a second in a chat after a burst of 3: the busy group's replies now wait
    await standin.wait_for(lambda: len(busy.bot_messages()) >= 3, what="the bucket to fill")
    mover = mover_of(board, alice, bob)
    text, _ = first_turn_button(board)
    assert await tap_and_wait(standin, mover, board, text) is None
    # answered, and the board changed, while the busy group still waits for its replies
    assert len(busy.bot_messages()) < 100


async def test_a_tap_from_another_matchs_board_is_refused(
    standin: StandIn, bot: Running
) -> None:
    alice, bob = standin.user("Alice", username="alice"), standin.user("Bob", username="bob")
    carol, dan = standin.user("Carol", username="carol"), standin.user("Dan", username="dan")
    one = standin.group("One", alice, bob)
    two = standin.group("Two", alice, bob, carol, dan)
    board_a = await start_group_match(standin, alice, bob, one)
    board_b = await start_group_match(standin, carol, dan, two)
    match_a = first_turn_button(board_a)[1].match_id
    before_a = (await bot.uc.load_match(match_a)).match
    before_b = board_b.refresh()
    mover = mover_of(board_a, alice, bob)
    _, data = first_turn_button(board_a)
    answer = await mover.tap_data(before_b, data.encode())  # A's button, sent from B's board
    assert answer.show_alert and "not on this message" in (answer.text or "")
    await standin.idle()
    after_a = (await bot.uc.load_match(match_a)).match
    assert before_a is not None and after_a is not None
    assert after_a.version == before_a.version
    after_b = board_b.refresh()
    assert (after_b.caption, after_b.edit_count, after_b.buttons) == (
        before_b.caption, before_b.edit_count, before_b.buttons)
    # from its own board the same button still works
    assert await tap_and_wait(standin, mover, board_a, first_turn_button(board_a)[0]) is None
    assert live_board(one) is not None


def test_pace_counts_a_sliding_minute_and_tells_once_per_window() -> None:
    now = [0.0]
    pace = Pace(2, clock=lambda: now[0])
    assert [pace.admit(1) for _ in range(4)] == [
        Admission.ALLOWED, Admission.ALLOWED, Admission.REFUSED_TELL, Admission.REFUSED]
    assert pace.admit(2) == Admission.ALLOWED  # another player counts apart
    now[0] = 59.0
    assert pace.admit(1) == Admission.REFUSED
    now[0] = 60.5  # the first two have left the window
    assert pace.admit(1) == Admission.ALLOWED
    assert Pace(0).admit(1) == Admission.ALLOWED


def test_the_caps_are_settings_listed_in_help() -> None:
    names = {name for name, _ in ENV_HELP}
    assert {"PORTES_NEW_PER_MINUTE", "PORTES_OPEN_CHALLENGES_CHAT",
            "PORTES_OPEN_CHALLENGES"} <= names
    settings = from_env({"TELEGRAM_BOT_TOKEN": "1:A", "PORTES_NEW_PER_MINUTE": "7",
                         "PORTES_OPEN_CHALLENGES_CHAT": "0", "PORTES_OPEN_CHALLENGES": "4"})
    assert settings.limits == Limits(new_per_minute=7, open_per_chat=0, open_overall=4)
    assert from_env({"TELEGRAM_BOT_TOKEN": "1:A"}).limits == Limits()
