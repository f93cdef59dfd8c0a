"""The computer's level chosen on the /new card is never lost (issue 27). A card's redraw waits
for the chat's budget (about a call a second: /new, "against the computer" and a level are
three calls in a row), so a player who taps a level and then at once a length taps the length
on the card as it was: its button still carries the old level. The level tapped is stored with
the tap and the length starts the match at it; the tap is answered at once with the level
chosen; the player's next card shows it ticked."""

from __future__ import annotations

from standin import Message, StandIn, User
from standin.players import start_the_bot
from tests.bot.conftest import Running


async def computer_card(standin: StandIn, user: User) -> Message:
    """/new in the private chat, then "against the computer": the card, with its levels."""
    cmd = user.send(user.private, "/new")
    card = await user.private.wait_for_answer(cmd)
    await user.tap(card, "🤖 Against the computer")
    return await standin.wait_for(  # type: ignore[no-any-return]
        lambda: "Easy" in " ".join((c := card.refresh()).button_texts) and c,
        what="the computer card")


async def test_a_length_tapped_before_the_levels_redraw_starts_at_the_level_chosen(
        standin: StandIn, bot: Running) -> None:
    alice = standin.user("Alice", username="alice")
    await start_the_bot(alice)
    # Given the computer card, Medium ticked
    before = await computer_card(standin, alice)
    assert "✔ Medium" in before.button_texts
    # When Alice taps Easy, then at once "1 point" on the card as it was before its redraw
    # (that button's data still says medium)
    answer = await alice.tap(before, "Easy")
    stale = before.button("1 point").callback_data
    assert stale is not None
    length = await alice.tap_data(before, stale)
    if length is not None and length.show_alert:
        # the redraw was on Telegram's side before the tap: the old button is refused as not
        # on the card any more, and the card's own "1 point" is tapped instead
        assert "not on this message" in (length.text or ""), length
        await alice.tap(before.refresh(), "1 point")
    # Then the match offered is against the easy computer, never the medium one
    card = await standin.wait_for(lambda: "SHA-256" in (before.refresh().text or "")
                                  and before.refresh(), what="the challenge")
    assert "🤖 A match against the computer (easy) to 1 point." in card.text
    challenge = await bot.uc.get_challenge(1)
    assert challenge is not None and challenge.computer_level == 1
    await alice.tap(card, "▶ Start")
    await standin.wait_for(lambda: "the match has started" in (before.refresh().text or ""),
                           what="the match started")
    match = (await bot.uc.load_match(1)).match
    assert match is not None and match.computer_level == 1
    # And her next card shows Easy ticked: the level she chose last
    again = await computer_card(standin, alice)
    assert "✔ Easy" in again.button_texts and "✔ Medium" not in again.button_texts
    # and the Easy tap was answered at once, naming the level (the card came when it could)
    assert answer is not None and not answer.show_alert and answer.text == "🤖 Level: easy"


async def test_the_level_is_answered_in_greek_and_a_card_drawn_meanwhile_follows_it(
        standin: StandIn, bot: Running) -> None:
    nikos = standin.user("Νίκος", username="nikos", language_code="el")
    await start_the_bot(nikos)
    cmd = nikos.send(nikos.private, "/new")
    card = await nikos.private.wait_for_answer(cmd)
    await nikos.tap(card, "🤖 Με τον υπολογιστή")
    before = await standin.wait_for(
        lambda: "Εύκολο" in " ".join((c := card.refresh()).button_texts) and c, what="the card")
    # When he taps Easy, then at once switches "no triple" on the card as it was
    answer = await nikos.tap(before, "Εύκολο")
    toggle = next(b for b in before.button_texts if "☐" in b)
    switched = await nikos.tap_data(before, before.button(toggle).callback_data or "")
    if switched is not None and switched.show_alert:
        # the card was redrawn before the tap reached it: the old button is refused (it is not on
        # the card any more) and changes nothing; the switch is tapped on the card as it is now
        assert "δεν είναι σε αυτό το μήνυμα" in (switched.text or ""), switched
        now_card = card.refresh()
        await nikos.tap(now_card, next(b for b in now_card.button_texts if "☐" in b))
    # Then the card shows Easy ticked (the level chosen), with "no triple" on
    await standin.wait_for(lambda: any("☑" in b for b in card.refresh().button_texts),
                           what="no triple switched")
    await standin.idle()
    now = card.refresh().button_texts
    assert "✔ Εύκολο" in now and "✔ Μέτριο" not in now
    assert answer is not None and answer.text == "🤖 Επίπεδο: εύκολο"
