"""The one error handler: blocked users are remembered, harmless refusals ignored, anything
else logged (and a tap that failed gets an alert)."""

from __future__ import annotations

import logging

from telegram import Update
from telegram.constants import ChatType
from telegram.error import BadRequest, Forbidden

from bot.handlers.common import Ctx
from bot.state import portes
from bot.views import texts

log = logging.getLogger("bot.handlers")


async def on_error(update: object, context: Ctx) -> None:
    """Any exception a handler raised: remember a block, ignore "not modified", log the rest."""
    error = context.error
    if isinstance(error, Forbidden):
        # the user blocked the bot (or never started it): remember, and carry on
        log.info("forbidden: %s", error.message)
        if isinstance(update, Update) and update.effective_user is not None:
            chat = update.effective_chat
            if chat is not None and chat.type == ChatType.PRIVATE:
                await portes(context).uc.set_can_message(update.effective_user.id, False)
        return
    if isinstance(error, BadRequest) and "not modified" in error.message.lower():
        return
    if isinstance(error, BadRequest) and "query is too old" in error.message.lower():
        # a callback query answered already (Telegram delivered the update twice: another
        # instance or an earlier attempt answered it) or too late: the board follows anyway
        log.info("a callback query could not be answered: %s", error.message)
        return
    log.error("unhandled error while handling an update", exc_info=error)
    if isinstance(update, Update) and update.callback_query is not None:
        try:
            t = portes(context).t_user(update.callback_query.from_user)
            await update.callback_query.answer(texts.error_text(t, "error"), show_alert=True)
        except BadRequest:
            pass
        except Exception:
            log.debug("could not answer after an error", exc_info=True)
    if error is not None:  # after the player's answer: a report is not urgent for them
        await _report(error, update, context)



async def _report(error: Exception, update: object, context: Ctx) -> None:
    """Count the error, and report it to the operator (rate-limited; see bot.ops.reports)."""
    metrics = context.application.bot_data.get("metrics")
    if metrics is not None:
        metrics.handler_errors.labels(kind=type(error).__name__).inc()
    reporter = context.application.bot_data.get("reporter")
    if reporter is not None:
        await reporter.report(error, update)
