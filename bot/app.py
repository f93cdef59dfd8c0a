"""The Application, built in one place: rate limiter, job queue, handlers, error handler."""

from __future__ import annotations

import asyncio
import logging
import sys
from datetime import timedelta
from typing import Any

from telegram import BotCommand, Update
from telegram.error import InvalidToken, NetworkError, TimedOut
from telegram.ext import (
    Application,
    ApplicationBuilder,
    CallbackQueryHandler,
    ChatMemberHandler,
    ChosenInlineResultHandler,
    CommandHandler,
    InlineQueryHandler,
    MessageHandler,
    filters,
)

from bot import handlers as h
from bot.delivery.limiter import ChatLimiter
from bot.delivery.worker import Delivery
from bot.faults import Faults, NoFaults
from bot.intake.crowd import is_chatter, shed_answerer
from bot.intake.lanes import ChatLanes
from bot.intake.once import once, start_pruning
from bot.ops.logsafe import Redact, token_secrets
from bot.ops.metrics import MeteredRequest, Metrics
from bot.ops.reports import Reporter, start_sentry
from bot.settings import Settings
from bot.state import Portes
from bot.timers import resume_after_downtime, timer_tick
from bot.views.board_image import warm_up
from bot.views.callbacks import CALLBACK_RE
from bot.views.i18n import N_, lang_names, langs, tr
from storage.db import Database
from storage.results import ChallengeLimits, TimerPolicy
from storage.usecases import PlayPolicy, UseCases

log = logging.getLogger("bot")

BACKGROUND_WAIT = 20.0
"""At shutdown, how long the background work (a review takes a few seconds of the engine) may
still run before it is cancelled: within systemd's default stop timeout (90 s); under Docker,
whose default is 10 s, give ``docker stop`` a longer ``--time``."""


def _fast_failing_sniffio_import() -> None:
    """httpcore tries ``import sniffio`` on every request; without sniffio installed (recent
    anyio no longer needs it) each failed import walks sys.path: about 0.3 ms of file-system
    stats per Bot API call. Caching the miss makes it fail at once (httpcore then assumes
    asyncio, which is what we run)."""
    try:
        import sniffio  # noqa: F401
    except ImportError:
        sys.modules["sniffio"] = None  # type: ignore[assignment]


_fast_failing_sniffio_import()

COMMANDS = (
    ("new", N_("New match: Portes, Plakoto, Fevga, Tavli or Long Nardy")),
    ("games", N_("Your matches")),
    ("resign", N_("Resign a game or the match")),
    ("review", N_("Review a finished match")),
    ("history", N_("Your finished matches: replay or download")),
    ("tournament", N_("A league or a cup in this group")),
    ("top", N_("Leaderboard: this group's, or everyone's in private")),
    ("stats", N_("Your record, or head to head (reply to someone)")),
    ("settings", N_("Your settings: board, language, notices")),
    ("play", N_("Find me an opponent")),
    ("ladder", N_("This group's ladder")),
    ("vacation", N_("Vacation: pause your clocks")),
    ("rules", N_("The rules of each game")),
    ("help", N_("How to play")),
    ("lang", N_("Language: {languages}")),
    ("notices", N_("Notices of your turn: on or off")),
    ("quiet", N_("A group's admins: make the bot quiet there")),
    ("forgetme", N_("Delete your data")),
    ("start", N_("Start")),
)


def build_application(
    settings: Settings, *, usecases: UseCases | None = None, migrate: bool = True,
    faults: Faults | None = None,
) -> Application:  # type: ignore[type-arg]
    """The bot's ``Application``: every handler, the rate limiter, the job queue, the timers.
    ``faults``: a test harness's fault injection (:mod:`bot.faults`; none in production)."""
    rate = settings.rate
    metrics = Metrics()
    lean = settings.http_client == "lean"
    limiter = ChatLimiter(
        overall_per_second=rate.overall_per_second, group_per_minute=rate.group_per_minute,
        chat_per_second=rate.chat_per_second, max_retries=rate.max_retries,
    )
    lanes = ChatLanes(64, chatter=is_chatter, budget_wait=limiter.low_wait)
    lanes.metrics = metrics
    builder: ApplicationBuilder[Any, Any, Any, Any, Any, Any] = (
        ApplicationBuilder()
        .token(settings.token)
        .request(MeteredRequest(metrics, connection_pool_size=16, lean=lean,
                                read_timeout=settings.read_timeout))
        .get_updates_request(MeteredRequest(metrics, connection_pool_size=1, lean=lean))
        .rate_limiter(limiter)
        .concurrent_updates(lanes)
        .post_init(_post_init)
        .post_stop(_post_stop)
        .post_shutdown(_post_shutdown)
    )
    if settings.api_url:
        builder = builder.base_url(settings.api_url)
    if settings.file_url:
        builder = builder.base_file_url(settings.file_url)
    app = builder.build()
    lanes.on_shed = shed_answerer(app)
    app.bot_data["settings"] = settings
    app.bot_data["migrate"] = migrate
    app.bot_data["metrics"] = metrics
    app.bot_data["faults"] = faults or NoFaults()
    secrets = Redact(token_secrets(settings.token, settings.webhook_secret))
    app.bot_data["reporter"] = Reporter(app.bot, settings.admin_chat, secrets,
                                        sentry=start_sentry(settings.sentry_dsn, secrets))
    if usecases is not None:
        app.bot_data["portes"] = Portes(settings, usecases, faults=app.bot_data["faults"])
    add_handlers(app)
    return app


def add_handlers(app: Application) -> None:  # type: ignore[type-arg]
    """Every handler, in one place (each lives in its feature's module of bot.handlers)."""
    # New messages only: an old message edited into "/new" (or into a play) is not sent again.
    fresh = filters.UpdateType.MESSAGE
    for name, callback in (("start", h.cmd_start), ("help", h.cmd_help),
                           ("rules", h.cmd_rules), ("new", h.cmd_new), ("games", h.cmd_games),
                           ("resign", h.cmd_resign), ("lang", h.cmd_lang),
                           ("notices", h.cmd_notices), ("review", h.cmd_review),
                           ("history", h.cmd_history), ("top", h.cmd_top),
                           ("stats", h.cmd_stats), ("forgetme", h.cmd_forgetme),
                           ("settings", h.cmd_settings), ("tournament", h.cmd_tournament),
                           ("play", h.cmd_play), ("quiet", h.cmd_quiet),
                           ("ladder", h.cmd_ladder), ("vacation", h.cmd_vacation)):
        # each once, however often Telegram delivers it, on whichever instance (bot.intake.once)
        app.add_handler(CommandHandler(name, once(callback), filters=fresh))
    app.add_handler(CallbackQueryHandler(h.on_callback, pattern=CALLBACK_RE))
    app.add_handler(CallbackQueryHandler(h.on_callback))  # forged or foreign data: refused
    app.add_handler(InlineQueryHandler(h.on_inline_query))
    app.add_handler(ChosenInlineResultHandler(h.on_chosen_inline))
    app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, h.on_migrate))
    app.add_handler(MessageHandler(filters.StatusUpdate.LEFT_CHAT_MEMBER, h.on_member_left))
    app.add_handler(ChatMemberHandler(h.on_my_member, ChatMemberHandler.MY_CHAT_MEMBER))
    app.add_handler(MessageHandler(
        fresh & filters.TEXT & ~filters.COMMAND & filters.ChatType.PRIVATE, h.on_private_text))
    app.add_handler(MessageHandler(
        fresh & filters.TEXT & ~filters.COMMAND & filters.ChatType.GROUPS, h.on_group_text))
    app.add_error_handler(h.on_error)


async def _post_init(app: Application) -> None:  # type: ignore[type-arg]
    settings: Settings = app.bot_data["settings"]
    if "portes" not in app.bot_data:
        if app.bot_data.get("migrate", True):
            await apply_migrations(settings.database_url)
        # the migrations (or whoever set the bot up) made the file: never an empty new one
        db = Database.from_url(settings.database_url, existing_file=True)
        app.bot_data["db"] = db
        tm = settings.timeouts
        policy = TimerPolicy(
            reminders=tuple(timedelta(seconds=s) for s in tm.reminders),
            turn_timeout=timedelta(seconds=tm.move_timeout),
            challenge_ttl=timedelta(seconds=tm.challenge_ttl),
        )
        limits = ChallengeLimits(per_chat=settings.limits.open_per_chat,
                                 overall=settings.limits.open_overall)
        play = PlayPolicy(vacation_days=settings.vacation_days)
        app.bot_data["portes"] = Portes(settings, UseCases(db, timers=policy, limits=limits,
                                                           play=play),
                                        faults=app.bot_data.get("faults", NoFaults()))
    portes: Portes = app.bot_data["portes"]
    portes.metrics = app.bot_data["metrics"]
    if settings.metrics_port is not None and not settings.webhook:
        from bot.ops.http import start_server

        app.bot_data["side_server"] = start_server(app, settings.metrics_listen,
                                                   settings.metrics_port)
    portes.username = app.bot.username
    warm_up()  # the renderer's fonts and sprites, off the first tap
    share_budgets(app, portes)
    await resume_after_downtime(portes)  # before any timer can fire
    start_computer(app, portes)
    await set_commands(app)
    start_delivery(app, portes)
    start_pruning(app, portes)
    if app.job_queue is not None:
        app.job_queue.run_repeating(timer_tick, interval=settings.timeouts.timer_poll, first=1.0,
                                    name="timers")
        # find me an opponent (the windows widen) and the daily ladders, on the same beat
        app.job_queue.run_repeating(h.play_tick, interval=settings.timeouts.timer_poll,
                                    first=1.5, name="play")
        app.job_queue.run_repeating(h.ladder_tick, interval=settings.timeouts.timer_poll,
                                    first=2.0, name="ladder")


def share_budgets(app: Application, portes: Portes) -> None:  # type: ignore[type-arg]
    """On PostgreSQL (where several instances may run) the groups' Telegram budgets are kept
    in the database, shared by every instance; on a SQLite file (one instance) in memory."""
    limiter = app.bot.rate_limiter
    if isinstance(limiter, ChatLimiter) and not portes.uc.db.is_sqlite:
        limiter.share_groups(portes.uc.delivery)


def start_delivery(app: Application, portes: Portes) -> None:  # type: ignore[type-arg]
    """The delivery worker: kicked by every commit in this process, polling every second for
    work other instances or failed attempts left, reconciling every active match at start and
    every ``PORTES_RECONCILE`` seconds."""
    tm = portes.settings.timeouts
    delivery = Delivery(portes, app.bot, lease=tm.delivery_lease)
    portes.delivery = delivery

    async def poll(_context: Any) -> None:
        try:
            await delivery.poll()
        except Exception:
            log.exception("delivery poll failed")

    async def reconcile(_context: Any) -> None:
        try:
            await delivery.reconcile()
        except Exception:
            log.exception("reconciling the boards failed")

    if app.job_queue is not None:
        app.job_queue.run_repeating(poll, interval=1.0, first=1.0, name="delivery")
        app.job_queue.run_repeating(reconcile, interval=tm.reconcile_every, first=0.5,
                                    name="reconcile")


def start_computer(app: Application, portes: Portes) -> None:  # type: ignore[type-arg]
    """Plug the computer player in, take up the computer's turns left pending, and look for
    unclaimed ones (another instance died) every third of a lease.

    The engine's worker process starts with the first engine call (a computer turn, a hint, a
    review), not here: an instance that plays no computer game never pays its start (about
    0.2 CPU s) nor its memory (about 40 MB), and the first computer turn loads the nets within
    the pause a computer move waits anyway (``PORTES_COMPUTER_DELAY``, 1 s)."""
    from bot.computer_player import ComputerSide

    side = ComputerSide(portes, app.bot)
    portes.computer = side
    portes.spawn(side.resume())

    async def take_over(_context: Any) -> None:
        await side.take_over()

    if app.job_queue is not None:  # the turns of an instance that died, once its lease ran out
        every = max(1.0, side.lease / 3)
        app.job_queue.run_repeating(take_over, interval=every, first=every, name="computer")
    start_accuracy(app, portes)


ACCURACY_EVERY = 5.0
"""Seconds between two looks for finished matches without an accuracy figure."""


def start_accuracy(app: Application, portes: Portes) -> None:  # type: ignore[type-arg]
    """The accuracy figure's job (:mod:`bot.accuracy_job`): finished matches between people
    judged in the background, a few at a time."""
    from bot.accuracy_job import AccuracyJob

    job = AccuracyJob(portes)

    async def judge(_context: Any) -> None:
        try:
            await job.run_once()
        except Exception:
            log.exception("the accuracy job failed")

    if app.job_queue is not None:
        app.job_queue.run_repeating(judge, interval=ACCURACY_EVERY, first=ACCURACY_EVERY,
                                    name="accuracy")


async def _post_stop(app: Application) -> None:  # type: ignore[type-arg]
    processor = app.update_processor
    if isinstance(processor, ChatLanes):
        await processor.drain(timeout=10.0)
    # the bot can still send: what the updates started in the background (reviews above all)
    # finishes before the connection and the engine close
    portes = app.bot_data.get("portes")
    if isinstance(portes, Portes):
        await portes.settle(timeout=BACKGROUND_WAIT)
    if isinstance(portes, Portes) and isinstance(portes.delivery, Delivery):
        await portes.delivery.stop()


async def _post_shutdown(app: Application) -> None:  # type: ignore[type-arg]
    from computer import aio

    side = app.bot_data.pop("side_server", None)
    if side is not None:
        side.stop()
    if aio.uses_default():
        aio.shutdown()
    db = app.bot_data.get("db")
    if isinstance(db, Database):
        await db.dispose()


async def apply_migrations(url: str) -> None:
    """The database at the newest migration: read at once when it is there, else migrated in a
    child process (Alembic stays out of the bot's memory, :mod:`storage.schema`)."""
    from storage.health import know_head
    from storage.schema import bring_to_head

    know_head(await bring_to_head(url))


async def set_commands(app: Application) -> None:  # type: ignore[type-arg]
    """Every language's command menu (English for the others: no ``language_code``)."""
    languages = lang_names()
    for lang in langs():
        t = tr(lang)
        commands = [BotCommand(name, t._(text, languages=languages)[:256])
                    for name, text in COMMANDS]
        try:
            await app.bot.set_my_commands(commands, language_code=None if lang == "en" else lang)
        except Exception as exc:
            log.warning("could not set the command menu (%s): %s", lang, exc)


SWITCH_INTERVAL = 0.001
"""Seconds a thread holds the GIL before it must hand it over (Python's default: 0.005). The
event loop (updates, Telegram calls) gives the GIL up at each socket call, and the database
and drawing threads then keep it up to this long before it gets it back: with the default,
the loop waited that long after most of its calls while those threads were busy (in
``bench/turns.py`` on a loaded machine, this alone took sustained taps/s from 9-12 to 19-34)."""


def run(settings: Settings, *, check_only: bool = False, faults: Faults | None = None) -> int:
    sys.setswitchinterval(SWITCH_INTERVAL)
    if settings.webhook and not settings.webhook_secret:
        # from_env refuses this already; settings built in code must not slip past it
        print("portes-bot: webhook mode needs PORTES_WEBHOOK_SECRET", file=sys.stderr)
        return 2
    app = build_application(settings, faults=faults)

    async def check() -> None:
        # Ask Telegram who we are first: a rejected token gets a clear message, not a traceback.
        async with app.bot:
            pass

    try:
        asyncio.run(check())
    except InvalidToken:
        return _token_rejected(settings)
    except (NetworkError, TimedOut) as exc:
        return _unreachable(settings, exc)
    if check_only:
        return check_database(settings, app.bot.username)
    try:
        if settings.webhook:
            from bot.ops.http import serve_webhook

            asyncio.run(serve_webhook(app, settings, webhook_url(settings)))
        else:
            app.run_polling(allowed_updates=Update.ALL_TYPES)
    except InvalidToken:
        return _token_rejected(settings)
    except (NetworkError, TimedOut) as exc:
        return _unreachable(settings, exc)
    return 0


def check_database(settings: Settings, username: str) -> int:
    """``--check``'s second half: the database is reachable, migrated to the newest revision."""
    from sqlalchemy.engine import make_url

    shown = make_url(settings.database_url).render_as_string(hide_password=True)
    try:
        asyncio.run(apply_migrations(settings.database_url))
    except Exception as exc:
        print(f"portes-bot: the database {shown} cannot be used: {type(exc).__name__}: {exc}",
              file=sys.stderr)
        return 1
    print(f"portes-bot: OK, @{username}, database {shown} migrated to the newest revision")
    return 0


def webhook_url(settings: Settings) -> str | None:
    """The public URL Telegram posts to: ``PORTES_WEBHOOK_URL``, ending in the webhook path."""
    if not settings.webhook_url:
        return None
    base = settings.webhook_url.rstrip("/")
    if base.endswith("/" + settings.webhook_path):
        return base
    return f"{base}/{settings.webhook_path}"


def _token_rejected(settings: Settings) -> int:
    print("portes-bot: Telegram rejected TELEGRAM_BOT_TOKEN (Unauthorized). Check it with "
          "@BotFather (/mybots, API Token); it looks like 123456789:AA...", file=sys.stderr)
    return 2


def _unreachable(settings: Settings, exc: Exception) -> int:
    where = settings.api_url or "https://api.telegram.org"
    print(f"portes-bot: cannot reach the Bot API at {where}: {exc}", file=sys.stderr)
    return 3
