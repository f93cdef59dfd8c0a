"""The screenshots in README.md and docs/bot.md, made from real play.

    python tools/screenshots.py     # rewrites docs/screenshot-{group,private,end,top,replay}.png
    python tools/screenshots.py --only end -o /tmp
    python tools/screenshots.py --lang ru   # docs/screenshot-{group,...}.ru.png, in Russian

(with the project's virtual environment, from the repository's root; about a minute). Then look
at the pictures and commit them.

Nothing is staged. The real bot, built in this process the way the tests build it (on a fresh
SQLite file, every match's dice seed fixed with ``UseCases(seeds=...)``), plays against the Bot
API stand-in (``standin``); simulated players tap the buttons it sent
(``standin/players.py``). A message is then drawn from what the stand-in holds for it, the
photo, the caption with its entities and the inline keyboard, by ``tools/chat_bubble.py``. The
same seeds and the same taps give the same pictures, so rerun this whenever the captions, the
keyboards or the board's drawing change.

- ``screenshot-group.png``: a group in English, a match to 3 points; Alice started the bot,
  Bob never did, so he plays on the group's board. Each player taps the first button offered
  (a turn's last tap first: Confirm, a whole play or a move that completes the play; else a
  move, else a checker) until the group's board first tells two turns, one with a hit, with
  Bob to move, and then shows that board: its caption, Bob's moves (every one a button at
  once) and "🔒 Play privately", the link that starts the bot.
- ``screenshot-private.png``: Alice's private board on her next turn, after moving one checker
  (one tap on the first checker offered, one on its first destination).
- ``screenshot-top.png``: ``/top`` in a group in English where four players finished eight
  1-point matches (each ended by a resignation), asked by the player in last place: the picture
  with its caption.
- ``screenshot-replay.png``: ``/history`` in that group after Alice resigned a match to 3 points
  four turns in, ▶ Replay tapped and stepped forward twice: the replay board, its caption (the
  game, the play shown with its dice, the step) and the ◀ ▶ ⏮ ⏭ and Position buttons.
- ``screenshot-end.png``: a group in Greek (the players' Telegram language), a match to 3
  points played to its end, every turn one tap (whole plays offered): the last board, with the
  game's result, the match's result, Rematch and Review.

With ``--lang`` (any language of ``bot/locales``, ``docs/translating.md``) every picture is
made the same way by players whose Telegram language it is, in a group that speaks it, and
saved as ``screenshot-<name>.<lang>.png``; the matches are Portes (``/new portes``), whatever
the language's favourite game.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import hashlib
import logging
import re
import sys
import tempfile
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tools")]

from chat_bubble import compose, save  # noqa: E402

from bot.app import build_application  # noqa: E402
from bot.settings import Limits, RateLimits, Settings, Timeouts  # noqa: E402
from bot.views.i18n import Tr, langs, tr  # noqa: E402
from standin import Chat, Message, StandIn, User  # noqa: E402
from standin.players import (  # noqa: E402
    live_board,
    play_turn,
    start_group_match,
    start_the_bot,
    tap_and_wait,
    turn_actions,
    turn_board,
)
from storage.db import Database  # noqa: E402
from storage.migrate import upgrade  # noqa: E402
from storage.results import TimerPolicy  # noqa: E402
from storage.usecases import UseCases  # noqa: E402

BOT_NAME = "Portes"
NOW = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)
TIME = NOW.strftime("%H:%M")
GROUP_SEED = hashlib.sha256(b"shot 7").digest()
FALLBACK_SEED = hashlib.sha256(b"shot 9").digest()
"""The group's board a player who never started the bot plays on (and the private board)."""
END_SEED = hashlib.sha256("τέλος 8".encode()).digest()


PEOPLE = {
    "en": ("Alice", "Bob", "Maria", "Giorgos", "Kafeneio"),
    "el": ("Ελένη", "Νίκος", "Μαρία", "Γιώργος", "Καφενείο"),
    "ru": ("Анна", "Борис", "Мария", "Георгий", "Кафе"),
    "tr": ("Ayşe", "Mehmet", "Zeynep", "Emre", "Kahvehane"),
}
"""The players and the group of each language's pictures (Latin names elsewhere)."""


@dataclasses.dataclass(frozen=True)
class Cast:
    """Who plays in one language's pictures, and the labels they tap."""

    lang: str

    @property
    def t(self) -> Tr:
        return tr(self.lang)

    def people(self) -> tuple[str, ...]:
        return PEOPLE.get(self.lang, PEOPLE["en"])

    def user(self, standin: StandIn, i: int) -> User:
        name = self.people()[i]
        code = None if self.lang == "en" else self.lang
        return standin.user(name, username=f"player{i}", language_code=code)

    def points(self, n: int) -> str:
        return self.t.ngettext("{n} point", "{n} points", n)

    def file(self, name: str) -> str:
        return f"screenshot-{name}" + ("" if self.lang == "en" else f".{self.lang}") + ".png"

    def played(self, caption: str) -> int:
        """How many turns ``caption`` tells (lines like "Alice played 6-5: 13/7 13/8")."""
        marks = {"player": "\x00", "dice": "\x01", "moves": "\x02"}
        line = re.escape(self.t._("{player} played {dice}: {moves}", **marks))
        for mark in marks.values():
            line = line.replace(re.escape(mark), ".+?")
        return sum(bool(re.fullmatch(line, ln)) for ln in caption.splitlines())


async def challenge(standin: StandIn, cast: Cast, author: User, acceptor: User, group: Chat,
                    length: int) -> Message:
    """A Portes match in ``group`` (``/new portes``, a length, Accept): the first board."""
    cmd = author.send(group, "/new" if cast.lang == "en" else "/new portes")
    label = cast.points(length)
    card = await group.wait_for_bot_message(after=cmd, predicate=lambda m: label in m.button_texts)
    await author.tap(card, label)
    await standin.wait_for(lambda: "SHA-256" in (card.refresh().text or ""), what="the challenge")
    await acceptor.tap(card.refresh(), "🎲 " + cast.t._("Accept"))
    return await standin.wait_for(  # type: ignore[no-any-return]
        lambda: (b := live_board(group)) is not None and b.message_id > card.message_id and b,
        what="the first board")


async def resign(standin: StandIn, cast: Cast, loser: User, group: Chat, board: Message) -> None:
    label = "🏳 " + cast.t._("Resign the match")
    cmd = loser.send(group, "/resign")
    menu = await group.wait_for_bot_message(after=cmd, predicate=lambda m: label in m.button_texts)
    await loser.tap(menu, label)
    await standin.wait_for(lambda: (b := live_board(group)) is not None
                           and b.message_id >= board.message_id and "🏆" in b.caption,
                           what="the end")


def shot(message: Message, path: Path, *, sender: str | None = None) -> int:
    """Draw ``message`` as the stand-in holds it and save it at ``path``; its size in bytes."""
    assert message.photo_bytes is not None, "not a board"
    buttons = [[(b.text, b.url is not None) for b in row] for row in message.buttons]
    image = compose(message.photo_bytes, message.caption or "", message.caption_entities,
                    buttons, sender=sender, time=TIME)
    return save(image, path)


@contextlib.asynccontextmanager
async def running_bot(seed: bytes, keep: list[UseCases] | None = None,
                      **changes: Any) -> AsyncIterator[StandIn]:
    """A stand-in and the bot against it (long polling, rate limits and the caps on /new
    lifted: the leaderboard's nine matches take less than a minute; a fixed clock), every
    match with dice seed ``seed``; ``keep``: the bot's use cases are appended to it."""
    with (tempfile.TemporaryDirectory(prefix="portes-shots-") as work,
          StandIn(bot_name=BOT_NAME) as standin):
        url = f"sqlite:///{Path(work) / 'shots.sqlite3'}"
        upgrade(url)
        settings = Settings(
            token=standin.token, database_url=url, api_url=standin.base_url,
            file_url=standin.base_file_url,
            rate=RateLimits(overall_per_second=0, group_per_minute=0, chat_per_second=0,
                            max_retries=3),
            timeouts=Timeouts(timer_poll=0.2), computer_delay=0.0,
            limits=Limits(new_per_minute=0, new_per_group_minute=0), **changes)
        db = Database.from_url(url)
        uc = UseCases(db, timers=TimerPolicy(), clock=lambda: NOW, seeds=lambda: seed)
        if keep is not None:
            keep.append(uc)
        app = build_application(settings, usecases=uc, migrate=False)
        await app.initialize()
        assert app.post_init is not None and app.updater is not None
        await app.post_init(app)  # what run_polling does after initialize()
        await app.start()
        await app.updater.start_polling(poll_interval=0, timeout=1)
        try:
            yield standin
        finally:  # what run_polling does on its way out
            await app.updater.stop()
            await app.stop()
            if app.post_stop is not None:
                await app.post_stop(app)
            await app.shutdown()
            if app.post_shutdown is not None:
                await app.post_shutdown(app)
            await db.dispose()


async def play_until(standin: StandIn, group: Chat, players: list[User],
                     wanted: Callable[[str], bool], turns: int = 400,
                     on: Callable[[Message], bool] = lambda _board: True) -> Message:
    """Play turns (each player tapping the first buttons offered) until the group's board
    has a caption ``wanted`` likes (and is a board ``on`` likes); that board."""
    for _ in range(turns):
        board = live_board(group)
        assert board is not None and board.caption is not None
        if wanted(board.caption) and on(board):
            return board
        mover = next((u for u in players if board.mentions(u)), None) or await standin.wait_for(
            lambda: next((u for u in players if (p := live_board(u.private)) is not None
                          and turn_actions(p)), None), what="a player to move")
        await play_turn(standin, mover, group)
    raise AssertionError("no such board: pick another seed")


def hit_and_forced(cast: Cast) -> Callable[[str], bool]:
    """Two turns told, one with a hit, and someone to move."""
    def told(caption: str) -> int:
        return caption.count(" played ") if cast.lang == "en" else cast.played(caption)
    return lambda caption: told(caption) == 2 and "*" in caption and "👉" in caption


async def group_and_private(out: Path, only: set[str], cast: Cast) -> None:
    async with running_bot(FALLBACK_SEED) as standin:
        if cast.lang == "en":
            alice = standin.user("Alice", username="alice")
            bob = standin.user("Bob", username="bob")
            group = standin.group("Kafeneio", alice, bob)
            await start_the_bot(alice)  # Bob never does: he plays on the group's board
            await start_group_match(standin, alice, bob, group, "3 points")
        else:
            alice, bob = cast.user(standin, 0), cast.user(standin, 1)
            group = standin.group(cast.people()[4], alice, bob)
            await start_the_bot(alice)
            await challenge(standin, cast, alice, bob, group, 3)
        board = await play_until(standin, group, [alice, bob], hit_and_forced(cast),
                                 on=lambda b: b.mentions(bob) and bool(turn_actions(b)))
        if "group" in only:
            path = out / cast.file("group")
            report(path, shot(board, path, sender=BOT_NAME))
        if "private" not in only:
            return
        private = await alices_next_turn(standin, group, alice, bob)
        for action in ("f", "m"):
            await tap_and_wait(standin, alice, private, turn_actions(private)[action][0])
            private = private.refresh()
        path = out / cast.file("private")
        report(path, shot(private, path))


async def alices_next_turn(standin: StandIn, group: Chat, alice: User, bob: User) -> Message:
    """Play on until Alice's private board offers a turn entered checker by checker."""
    for _ in range(40):
        board = live_board(group)
        assert board is not None
        if board.mentions(bob):
            await play_turn(standin, bob, group)
            continue
        private: Message = await standin.wait_for(lambda: turn_board(alice, group),
                                                  what="the private board")
        if "f" in turn_actions(private):
            return private
        await play_turn(standin, alice, group)
    raise AssertionError("Alice never had such a turn: pick another seed")


async def end(out: Path, cast: Cast) -> None:
    """The end of a match in Greek (``cast`` English: the pictures' habit), else in
    ``cast``'s language."""
    cast = Cast("el") if cast.lang == "en" else cast
    async with running_bot(END_SEED, plays_direct=40) as standin:
        eleni, nikos = cast.user(standin, 0), cast.user(standin, 1)
        group = standin.group(cast.people()[4], eleni, nikos)
        await start_the_bot(eleni, nikos)
        await challenge(standin, cast, eleni, nikos, group, 3)
        board = await play_until(standin, group, [eleni, nikos], lambda c: "🏆" in c)
        path = out / ("screenshot-end.png" if cast.lang == "el" else cast.file("end"))
        report(path, shot(board, path, sender=BOT_NAME))


TOP_RESULTS = (("Eleni", "Nikos"), ("Eleni", "Nikos"), ("Maria", "Giorgos"),
               ("Maria", "Giorgos"), ("Eleni", "Maria"), ("Nikos", "Giorgos"),
               ("Maria", "Nikos"), ("Eleni", "Giorgos"), ("Nikos", "Giorgos"))
"""Who beat whom, in order: everyone has three rated matches or more (listed)."""


async def top(out: Path, cast: Cast) -> None:
    from standin.players import ask, won_by_resignation

    async with running_bot(GROUP_SEED) as standin:
        names = ("Eleni", "Nikos", "Maria", "Giorgos")
        if cast.lang == "en":
            users = {n: standin.user(n, username=n.lower()) for n in names}
            group = standin.group("Kafeneio", *users.values())
        else:
            users = {n: cast.user(standin, i) for i, n in enumerate(names)}
            group = standin.group(cast.people()[4], *users.values())
        for winner, loser in TOP_RESULTS:
            if cast.lang == "en":
                await won_by_resignation(standin, users[winner], users[loser], group)
            else:
                board = await challenge(standin, cast, users[winner], users[loser], group, 1)
                await resign(standin, cast, users[loser], group, board)
        board = await ask(users["Giorgos"], group, "/top", "🏆")
        path = out / cast.file("top")
        report(path, shot(board, path, sender=BOT_NAME))


async def replay(out: Path, cast: Cast) -> None:
    async with running_bot(GROUP_SEED) as standin:
        if cast.lang == "en":
            alice = standin.user("Alice", username="alice")
            bob = standin.user("Bob", username="bob")
            group = standin.group("Kafeneio", alice, bob)
            await start_the_bot(alice, bob)
            board = await start_group_match(standin, alice, bob, group, "3 points")
        else:
            alice, bob = cast.user(standin, 0), cast.user(standin, 1)
            group = standin.group(cast.people()[4], alice, bob)
            await start_the_bot(alice, bob)
            board = await challenge(standin, cast, alice, bob, group, 3)
        mover, other = (alice, bob) if board.mentions(alice) else (bob, alice)
        for player in (mover, other, mover, other):
            await play_turn(standin, player, group)
        await resign(standin, cast, alice, group, board)
        cmd = alice.send(group, "/history")
        listing = await group.wait_for_bot_message(after=cmd)
        replay_label = cast.t._("▶ Replay #{id}", id=1)
        await alice.tap(listing, next(t for t in listing.button_texts if t == replay_label))
        shown = await group.wait_for_bot_message(
            after=listing, predicate=lambda m: m.photo_bytes is not None)
        for edits in (1, 2):
            await alice.tap(shown.refresh(), "▶")
            await standin.wait_for(lambda n=edits: shown.refresh().edit_count >= n,
                                   what="the replay stepped")
        path = out / cast.file("replay")
        report(path, shot(shown.refresh(), path, sender=BOT_NAME))


def report(path: Path, size: int) -> None:
    print(f"{path}: {size // 1024} KB")


async def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("-o", "--out", type=Path, default=ROOT / "docs")
    parser.add_argument("--only", nargs="+", choices=("group", "private", "end", "top", "replay"),
                        default=["group", "private", "end", "top", "replay"])
    parser.add_argument("--lang", default="en", choices=langs(),
                        help="the players' and the group's language (default: English, the end "
                             "of a match in Greek)")
    args = parser.parse_args(argv)
    cast = Cast(args.lang)
    logging.basicConfig(level=logging.WARNING)
    logging.getLogger("apscheduler").setLevel(logging.ERROR)
    only = set(args.only)
    if only & {"group", "private"}:
        await group_and_private(args.out, only, cast)
    if "end" in only:
        await end(args.out, cast)
    if "top" in only:
        await top(args.out, cast)
    if "replay" in only:
        await replay(args.out, cast)


if __name__ == "__main__":
    asyncio.run(main())
