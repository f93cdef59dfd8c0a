"""Notices (issue 12): the board is the notice. A player's board comes as a new message when
their turn comes (Telegram notifies), silently when they tapped a board within the last minute
or turned their notices off with /notices; each player has one live board per match; a
reminder is that board again, with ⏰ on top, never an extra message."""

from __future__ import annotations

from bot.state import QUIET_AFTER_TAP, Portes
from bot.views.callbacks import Action, encode
from standin import Call, Chat, StandIn, User
from standin.players import live_board, play_turn, start_group_match, start_the_bot
from tests.bot.conftest import Running


class TapClock:
    """The clock the bot reads when it remembers a tap and when it posts a board (seconds):
    the test moves it, so "within the last minute" does not depend on how fast the test runs."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def tap_clock(bot: Running) -> TapClock:
    portes = bot.app.bot_data["portes"]
    assert isinstance(portes, Portes)
    clock = TapClock()
    portes.tap_clock = clock
    return clock


def silent(call: Call) -> bool:
    return str(call.params.get("disable_notification", "")).lower() == "true"


def boards_sent(standin: StandIn, chat: Chat) -> list[Call]:
    return standin.calls("sendPhoto", chat_id=chat.id, ok=True)


def photos(chat: Chat) -> list[str]:
    """The captions of the live boards in a chat."""
    return [m.caption or "" for m in chat.bot_messages() if m.photo_bytes is not None]


def to_move(group: Chat, alice: User, bob: User) -> User:
    board = live_board(group)
    assert board is not None
    return alice if board.mentions(alice) else bob


def over(group: Chat) -> bool:
    return "wins the match" in (live_board(group) or group.last()).content


class Watch:
    """Every board the bot posts in the players' private chats, checked as it comes: silent
    exactly when its player tapped a board within the last minute (on the bot's clock) or
    turned their notices off; one live board per player; no "your turn" text beside it."""

    def __init__(self, standin: StandIn, clock: TapClock, *players: User) -> None:
        self.standin = standin
        self.clock = clock
        self.players = players
        self.tapped: dict[int, float] = {}
        self.notices = {u.id: True for u in players}
        self.seen = {u.id: 0 for u in players}
        self.outcomes: list[tuple[str, bool]] = []

    def sent(self) -> int:
        return sum(len(boards_sent(self.standin, u.private)) for u in self.players)

    async def check(self) -> None:
        for user in self.players:
            sent = boards_sent(self.standin, user.private)
            for call in sent[self.seen[user.id]:]:
                at = self.tapped.get(user.id)
                recent = at is not None and self.clock.now - at < QUIET_AFTER_TAP
                expected = recent or not self.notices[user.id]
                assert silent(call) == expected, (user.first_name, self.clock.now, self.tapped)
                self.outcomes.append((user.first_name, expected))
            self.seen[user.id] = len(sent)
            # the board it replaces is retired right after a new one is posted
            await self.standin.wait_for(lambda u=user: len(photos(u.private)) <= 1,
                                        what=f"one live board for {user.first_name}")
            texts = [m.text or "" for m in user.private.bot_messages() if m.photo_bytes is None]
            assert not [t for t in texts if "Your turn" in t or "Your move" in t or "⏰" in t]

    async def play(self, group: Chat, gaps: list[float]) -> None:
        """One turn per gap: the bot's clock moves by the gap, then the player to move plays
        their whole turn (on their private board)."""
        await self.check()
        for gap in gaps:
            if over(group):
                return
            self.clock.now += gap
            mover = to_move(group, *self.players)
            before = self.sent()
            await play_turn(self.standin, mover, group)
            self.tapped[mover.id] = self.clock.now
            # the next board is posted (at this time on the bot's clock) unless the match ended
            await self.standin.wait_for(lambda b=before: over(group) or self.sent() > b,
                                        what="the next board")
            await self.standin.idle()
            await self.check()


async def test_the_board_is_the_notice_and_is_quiet_for_a_player_who_just_tapped(
        standin: StandIn, bot: Running) -> None:
    clock = tap_clock(bot)
    alice = standin.user("Alice", username="alice")
    bob = standin.user("Bob", username="bob")
    await start_the_bot(alice, bob)
    group = standin.group("Kafeneio", alice, bob)
    await start_group_match(standin, alice, bob, group, "7 points")
    watch = Watch(standin, clock, alice, bob)
    await standin.wait_for(lambda: watch.sent() > 0, what="the first private board")
    await watch.check()
    assert watch.outcomes and not any(quiet for _, quiet in watch.outcomes)  # the first board
    # the gap between one player's turn and the other's: under a minute, the board of the
    # player who tapped then comes silently; over it, it notifies
    await watch.play(group, [10.0, QUIET_AFTER_TAP + 30, 20.0, 5.0, QUIET_AFTER_TAP + 1, 30.0,
                             120.0, 15.0])
    assert {quiet for _, quiet in watch.outcomes} == {True, False}, watch.outcomes
    assert len(watch.outcomes) >= 6
    # the group's board is edited once a turn and never posted silently
    assert not any(silent(c) for c in boards_sent(standin, group))
    assert len(photos(group)) == 1


async def test_notices_off_then_on(standin: StandIn, bot: Running) -> None:
    clock = tap_clock(bot)
    alice = standin.user("Alice", username="alice")
    bob = standin.user("Bob", username="bob")
    await start_the_bot(alice, bob)
    # /notices says they are on, with a button to turn them off
    asked = alice.send(alice.private, "/notices")
    card = await alice.private.wait_for_bot_message(after=asked)
    assert card.text.startswith("🔔 Your notices are on")
    assert card.button_texts == ["🔕 Turn notices off"]
    await alice.tap(card, "🔕 Turn notices off")
    await standin.wait_for(lambda: card.refresh().text.startswith("🔕 Your notices are off"),
                           what="the notices card")
    assert card.refresh().button_texts == ["🔔 Turn notices on"]
    assert (await bot.uc.get_player(alice.id)).notices is False  # type: ignore[union-attr]
    group = standin.group("Kafeneio", alice, bob)
    await start_group_match(standin, alice, bob, group, "7 points")
    watch = Watch(standin, clock, alice, bob)
    await standin.wait_for(lambda: watch.sent() > 0, what="the first private board")
    watch.notices[alice.id] = False
    slow = QUIET_AFTER_TAP * 2  # nobody tapped within the last minute
    await watch.play(group, [slow] * 4)
    assert ("Alice", True) in watch.outcomes and ("Bob", False) in watch.outcomes
    assert ("Alice", False) not in watch.outcomes
    # off, a reminder comes silently too: her board again, with the ⏰ line
    for _ in range(3):
        if to_move(group, alice, bob) is alice:
            break
        await watch.play(group, [slow])
    assert to_move(group, alice, bob) is alice
    before = len(boards_sent(standin, alice.private))
    bot.clock.advance(hours=12, minutes=1)
    await standin.wait_for(lambda: "⏰" in (live_board(alice.private) or card).content,
                           what="the reminder")
    await standin.idle()
    reminder = boards_sent(standin, alice.private)[before:]
    assert len(reminder) == 1 and silent(reminder[0])
    await watch.check()
    # on again: her next boards notify
    asked = alice.send(alice.private, "/notices")
    card = await alice.private.wait_for_bot_message(after=asked)
    assert card.text.startswith("🔕 Your notices are off")
    await alice.tap(card, "🔔 Turn notices on")
    await standin.wait_for(lambda: card.refresh().text.startswith("🔔 Your notices are on"),
                           what="the notices card")
    await standin.idle(quiet=0.5)  # every board of the "off" part counted under it first
    await watch.check()
    watch.notices[alice.id] = True
    watch.outcomes.clear()
    await watch.play(group, [slow] * 4)
    assert ("Alice", False) in watch.outcomes
    assert ("Alice", True) not in watch.outcomes


async def test_notices_in_a_group_point_to_the_private_chat_and_taps_elsewhere_count_for_nothing(
        standin: StandIn, bot: Running) -> None:
    alice = standin.user("Alice", username="alice")
    bob = standin.user("Bob", username="bob")
    await start_the_bot(bob)
    group = standin.group("Kafeneio", alice, bob)
    asked = alice.send(group, "/notices")
    answer = await group.wait_for_bot_message(after=asked)
    assert "private chat" in answer.text
    link = answer.button("▶ Open the private chat").url
    assert link == f"https://t.me/{standin.bot_username}?start=notices"
    # the link opens the private chat on the notices card
    opened = alice.follow(link)
    card = await alice.private.wait_for_bot_message(after=opened)
    assert card.text.startswith("🔔 Your notices are on")
    # the button's data tapped from a group message (forged) changes nobody's setting
    tap = await bob.tap_data(answer, encode(Action.NOTICES, 0, 0, "off", owner=bob.id))
    assert tap.show_alert and tap.text == ("This button is not on this message; use the "
                                           "buttons it shows now.")
    assert (await bot.uc.get_player(bob.id)).notices is True  # type: ignore[union-attr]
    tap = await bob.tap_data(answer, "nt:0:0:maybe")  # malformed on purpose: no owner, no state
    assert tap.show_alert
    # in Greek
    await alice.tap(card, "🔕 Turn notices off")
    await standin.wait_for(lambda: card.refresh().text.startswith("🔕"), what="the card")
    lang = alice.send(alice.private, "/lang")
    langs = await alice.private.wait_for_bot_message(after=lang)
    await alice.tap(langs, "Ελληνικά")
    await standin.idle()
    asked = alice.send(alice.private, "/notices")
    card = await alice.private.wait_for_bot_message(after=asked)
    assert card.text.startswith("🔕 Οι ειδοποιήσεις σου είναι κλειστές")
    assert card.button_texts == ["🔔 Άνοιγμα ειδοποιήσεων"]

