"""/history: the finished match listed, Download (.mat), Replay stepped in place, Position."""

from __future__ import annotations

import re
from pathlib import Path

from bot.views.callbacks import Action, encode
from standin import StandIn
from standin.players import live_board, play_turn, start_group_match, start_the_bot
from tests.bot.conftest import Running
from tests.storage.gnubg import gnubg_or_skip, gnubg_score


async def test_history_download_replay_and_position(standin: StandIn, bot: Running) -> None:
    alice = standin.user("Alice", username="alice")
    bob = standin.user("Bob", username="bob")
    carol = standin.user("Carol")
    group = standin.group("Kafeneio", alice, bob, carol)
    await start_the_bot(alice, bob)
    board = await start_group_match(standin, alice, bob, group, "3 points")
    mover, other = (alice, bob) if board.mentions(alice) else (bob, alice)
    for player in (mover, other, mover):
        await play_turn(standin, player, group)
    cmd = alice.send(group, "/resign")
    menu = await group.wait_for_bot_message(  # not the last turn's board, if later
        after=cmd, predicate=lambda m: "🏳 Resign the match" in m.button_texts)
    await alice.tap(menu, "🏳 Resign the match")
    await standin.wait_for(
        lambda: (b := live_board(group)) is not None and "wins the match" in b.caption and b,
        what="the end")

    # /history lists the match with its buttons
    cmd = alice.send(group, "/history")
    listing = await group.wait_for_bot_message(  # not the dice reveal, if later
        after=cmd, predicate=lambda m: "Your recent matches" in m.content)
    found = re.search(r"#(\d+) · Bob · 0–\d+/3", listing.text)
    assert found, listing.text
    match_id = int(found.group(1))
    assert f"▶ Replay #{match_id}" in listing.button_texts
    # someone else's tap is refused
    for label in (f"▶ Replay #{match_id}", f"📄 Download #{match_id}"):
        refused = await carol.tap(listing, label)
        assert refused.show_alert and "not your match" in (refused.text or ""), label
    # and data the card does not carry, whoever sends it
    for user, data in ((carol, encode(Action.POSITION, match_id, 0, 0)),
                       (alice, f"hr:{match_id}:0"),  # malformed on purpose: no owner
                       (alice, encode(Action.REPLAY, match_id, 0, 0, owner=carol.id))):
        forged = await user.tap_data(listing, data)
        assert forged.show_alert and "not on this message" in (forged.text or ""), data

    # Download: the .mat as a document
    await alice.tap(listing, f"📄 Download #{match_id}")
    doc = await group.wait_for_bot_message(after=listing,
                                           predicate=lambda m: m.document is not None)
    assert doc.document is not None
    name, data = doc.document
    assert name == f"match-{match_id}.mat"
    mat = data.decode()
    # the match was given up: the file's comment says how it ended (a .mat game cannot)
    assert mat.startswith('; [Comment "🏆 Bob wins the match 3–0. Alice resigned the match."]\n\n'
                          ' 3 point match\n\n Game 1\n Alice : 0')
    assert "Bob : 0" in mat and mat.rstrip().endswith("Wins 3 points")
    plays = re.findall(r"\d\d:(?: \d+/\d+\*?)*", mat)
    assert len(plays) >= 3

    # Replay: a board at the first play, stepped in place to the last
    await alice.tap(listing, f"▶ Replay #{match_id}")
    shown = await group.wait_for_bot_message(
        after=doc, predicate=lambda m: m.photo_bytes is not None and "Game 1" in (m.caption or ""))
    steps = len(plays)
    assert f"(1/{steps})" in shown.caption and "played" in shown.caption
    await alice.tap(shown, "⏭")
    last = await standin.wait_for(lambda: (m := shown.refresh()).edit_count > 0 and m,
                                  what="the replay stepped")
    assert f"({steps}/{steps})" in last.caption and last.message_id == shown.message_id
    d1, d2 = plays[-1][0], plays[-1][1]
    assert f"played {d1}-{d2}:" in last.caption
    await alice.tap(last, "◀")
    back = await standin.wait_for(lambda: (m := shown.refresh()).edit_count > 1 and m,
                                  what="one step back")
    assert f"({steps - 1}/{steps})" in back.caption
    await alice.tap(back, "▶")
    await standin.wait_for(lambda: f"({steps}/{steps})" in shown.refresh().caption)

    # Position: the IDs of the final step, as the review gives the final position
    answer = await alice.tap(shown.refresh(), "📍 Position")
    assert answer.show_alert and answer.text is not None
    ids = re.search(r"Position ID: (\S{14})\nMatch ID: (\S{12})", answer.text)
    assert ids, answer.text
    cmd = alice.send(alice.private, f"/review {match_id}")
    review = await alice.private.wait_for_bot_message(
        after=cmd, predicate=lambda m: "Final position" in (m.text or ""), timeout=60)
    final = re.search(r"\(PositionID:MatchID\): (\S{14}):(\S{12})", review.text)
    assert final, review.text
    assert ids.group(1) == final.group(1)


async def test_a_match_resigned_before_any_move_downloads_with_its_result(
        standin: StandIn, bot: Running, tmp_path: Path) -> None:
    # Before, the .mat held a game with no play, which GNU Backgammon read as no game at all
    # (score 0-0 after 0 games): the result was lost.
    gnubg_or_skip()
    alice = standin.user("Alice", username="alice")
    bob = standin.user("Bob", username="bob")
    await start_the_bot(alice, bob)
    await start_group_match(standin, alice, bob, group := standin.group("Kafeneio", alice, bob),
                            "3 points")
    cmd = alice.send(group, "/resign")
    menu = await group.wait_for_bot_message(
        after=cmd, predicate=lambda m: "🏳 Resign the match" in m.button_texts)
    await alice.tap(menu, "🏳 Resign the match")
    await standin.wait_for(
        lambda: (b := live_board(group)) is not None and "wins the match" in b.caption and b,
        what="the end")
    record = await bot.uc.match_record(1)
    assert record is not None and not record.turns  # nobody moved
    cmd = alice.send(alice.private, "/history")
    listing = await alice.private.wait_for_bot_message(
        after=cmd, predicate=lambda m: "Your recent matches" in m.content)
    await alice.tap(listing, "📄 Download #1")
    doc = await alice.private.wait_for_bot_message(after=listing,
                                                   predicate=lambda m: m.document is not None)
    assert doc.document is not None
    mat = doc.document[1].decode()
    # the opening roll, no moves, then Bob's 3 points, as gnubg writes a resignation on the
    # opening roll; the comment tells how the match ended
    a, b = record.games[0].opening or (0, 0)
    assert re.search(rf"^  1\) +{max(a, b)}{min(a, b)}:$", mat, re.M), mat
    assert mat.rstrip().endswith("Wins 3 points")
    assert mat.startswith('; [Comment "🏆 Bob wins the match 3–0. Alice resigned the match."]')
    assert gnubg_score(mat, tmp_path) == (
        "The score (after 1 game) is: Alice 0, Bob 3 (match to 3 points)")
