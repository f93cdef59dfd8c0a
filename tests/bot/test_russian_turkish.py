"""Matches in Russian and Turkish through the stand-in: a private match against the computer in
Russian (Long Nardy first on the /new card, its board's title drawn in Russian), and a group in
Turkish with a Russian-speaking player (the card with "no triple" ticked, Tavla first). Every
message, caption, button and alert the players see is searched for English or Greek words."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

from bot.views.board_image import drawn_game_name
from bot.views.callbacks import Action, encode
from rendering.geometry import WIDTH
from rendering.table_sprites import TITLE_H, title_band
from rendering.theme import CLASSIC
from standin import Chat, Message, StandIn
from standin.players import board_version, live_board, play_turn, turn_actions
from tests.bot.conftest import Running
from tests.bot.helpers.locales import COMMAND_WORDS, GREEK, KEPT, LATIN_WORD, english_words

from PIL import ImageChops  # isort: skip

HIDDEN = {"code", "pre", "url", "mention"}
"""What a message shows that is the same in every language: hashes and commands to copy,
links, mentions (the stand-in parses the bot's HTML into text and entities); commands are
left to :data:`COMMAND_WORDS`, which knows their arguments."""


def words_of(msg: Message) -> str:
    """The message's text (or caption) and its buttons, without what :data:`HIDDEN` covers."""
    units = list(msg.content.encode("utf-16-le"))
    entities = msg.entities if msg.text is not None else msg.caption_entities
    for e in entities:
        if e["type"] in HIDDEN:
            start, length = int(e["offset"]) * 2, int(e["length"]) * 2
            units[start:start + length] = b" \x00" * (length // 2)
    return "\n".join([bytes(units).decode("utf-16-le"), *msg.button_texts])


def foreign(text: str, lang: str, names: Iterable[str] = ()) -> list[str]:
    """The English or Greek words in ``text`` read by a ``lang`` player (``names``: the
    players', which are theirs in any language)."""
    from bot.views.i18n import lang_name, langs

    for word in (*names, *KEPT, *(lang_name(code) for code in langs())):
        text = text.replace(word, " ")
    text = re.sub(r"https?://\S+", " ", COMMAND_WORDS.sub(" ", text))
    found = GREEK.findall(text)
    latin = LATIN_WORD.findall(text)
    english = english_words()
    return found + (latin if lang == "ru" else [w for w in latin if w.lower() in english])


def assert_in_language(messages: Iterable[Message], lang: str, names: Iterable[str]) -> int:
    seen = 0
    for msg in messages:
        bad = foreign(words_of(msg), lang, names)
        assert not bad, (bad, msg.content)
        seen += 1
    return seen


async def next_turn_or_end(standin: StandIn, chat: Chat, after: int, end: str) -> Message:
    """The live board once it offers a turn newer than version ``after``, or shows the
    match's end (``end``, as the language writes it)."""
    def find() -> Message | None:
        board = live_board(chat)
        if board is None:
            return None
        if end in (board.caption or ""):
            return board
        if board_version(board) > after and turn_actions(board):
            return board
        return None
    return await standin.wait_for(find, timeout=60, what="a turn or the end")  # type: ignore[no-any-return]


async def test_a_private_match_against_the_computer_in_russian(
        standin: StandIn, make_bot: Any) -> None:
    await make_bot(plays_direct=40)
    ivan = standin.user("Иван", username="ivan", language_code="ru")
    hello = ivan.start_bot()
    welcome = await ivan.private.wait_for_bot_message(after=hello)
    assert "Длинные нарды" in welcome.text
    # /new: Long Nardy first, and chosen, on a Russian player's card
    cmd = ivan.send(ivan.private, "/new")
    card = await ivan.private.wait_for_answer(cmd)
    assert card.buttons[0][0].text == "✔ Длинные нарды", card.button_texts
    assert card.text.startswith("🎲 Длинные нарды\nНовый матч"), card.text
    await ivan.tap(card, "🤖 Против компьютера")
    await standin.wait_for(lambda: "Слабый" in " ".join(card.refresh().button_texts),
                           what="the computer card")
    await ivan.tap(card.refresh(), "Слабый")
    await standin.wait_for(lambda: "✔ Слабый" in card.refresh().button_texts, what="the level")
    await ivan.tap(card.refresh(), "1 очко")
    await standin.wait_for(lambda: "SHA-256" in (card.refresh().text or ""), what="the card")
    answer = await ivan.tap(card.refresh(), "▶ Начать")
    assert not (answer and answer.show_alert), answer
    await standin.wait_for(lambda: "матч начался" in (card.refresh().text or ""),
                           what="the match to start")
    # a few turns, a hint refused, then the match resigned
    version, boards = -1, []
    for _ in range(4):
        board = await next_turn_or_end(standin, ivan.private, version, "🏆")
        boards.append(board)
        version = board_version(board)
        await play_turn(standin, ivan, ivan.private, wait=False)
    first = boards[0]
    assert first.caption.startswith("🎲 Длинные нарды · Иван 0 – 0 Компьютер"), first.caption
    # the name drawn on the board is Russian too
    band = first.image().convert("RGB").crop((0, 0, WIDTH, TITLE_H))
    expected = title_band(CLASSIC, drawn_game_name("nardy", "ru"), "right").convert("RGB")
    assert drawn_game_name("nardy", "ru") == "Длинные нарды"
    assert max(high for _, high in ImageChops.difference(band, expected).getextrema()) < 40
    cmd = ivan.send(ivan.private, "/resign")
    menu = await ivan.private.wait_for_bot_message(
        after=cmd, predicate=lambda m: "🏳 Сдать матч" in m.button_texts)
    await ivan.tap(menu, "🏳 Сдать матч")
    final = await standin.wait_for(
        lambda: (b := live_board(ivan.private)) is not None and "🏆" in b.caption and b,
        what="the end")
    assert "Компьютер выигрывает матч" in final.caption and "Иван сдаёт матч" in final.caption
    reveal = await standin.wait_for(
        lambda: next((m for m in ivan.private.bot_messages() if "Зерно костей" in m.content),
                     None), what="the dice reveal")
    link = next(e["url"] for e in reveal.entities if e["type"] == "text_link")
    opened = ivan.follow(link)
    dice_help = await ivan.private.wait_for_bot_message(after=opened)
    assert dice_help.text.startswith("Как проверить кости\n\nПеред началом матча"), dice_help.text
    # /help, /rules and /top, then everything Ivan was shown
    for command in ("/help", "/rules", "/top", "/stats", "/settings", "/lang"):
        sent = ivan.send(ivan.private, command)
        # the match's review may come in between: a notice the delivery worker sends
        answer = await ivan.private.wait_for_bot_message(
            after=sent, predicate=lambda m: not m.content.startswith("📊 Разбор матча"))
        if command in ("/top", "/stats"):  # the game switch: Long Nardy first (and shown)
            assert answer.buttons[0][0].text == "✔ Длинные нарды", answer.button_texts
    seen = assert_in_language(ivan.private.bot_messages(), "ru", ["Иван"])
    assert seen > 10
    # a tap on the finished match's board (forged: an old turn's button) is refused in Russian
    refused = await ivan.tap_data(final, encode(Action.MOVE, 1, version, 24))
    assert refused is not None and refused.show_alert and refused.text
    assert not foreign(refused.text, "ru", []) and re.search("[а-я]", refused.text), refused.text


async def test_a_turkish_group_with_a_russian_speaking_player(
        standin: StandIn, make_bot: Any) -> None:
    await make_bot(plays_direct=40)
    ayse = standin.user("Ayşe", username="ayse", language_code="tr")
    boris = standin.user("Борис", username="boris", language_code="ru")
    hello = boris.start_bot()
    await boris.private.wait_for_bot_message(after=hello)
    group = standin.group("Kahvehane", ayse, boris)
    cmd = ayse.send(group, "/lang")
    choice = await group.wait_for_bot_message(after=cmd)
    assert choice.button_texts == ["Ελληνικά", "English", "Русский", "Türkçe"]
    await ayse.tap(choice, "Türkçe")
    await standin.wait_for(lambda: choice.refresh().text == "Dil: Türkçe", what="Turkish")
    # the card of a Turkish group: Tavla first and chosen, "no triple" ticked, still a switch
    cmd = ayse.send(group, "/new")
    card = await group.wait_for_answer(cmd)
    assert card.buttons[0][0].text == "✔ Tavla" and card.buttons[0][1].text == "Uzun tavla"
    assert "☑ Üçlü yok (backgammon 2 sayılır)" in card.button_texts, card.button_texts
    assert "Üçlü yok: backgammon 2 puan sayılır." in card.text
    # Boris may not choose on Ayşe's card: told so in the group's language
    refused = await boris.tap(card, "☑ Üçlü yok (backgammon 2 sayılır)")
    assert refused is not None and refused.show_alert
    assert not foreign(refused.text or "", "tr", []), refused.text
    await ayse.tap(card, "1 puan")
    await standin.wait_for(lambda: "SHA-256" in (card.refresh().text or ""), what="the challenge")
    assert "üçlü yok" in card.refresh().text.lower()
    await boris.tap(card.refresh(), "🎲 Kabul et")
    board = await standin.wait_for(lambda: live_board(group), what="the first board")
    assert board.caption.startswith("🎲 Tavla · "), board.caption
    assert "üçlü yok" in board.caption
    players = {ayse: "Ayşe", boris: "Борис"}
    for _ in range(3):
        mover = next(u for u in players if board.mentions(u))
        await play_turn(standin, mover, group)
        board = live_board(group) or board
    cmd = boris.send(group, "/resign")
    menu = await group.wait_for_bot_message(
        after=cmd, predicate=lambda m: "🏳 Maçtan pes et" in m.button_texts)
    await boris.tap(menu, "🏳 Maçtan pes et")
    final = await standin.wait_for(
        lambda: (b := live_board(group)) is not None and "🏆" in b.caption and b,
        what="the end")
    assert "Maçı 1–0 Ayşe kazandı" in final.caption and "Борис maçtan pes etti" in final.caption
    for command in ("/help", "/rules", "/top"):
        sent = boris.send(group, command)
        await group.wait_for_bot_message(after=sent)
    names = ["Ayşe", "Борис", "Kahvehane"]
    assert assert_in_language(group.bot_messages(), "tr", names) >= 6
    # Boris's own chat with the bot stays Russian: his welcome and anything sent to him there
    assert assert_in_language(boris.private.bot_messages(), "ru", names) >= 1


async def test_a_turkish_players_first_card_ticks_no_triple_and_it_still_switches(
        standin: StandIn, bot: Running) -> None:
    mehmet = standin.user("Mehmet", language_code="tr")
    cmd = mehmet.send(mehmet.private, "/new")
    card = await mehmet.private.wait_for_answer(cmd)
    assert card.button_texts[:5] == ["✔ Tavla", "Uzun tavla", "Plakoto", "Fevga", "Tavli"]
    assert "☑ Üçlü yok (backgammon 2 sayılır)" in card.button_texts
    await mehmet.tap(card, "☑ Üçlü yok (backgammon 2 sayılır)")
    await standin.wait_for(
        lambda: "☐ Üçlü yok (backgammon 2 sayılır)" in card.refresh().button_texts,
        what="the switch off")
    assert "Üçlü yok" not in card.refresh().text
    await mehmet.tap(card.refresh(), "3 puan")
    await standin.wait_for(lambda: "SHA-256" in (card.refresh().text or ""), what="the card")
    challenge = await bot.uc.get_challenge(1)
    assert challenge is not None and not challenge.no_triple and challenge.length == 3
    # an English player's card is as it was: Portes first, backgammons counting 3
    alice = standin.user("Alice", language_code="en")
    cmd = alice.send(alice.private, "/new")
    card = await alice.private.wait_for_answer(cmd)
    assert card.button_texts[:5] == ["✔ Portes", "Plakoto", "Fevga", "Tavli", "Long Nardy"]
    assert "☐ No triple (backgammon counts 2)" in card.button_texts


async def test_the_command_menu_and_inline_results_in_russian_and_turkish(
        standin: StandIn, bot: Running) -> None:
    default = json.dumps({"type": "default"}, sort_keys=True)
    await standin.wait_for(lambda: (default, "tr") in standin.world.commands, what="the menus")
    menus = {lang: {c["command"]: c["description"] for c in standin.world.commands[(default, code)]}
             for lang, code in (("en", ""), ("el", "el"), ("ru", "ru"), ("tr", "tr"))}
    assert menus["ru"]["new"].startswith("Новый матч: длинные нарды")
    assert menus["tr"]["new"].startswith("Yeni maç: Tavla")
    assert menus["ru"]["lang"] == menus["en"]["lang"].replace("Language", "Язык")
    assert "Русский" in menus["en"]["lang"] and "Türkçe" in menus["el"]["lang"]
    ivan = standin.user("Иван", language_code="ru")
    results = await ivan.inline_query("")
    assert results is not None and results[0]["title"] == "Длинные нарды: матч до 1 очка"
    ayse = standin.user("Ayşe", language_code="tr")
    results = await ayse.inline_query("")
    assert results is not None and results[0]["title"] == "Tavla: 1 puanlık maç · üçlü yok"
    results = await ayse.inline_query("uzun 3")
    assert results is not None and [r["title"] for r in results] == ["Uzun tavla: 3 puanlık maç"]
    results = await ivan.inline_query("короткие 5 без")
    assert results is not None and [r["title"] for r in results] == [
        "Короткие нарды: матч до 5 очков · без кокса", "Короткие нарды: матч до 5 очков"]
