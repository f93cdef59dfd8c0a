"""The /new card (issue 27, item 17): every choice comes before the lengths, since a length
creates the challenge at once; a tavli match is offered to 3, 5 or 7 points only; a challenge to
1 point in a game with the café switch says its one game starts with an opening roll."""

from __future__ import annotations

from dataclasses import replace

from bot.views.callbacks import Action, decode
from standin import Message, StandIn, User
from tests.bot.conftest import Running

LENGTHS = ["1 point", "3 points", "5 points", "7 points"]


async def new_card(alice: User) -> Message:
    hello = alice.start_bot()
    await alice.private.wait_for_bot_message(after=hello)
    cmd = alice.send(alice.private, "/new")
    return await alice.private.wait_for_answer(cmd)


def row_of(card: Message, label: str) -> int:
    return next(i for i, row in enumerate(card.buttons) if any(b.text == label for b in row))


async def test_the_time_per_move_comes_before_the_length(standin: StandIn, bot: Running) -> None:
    alice = standin.user("Alice", username="alice")
    # When Alice sends /new
    card = await new_card(alice)
    # Then the card asks for the time per move first, and its lengths come after every choice
    assert card.text == ("New match: choose the time per move, then the length (which sends "
                         "the challenge).\n⏱ 7 days per move"), card.text
    lengths = row_of(card, "1 point")
    assert [b.text for b in card.buttons[lengths]] == LENGTHS
    for choice in ("✔ ⏱ 7 days", "⏱ 1 day", "☐ No triple (backgammon counts 2)", "Plakoto"):
        assert row_of(card, choice) < lengths, choice
    # And a time chosen, then a length, makes the challenge with that time
    await alice.tap(card, "⏱ 1 day")
    await standin.wait_for(lambda: "✔ ⏱ 1 day" in card.refresh().button_texts, what="ticked")
    await alice.tap(card.refresh(), "3 points")
    await standin.wait_for(lambda: "SHA-256" in (card.refresh().text or ""), what="the challenge")
    assert "⏱ 1 day per move" in (card.refresh().text or "")


async def test_a_tavli_match_is_offered_to_3_5_or_7_points(
        standin: StandIn, bot: Running) -> None:
    alice = standin.user("Alice", username="alice")
    card = await new_card(alice)
    await alice.tap(card, "Tavli")
    await standin.wait_for(lambda: "✔ Tavli" in card.refresh().button_texts, what="ticked")
    card = card.refresh()
    assert [b.text for b in card.buttons[row_of(card, "3 points")]] == LENGTHS[1:]
    # a forged tap for a tavli match to 1 point is refused and makes nothing
    forged = next(b.callback_data for b in card.buttons[row_of(card, "3 points")]
                  if b.text == "3 points")
    three = decode(forged)
    assert three is not None and three.action == Action.NEW and (three.arg or "").startswith("3")
    one = replace(three, arg="1" + (three.arg or "").removeprefix("3"))
    answer = await alice.tap_data(card, one.encode())
    assert answer.show_alert and "not on this message" in (answer.text or ""), answer
    assert await bot.uc.get_challenge(1) is None
    assert card.refresh().text == card.text


async def test_a_one_point_plakoto_challenge_has_one_opening_roll(
        standin: StandIn, bot: Running) -> None:
    alice = standin.user("Alice", username="alice")
    card = await new_card(alice)
    await alice.tap(card, "Plakoto")
    await standin.wait_for(lambda: "✔ Plakoto" in card.refresh().button_texts, what="ticked")
    await alice.tap(card.refresh(), "1 point")
    await standin.wait_for(lambda: "SHA-256" in (card.refresh().text or ""), what="the challenge")
    text = card.refresh().text or ""
    assert "The game starts with an opening roll." in text, text
    assert "Each game" not in text and "next" not in text
