"""A crowd cannot freeze a group (issue 28): while 60 accounts send /new three times each in a
group, a match goes on on the group's board (Telegram's limits on in the stand-in, the bot's
default rate settings and caps); the lanes run a chat's chatter beside its game and shed the
oldest chatter; the limiter lets the game's calls go before the crowd's."""

from __future__ import annotations

import asyncio
import itertools
from typing import Any

import pytest
from telegram import Update
from telegram.ext import ExtBot

from bot.delivery.limiter import ChatLimiter, is_low, low_priority
from bot.intake.lanes import ChatLanes
from bot.settings import Limits, RateLimits
from bot.views.callbacks import Action
from standin import Answer, Chat, FloodLimits, Message, StandIn, StandInError, Tap, User
from standin.players import (
    board_version,
    live_board,
    start_group_match,
    start_the_bot,
    turn_actions,
)
from tests.bot.conftest import Running

CROWD = 60
TURNS = 3
ANSWER_WITHIN = 20.0
"""Hang guard on a tap's answer: past the stand-in's 15 s callback deadline an answer fails."""
BUSY = "was not handled"


async def answer_of(tap: Tap) -> Answer | None:
    try:
        return await tap.wait(ANSWER_WITHIN)  # type: ignore[no-any-return]
    except StandInError:
        return None


async def play_a_turn(standin: StandIn, mover: User, group: Chat) -> list[Answer | None]:
    """Tap through one turn on the group's board; each tap's answer, once the board showed its
    effect (edited, or replaced by the next board)."""
    answers: list[Answer | None] = []
    for _ in range(12):
        board = live_board(group)
        assert board is not None and board.mentions(mover), "the board is not the mover's"
        by_action = turn_actions(board)
        finals = by_action.get(Action.CONFIRM) or by_action.get(Action.PLAY) or []
        choices = by_action.get(Action.MOVE) or by_action.get(Action.FROM) or []
        assert finals or choices, board.button_texts
        final = finals[0] if finals else None
        text = final or choices[0]
        answer = await answer_of(mover.tap(board, text))
        answers.append(answer)
        if answer is None or answer.show_alert:
            return answers

        def shown(before: Message = board) -> bool:
            now = live_board(group)
            return now is not None and (now.message_id != before.message_id
                                        or now.edit_count != before.edit_count)

        await standin.wait_for(shown, timeout=30, what="the board to show the tap")
        if final is not None:
            return answers
    raise AssertionError("a turn took more than 12 taps")


def replies_to(group: Chat, commands: list[Message]) -> list[Message]:
    ids = {c.message_id for c in commands}
    return [m for m in group.bot_messages() if m.reply_to_message_id in ids]


def notes(user: User) -> list[Message]:
    return [m for m in user.private.bot_messages() if BUSY in (m.text or "")]


class Scene:
    """A match on the group's board (neither player started the bot) and a crowd of 60 there
    (every other one started the bot), each of whom sent /new three times."""

    def __init__(self, standin: StandIn, running: Running) -> None:
        self.standin, self.running = standin, running
        self.alice = standin.user("Alice", username="alice")
        self.bob = standin.user("Bob", username="bob")
        self.crowd = [standin.user(f"Kibitzer {i}", username=f"kibitzer{i}")
                      for i in range(CROWD)]
        self.group = standin.group("Kafeneio", self.alice, self.bob, *self.crowd)
        self.sent: dict[int, list[Message]] = {u.id: [] for u in self.crowd}

    async def flood(self) -> None:
        await start_the_bot(*self.crowd[::2])
        await start_group_match(self.standin, self.alice, self.bob, self.group, "5 points")
        await self.standin.idle()
        self.setup_calls = len(counted(self.standin, self.group))
        for _ in range(3):
            for user in self.crowd:
                self.sent[user.id].append(user.send(self.group, "/new"))

    def cards(self) -> list[Message]:
        return [m for u in self.crowd for m in replies_to(self.group, self.sent[u.id])]

    async def play(self, turns: int) -> None:
        """Play ``turns`` turns: every tap of the mover answered (none dropped), and each
        turn's board came."""
        group, alice, bob = self.group, self.alice, self.bob
        first = (await self.running.uc.load_match(1)).match
        assert first is not None
        answers: list[Answer | None] = []
        movers: list[User] = []
        for _ in range(turns):
            board = live_board(group)
            assert board is not None
            movers.append(alice if board.mentions(alice) else bob)
            answers += await play_a_turn(self.standin, movers[-1], group)
        # every tap of the mover answered, none refused: none dropped
        assert all(a is not None and not a.show_alert for a in answers), answers
        # each turn's board came, for the player to move, and the group's board shows the
        # match as it is now
        assert all(a is not b for a, b in itertools.pairwise(movers)), movers
        mv = (await self.running.uc.load_match(1)).match
        assert mv is not None and mv.version > first.version
        board = live_board(group)
        assert board is not None and board_version(board) == mv.version
        to_move = mv.seats[mv.to_act].player if mv.to_act is not None else None
        assert to_move is not None and to_move.id != movers[-1].id
        assert board.mentions(alice if to_move.id == alice.id else bob)


@pytest.mark.long
async def test_a_crowd_sending_new_cannot_freeze_a_match_on_the_groups_board(
    standin: StandIn, make_bot: Any
) -> None:
    standin.set_flood_limits()  # 20 a minute in a group, about 1 a second per chat, 30 a second
    scene = Scene(standin, await make_bot(rate=RateLimits(), plays_direct=40))
    await scene.flood()
    # a stray tap behind the flood (data that is none of the bot's: chatter) finds the crowd's
    # share of the group's minute spent
    board = live_board(scene.group)
    assert board is not None
    stray = scene.crowd[1].tap_data(board, "zz")  # malformed on purpose
    await scene.play(TURNS)
    answer = await answer_of(stray)
    assert answer is not None and answer.show_alert and BUSY in (answer.text or ""), answer
    group, crowd, sent = scene.group, scene.crowd, scene.sent
    started = crowd[::2]

    # every /new of a player who started the bot got one answer: its card, or a private note
    def answers() -> dict[str, tuple[int, int]]:
        return {u.first_name: (len(replies_to(group, sent[u.id])), len(notes(u)))
                for u in started}

    def accounted() -> bool:
        return all(cards + told == 3 for cards, told in answers().values())

    try:
        await standin.wait_for(accounted, timeout=60, what="every /new answered once")
    except StandInError:
        odd = {name: got for name, got in answers().items() if sum(got) != 3}
        failed = [(c.method, c.chat_id, c.error_code) for c in standin.calls(ok=False)]
        raise AssertionError(f"not every /new answered once: (replies, notes) {odd}; "
                             f"calls refused {failed}") from None
    assert sum(len(notes(u)) for u in started) > 0  # the crowd was turned away...
    cards = sorted(m.date for m in scene.cards())  # ...within the group's cap
    assert all(len([d for d in cards if t - 60 < d <= t]) <= Limits().new_per_group_minute
               for t in cards)
    assert not [m for m in group.bot_messages() if BUSY in m.content]  # never in the group
    assert not [u for u in crowd[1::2] if u.private.bot_messages()]
    assert [c.error_code for c in standin.calls(ok=False)] == []  # no 429, no 403



@pytest.mark.long
async def test_while_a_match_is_played_on_the_groups_board_the_crowd_gets_a_quarter_of_it(
    standin: StandIn, make_bot: Any
) -> None:
    # Without the group's /new cap, the crowd's cards would take the group's whole minute;
    # while a match is played on the group's board (a call a tap), they stop at a quarter of
    # it (5 calls, the challenge and the first board included), or at the 4 answers a group
    # keeps for commands whatever its board waits for, and the rest is told privately
    standin.set_flood_limits()
    scene = Scene(standin, await make_bot(rate=RateLimits(), plays_direct=40,
                                          limits=Limits(new_per_group_minute=0)))
    await scene.flood()
    await scene.play(TURNS)
    await standin.idle(timeout=30)
    group_calls = [c for c in standin.calls(chat_id=scene.group.id) if c.ok
                   and c.method.lower().startswith(("send", "edit", "delete"))]
    cards = {m.message_id for m in scene.cards()}
    for card in [c for c in group_calls
                 if isinstance(c.result, dict) and c.result.get("message_id") in cards]:
        minute = [c for c in group_calls if card.time - 60 < c.time < card.time]
        answers = [c for c in minute if isinstance(c.result, dict)
                   and c.result.get("message_id") in cards]
        assert len(minute) < 5 or len(answers) < 4, [(c.method, c.time - card.time)
                                                      for c in minute]
    assert sum(len(notes(u)) for u in scene.crowd[::2]) > 0
    assert [c.error_code for c in standin.calls(ok=False)] == []


def counted(standin: StandIn, chat: Chat) -> list[str]:
    return [c.method for c in standin.calls(chat_id=chat.id)
            if c.ok and c.method.lower().startswith(("send", "edit", "delete"))]


def update(update_id: int, text: str, chat_id: int = 7) -> Update:
    found = Update.de_json({"update_id": update_id, "message": {
        "message_id": update_id, "date": 0, "chat": {"id": chat_id, "type": "private"},
        "from": {"id": chat_id, "is_bot": False, "first_name": "A"}, "text": text}}, None)
    assert found is not None
    return found


def starts_with_slash(u: object) -> bool:
    return isinstance(u, Update) and (u.message.text or "").startswith("/")  # type: ignore[union-attr]


async def test_a_chats_game_runs_beside_its_chatter_and_a_full_chatter_lane_sheds_its_oldest(
) -> None:
    lanes = ChatLanes(8, backlog=2, chatter=starts_with_slash)
    shed: list[int] = []
    lanes.on_shed = lambda u: shed.append(u.update_id)  # type: ignore[attr-defined]
    gate = asyncio.Event()
    done: list[tuple[int, bool]] = []

    async def work(n: int, held: bool = False) -> None:
        if held:
            await gate.wait()
        done.append((n, is_low()))

    await lanes.process_update(update(1, "/new"), work(1, held=True))
    await asyncio.sleep(0.01)  # running, held in its handler
    for n in (2, 3, 4):  # the chatter lane holds two: the oldest waiting is shed for the third
        await lanes.process_update(update(n, "/new"), work(n))
    await lanes.process_update(update(5, "24/18 13/11"), work(5))  # a typed play
    await asyncio.sleep(0.05)
    assert done == [(5, False)]  # the play ran at once, at normal priority
    assert shed == [2] and lanes.dropped == 1
    gate.set()
    await lanes.drain(1.0)
    assert done == [(5, False), (1, True), (3, True), (4, True)]  # chatter: in order, low


def tap(update_id: int, data: str, chat_id: int = 7) -> Update:
    user = {"id": chat_id, "is_bot": False, "first_name": "A"}
    found = Update.de_json({"update_id": update_id, "callback_query": {
        "id": str(update_id), "from": user, "chat_instance": "1", "data": data,
        "message": {"message_id": 1, "date": 0, "chat": {"id": chat_id, "type": "private"},
                    "from": user, "text": "card"}}}, None)
    assert found is not None
    return found


async def test_a_tap_waiting_in_a_chatter_lane_past_its_patience_is_shed_and_answered(
) -> None:
    # Given a chatter lane held by a command whose reply waits (for the chat's budget, say)
    lanes = ChatLanes(8, chatter=lambda u: True, tap_patience=0.05)
    shed: list[int] = []
    lanes.on_shed = lambda u: shed.append(u.update_id)  # type: ignore[attr-defined]
    gate = asyncio.Event()
    done: list[int] = []

    async def work(n: int, held: bool = False) -> None:
        if held:
            await gate.wait()
        done.append(n)

    await lanes.process_update(update(1, "/top"), work(1, held=True))
    # When a tap and then a command queue behind it, and the tap's patience runs out
    await lanes.process_update(tap(2, "top:next"), work(2))
    await lanes.process_update(update(3, "/games"), work(3))
    for _ in range(200):
        if shed:
            break
        await asyncio.sleep(0.01)
    # Then the tap is shed (answered "busy" by on_shed) while still waiting, never run, and
    # the command behind it still runs in order
    assert shed == [2] and done == [] and lanes.dropped == 1
    gate.set()
    await lanes.drain(1.0)
    assert done == [1, 3] and shed == [2]


async def test_chatter_with_no_room_in_its_chats_budget_is_shed_when_its_turn_comes() -> None:
    limiter = ChatLimiter(group_per_minute=4, chat_per_second=0, overall_per_second=0,
                          answers_kept=0)  # no answers kept: chatter keeps to its share

    async def sent() -> bool:
        return True

    for _ in range(3):  # the group's minute holds three quarters of its calls
        await limiter.process_request(sent, (), {}, "sendMessage", {"chat_id": -5}, None)
    lanes = ChatLanes(8, chatter=starts_with_slash, budget_wait=limiter.low_wait)
    shed: list[int] = []
    lanes.on_shed = lambda u: shed.append(u.update_id)  # type: ignore[attr-defined]
    done: list[int] = []

    async def work(n: int) -> None:
        done.append(n)

    await lanes.process_update(update(1, "/top", chat_id=-5), work(1))  # would wait a minute
    await lanes.process_update(update(2, "/top", chat_id=6), work(2))  # another chat: room
    await lanes.process_update(update(3, "24/18 13/11", chat_id=-5), work(3))  # the game's
    await lanes.drain(1.0)
    assert sorted(done) == [2, 3] and shed == [1]


async def a_bot(standin: StandIn, limiter: ChatLimiter) -> ExtBot[None]:
    bot: ExtBot[None] = ExtBot(standin.token, base_url=standin.base_url,
                               base_file_url=standin.base_file_url, rate_limiter=limiter)
    await bot.initialize()
    return bot


async def test_calls_at_low_priority_keep_to_their_share_of_a_groups_minute(
        standin: StandIn) -> None:
    # Given two groups allowed 8 calls a minute, a match played on the second one's board
    alice = standin.user("Alice")
    quiet, played = standin.group("Quiet", alice), standin.group("Played", alice)
    standin.set_flood_limits(FloodLimits(group_per_minute=8, chat_per_second=0))
    limiter = ChatLimiter(group_per_minute=8, chat_per_second=0, overall_per_second=0,
                          max_retries=0)
    limiter.played_on(played.id)
    bot = await a_bot(standin, limiter)
    try:
        # When a crowd's 8 cards are sent in each
        with low_priority():
            cards = [asyncio.ensure_future(bot.send_message(g.id, f"card {i}"))
                     for g in (quiet, played) for i in range(8)]
        # Then they stop at three quarters of the quiet group's minute, at a quarter of the
        # played one's
        await standin.wait_for(lambda: (len(quiet.bot_messages()), len(played.bot_messages()))
                               == (6, 2), what="the cards their shares allow")
        await bot.send_message(quiet.id, "board")  # and the game's calls still go
        await bot.send_message(played.id, "board")
        for group, share in ((quiet, 6), (played, 2)):
            texts = [m.text for m in group.bot_messages()]
            assert len(set(texts[:share])) == share and texts[share:] == ["board"], texts
        assert sum(not c.done() for c in cards) == 8  # the other cards wait for the minute
    finally:
        for c in cards:
            c.cancel()
        await asyncio.gather(*cards, return_exceptions=True)
        await bot.shutdown()
    assert [c.error_code for c in standin.calls(ok=False)] == []


async def test_a_call_at_low_priority_lets_a_waiting_game_call_go_first(
        standin: StandIn) -> None:
    group = standin.group("G", standin.user("Alice"))
    standin.set_flood_limits(FloodLimits(group_per_minute=0, chat_per_second=1.0, chat_burst=1))
    bot = await a_bot(standin, ChatLimiter(group_per_minute=0, chat_per_second=1.0, chat_burst=1,
                                           overall_per_second=0, max_retries=0))
    try:
        await bot.send_message(group.id, "first")  # the chat's second is taken
        with low_priority():
            card = asyncio.ensure_future(bot.send_message(group.id, "card"))
        await asyncio.sleep(0.05)  # the card waits first...
        board = asyncio.ensure_future(bot.send_message(group.id, "board"))
        await asyncio.gather(card, board)
    finally:
        await bot.shutdown()
    # ...and goes after the board
    assert [m.text for m in group.bot_messages()] == ["first", "board", "card"]
    assert [c.error_code for c in standin.calls(ok=False)] == []


async def test_calls_at_low_priority_leave_a_quarter_of_each_second_to_the_game(
        standin: StandIn) -> None:
    alice = standin.user("Alice")
    groups = [standin.group(f"G{i}", alice) for i in range(5)]
    standin.set_flood_limits(FloodLimits(group_per_minute=0, chat_per_second=0,
                                         overall_per_second=4))
    bot = await a_bot(standin, ChatLimiter(overall_per_second=4, group_per_minute=0,
                                           chat_per_second=0, max_retries=0))
    try:
        with low_priority():  # a crowd's notes, each to its own chat
            notes = [asyncio.ensure_future(bot.send_message(g.id, "note")) for g in groups[:4]]
        await standin.wait_for(lambda: len(standin.calls("sendMessage")) == 3, what="3 notes")
        await bot.send_message(groups[4].id, "board")  # the second's last call: the game's
        await asyncio.gather(*notes)
    finally:
        await bot.shutdown()
    sent = [c.params.get("text") for c in standin.calls("sendMessage")]
    assert sent == ["note", "note", "note", "board", "note"]
    assert [c.error_code for c in standin.calls(ok=False)] == []


def test_a_players_resign_in_a_busy_group_is_the_games_not_chatter() -> None:
    from datetime import UTC, datetime

    from telegram import Chat as TgChat
    from telegram import Message as TgMessage
    from telegram import MessageEntity
    from telegram import User as TgUser

    from bot.intake.crowd import is_chatter

    group = TgChat(-100, "supergroup", title="Kafeneio")
    alice = TgUser(1, "Alice", is_bot=False)

    def command(text: str) -> Update:
        entity = MessageEntity("bot_command", 0, len(text.split()[0]))
        return Update(1, message=TgMessage(1, datetime.now(UTC), group, from_user=alice,
                                           text=text, entities=[entity]))

    # /resign acts on the player's own match: it is not shed with the crowd's /new
    assert not is_chatter(command("/resign"))
    assert not is_chatter(command("/resign@portes_bot"))
    assert is_chatter(command("/new"))
    assert is_chatter(command("/top plakoto"))
