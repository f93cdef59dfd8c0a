"""A group's league and cup, end to end through the stand-in: the sign-up card and its bad
input, a 4-player double league played out (the standings card after every result, a forfeit
by a player who leaves the group, a tie broken by head to head, the winner announced, the
ratings moved), and a 5-player cup (its byes, a round lost on time, the bracket at each step).

Most results are resignations made through the use cases (``resign_match``, what /resign
does): playing 12 matches out tap by tap would say nothing more about the competition."""

from __future__ import annotations

import asyncio
import re

from bot.views.callbacks import Action, encode
from standin import StandIn
from standin.sim import Chat, Message, User
from storage.usecases.competition_views import CompetitionView
from tests.bot.conftest import Running

ROW_RE = re.compile(r"\s*(\d+) (.+?)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)(\*?)\s*$")


def table(text: str) -> list[tuple[str, int, int, int, int, bool]]:
    """The standings card's rows: name, won, lost, points, sum, decided after points."""
    rows = []
    for line in text.splitlines():
        m = ROW_RE.fullmatch(line)
        if m:
            rows.append((m.group(2).strip(), int(m.group(3)), int(m.group(4)), int(m.group(5)),
                         int(m.group(6)), bool(m.group(7))))
    return rows


async def opened(bot: Running, comp_id: int, count: int | None = None) -> CompetitionView:
    """The competition once the matches of its round are all opened (``count`` of them, or
    every pairing's)."""
    for _ in range(400):
        comp = await bot.uc.get_competition(comp_id)
        assert comp is not None
        live = [p for p in comp.pairings if p.match_status == "active"]
        if (count is None and all(p.match_id for p in comp.pairings)) or \
                (count is not None and len(live) == count):
            return comp
        await asyncio.sleep(0.05)
    raise AssertionError("the matches were not opened")


async def showing(standin: StandIn, message: Message, words: str) -> Message:
    """The message once it shows ``words`` (text or caption)."""
    def now() -> Message | None:
        fresh = message.refresh()
        return fresh if words in fresh.content else None
    found: Message = await standin.wait_for(now, what=f"{words!r} shown")
    return found


async def _card(standin: StandIn, group: Chat, organiser: User) -> Message:
    cmd = organiser.send(group, "/tournament")
    card = await group.wait_for_answer(cmd)
    assert "Round robin league" in card.text and "Signed up (1 of 12)" in card.text
    return card


# Results in the pairings' order (round_robin of the sign-up order, double), as (home, away,
# winner) by sign-up number; the last is a forfeit: Dan leaves before playing it.
# Carol 4, then Dan and Bob on 3 points with the same sum (8): Dan beat Bob twice.
PLAN = [(1, 4, 4), (3, 2, 2), (3, 1, 1), (2, 4, 4), (1, 2, 2), (4, 3, 3),
        (4, 1, 1), (2, 3, 3), (1, 3, 3), (4, 2, 4), (2, 1, 2)]


async def test_a_double_league_played_out(standin: StandIn, bot: Running) -> None:
    people = [standin.user(n, username=n.lower()) for n in ("Alice", "Bob", "Carol", "Dan")]
    alice, bob, carol, dan = people
    group = standin.group("Kafeneio", *people)
    card = await _card(standin, group, alice)
    answer = await bob.tap(card, "✔ Single")
    assert answer.show_alert and "Only the organiser" in answer.text
    await alice.tap(card, "Double")
    card = await showing(standin, card, "Double round robin")
    for p in (bob, carol, dan):
        await p.tap(card.refresh(), "➕ Join")
    again = await bob.tap(card.refresh(), "➕ Join")
    assert again.show_alert and "already signed up" in again.text
    forged = await bob.tap_data(card.refresh(), encode(Action.TOURNAMENT, 999, 1, "go"))
    assert forged.show_alert
    early = await bob.tap(card.refresh(), "▶ Start now")
    assert early.show_alert and "Only the organiser" in early.text
    card = card.refresh()
    assert "Signed up (4 of 12)" in card.text and "0 finished, 0 timed out" in card.text
    [comp] = [c for c in [await bot.uc.open_competition(group.id)] if c is not None]
    await alice.tap(card, "▶ Start now")
    card = await showing(standin, card, "matches left")
    assert not card.has_keyboard and "12 matches left" in card.text
    eve = standin.user("Eve", username="eve")
    standin.join(group, eve)
    stale = await eve.tap_data(card, encode(Action.TOURNAMENT, comp.id, 1, "j"))
    assert stale.show_alert  # the started competition's card has no Join any more
    assert len((await bot.uc.get_competition(comp.id)).entrants) == 4  # type: ignore[union-attr]
    comp = await opened(bot, comp.id)
    ids = {i + 1: p.player.id for i, p in enumerate(comp.entrants)}
    names = {p.player.id: p.player.display_name for p in comp.entrants}
    order = [(p.player0, p.player1) for p in comp.pairings]
    assert order == [(ids[a], ids[b]) for a, b, _ in [*PLAN, (3, 4, 3)]]
    wins: dict[str, int] = dict.fromkeys(names.values(), 0)
    for (home, away, winner), pairing in zip(PLAN, comp.pairings, strict=False):
        loser = ids[away] if winner == home else ids[home]
        assert (await bot.uc.resign_match(pairing.match_id, loser)).ok
        wins[names[ids[winner]]] += 1
        await standin.wait_for(lambda expected=dict(wins): {  # type: ignore[misc]
            r[0]: r[1] for r in table(card.refresh().text)} == expected,
            what=f"the standings after {home}-{away}")
    # Dan leaves the group with one match to play: a forfeit, said on the card
    dan.leave(group)
    final = await showing(standin, card, "wins!")
    # Dan and Bob: 3 points each, the same sum; Dan beat Bob twice (head to head)
    assert table(final.text) == [("Carol", 4, 2, 4, 11, False), ("Dan", 3, 3, 3, 8, False),
                                 ("Bob", 3, 3, 3, 8, True), ("Alice", 2, 4, 2, 7, False)]
    assert "Dan left: their remaining matches are forfeits." in final.text
    assert "Carol wins!" in final.text
    await standin.wait_for(lambda: any("Carol wins the Double round robin league" in m.content
                                       for m in group.bot_messages()), what="the winner told")
    board = await bot.uc.leaderboard(group.id)
    rated = {r.player_id: r for r in board.top}
    assert len(rated) == 4 and rated[carol.id].rating > rated[alice.id].rating
    assert (await bot.uc.titles_of(carol.id)) == {"league": 1}


def _caption_lines(message: Message) -> list[str]:
    return [line for line in message.content.splitlines() if " – " in line]


async def test_a_five_player_cup(standin: StandIn, bot: Running) -> None:
    people = [standin.user(n, username=n.lower()) for n in ("Alice", "Bob", "Carol", "Dan", "Eve")]
    alice, bob, carol, dan, eve = people
    group = standin.supergroup("Tavli club", *people, username="tavliclub")
    card = await _card(standin, group, alice)
    await alice.tap(card, "Cup")
    card = await showing(standin, card, "Knockout cup")
    await alice.tap(card, "⏱ 1 hour")
    card = await showing(standin, card, "1 hour per move")
    lonely = await alice.tap(card, "▶ Start now")
    assert lonely.show_alert and "Too few players" in lonely.text  # a cup with 1 player
    zed = standin.user("Zed", username="zed")  # reads the public group, is not a member
    outsider = await zed.tap(card, "➕ Join")
    assert outsider.show_alert and "Only members" in outsider.text
    for p in people[1:]:
        await p.tap(card.refresh(), "➕ Join")
    card = await showing(standin, card, "Signed up (5 of 64)")
    await alice.tap(card, "▶ Start now")
    await showing(standin, card, "The cup has started")

    def bracket() -> Message | None:
        photos = [m for m in group.bot_messages() if m.photo_bytes is not None
                  and "Knockout cup" in m.content]
        return photos[-1] if photos else None

    picture = await standin.wait_for(bracket, what="the bracket picture")
    assert "Round 1 of 3" in picture.content
    # seeds in sign-up order (nobody is rated yet): 1, 2 and 3 have a bye; 4 and 5 play
    assert _caption_lines(picture) == ["Dan – Eve: ⏳"]
    first = picture.photo_bytes
    comp = await opened(bot, (await bot.uc.open_competition(group.id)).id, 1)  # type: ignore[union-attr]
    [de] = [p for p in comp.pairings if p.match_status == "active"]
    mv = (await bot.uc.load_match(de.match_id)).match  # type: ignore[arg-type]
    assert mv is not None and mv.to_act is not None
    slow = mv.seats[mv.to_act].player
    assert slow is not None
    bot.clock.advance(hours=1, minutes=1)  # nobody moves: the match is lost on time
    picture = await showing(standin, picture, "Round 2 of 3")
    fast = "Eve" if slow.display_name == "Dan" else "Dan"
    assert _caption_lines(picture) == [f"Alice – {fast}: ⏳", "Bob – Carol: ⏳"]
    assert picture.photo_bytes != first
    lost = (await bot.uc.load_match(de.match_id)).match  # type: ignore[arg-type]
    assert lost is not None and lost.state.end_reason == "timeout"

    comp = await opened(bot, comp.id, 2)
    for p in comp.pairings:
        if p.match_status == "active":
            loser = p.player0 if p.player1 == carol.id else p.player1
            assert (await bot.uc.resign_match(p.match_id, loser)).ok  # type: ignore[arg-type]
    picture = await showing(standin, picture, "Round 3 of 3")
    assert _caption_lines(picture) == ["Alice – Carol: ⏳"]
    comp = await opened(bot, comp.id, 1)
    [final] = [p for p in comp.pairings if p.match_status == "active"]
    assert (await bot.uc.resign_match(final.match_id, alice.id)).ok  # type: ignore[arg-type]
    picture = await showing(standin, picture, "Carol wins!")
    await standin.wait_for(lambda: any("Carol wins the Knockout cup" in m.content
                                       for m in group.bot_messages()), what="the winner told")
    done = await bot.uc.get_competition(comp.id)
    assert done is not None and done.bracket().champion == carol.id
    assert [(g.a, g.b, g.winner) for g in done.bracket().rounds[1]] == [
        (alice.id, dan.id if fast == "Dan" else eve.id, alice.id), (bob.id, carol.id, carol.id)]


async def test_bad_input_changes_nothing(standin: StandIn, bot: Running) -> None:
    people = [standin.user(f"P{i}", username=f"p{i}") for i in range(1, 15)]
    group = standin.group("Big group", *people)
    card = await _card(standin, group, people[0])
    again = await group.wait_for_answer(people[1].send(group, "/tournament"))
    assert "already has a competition" in again.text
    private = await people[0].private.wait_for_answer(people[0].send(people[0].private,
                                                                     "/tournament"))
    assert "played in groups" in private.text
    missing = await group.wait_for_answer(people[1].send(group, "/tournament 999"))
    assert "no longer exists" in missing.text
    for p in people[1:12]:
        await p.tap(card.refresh(), "➕ Join")
    card = await showing(standin, card, "Signed up (12 of 12)")
    full = await people[12].tap(card, "➕ Join")  # the 13th of many: the league holds 12
    assert full.show_alert and "full" in full.text
    leave = await people[13].tap(card, "➖ Leave")
    assert leave.show_alert and "not signed up" in leave.text
    comp = await bot.uc.open_competition(group.id)
    assert comp is not None
    forged = await people[1].tap_data(card, encode(Action.TOURNAMENT, comp.id, comp.version, "zz"))
    assert forged.show_alert
    await people[0].tap(card, "✖ Cancel")
    card = await showing(standin, card, "cancelled")
    assert not card.has_keyboard
    after = await bot.uc.get_competition(comp.id)
    assert after is not None and after.status == "cancelled" and len(after.entrants) == 12


async def test_the_group_new_card_opens_a_league(standin: StandIn, bot: Running) -> None:
    alice = standin.user("Alice", username="alice")
    bob = standin.user("Bob", username="bob")
    group = standin.group("Kafeneio", alice, bob)
    card = await group.wait_for_answer(alice.send(group, "/new"))
    answer = await bob.tap(card, "🏆 A league or a cup")  # Alice's card
    assert answer.show_alert
    assert await bot.uc.open_competition(group.id) is None
    await alice.tap(card, "🏆 A league or a cup")
    signup = await standin.wait_for(lambda: next(
        (m for m in group.bot_messages() if "Signed up (1 of 12)" in m.content), None),
        what="the sign-up card")
    await bob.tap(signup, "➕ Join")
    await showing(standin, signup, "Signed up (2 of 12)")


async def test_the_sign_up_deadline_starts_it(standin: StandIn, bot: Running) -> None:
    people = [standin.user(n, username=n.lower()) for n in ("Alice", "Bob", "Carol")]
    group = standin.group("Kafeneio", *people)
    card = await _card(standin, group, people[0])
    for p in people[1:]:
        await p.tap(card.refresh(), "➕ Join")
    await showing(standin, card, "Signed up (3 of 12)")
    bot.clock.advance(days=1, minutes=1)  # the sign-up's end (a day by default)
    card = await showing(standin, card, "3 matches left")
    assert not card.has_keyboard
    comp = await opened(bot, (await bot.uc.open_competition(group.id)).id)  # type: ignore[union-attr]
    assert len(comp.pairings) == 3 and comp.status == "running"
