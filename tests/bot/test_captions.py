"""What players read on the boards: the story of a turn in the order it happened, the result
after the play that ended the game, the winner's score first, the resignation awaited."""

from __future__ import annotations

import hashlib
import io
import re
from typing import Any

from standin import Chat, Message, StandIn, User
from standin.players import live_board, new_board, play_turn, start_group_match
from storage.results import LoggedTurn
from tests.bot.conftest import Running

FORCED = "(forced: the only legal play)"


def told(names: dict[int, str], turn: LoggedTurn) -> str:
    """A turn as a caption tells it."""
    return f"{names[turn.player]} played {turn.dice}: {turn.text}"


async def play_group_match_reading(standin: StandIn, group: Chat, users: list[Any]) -> list[str]:
    """Play the group match to its end; every new board's caption, as first posted."""
    board = live_board(group)
    assert board is not None
    captions = [board.caption]
    while "wins the match" not in board.caption:
        mover = next(u for u in users if board.mentions(u))
        await play_turn(standin, mover, group, wait=False)
        board = await new_board(standin, group, board)
        captions.append(board.caption)
        assert len(captions) < 400
    return captions


async def test_a_forced_play_is_noted_under_its_own_line_and_the_result_after_the_last_play(
        standin: StandIn, make_bot: Any) -> None:
    # a fixed seed: this 1-point match has forced plays (checked below), so the test always
    # reads some
    bot: Running = await make_bot(plays_direct=40, seed=hashlib.sha256(b"forced 3").digest())
    alice = standin.user("Alice", username="alice")
    bob = standin.user("Bob", username="bob")
    group = standin.group("Kafeneio", alice, bob)
    await start_group_match(standin, alice, bob, group)
    captions = await play_group_match_reading(standin, group, [alice, bob])
    record = await bot.uc.match_record(1)
    assert record is not None
    names = {0: "Alice", 1: "Bob"}
    forced = [told(names, t) for t in record.turns if t.forced and t.moves]
    assert forced, "the seed no longer gives a forced play: pick another"
    lines = [caption.split("\n") for caption in captions]
    for caption in lines:
        for i, line in enumerate(caption):
            if line == FORCED:
                # the note sits right under the forced play it is about
                assert caption[i - 1] in forced, caption
    for play in forced:
        assert any(play in caption and caption[caption.index(play) + 1] == FORCED
                   for caption in lines), (play, captions)
    # the end: the play that ended the game, then the result, then the match's result
    final = lines[-1]
    winner = names[record.match.state.winner or 0]
    last = told(names, record.turns[-1])
    result = next(i for i, line in enumerate(final) if line.startswith("🏁"))
    assert final.index(last) < result, final
    assert f"🏆 {winner} wins the match 1–0." in final, final
    # no board carries the GNU Backgammon ID; the review (one command away) does
    gnubg = re.compile(r"[A-Za-z0-9+/]{14}:[A-Za-z0-9+/]{12}")
    assert not any(gnubg.search(caption) for caption in captions)
    cmd = alice.send(group, "/review 1")
    said = await group.wait_for_answer(cmd, timeout=60)  # not the seed revealed meanwhile
    [link] = [b.url for row in said.buttons for b in row]  # the review is hers, in private
    opened = alice.follow(link or "")
    review = await alice.private.wait_for_bot_message(
        after=opened, predicate=lambda m: "Review of match #1" in m.content, timeout=60)
    assert f"(PositionID:MatchID): {record.match.state.gnubg_id()}" in review.content


def test_the_greek_score_line_says_sto_for_one_point_and_stous_for_more() -> None:
    from bot.views.i18n import tr
    from bot.views.texts import Names, score_line
    from rules.match import Match

    el = tr("el")
    lines = {n: score_line(el, Match.new(n), Names("Α", "Β")) for n in (1, 3, 5, 7)}
    assert lines[1].endswith("αγώνας στον 1")
    assert all(lines[n].endswith(f"αγώνας στους {n}") for n in (3, 5, 7))


async def resignation_offered(standin: StandIn) -> tuple[Chat, Message, User, User]:
    """A 3-point group match whose player to move offers to resign the game for 1 point:
    the group, the board showing the offer, the player who offered and the one who must
    answer."""
    alice = standin.user("Alice", username="alice")
    bob = standin.user("Bob", username="bob")
    group = standin.group("Kafeneio", alice, bob)
    board = await start_group_match(standin, alice, bob, group, length="3 points")
    mover, other = (alice, bob) if board.mentions(alice) else (bob, alice)
    cmd = mover.send(group, "/resign")
    menu = await group.wait_for_bot_message(after=cmd)
    await mover.tap(menu, "Game: 1 point")
    offer = await standin.wait_for(
        lambda: (b := live_board(group)) is not None and "offers to resign" in b.caption and b,
        what="the offer")
    return group, offer, mover, other


async def test_a_resignation_offer_asks_the_answerer_on_the_groups_fixed_board(
        standin: StandIn, bot: Running) -> None:
    from PIL import Image, ImageChops, ImageStat

    from bot.views.board_image import SHARED_SIDE, Look, draw_board_async

    _, offer, _, other = await resignation_offered(standin)
    assert f"👉 {other.first_name}, accept or decline the offer." in offer.caption
    assert "your move" not in offer.caption
    # the picture is the group's one side (the first seat's) with both names, whoever answers
    loaded = await bot.uc.load_match(1)
    assert loaded.match is not None
    answerer = loaded.match.to_act
    assert answerer is not None
    shown = offer.image().convert("RGB")
    names = ("Alice", "Bob")
    drawings = {viewer: await draw_board_async(loaded.match.state, viewer, Look.shared("en"),
                                               names) for viewer in (0, 1)}

    def distance(viewer: int) -> float:
        drawn = Image.open(io.BytesIO(drawings[viewer])).convert("RGB")
        return sum(ImageStat.Stat(ImageChops.difference(shown, drawn)).mean)

    # (the stand-in may re-encode photos, so the pictures are compared, not their bytes)
    assert distance(SHARED_SIDE) * 10 < distance(1 - SHARED_SIDE)


async def test_the_score_badge_reads_the_same_whoever_the_group_board_is_drawn_for(
        standin: StandIn, bot: Running) -> None:
    from PIL import ImageChops, ImageStat

    from rendering.geometry import board_geometry
    from rendering.table_sprites import TITLE_H

    # one game resigned for a point: 1-0, then the boards of game 2 alternate between movers
    group, offer, mover, other = await resignation_offered(standin)
    await other.tap(offer, "Accept")
    first = await standin.wait_for(
        lambda: (b := live_board(group)) is not None and "Game 2" in b.caption and b,
        what="game 2")
    second_mover = mover if first.mentions(mover) else other
    await play_turn(standin, second_mover, group, wait=False)
    second = await new_board(standin, group, first)
    assert first.mentions(mover) != second.mentions(mover)  # drawn for one, then the other
    left, top, right, bottom = board_geometry("right").score_box()
    box = (left, top + TITLE_H, right, bottom + TITLE_H)  # under the band with Bob's name
    badges = [b.image().convert("RGB").crop(box) for b in (first, second)]
    # the same picture (up to JPEG noise): not "1–0" for one and "0–1" for the other
    assert sum(ImageStat.Stat(ImageChops.difference(*badges)).mean) < 3


async def test_help_says_what_the_marks_on_the_board_mean(standin: StandIn, bot: Running) -> None:
    for user, words in ((standin.user("Alice"), ("✖ on a checker it hit, now on the bar",
                                                 "each colour's score")),
                        (standin.user("Eleni", language_code="el"),
                         ("✖ πάνω στο πούλι που χτυπήθηκε", "κάθε χρώματος"))):
        hello = user.start_bot()
        await user.private.wait_for_bot_message(after=hello)
        cmd = user.send(user.private, "/help")
        answer = await user.private.wait_for_bot_message(after=cmd)
        assert all(w in answer.text for w in words), answer.text
