"""A match given up is won to its length (issue 27): after a resignation of the match or a
timeout, the result line says the real score ("🏆 Bob wins the match 3–0.", not 0–0) on every
place the match shows (the players' private boards, the group's board, the inline card), in
Greek and in English, and /stats counts the points the win gave."""

from __future__ import annotations

from standin import Chat, StandIn
from standin.players import ask, live_board, start_group_match, start_the_bot
from tests.bot.conftest import Running
from tests.bot.helpers.review import resign_the_match


def result_on(chat: Chat) -> str:
    """The caption of the live board in ``chat`` once it tells the match's result ('' before)."""
    board = live_board(chat)
    caption = board.caption if board is not None else ""
    return caption if "🏆" in (caption or "") else ""


async def test_a_resigned_match_is_won_to_its_length_on_the_boards_and_the_card(
        standin: StandIn, bot: Running) -> None:
    # Given Αλίκη (Greek) challenged Bob (English) to a 3-point match from an inline card
    standin.set_inline_feedback(True)
    aliki = standin.user("Αλίκη", username="aliki", language_code="el")
    bob = standin.user("Bob", username="bob")
    await start_the_bot(aliki, bob)
    query = aliki.inline_query("3")
    await query
    card = aliki.choose_inline_result(query, "3t", standin.direct_chat(aliki, bob))
    await standin.wait_for(lambda: "SHA-256" in (card.refresh().text or ""), what="the card")
    await bob.tap(card.refresh(), "🎲 Αποδοχή")  # the card is in its author's language
    await standin.wait_for(lambda: live_board(aliki.private) is not None
                           and live_board(bob.private) is not None, what="the boards")
    # When she resigns the match at 0-0
    await resign_the_match(standin, aliki, bob)
    await standin.idle()
    # Then Bob has won it 3-0: on his board in English, on hers and on the card in Greek
    bobs = await standin.wait_for(lambda: result_on(bob.private), what="Bob's last board")
    assert "🏆 Bob wins the match 3–0." in bobs.split("\n")
    assert "Αλίκη resigned the match." in bobs.split("\n")
    assert "Αλίκη 0 – 3 Bob" in bobs.split("\n")[0]  # the score line says it too
    hers = await standin.wait_for(lambda: result_on(aliki.private), what="her last board")
    assert "🏆 Bob κερδίζει τον αγώνα 3–0." in hers.split("\n")
    assert "Αλίκη παραιτήθηκε από τον αγώνα." in hers.split("\n")
    text = await standin.wait_for(lambda: (t := card.refresh().text or "") and "🏆" in t and t,
                                  what="the card's result")
    assert "🏆 Bob κερδίζει τον αγώνα 3–0." in text.split("\n")
    assert "Αλίκη 0 – 3 Bob" in text.split("\n")[0]
    # and /stats counts the 3 points: for Bob, and against her
    stats = await ask(bob, bob.private, "/stats", "📊")
    assert "Points: 3 for · 0 against" in stats.text.split("\n")
    stats = await ask(aliki, aliki.private, "/stats", "📊")
    assert "Πόντοι: 0 υπέρ · 3 κατά" in stats.text.split("\n")


async def test_a_match_lost_on_time_is_won_to_its_length(standin: StandIn, bot: Running) -> None:
    # Given a 3-point match in a group, between players who play on their private boards
    alice = standin.user("Alice", username="alice")
    nikos = standin.user("Νίκος", username="nikos", language_code="el")
    await start_the_bot(alice, nikos)
    group = standin.group("Kafeneio", alice, nikos)
    board = await start_group_match(standin, alice, nikos, group, "3 points")
    mover, other = (alice, nikos) if board.mentions(alice) else (nikos, alice)
    await standin.idle()
    # When the player to move does not move for the timeout (7 days)
    bot.clock.advance(days=7, minutes=1)
    # Then the other has won 3-0: on the group's board, and on the private board the one who
    # timed out was to play on, in their language
    shared = await standin.wait_for(lambda: result_on(group), what="the group's last board")
    lines = shared.split("\n")
    assert f"🏆 {other.first_name} wins the match 3–0." in lines
    assert f"{mover.first_name} did not move in time." in lines
    caption = await standin.wait_for(lambda: result_on(mover.private), what="the mover's board")
    wanted = ("🏆 {} κερδίζει τον αγώνα 3–0." if mover is nikos
              else "🏆 {} wins the match 3–0.").format(other.first_name)
    assert wanted in caption.split("\n"), caption
    # and /stats counts the 3 points for the winner, against the one who timed out
    for user, won, lost in ((other, "3", "0"), (mover, "0", "3")):
        stats = await ask(user, user.private, "/stats", "📊")
        wanted = (f"Πόντοι: {won} υπέρ · {lost} κατά" if user is nikos
                  else f"Points: {won} for · {lost} against")
        assert wanted in stats.text.split("\n"), stats.text
