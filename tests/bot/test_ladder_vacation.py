"""The group ladder over three days, and a vacation, end to end through the stand-in with the
fake clock: whoever opens the ladder chooses its game (the Tavli rotation here) and length;
players join from the ladder card; each day the card (one message, redrawn in place through
the outbox) pairs the players by rung with a Start button for each pair; a resigned match
moves the winner up and the loser down, and the card shows it before the next day; a
vacation stops the mover's clock and tells the opponent (and the match is lost on time once
the vacation's days have passed too)."""

from __future__ import annotations

import asyncio
import itertools
import re

from sqlalchemy import select

from bot.views.callbacks import Action, encode
from standin import Chat, Message, StandIn, User
from standin.players import live_board, next_private_turn
from storage.models import TimerRow
from storage.results import MatchStatus
from tests.bot.conftest import Running
from tests.bot.helpers.competitions import showing
from tests.bot.helpers.private import deep_link_match

LADDER_MARK = "Pairings of"
HANG = 60.0
"""Hang guards only (a loaded machine is slow, not wrong)."""


async def started(standin: StandIn, name: str) -> User:
    user = standin.user(name, username=name.lower())
    hello = user.start_bot()
    await user.private.wait_for_bot_message(after=hello)
    return user


def ladder_cards(group: Chat) -> list[int]:
    """The ladder cards in the group (their message ids)."""
    return [m.message_id for m in group.bot_messages() if "The group's ladder" in m.content]


def wins_on(card: Message) -> int:
    return sum(int(w) for w in re.findall(r"\((\d+) won,", card.content))


async def start_pairs(standin: StandIn, group: Chat, users: dict[str, User],
                      card: Message) -> int:
    """Each pair's second player taps Start on the day's card; how many pairs."""
    starts = [b for b in card.button_texts if b.startswith("▶ ")]
    for label in starts:
        second = label[2:].split(" vs ")[1].split(":")[0]
        await users[second].tap(card, label).wait(HANG)
    return len(starts)


def rungs(card: Message) -> dict[str, int]:
    found = {}
    for line in card.content.splitlines():
        if line.startswith("Rung "):
            rung, rest = line[5:].split(": ", 1)
            found[rest.split(" (")[0]] = int(rung)
    return found


async def test_a_ladder_over_three_days(standin: StandIn, bot: Running) -> None:
    names = ["Ana", "Ben", "Cem", "Dia"]
    users = {n: await started(standin, n) for n in names}
    group = standin.group("Kafeneio", *users.values())
    cmd = users["Ana"].send(group, "/ladder")
    card = await group.wait_for_answer(cmd)
    # whoever opens it chooses what it plays: the Tavli rotation, to 5 points
    assert "no ladder yet" in card.text and "Portes · matches to 3 points" in card.text
    await users["Ana"].tap(card, "Tavli").wait(HANG)
    card = await showing(standin, card, "Tavli · matches to 3 points")
    await users["Ana"].tap(card, "5").wait(HANG)
    card = await showing(standin, card, "Tavli · matches to 5 points")
    opened = await users["Ana"].tap(card, "🪜 Open the ladder").wait(HANG)
    assert opened is not None and "The ladder is open" in opened.text
    card = await showing(standin, card, "Its matches: Tavli · matches to 5 points")
    for user in list(users.values())[1:]:
        answer = await user.tap(card, "➕ Join the ladder").wait(HANG)
        assert answer is not None and "You are on the ladder" in answer.text
    again = await users["Ana"].tap(card, "➕ Join the ladder")
    assert again is not None and again.show_alert and "already" in again.text
    await standin.wait_for(lambda: all(n in card.refresh().text for n in names), timeout=HANG,
                           what="joined")
    history = []
    for day in range(1, 4):
        bot.clock.advance(days=1)
        today = bot.uc.now().date().isoformat()
        # the group's one ladder card, redrawn in place with the day's pairings
        posted = await showing(standin, card, f"{LADDER_MARK} {today}", timeout=HANG)
        assert ladder_cards(group) == [card.message_id]
        history.append(rungs(posted))
        assert await start_pairs(standin, group, users, posted) == 2
        for _ in range(600):  # a hang guard: both matches under way
            if len(await bot.uc.active_matches_in_chat(group.id)) == 2:
                break
            await asyncio.sleep(0.1)
        playing = await bot.uc.active_matches_in_chat(group.id)
        assert len(playing) == 2
        assert {(mv.state.game_type, mv.state.length) for mv in playing} == {("tavli", 5)}
        # in each match its first player resigns it (from their private chat): a loss
        by_id = {u.id: u for u in users.values()}
        for mv in playing:
            player = mv.seats[0].player
            assert player is not None
            quitter = by_id[player.id]
            cmd = quitter.send(quitter.private, "/resign")
            reply = await quitter.private.wait_for_bot_message(
                after=cmd, predicate=lambda m: "🏳 Resign the match" in m.button_texts,
                timeout=HANG)
            await quitter.tap(reply, "🏳 Resign the match").wait(HANG)
        # the card is redrawn with the results, before the next day
        await standin.wait_for(lambda d=day: wins_on(card.refresh()) == 2 * d,  # type: ignore[misc]
                               timeout=HANG, what=f"the results of day {day} on the card")
        assert not await bot.uc.active_matches_in_chat(group.id)
    bot.clock.advance(days=1)
    final = await showing(standin, card, f"{LADDER_MARK} {bot.uc.now().date().isoformat()}",
                          timeout=HANG)
    assert ladder_cards(group) == [card.message_id]
    history.append(rungs(final))
    assert history[0] == dict.fromkeys(names, 1)
    assert sorted(history[1].values()) == [1, 1, 2, 2]  # one win each for two of them
    for before, after in itertools.pairwise(history):
        moved = sum(abs(after[n] - before[n]) for n in names)
        assert moved >= 2  # each ladder match moved its winner up (and its loser down, >= 1)
    ladder = await bot.uc.ladder(group.id)
    assert sum(e.wins for e in ladder) == 6 and sum(e.losses for e in ladder) == 6


def fired_reminders(bot: Running) -> int:
    with bot.uc.kernel.sessions() as s:
        return len(list(s.scalars(select(TimerRow.id).where(
            TimerRow.match_id == 1, TimerRow.kind == "reminder",
            TimerRow.fired_at.is_not(None)))))


async def test_vacation_stops_the_clock_and_tells_the_opponent(
        standin: StandIn, bot: Running) -> None:
    alice, bob, _ = await deep_link_match(standin)
    mover, _board = await next_private_turn(standin, [alice, bob], 0)
    other = bob if mover is alice else alice
    cmd = mover.send(mover.private, "/vacation")
    card = await mover.private.wait_for_answer(cmd)
    assert "14" in card.text
    label = "3 days" if mover is alice else "3 μέρες"
    answer = await mover.tap(card, label)
    assert answer is not None and not answer.show_alert
    told = await other.private.wait_for_bot_message(
        predicate=lambda m: "🏖" in m.content)
    assert mover.first_name in told.text
    again = mover.send(mover.private, "/vacation")
    status = await mover.private.wait_for_answer(again)
    assert "11" in status.text and not status.has_keyboard  # on vacation: no new one
    bot.clock.advance(days=7, hours=1)  # past the time per move: the clock stood still
    for _ in range(600):  # until the timers' tick has run at this time: a reminder fired
        if fired_reminders(bot):
            break
        await asyncio.sleep(0.1)
    assert fired_reminders(bot)
    loaded = await bot.uc.load_match(1)
    assert loaded.match is not None and loaded.match.status == MatchStatus.ACTIVE
    bot.clock.advance(days=3)  # the vacation's three days on top: now it runs out
    for _ in range(600):  # a hang guard: the timers' tick fires it
        loaded = await bot.uc.load_match(1)
        if loaded.match is not None and loaded.match.status != MatchStatus.ACTIVE:
            break
        await asyncio.sleep(0.1)
    assert loaded.match is not None and loaded.match.status == MatchStatus.ABANDONED
    # the end board offers "never pair me with them" (find me an opponent's block list)
    final = await standin.wait_for(lambda: next((b for b in [live_board(other.private)] if b
                                                 and b.button_texts and "🚫" in
                                                 b.button_texts[-1]), None), what="end board")
    answer = await other.tap(final, final.button_texts[-1])
    assert answer is not None and answer.show_alert
    assert await bot.uc.blocked_players(other.id) == [(mover.id, mover.first_name)]


async def test_bad_ladder_and_vacation_taps_change_nothing(standin: StandIn, bot: Running) -> None:
    ana, ben = await started(standin, "Ana"), await started(standin, "Ben")
    group = standin.group("Kafeneio", ana, ben)
    card = await group.wait_for_answer(ana.send(group, "/ladder"))
    for data in (encode(Action.LADDER, 0, 0, "xyz"), encode(Action.LADDER, 0, 0, "leave"),
                 encode(Action.LADDER, 999, 0, "start"), encode(Action.LADDER, 0, 0),
                 encode(Action.LADDER, 0, 0, "o-v-1"), encode(Action.LADDER, 0, 0, "o-q-3")):
        answer = await ana.tap_data(card, data)
        assert answer is not None and answer.show_alert and answer.text, data
    assert await bot.uc.ladder(group.id) == []
    assert await bot.uc.ladder_settings(group.id) is None
    # no ladder opened: nothing to join
    joined = await ben.tap_data(card, encode(Action.LADDER, 0, 0, "join"))
    assert joined is not None and joined.show_alert
    in_private = await ana.private.wait_for_answer(ana.send(ana.private, "/ladder"))
    assert "send /ladder in the group" in in_private.text
    vacation = await ana.private.wait_for_answer(ana.send(ana.private, "/vacation"))
    for data in (encode(Action.VACATION, 0, 0, 99, owner=ana.id),
                 encode(Action.VACATION, 0, 0, 0, owner=ana.id),
                 encode(Action.VACATION, 0, 0, "x", owner=ana.id),
                 encode(Action.VACATION, 0, 0, 3, owner=ben.id)):
        answer = await ana.tap_data(vacation, data)
        assert answer is not None and answer.show_alert and answer.text, data
    assert (await bot.uc.vacation_status(ana.id)).ends_at is None
    answer = await ana.tap(vacation, "14 days")
    assert answer is not None and not answer.show_alert
    status = await bot.uc.vacation_status(ana.id)
    assert status.ends_at is not None and status.days_left == 0
    # the card has no buttons now
    again = await ana.tap_data(vacation, encode(Action.VACATION, 0, 0, 1, owner=ana.id))
    assert again is not None and again.show_alert
    card = await ana.private.wait_for_answer(ana.send(ana.private, "/vacation"))
    assert "You are on vacation until" in card.text and not card.has_keyboard
    assert (await bot.uc.take_vacation(ana.id, 1)).code == "on_vacation"
