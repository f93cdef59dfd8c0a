"""The competitions' pictures in docs/competitions.md, made from real play.

    python tools/competition_shots.py     # rewrites docs/screenshot-cup.png, prints the league

(with the project's virtual environment, from the repository's root; about a minute). Then look
at the picture and commit it, and paste the league's card into the page if it changed.

The real bot plays against the Bot API stand-in, as in ``tools/screenshots.py``:

- ``screenshot-cup.png``: a 5-player cup in a group in English (Eleni, Nikos, Maria, Giorgos,
  Anna, in that sign-up order; nobody is rated, so that is the seeding: three byes). Each match
  is ended by its loser sending ``/resign`` in the group and tapping "Resign the match" (the
  better seed wins, except that Maria beats Nikos in the semi-final); the bracket card once the
  final is over.
- the league: a 4-player double round robin, every result a resignation of the loser (made
  through the use cases: each player has three matches at once, and ``/resign`` would ask
  which), with Giorgos and Nikos level on points and on the sum and Giorgos ahead on head to
  head; its standings card as the group sees it, printed.
"""

from __future__ import annotations

import asyncio
import logging
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tools")]

from screenshots import BOT_NAME, GROUP_SEED, report, running_bot, shot  # noqa: E402

from standin import Message, StandIn, User  # noqa: E402
from standin.players import ask  # noqa: E402
from storage.usecases import UseCases  # noqa: E402

NAMES = ("Eleni", "Nikos", "Maria", "Giorgos", "Anna")
LEAGUE = [(1, 4, 4), (3, 2, 2), (3, 1, 1), (2, 4, 4), (1, 2, 2), (4, 3, 3),
          (4, 1, 1), (2, 3, 3), (1, 3, 3), (4, 2, 4), (2, 1, 2), (3, 4, 3)]
"""(home, away, winner) by sign-up number, in the pairings' order."""


async def card_of(standin: StandIn, group: object, organiser: User, kind: str) -> Message:
    cmd = organiser.send(group, "/tournament")  # type: ignore[arg-type]
    card = await group.wait_for_answer(cmd)  # type: ignore[attr-defined]
    if kind == "cup":
        await organiser.tap(card, "Cup")
        await standin.wait_for(lambda: "Knockout cup" in card.refresh().content, what="a cup")
    else:
        await organiser.tap(card, "Double")
        await standin.wait_for(lambda: "Double round" in card.refresh().content, what="double")
    return card  # type: ignore[no-any-return]


async def cup(out: Path, uc: UseCases, standin: StandIn) -> None:
    users = [standin.user(n, username=n.lower()) for n in NAMES]
    group = standin.group("Kafeneio", *users)
    card = await card_of(standin, group, users[0], "cup")
    for u in users[1:]:
        await u.tap(card.refresh(), "➕ Join")
    await standin.wait_for(lambda: "(5 of 64)" in card.refresh().content, what="sign-ups")
    await users[0].tap(card.refresh(), "▶ Start now")
    by_id = {u.id: u for u in users}
    for _ in range(3):
        comp = None
        for _ in range(400):
            comp = await uc.open_competition(group.id)
            if comp is None or any(p.match_status == "active" for p in comp.pairings):
                break
            await asyncio.sleep(0.05)
        assert comp is not None
        for p in [p for p in comp.pairings if p.match_status == "active"]:
            assert p.player0 is not None and p.player1 is not None
            upset = {by_id[p.player0].first_name, by_id[p.player1].first_name} == {
                "Nikos", "Maria"}
            loser = by_id[p.player0 if upset else p.player1]
            menu = await ask(loser, group, "/resign", "", button="🏳 Resign the match")
            await loser.tap(menu, "🏳 Resign the match")
        for _ in range(400):  # the round recorded, the next opened
            now = await uc.get_competition(comp.id)
            if now is not None and (now.round != comp.round or now.status == "finished"):
                break
            await asyncio.sleep(0.05)
    final = await standin.wait_for(lambda: next(
        (m for m in reversed(group.bot_messages()) if m.photo_bytes is not None
         and "wins!" in m.content), None), timeout=60, what="the final bracket")
    path = out / "screenshot-cup.png"
    report(path, shot(final, path, sender=BOT_NAME))


async def league(uc: UseCases, standin: StandIn) -> None:
    users = [standin.user(n, username=n.lower()) for n in NAMES[:4]]
    group = standin.group("Tavli club", *users)
    card = await card_of(standin, group, users[0], "league")
    for u in users[1:]:
        await u.tap(card.refresh(), "➕ Join")
    await standin.wait_for(lambda: "(4 of 12)" in card.refresh().content, what="sign-ups")
    await users[0].tap(card.refresh(), "▶ Start now")
    for _ in range(400):
        comp = await uc.open_competition(group.id)
        if comp is not None and all(p.match_status == "active" for p in comp.pairings):
            break
        await asyncio.sleep(0.05)
    assert comp is not None
    ids = [u.id for u in users]
    for (home, away, winner), p in zip(LEAGUE, comp.pairings, strict=True):
        assert p.match_id is not None
        await uc.resign_match(p.match_id, ids[(away if winner == home else home) - 1])
    done = await standin.wait_for(lambda: (m := card.refresh()) and "wins!" in m.content and m,
                                  timeout=60, what="the final standings")
    print(done.content)


async def main() -> None:
    logging.basicConfig(level=logging.WARNING)
    logging.getLogger("apscheduler").setLevel(logging.ERROR)
    kept: list[UseCases] = []
    async with running_bot(GROUP_SEED, kept) as standin:
        [uc] = kept
        await cup(ROOT / "docs", uc, standin)
        await league(uc, standin)


if __name__ == "__main__":
    asyncio.run(main())
