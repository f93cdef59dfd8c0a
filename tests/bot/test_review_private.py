"""A review reads against a yardstick, and is the player's own (issue 27, item 14): the error
rate per decision in thousandths of a point with GNU Backgammon's grade for it; Review tapped in
a group goes to the tapper's private chat, or (for a player who never started the bot) opens it
with a deep link whose START shows the review; the group gets none of it."""

from __future__ import annotations

import re

from standin import Message, StandIn, User
from standin.players import live_board, play_turn, start_group_match, start_the_bot
from tests.bot.conftest import Running

GRADES = ("Supernatural", "World class", "Expert", "Advanced", "Intermediate", "Casual player",
          "Beginner", "Awful!")


def reviews(user: User) -> list[Message]:
    return [m for m in user.private.bot_messages() if "Review of match #1" in m.content]


def assert_graded(review: Message) -> None:
    """Each player's line: a grade, the error rate per decision; then the yardstick."""
    lines = re.findall(r"^(Alice|Dora): (.+?), error rate (\d+\.\d) per decision \((\d+) "
                       r"decisions?\), luck [+-]\d\.\d\d$", review.text, re.M)
    assert {line[0] for line in lines} == {"Alice", "Dora"}, review.text
    assert all(line[1] in GRADES for line in lines), lines
    assert ("GNU Backgammon's grades: Supernatural 0–2, World class 2–5, Expert 5–8, Advanced "
            "8–12, Intermediate 12–18, Casual player 18–26, Beginner 26–35, Awful! 35+.") \
        in review.text
    assert "thousandths of a point" in review.text
    assert "equity lost 0." not in review.text  # no raw number without its yardstick


async def test_review_in_a_group_goes_to_the_tapper_privately(
        standin: StandIn, bot: Running) -> None:
    alice = standin.user("Alice", username="alice")
    dora = standin.user("Dora")  # never starts the bot before the match
    group = standin.group("Kafeneio", alice, dora)
    await start_the_bot(alice)
    board = await start_group_match(standin, alice, dora, group, "3 points")
    first, second = (alice, dora) if board.mentions(alice) else (dora, alice)
    for player in (first, second, first, second):
        await play_turn(standin, player, group)
    cmd = alice.send(group, "/resign")
    menu = await group.wait_for_bot_message(
        after=cmd, predicate=lambda m: "🏳 Resign the match" in m.button_texts)
    await alice.tap(menu, "🏳 Resign the match")
    final = await standin.wait_for(
        lambda: (b := live_board(group)) is not None and "wins the match" in b.caption and b,
        what="the end")
    assert "📊 Review" in final.button_texts
    # Alice, who started the bot, gets her review privately at the end of the match
    [auto] = await standin.wait_for(lambda: reviews(alice) or None, timeout=30,
                                    what="Alice's review")
    assert_graded(auto)

    # Dora, who never started the bot, asks /review 1 in the group: one line and a button
    # that opens the bot's private chat
    cmd = dora.send(group, "/review 1")
    said = await group.wait_for_bot_message(after=cmd, predicate=lambda m: "#1" in m.content)
    assert said.text == "📊 Your review of match #1 waits in our private chat."
    [button] = [b for row in said.buttons for b in row]
    assert button.url == f"https://t.me/{standin.bot_username}?start=review1"
    # Dora taps Review in the group: the answer opens the bot's private chat
    answer = await dora.tap(final, "📊 Review")
    assert answer.url == f"https://t.me/{standin.bot_username}?start=review1", answer
    dora.follow(answer.url)
    review = await standin.wait_for(lambda: (r := reviews(dora)) and r[-1], timeout=30,
                                    what="Dora's review after START")
    assert_graded(review)
    # Alice taps it too: a toast, and the review comes to her private chat again
    answer = await alice.tap(final, "📊 Review")
    assert answer.url is None and "private chat" in (answer.text or "")
    await standin.wait_for(lambda: len(reviews(alice)) == 2, timeout=30, what="the review again")
    # /review 1 in the group: one short line there, the review in Dora's private chat
    cmd = dora.send(group, "/review 1")
    said = await group.wait_for_bot_message(after=cmd, predicate=lambda m: "#1" in m.content)
    assert said.text == "📊 Your review of match #1 is in our private chat."
    await standin.wait_for(lambda: len(reviews(dora)) == 2, timeout=30, what="Dora's again")
    await standin.idle()
    assert not any("Review of match" in m.content for m in group.bot_messages())
