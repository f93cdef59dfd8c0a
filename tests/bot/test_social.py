"""/top, /stats and privacy as players see them: leaderboards of two groups and the global one,
ratings worked out by hand from the FIBS formula, a record, head to head (by reply and by
@username), hiding from leaderboards, and deleting one's data."""

from __future__ import annotations

from rendering.leaderboard import MINE, WIDTH, layout
from standin import Chat, StandIn, User
from standin.players import ask, live_board, resign_in, start_match, won_by_resignation
from tests.bot.conftest import Running
from tests.bot.helpers.computer import start_computer_match


def near(colour: tuple[int, ...], wanted: tuple[int, ...]) -> bool:
    """Equal but for JPEG's rounding (Telegram recompresses photos)."""
    return all(abs(a - b) <= 8 for a, b in zip(colour, wanted, strict=True))


async def gammon_then_match_resigned(standin: StandIn, alice: User, bob: User,
                                     group: Chat) -> tuple[User, User]:
    """A 3-point match: the player to move resigns the first game as a gammon (the other gets
    2 points), then resigns the match. Returns (winner, loser)."""
    board = await start_match(standin, alice, bob, group, "3 points")
    mover, other = (alice, bob) if board.mentions(alice) else (bob, alice)
    menu = await ask(mover, group, "/resign", "", button="Game: 2 points")
    await mover.tap(menu, "Game: 2 points")
    offer = await standin.wait_for(
        lambda: (b := live_board(group)) is not None and "offers to resign" in b.caption and b,
        what="the offer")
    await other.tap(offer, "Accept")
    await standin.wait_for(lambda: "Game 2" in (live_board(group) or offer).caption,
                           what="game 2")
    await resign_in(standin, mover, group, board)
    return other, mover


async def two_groups(standin: StandIn) -> tuple[dict[str, User], Chat, Chat]:
    """Alice beats Bob three times in Kafeneio, then Carol beats Alice three times in Taverna
    (1-point matches, each resigned); Dave watches in Taverna."""
    users = {n: standin.user(n, username=n.lower()) for n in ("Alice", "Bob", "Carol", "Dave")}
    alice, bob, carol, dave = users.values()
    kafeneio = standin.group("Kafeneio", alice, bob, carol)
    taverna = standin.group("Taverna 🎲", alice, carol, dave)
    for _ in range(3):
        await won_by_resignation(standin, alice, bob, kafeneio)
    for _ in range(3):
        await won_by_resignation(standin, carol, alice, taverna)
    return users, kafeneio, taverna


async def test_leaderboards_of_two_groups_and_the_global_one(
    standin: StandIn, bot: Running
) -> None:
    users, kafeneio, taverna = await two_groups(standin)
    alice, bob, carol, dave = users.values()
    # Each group's leaderboard counts its own matches only. By hand, 1-point matches:
    # 1st: equal newcomers, 4 * K 5 * sqrt 1 * P 0.5 = 10 -> 1510 / 1490.
    # 2nd: D = 20, P_upset = 1 / (10 ** (20 / 2000) + 1) = 0.494244 (the favourite wins, so
    #      P = P_upset): 4 * 0.494244 = 1.976977, K = 4.99 -> +-9.865106: 1519.865 / 1480.135.
    # 3rd: D = 39.730212, P_upset = 0.488567, 4 * P = 1.954267, K = 4.98 -> +-9.732249:
    #      1529.597 / 1470.403.
    top = await ask(carol, kafeneio, "/top", "🏆")
    picture = top.image()  # the leaderboard drawn, its text as the caption
    assert picture.size == (WIDTH, layout(2, gap=False, footer=True).height)
    assert top.content.splitlines()[:3] == [
        "🏆 Portes · Leaderboard of Kafeneio",
        "1. Alice · 1529.6* · 3 matches",
        "2. Bob · 1470.4* · 3 matches",
    ]
    assert "You are listed from 3 rated matches on (you have 0)." in top.content
    assert "* provisional: fewer than 10 rated matches" in top.content
    top = await ask(dave, taverna, "/top", "🏆")
    assert top.photo_bytes is not None  # the dice of the title are left out of the picture
    assert top.content.splitlines()[:3] == [
        "🏆 Portes · Leaderboard of Taverna 🎲", "1. Carol · 1529.6* · 3 matches",
        "2. Alice · 1470.4* · 3 matches"]
    # The global one in private. Alice (1529.597, experience 3) then lost three times to
    # Carol (1500, 0): 1st, D = 29.597, the underdog wins: P = 1 - 0.482966 = 0.517034... :
    # Carol +10.170 (K 5) -> 1510.170, Alice -10.109 (K 4.97) -> 1519.488; then Carol
    # 1520.204 / Alice 1509.515, then Carol 1530.103 / Alice 1499.676.
    top = await ask(bob, bob.private, "/top", "🏆")
    assert top.content.splitlines()[:4] == [
        "🏆 Portes · Global leaderboard", "1. Carol · 1530.1* · 3 matches",
        "2. Alice · 1499.7* · 6 matches", "3. Bob · 1470.4* · 3 matches"]

    # Alice hides: gone from every leaderboard, and told so; then back
    answer = await ask(alice, alice.private, "/top hide", "hidden")
    assert "/top show" in answer.text
    top = await ask(bob, bob.private, "/top", "🏆")
    assert "Alice" not in top.content and "2. Bob · 1470.4* · 3 matches" in top.content
    top = await ask(alice, kafeneio, "/top", "🏆")
    assert "1. Bob · 1470.4* · 3 matches" in top.content and "Alice" not in top.content
    assert "You are hidden from leaderboards: /top show lists you again." in top.content
    await ask(alice, alice.private, "/top show", "listed")
    top = await ask(bob, kafeneio, "/top", "🏆")
    assert "1. Alice · 1529.6* · 3 matches" in top.content
    rows = layout(2, gap=False, footer=True).rows  # Bob's own line is highlighted
    picture = top.image().convert("RGB")
    assert near(picture.getpixel((WIDTH // 2, sum(rows[1]) // 2)), MINE)
    assert not near(picture.getpixel((WIDTH // 2, sum(rows[0]) // 2)), MINE)


async def test_stats_and_head_to_head(standin: StandIn, bot: Running) -> None:
    users, kafeneio, taverna = await two_groups(standin)
    alice, bob, carol, dave = users.values()
    # /stats in a group: the record, the global rating (worked out in the test above) and the
    # group's, the trend
    stats = await ask(alice, taverna, "/stats", "📊")
    lines = stats.text.splitlines()
    assert lines[:4] == [
        "📊 Alice · Portes",
        "👥 Against people: 6 matches · 3 won · 3 lost",
        "Points: 3 for · 3 against",  # 1-point matches, each resigned: 1 to the winner
        "Gammons: 0 won · 0 lost; backgammons: 0 won · 0 lost",
    ]
    assert "Streak: 3 losses in a row" in lines
    assert "📈 Rating: 1499.7* (6 rated matches)" in lines
    assert "Rating in this group: 1470.4* (3 rated matches)" in lines
    assert "Last changes: -9.8, -10.0, -10.1, +9.7, +9.9" in lines
    assert any(line.endswith("1510 → 1500") for line in lines)  # the sparkline's ends
    assert "Against the computer" not in stats.text

    # head to head: by replying to someone's message, and by @username
    said = alice.send(kafeneio, "good game!")
    h2h = await ask(bob, kafeneio, "/stats", "⚔️", reply_to=said)
    assert h2h.text.splitlines() == ["⚔️ Bob vs Alice · Portes", "3 matches: Bob won 0, Alice won 3",
                                     "Points: Bob 0 · Alice 3"]
    h2h = await ask(carol, taverna, "/stats @Alice", "⚔️")
    assert h2h.text.splitlines()[:2] == ["⚔️ Carol vs Alice · Portes",
                                         "3 matches: Carol won 3, Alice won 0"]
    h2h = await ask(dave, taverna, "/stats @bob", "⚔️")
    assert h2h.text.splitlines() == ["⚔️ Dave vs Bob · Portes",
                                     "No finished match against each other in this game yet."]
    unknown = await ask(dave, taverna, "/stats @nobody", "nobody")
    assert unknown.text.startswith("I do not know @nobody")
    unknown = await ask(dave, taverna, "/stats nobody", "nobody")  # in a group: who played
    assert unknown.text == ('I know no game and no player called "nobody" in this group. The '
                            "games: Portes, Plakoto, Fevga, Tavli, Long Nardy; who played here "
                            "(tap one for your head to head):")
    assert unknown.button_texts == ["Alice", "Carol"]
    unknown = await ask(dave, dave.private, "/stats nobody", "nobody")
    assert unknown.text == ('I know no game and no player called "nobody". The games: Portes, '
                            "Plakoto, Fevga, Tavli, Long Nardy; a player: /stats @username.")

    # a game won as a gammon counts in points and gammons; the match resigned then gives the
    # winner the point still missing to its length (3)
    winner, loser = await gammon_then_match_resigned(standin, alice, bob, kafeneio)
    before = {alice: (3, 3), bob: (0, 3)}  # Alice's and Bob's points for and against so far
    stats = await ask(winner, kafeneio, "/stats", "📊")
    won_for, won_against = before[winner]
    assert f"Points: {won_for + 3} for · {won_against} against" in stats.text
    assert "Gammons: 1 won · 0 lost; backgammons: 0 won · 0 lost" in stats.text
    assert "Streak: 1 win in a row" in stats.text
    stats = await ask(loser, kafeneio, "/stats", "📊")
    lost_for, lost_against = before[loser]
    assert f"Points: {lost_for} for · {lost_against + 3} against" in stats.text
    assert "Gammons: 0 won · 1 lost; backgammons: 0 won · 0 lost" in stats.text
    assert "Rating in this group: " in stats.text and "(4 rated matches)" in stats.text


async def test_stats_of_a_newcomer_and_in_greek(standin: StandIn, bot: Running) -> None:
    eleni = standin.user("Eleni", username="eleni", language_code="el")
    stats = await ask(eleni, eleni.private, "/stats", "📊")
    assert stats.text.splitlines() == [
        "📊 Eleni · Πόρτες", "Κανένας αγώνας σε αυτό το παιχνίδι δεν έχει τελειώσει ακόμα."]
    assert stats.button_texts == ["✔ Πόρτες", "Πλακωτό", "Φεύγα", "Τάβλι", "Μακρύ νάρδι"]
    top = await ask(eleni, eleni.private, "/top", "🏆")
    assert top.content.splitlines()[:2] == [
        "🏆 Πόρτες · Γενική κατάταξη",
        "Δεν υπάρχει ακόμα κανείς στην κατάταξη: ένας παίκτης μπαίνει σε αυτήν από τους 3 "
        "βαθμολογημένους αγώνες και πάνω."]


async def test_matches_against_the_computer_are_counted_apart(
    standin: StandIn, bot: Running
) -> None:
    zoe = standin.user("Zoe", username="zoe")
    await start_computer_match(standin, zoe)
    menu = await ask(zoe, zoe.private, "/resign", "", button="🏳 Resign the match")
    await zoe.tap(menu, "🏳 Resign the match")
    await standin.wait_for(lambda: any("wins the match" in m.content
                                       for m in zoe.private.bot_messages()), what="the end")
    stats = await ask(zoe, zoe.private, "/stats", "📊 Zoe")  # not the review, also 📊
    assert stats.text.splitlines()[:2] == ["📊 Zoe · Portes", "Rating: no rated match yet"]
    assert "🤖 Against the computer: 1 match · 0 won · 1 lost" in stats.text
    assert "Streak: 1 loss in a row" in stats.text and "Against people" not in stats.text
    top = await ask(zoe, zoe.private, "/top", "🏆")  # never rated: nobody is listed
    assert top.photo_bytes is None and "Nobody is listed yet" in top.text


async def test_forgetme_deletes_the_players_data_and_keeps_the_match_for_the_other(
    standin: StandIn, bot: Running
) -> None:
    alice = standin.user("Alice", username="alice")
    bob = standin.user("Bob", username="bob")
    group = standin.group("Kafeneio", alice, bob)
    board = await start_match(standin, alice, bob, group)
    said = alice.send(group, "ready")

    # in the group: sent to the private chat
    answer = await ask(alice, group, "/forgetme", "private chat")
    assert answer.button_texts == ["▶ Open the private chat"]
    question = await ask(alice, alice.private, "/forgetme", "Delete your data?")
    assert question.button_texts == ["🗑 Delete my data", "Cancel"]
    # while she plays: refused, nothing deleted
    refused = await alice.tap(question, "🗑 Delete my data")
    assert refused.show_alert and "finish or resign" in (refused.text or "")
    await resign_in(standin, bob, group, board)  # Alice wins
    h2h = await ask(bob, group, "/stats", "⚔️", reply_to=said)
    assert "1 match: Bob won 0, Alice won 1" in h2h.text

    # Cancel changes nothing; Delete deletes
    other = await ask(alice, alice.private, "/forgetme", "Delete your data?")
    await alice.tap(other, "Cancel")
    await standin.wait_for(lambda: other.refresh().text == "Nothing was deleted.")
    await alice.tap(question, "🗑 Delete my data")
    await standin.wait_for(lambda: "Your data is deleted" in (question.refresh().text or ""),
                           what="the deletion")
    assert await bot.uc.get_player(alice.id) is None
    stats = await bot.uc.player_stats(bob.id)
    assert (stats.people.played, stats.people.won) == (1, 0)  # Bob keeps his match

    # no rematch with a deleted player
    final = live_board(group)
    assert final is not None and "🔁 Rematch" in final.button_texts
    refused = await bob.tap(final, "🔁 Rematch")
    assert refused.show_alert and "deleted their data" in (refused.text or "")
    # Bob's history shows "a deleted player"; his record stays
    listing = await ask(bob, group, "/history", "Your recent matches")
    assert "a deleted player · 0–1/1" in listing.text
    stats_msg = await ask(bob, group, "/stats", "📊")
    assert "👥 Against people: 1 match · 0 won · 1 lost" in stats_msg.text
    # Alice writing again is a new player: no match with Bob any more
    h2h = await ask(bob, group, "/stats", "⚔️", reply_to=alice.send(group, "hello again"))
    assert h2h.text.splitlines()[1] == "No finished match against each other in this game yet."
    stats_msg = await ask(alice, group, "/stats", "📊")
    assert "No finished match in this game yet." in stats_msg.text
