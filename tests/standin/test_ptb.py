"""The stand-in driven by the real python-telegram-bot stack over HTTP."""

from __future__ import annotations

import io
import logging
from collections.abc import AsyncIterator, Iterator

import pytest
from PIL import Image
from telegram import (
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputMediaPhoto,
    Message,
    Update,
)
from telegram.error import BadRequest, Forbidden, InvalidToken
from telegram.ext import (
    AIORateLimiter,
    Application,
    ApplicationBuilder,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
    MessageHandler,
    filters,
)

from standin.server import StandIn


def _png(color: str, size: tuple[int, int] = (200, 100)) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", size, color).save(buf, "PNG")
    return buf.getvalue()


def keyboard(n: int) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup([[InlineKeyboardButton(f"+1 ({n})", callback_data=f"inc:{n}"),
                                  InlineKeyboardButton("Photo", callback_data="photo")]])


async def new(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_message is not None
    await update.effective_message.reply_text(f"count 0 args={context.args}",
                                              reply_markup=keyboard(0))


async def tapped(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.callback_query
    assert query is not None and query.data is not None
    if query.data == "photo":
        await query.answer()
        assert isinstance(query.message, Message)
        sent = await query.message.reply_photo(_png("red"), caption="red",
                                               reply_markup=keyboard(0))
        await sent.edit_media(InputMediaPhoto(_png("blue"), caption="blue"),
                              reply_markup=keyboard(1))
        return
    n = int(query.data.split(":")[1]) + 1
    if n >= 3:
        await query.answer("That's enough", show_alert=True)
        return
    await query.answer(f"now {n}")
    await query.edit_message_text(f"count {n}", reply_markup=keyboard(n))


async def echo(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_message is not None and update.effective_message.text is not None
    await update.effective_message.reply_text("echo: " + update.effective_message.text)


@pytest.fixture
def standin() -> Iterator[StandIn]:
    """On the real clock: python-telegram-bot's long polls end in real seconds, and its rate
    limiter sleeps out a flood wait in real seconds too."""
    with StandIn() as server:
        yield server


@pytest.fixture
async def app(standin: StandIn) -> AsyncIterator[Application]:  # type: ignore[type-arg]
    application = (ApplicationBuilder().token(standin.token).base_url(standin.base_url)
                   .base_file_url(standin.base_file_url).rate_limiter(AIORateLimiter(max_retries=2))
                   .build())
    application.add_handler(CommandHandler("new", new))
    application.add_handler(CallbackQueryHandler(tapped))
    application.add_handler(MessageHandler(filters.TEXT & ~filters.COMMAND, echo))
    async with application:
        await application.start()
        assert application.updater is not None
        await application.updater.start_polling(poll_interval=0, timeout=1)
        yield application
        await application.updater.stop()
        await application.stop()


async def test_command_tap_and_alert(standin: StandIn, app: Application) -> None:  # type: ignore[type-arg]
    alice = standin.user("Alice", username="alice")
    sent = alice.start_bot()
    alice.send(alice.private, "/new 3")
    board = await alice.private.wait_for_bot_message(after=sent)
    assert board.text == "count 0 args=['3']"
    assert board.button_texts == ["+1 (0)", "Photo"]

    answer = await alice.tap(board, "+1 (0)")
    assert answer.text == "now 1" and not answer.show_alert
    await standin.wait_for(lambda: board.refresh().text == "count 1")
    board = board.refresh()
    assert board.edit_count == 1 and board.button_texts == ["+1 (1)", "Photo"]

    answer = await alice.tap(board, "+1 (1)")
    await standin.wait_for(lambda: board.refresh().text == "count 2")
    answer = await alice.tap(board.refresh(), "+1 (2)")
    assert answer.text == "That's enough" and answer.show_alert
    await standin.idle()
    assert board.refresh().text == "count 2"


async def test_photo_upload_and_edit_media(standin: StandIn, app: Application) -> None:  # type: ignore[type-arg]
    alice = standin.user("Alice")
    alice.start_bot()
    alice.send(alice.private, "/new")
    board = await alice.private.wait_for_bot_message()
    await alice.tap(board, "Photo")
    photo = await alice.private.wait_for_bot_message(
        after=board, predicate=lambda m: m.caption == "blue")
    assert photo.image().getpixel((10, 10))[2] > 200  # blue, after JPEG recompression
    assert photo.button_texts == ["+1 (1)", "Photo"]
    assert [c.method for c in standin.calls() if c.method != "getUpdates"][-2:] == [
        "sendPhoto", "editMessageMedia"]


async def test_group_privacy_with_real_bot(standin: StandIn, app: Application) -> None:  # type: ignore[type-arg]
    alice, bob = standin.user("Alice"), standin.user("Bob")
    group = standin.group("Kafeneio", alice, bob)
    alice.send(group, "just chatting")
    alice.send(group, "/new@other_bot")
    cmd = alice.send(group, "/new@portes_test_bot")
    reply = await group.wait_for_bot_message(after=cmd)
    await standin.idle()
    assert [m.content for m in group.bot_messages()] == ["count 0 args=[]"]
    bob.reply(group, reply, "nice")
    answer = await group.wait_for_bot_message(after=reply)
    assert answer.text == "echo: nice"


async def test_errors_surface_as_ptb_exceptions(standin: StandIn, app: Application) -> None:  # type: ignore[type-arg]
    bot = app.bot
    alice = standin.user("Alice")
    with pytest.raises(Forbidden, match="can't initiate conversation"):
        await bot.send_message(alice.id, "hi")
    alice.start_bot()
    alice.block_bot()
    with pytest.raises(Forbidden, match="blocked by the user"):
        await bot.send_message(alice.id, "hi")
    alice.unblock_bot()
    msg = await bot.send_message(alice.id, "hi")
    with pytest.raises(BadRequest, match="not modified"):
        await msg.edit_text("hi")
    with pytest.raises(BadRequest, match="Button_data_invalid"):
        await bot.send_message(alice.id, "x", reply_markup=InlineKeyboardMarkup(
            [[InlineKeyboardButton("x", callback_data="x" * 65)]]))


@pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")
async def test_rate_limiter_retries_after_429(standin: StandIn, app: Application,  # type: ignore[type-arg]
                                              caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING)
    alice = standin.user("Alice")
    alice.start_bot()
    standin.inject_error("sendMessage", 429, retry_after=1, times=1)
    msg = await app.bot.send_message(alice.id, "after a flood wait")
    assert msg.text == "after a flood wait"
    sends = standin.calls("sendMessage")
    assert [c.ok for c in sends] == [False, True]
    assert sends[0].description == "Too Many Requests: retry after 1"
    assert sends[1].time - sends[0].time >= 1.0  # a lower bound only: the limiter sleeps 1 s


async def test_wrong_token_is_rejected(standin: StandIn) -> None:
    application = (ApplicationBuilder().token("123:WRONG").base_url(standin.base_url).build())
    with pytest.raises(InvalidToken):
        await application.initialize()
