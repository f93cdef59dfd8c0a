"""Two instances of the bot on one PostgreSQL database behind a round-robin proxy, in webhook
mode, with Telegram's faults injected (updates delivered twice, 5xx answers, 429s, slow calls and
answers), and one instance killed (SIGKILL) in the middle and not restarted. Five (or eight)
one-point matches (two against the computer) are played concurrently: no move is lost or
doubled, each chat ends with exactly one live board per match, every timer fires once, and the
survivor finishes the matches the dead instance was serving, the computer's pending turns
included. How long it takes
is not the test's business: ``bench/instances.py`` plays fifty matches and reports the time
(the waits here are hang guards only).

The players have started the bot, so they play their group matches on private boards; each
turn they type the racing play in notation in the private chat (one update a turn: fewest pips
left, hitting nothing, so a one-point match ends in about 45 turns) and every ``TAP_EVERY``-th
turn they tap through the keyboard instead. The first matches of a :class:`Size` (the
computer's two, and in the whole size one group's) are played to their natural end (the
bear-off); the others play a few turns, then the player to move resigns the match (each size
proves the same; fewer turns make the test quicker). The default run plays the smaller size,
``pytest -m full`` (CI) both; ``PORTES_INSTANCES_MATCHES``, ``_FULL`` and ``_TURNS`` change them.
"""

from __future__ import annotations

import asyncio
import os
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import select

from bot.views.callbacks import Action
from standin import Chat, Message, StandIn, StandInError, User
from standin.cluster import (
    MATCH_OVER,
    Cluster,
    Tally,
    open_computer_match,
    open_group_match,
    percentile,
)
from standin.players import live_board, live_boards
from standin.typed_play import play_out
from storage.models import ComputerClaimRow, MatchRow, TimerRow, TurnRow
from storage.results import MatchStatus
from tests.sampling import sample_or_full

PG = os.environ.get("PORTES_TEST_POSTGRES_URL")
pytestmark = pytest.mark.skipif(not PG, reason="needs PORTES_TEST_POSTGRES_URL (.ci/postgres.sh)")

@dataclass(frozen=True)
class Size:
    """How much is played: ``matches`` in all (two against the computer), the first ``full``
    played to their natural end, the others ``turns`` turns, then resigned."""
    matches: int
    full: int
    turns: int

    @classmethod
    def of(cls, default: Size) -> Size:
        env = os.environ.get
        return cls(int(env("PORTES_INSTANCES_MATCHES", default.matches)),
                   int(env("PORTES_INSTANCES_FULL", default.full)),
                   int(env("PORTES_INSTANCES_TURNS", default.turns)))


KILL_SIZES = sample_or_full(Size(matches=3, full=1, turns=6), Size(matches=8, full=3, turns=8))
"""The default run plays one of the computer's two matches out, the other and a group's for a
few turns (every check of the whole size holds at it: turns on both sides of the kill, duplicates,
faults, timers, the survivor's computer turns); CI's ``-m full`` plays the whole size too."""
COMPUTER_MATCHES = 2
TAP_EVERY = 10
COMPUTER_PACE = 0.5
"""Seconds the computer's opponents look before each play: their matches then last across the
kill (played as fast as the boards come they ended before it), so the survivor has computer
turns to take over."""
TURNS_OUT = {"group": 44, "computer": 22}
"""About how many turns the people play in a match played out (for when to kill)."""
CHALLENGE_TTL = 12.0
"""Seconds a challenge stays open: the ones opened after the kill expire by the survivor."""
HANG = 600.0
"""The hang guard of the whole play: generous (a loaded machine is slow, not wrong)."""
EXPIRED = "This challenge has expired."
DUPLICATED = tuple(f"{action}:" for action in (
    Action.CONFIRM, Action.PLAY, Action.ACCEPT, Action.RESIGN_ACCEPT, Action.RESIGN, Action.FROM,
    Action.BACK))
"""The taps delivered twice: those that commit a step (a play, a confirmation, accepting,
resigning) and those that only change a keyboard (choosing a checker, going back). A copy of a
keyboard-only tap handled late by the other instance changes nothing once the match moved on:
the edit is made under the board's place claim, only while the keyboard is still current."""


REVEALED, REVIEWED = "The dice seed was", "Review of match #"


def told(chat: Chat, mark: str) -> int:
    """The bot's messages in the chat that say ``mark`` (deleted ones not counted)."""
    return sum(1 for m in chat.bot_messages() if m.photo_bytes is None and mark in m.content)


async def open_challenge(standin: StandIn, user: User, group: Chat) -> Message:
    """A challenge nobody accepts: its expiry is a timer. (Asked again when its card does not
    show the dice commitment in time: the update went to the instance being killed.)"""
    for _ in range(3):
        cmd = user.send(group, "/new")
        try:
            card = await group.wait_for_bot_message(after=cmd, timeout=15)
            await user.tap(card, "1 point").wait(15)
            await standin.wait_for(lambda c=card: "SHA-256" in (c.refresh().text or ""),
                                   timeout=15)
        except StandInError:
            continue
        return card.refresh()
    raise AssertionError("no challenge could be opened")


async def inject_faults(standin: StandIn, groups: list[Chat], stop: asyncio.Event) -> None:
    """Telegram misbehaving now and then while the matches are played: one fault in turn
    every 1.5 s (besides the updates the webhook delivers twice)."""
    n = 0
    while not stop.is_set():
        n += 1
        group = groups[n % len(groups)]
        fault = n % 5
        if fault == 0:
            standin.inject_error("editMessageCaption", 502)
        elif fault == 1:
            standin.inject_error("sendPhoto", 500)
        elif fault == 2:
            standin.inject_error(None, 429, retry_after=1, chat_id=group.id)
        elif fault == 3:
            standin.inject_delay("editMessageMedia", 1.5)
        else:
            standin.inject_delay("answerCallbackQuery", 2.0)
        await asyncio.sleep(1.5)


@pytest.mark.long
@pytest.mark.parametrize("size", KILL_SIZES)
async def test_two_instances_one_killed_mid_play(tmp_path: Path, size: Size) -> None:
    assert PG is not None
    with StandIn(recompress_photos=False) as standin:
        # every 3rd tap that ends a turn (or accepts) is delivered twice; see DUPLICATED
        # on a new database: the two instances start together and migrate it themselves
        cluster = Cluster(standin, PG, tmp_path, n=2, duplicate_every=3,
                          duplicate_actions=DUPLICATED, migrated=False,
                          PORTES_CHALLENGE_TTL=str(CHALLENGE_TTL / 3600))
        try:
            await cluster.start()
            await play_and_check(standin, cluster, Size.of(size))
        finally:
            cluster.stop()
            survivor = cluster.log(1)
            if not os.environ.get("PORTES_INSTANCES_KEEP"):  # keep the database to look into
                cluster.drop()
            else:
                print("database kept:", cluster.url)
    assert "Traceback" not in survivor, survivor[max(0, survivor.find("Traceback") - 600):][:5000]


async def play_and_check(standin: StandIn, cluster: Cluster, size: Size) -> None:
    groups: list[tuple[Chat, User, User]] = []
    for i in range(size.matches - COMPUTER_MATCHES):
        a, b = standin.user(f"A{i}", username=f"a{i}"), standin.user(f"B{i}", username=f"b{i}")
        groups.append((standin.group(f"Kafeneio {i}", a, b), a, b))
    solo = [standin.user(f"C{i}", username=f"c{i}") for i in range(COMPUTER_MATCHES)]
    idle = standin.user("Eve", username="eve")
    lobby = standin.group("Lobby", idle)
    gate = asyncio.Semaphore(12)

    async def gated(coro: object) -> None:
        async with gate:
            await coro  # type: ignore[misc]

    cards = [await open_challenge(standin, idle, lobby)]
    await asyncio.gather(*(gated(open_group_match(standin, g, a, b, started=True))
                           for g, a, b in groups),
                         *(gated(open_computer_match(standin, u)) for u in solo))
    tallies = [Tally() for _ in groups] + [Tally(seats=(0,)) for _ in solo]
    # the computer's matches are played out first, then the groups'
    tables: list[tuple[Chat, list[User], Tally, str]] = [
        (u.private, [u], t, "computer") for u, t in zip(solo, tallies[len(groups):], strict=True)]
    tables += [(g, [a, b], t, "group") for (g, a, b), t in zip(groups, tallies, strict=False)]
    plays = [play_out(cluster, chat, people, t, tap_every=TAP_EVERY,
                      turns=10_000 if i < size.full else size.turns,
                      pace=COMPUTER_PACE if kind == "computer" else 0.0)
             for i, (chat, people, t, kind) in enumerate(tables)]
    stop = asyncio.Event()
    background = [asyncio.create_task(inject_faults(standin, [g for g, _, _ in groups], stop))]
    playing = asyncio.ensure_future(asyncio.gather(*plays))
    # the kill: once about half the turns were played, or half of the turns of the matches
    # resigned after a few (a match played out can end well before the turns it usually
    # takes, and the kill must still leave turns to play after it)
    half = sum(TURNS_OUT[kind] if i < size.full else size.turns
               for i, (_, _, _, kind) in enumerate(tables)) // 2
    resigned = [t for i, (_, _, t, _) in enumerate(tables) if i >= size.full]
    while (sum(t.finals for t in tallies) < half
           and sum(t.finals for t in resigned) < size.turns * len(resigned) // 2
           and not playing.done()):
        await asyncio.sleep(0.02)
    finals_at_kill = sum(t.finals for t in tallies)
    killed_at = datetime.now(UTC)
    cluster.kill(0)
    cards += [await open_challenge(standin, idle, lobby) for _ in range(2)]
    try:
        await asyncio.wait_for(playing, timeout=HANG)
    except TimeoutError:
        raise AssertionError(
            f"the matches did not end (a hang guard of {HANG:.0f} s): "
            f"{sum(t.finals for t in tallies)} turns played, "
            f"{sum(t.ended for t in tallies)} of {len(tallies)} matches ended, "
            f"the kill after {finals_at_kill} turns") from None
    stop.set()
    await asyncio.gather(*background)
    await check(standin, cluster, tallies, groups, solo, cards, finals_at_kill)
    # the matches played out ended by their natural end, not by a resignation
    outs = [t.match_id for i, (_, _, t, _) in enumerate(tables) if i < size.full]
    reasons = cluster.query(select(MatchRow.end_reason).where(MatchRow.id.in_(outs)))
    assert "resigned" not in {r for (r,) in reasons}, reasons
    print(f"instances test: played to the end {size.full} of {len(tables)} matches")
    # the survivor played the computer's turns after the kill
    computer = [t.match_id for t in tallies if t.seats == (0,)]
    late = cluster.query(select(TurnRow.id).where(
        TurnRow.match_id.in_(computer), TurnRow.player == 1, TurnRow.created_at > killed_at))
    assert late, "no computer turn was played after the kill"


async def check(standin: StandIn, cluster: Cluster, tallies: list[Tally],
                groups: list[tuple[Chat, User, User]], solo: list[User], cards: list[Message],
                finals_at_kill: int) -> None:
    # the kill came in the middle: turns were played before it and after it
    total = sum(t.finals for t in tallies)
    assert 0 < finals_at_kill < total
    # every match ended; every turn the players saw accepted is in the move log, once
    assert all(t.ended and t.match_id for t in tallies)
    for tally in tallies:
        # a tapped turn the players did not see in time (its board came late: "retapped") may
        # or may not have been played; none is played twice
        played = cluster.played_turns(tally.match_id, tally.seats)
        assert tally.finals <= played <= tally.finals + tally.retapped, (played, tally)
    ids = [t.match_id for t in tallies]
    statuses = cluster.query(select(MatchRow.id, MatchRow.status).where(MatchRow.id.in_(ids)))
    assert {status for _, status in statuses} == {MatchStatus.FINISHED}
    # the boards: each chat ends with one live board of its match, the last one
    chats = [g for g, _, _ in groups] + [u.private for u in solo]
    await standin.wait_for(lambda: all(len(live_boards(c)) == 1 for c in chats), timeout=30,
                           what="one live board per chat")
    for chat in chats:
        board = live_board(chat)
        assert board is not None and MATCH_OVER in (board.caption or "")
    # the notices (outbox rows, whichever instance sends them): each match's dice seed
    # revealed once where it was played, and each person's review of it once
    people = [u for _, a, b in groups for u in (a, b)] + solo
    await standin.wait_for(lambda: all(told(c, REVEALED) for c in chats)
                           and all(told(u.private, REVIEWED) for u in people), timeout=90,
                           what="every seed revealed and every review sent")
    await standin.idle(quiet=1.0, timeout=30)
    assert [told(c, REVEALED) for c in chats] == [1] * len(chats)
    assert [told(u.private, REVIEWED) for u in people] == [1] * len(people)
    # the timers: every challenge expired once (one of them after the kill, by the survivor)
    await standin.wait_for(lambda: all(c.refresh().text == EXPIRED for c in cards),
                           timeout=CHALLENGE_TTL + 20, what="the challenges to expire")
    for card in cards:
        edits = [c for c in standin.calls("editMessageText", chat_id=card.chat_id, ok=True)
                 if str(c.params.get("message_id")) == str(card.message_id)
                 and c.params.get("text") == EXPIRED]
        assert len(edits) == 1
    now = datetime.now(UTC)
    timers = cluster.query(select(TimerRow.id, TimerRow.fired_at, TimerRow.due_at))
    assert [t for t in timers if t.due_at <= now and t.fired_at is None] == []
    # the computer's turns: none pending, none held
    assert cluster.query(select(ComputerClaimRow.match_id)) == []
    taps = [lat for t in tallies for lat in t.latencies]
    print(f"instances test: matches={len(tallies)} finals={total} at_kill={finals_at_kill} "
          f"taps={sum(t.taps for t in tallies)} typed={sum(t.typed for t in tallies)} "
          f"retapped={sum(t.retapped for t in tallies)} "
          f"p95_ms={percentile(taps, 0.95) * 1000:.0f}")


BUDGET_TURNS = sample_or_full((4, 2), (12, 3))
"""Turns played in the groups whose players started the bot, and in the one whose did not."""


@pytest.mark.long
@pytest.mark.parametrize("turns", BUDGET_TURNS)
async def test_two_instances_share_telegrams_budget_of_a_group(
        tmp_path: Path, turns: tuple[int, int]) -> None:
    """The stand-in enforces Telegram's flood limits (20 calls a minute in a group, about one
    a second in a chat, 30 a second overall) and the instances run with the rates as shipped
    (the overall 30 a second divided between the two): groups are played through both
    instances at once, and Telegram never answers 429, nor sees more than 20 calls in any
    minute of a group. In two groups the players started the bot (a typed or tapped play on a
    private board; the group's board edited once a turn); in one they did not (every tap
    edits the group's board: the budget binds, and the taps wait for it). The players look a
    second before each tap or play, as people do (a private chat's second is counted per
    instance: a machine tapping as fast as the boards come, its taps handled by both
    instances in turn, can be answered 429 in its private chat)."""
    assert PG is not None
    with StandIn(recompress_photos=False) as standin:
        cluster = Cluster(standin, PG, tmp_path, n=2, PORTES_RATE_OVERALL="15",
                          PORTES_RATE_GROUP="20", PORTES_RATE_CHAT="1")
        try:
            await cluster.start()
            standin.set_flood_limits()
            tables = []
            for i, started in enumerate((True, True, False)):
                a = standin.user(f"A{i}", username=f"a{i}")
                b = standin.user(f"B{i}", username=f"b{i}")
                group = standin.group(f"Kafeneio {i}", a, b)
                tables.append((group, a, b, started))
            await asyncio.gather(*(open_group_match(standin, g, a, b, started=started)
                                   for g, a, b, started in tables))
            tallies = [Tally() for _ in tables]
            plays = asyncio.gather(*(
                play_out(cluster, g, [a, b], t, tap_every=3, turns=turns[0 if started else 1],
                         pace=1.0)
                for (g, a, b, started), t in zip(tables, tallies, strict=True)))
            try:
                await asyncio.wait_for(plays, HANG)
            except TimeoutError:
                raise AssertionError(f"the matches did not end (a hang guard of {HANG:.0f} s): "
                                     f"{[t.finals for t in tallies]} turns played") from None
            for tally in tallies:
                assert tally.ended
                assert cluster.played_turns(tally.match_id, (0, 1)) == tally.finals, tally
            throttled = [f"{c.method} {c.params.get('chat_id')} at {c.time % 1000:.2f}"
                         for c in standin.calls(ok=False) if c.error_code == 429]
            assert throttled == [], (throttled, [
                (c.method, c.params.get("chat_id"), round(c.time % 1000, 2), c.ok)
                for c in standin.calls() if c.method != "answerCallbackQuery"][-150:])
            for group, *_ in tables:
                times = sorted(c.time for c in standin.calls(chat_id=group.id) if c.ok
                               and c.method.lower().startswith(("send", "edit", "delete")))
                assert times, group
                busiest = max(sum(1 for t in times if s <= t < s + 60) for s in times)
                assert busiest <= 20, (group, busiest)
            print(f"budget test: {sum(t.finals for t in tallies)} turns in "
                  f"{[t.finals for t in tallies]}, calls per group "
                  f"{[len(standin.calls(chat_id=g.id)) for g, *_ in tables]}")
        finally:
            cluster.stop()
            cluster.drop()
    logs = cluster.log(0) + cluster.log(1)
    assert "Traceback" not in logs, logs[max(0, logs.find("Traceback") - 600):][:5000]
