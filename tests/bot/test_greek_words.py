"""Greek players read Greek words on the boards (issue 27, item 17): the pips as "Βήματα", and
"bar" and "off" in the plays told as the turn's buttons say them ("μπάρα", "έξω"); the points,
"/" and "*" stay the standard notation."""

from __future__ import annotations

import re
from typing import Any

from standin import StandIn
from standin.players import live_board, new_board, play_turn
from tests.bot.conftest import Running

ENGLISH = re.compile(r"\b(bar|off|Pips|equity)\b")


def sent(standin: StandIn, chat_id: int) -> tuple[list[str], list[str]]:
    """Every caption, and every button's label, the bot sent or edited into the chat."""
    captions: list[str] = []
    labels: list[str] = []
    for call in standin.calls(chat_id=chat_id, ok=True):
        result = call.result if isinstance(call.result, dict) else {}
        if result.get("caption"):
            captions.append(result["caption"])
        markup = result.get("reply_markup") or {}
        labels += [b["text"] for row in markup.get("inline_keyboard", []) for b in row]
    return captions, labels


async def test_a_greek_match_says_pips_bar_and_off_in_greek(
        standin: StandIn, make_bot: Any) -> None:
    # Given a 1-point match in a Greek group, some plays offered whole on buttons
    bot: Running = await make_bot(plays_direct=6)
    nikos = standin.user("Nikos", language_code="el")
    maria = standin.user("Maria", language_code="el")
    group = standin.group("Καφενείο", nikos, maria)
    cmd = nikos.send(group, "/new")
    card = await group.wait_for_answer(cmd)
    await nikos.tap(card, "1 πόντος")
    await standin.wait_for(lambda: "SHA-256" in (card.refresh().text or ""), what="the card")
    await maria.tap(card.refresh(), "🎲 Αποδοχή")
    board = await standin.wait_for(lambda: live_board(group), what="the first board")
    # When they play it to the end
    captions = [board.caption]
    while "κερδίζει τον αγώνα" not in board.caption:
        mover = nikos if board.mentions(nikos) else maria
        await play_turn(standin, mover, group, wait=False)
        board = await new_board(standin, group, board)
        captions.append(board.caption)
        assert len(captions) < 400
    # Then no caption or button has the English words, the pips are "Βήματα"
    every_caption, labels = sent(standin, group.id)
    assert len(every_caption) > len(captions) and labels
    for caption in every_caption:
        assert not ENGLISH.search(caption), caption
    assert all("Βήματα:" in c for c in captions[:-1])
    assert not [b for b in labels if ENGLISH.search(b)]
    # and the last play, which bore off the last checker, says so in Greek
    assert re.search(r"\d/έξω", captions[-1]), captions[-1]
    record = await bot.uc.match_record(1)
    assert record is not None and "/off" in record.turns[-1].text  # the record keeps notation
