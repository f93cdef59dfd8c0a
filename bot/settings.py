"""The bot's settings, read from the environment (see ``python -m bot --help``)."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

DEFAULT_DATABASE_URL = "sqlite:///portes.sqlite3"


class SettingsError(ValueError):
    """A setting is missing or malformed; the message is fit to print for the bot's owner."""


@dataclass(frozen=True)
class RateLimits:
    """The rate limiter's ceilings (:class:`bot.delivery.limiter.ChatLimiter`);
    Telegram's own limits by default. A rate of 0 lifts that ceiling (the tests and the
    benchmark do so).
    """

    overall_per_second: float = 30.0
    group_per_minute: float = 20.0
    chat_per_second: float = 1.0
    """About one call a second in any one chat (a burst of 3 allowed), as Telegram asks."""
    max_retries: int = 5


@dataclass(frozen=True)
class Limits:
    """Per-player caps, so one player cannot flood a group; 0 lifts a cap."""

    new_per_minute: int = 5
    """``/new`` commands one player may send in any minute (in memory, per bot instance)."""
    new_per_group_minute: int = 5
    """``/new`` commands one group may get answered in any minute, whoever sends them: a crowd
    of accounts cannot fill the group's 20 calls a minute with cards (in memory, per bot
    instance)."""
    open_per_chat: int = 3
    """Open challenges of one player in one group (enforced by the database)."""
    open_overall: int = 10
    """Open challenges of one player anywhere (enforced by the database)."""


@dataclass(frozen=True)
class Timeouts:
    """Reminders and the abandoned-match timeout, in seconds."""

    reminders: tuple[float, ...] = (12 * 3600.0, 24 * 3600.0)
    move_timeout: float = 7 * 24 * 3600.0
    challenge_ttl: float = 24 * 3600.0
    timer_poll: float = 30.0
    delivery_lease: float = 15.0
    """Seconds a worker holds a place it claimed (renewed before each send); after a crash
    another worker (or the restarted one) takes the place over once it has run out."""
    reconcile_every: float = 300.0
    """Seconds between passes comparing every active match's boards with the database."""
    computer_lease: float = 30.0
    """Seconds an instance holds the computer's turn in a match (renewed while it thinks);
    when it dies another instance plays the turn once the lease has run out."""


@dataclass(frozen=True)
class Settings:
    token: str
    database_url: str = DEFAULT_DATABASE_URL
    api_url: str | None = None
    file_url: str | None = None
    webhook_url: str | None = None
    webhook_listen: str = "127.0.0.1"
    webhook_port: int = 8443
    webhook_path: str = "telegram"
    webhook_secret: str | None = None
    rate: RateLimits = field(default_factory=RateLimits)
    timeouts: Timeouts = field(default_factory=Timeouts)
    limits: Limits = field(default_factory=Limits)
    log_level: str = "INFO"
    plays_direct: int = 6
    """Offer whole plays as buttons when there are at most this many legal plays."""
    group_moves: int = 24
    """On a group's board its mover plays on (they never started the bot), every single move
    is a button at once when there are at most this many, and the move that completes the
    play ends the turn (:mod:`bot.views.group_moves`); 0: checker by checker there too."""
    read_timeout: float = 5.0
    """Seconds a call waits for Telegram's answer before its outcome is taken as unknown
    (python-telegram-bot's read timeout; the long poll has its own)."""
    computer_delay: float = 1.0
    """Seconds the computer waits before showing its move, so the player can follow."""
    dice_help_url: str | None = None
    """Where the seed reveal's "How to check the dice" link points (``None``: the bot's own
    page, ``t.me/<bot>?start=dice``)."""
    vacation_days: int = 14
    """Vacation days each player has per calendar year (``/vacation``)."""
    metrics_port: int | None = None
    """In polling mode, the port of ``/healthz``, ``/readyz`` and ``/metrics`` (``None``: not
    served; in webhook mode they are beside the webhook)."""
    metrics_listen: str = "127.0.0.1"
    admin_chat: int | None = None
    """The operator's chat, where unhandled errors are reported (rate-limited)."""
    sentry_dsn: str | None = None
    log_format: str = "text"
    """``text`` or ``json`` (one JSON object per log line)."""
    http_client: str = "httpx"
    """``httpx`` (httpx with httpcore) or ``lean`` (httpx over
    :class:`bot.ops.lean_http.LeanTransport`: about half the CPU per call)."""

    @property
    def webhook(self) -> bool:
        return bool(self.webhook_url)


ENV_HELP: tuple[tuple[str, str], ...] = (
    ("TELEGRAM_BOT_TOKEN", "required: the token BotFather gave you"),
    ("DATABASE_URL", f"SQLite file or PostgreSQL URL (default: {DEFAULT_DATABASE_URL}), e.g. "
     "postgresql://user:pass@host/portes; runs on sqlite3 or psycopg 3 whatever driver it names"),
    ("TELEGRAM_API_URL", "base URL of a self-hosted Bot API server, e.g. http://localhost:8081/bot"),
    ("TELEGRAM_FILE_URL", "base file URL of that server, e.g. http://localhost:8081/file/bot"),
    ("PORTES_WEBHOOK_URL", "public HTTPS URL Telegram posts updates to; set it to use a webhook "
     "behind a reverse proxy instead of long polling (several instances on one PostgreSQL)"),
    ("PORTES_WEBHOOK_LISTEN", "address the webhook server listens on (default 127.0.0.1)"),
    ("PORTES_WEBHOOK_PORT", "port the webhook server listens on (default 8443)"),
    ("PORTES_WEBHOOK_PATH", "URL path of the webhook (default: telegram)"),
    ("PORTES_WEBHOOK_SECRET", "required with PORTES_WEBHOOK_URL: the secret token (1-256 of "
     "A-Z a-z 0-9 _ -) Telegram sends in X-Telegram-Bot-Api-Secret-Token; updates without it "
     "are refused. Give every instance the same one"),
    ("PORTES_RATE_OVERALL", "messages per second over all chats (default 30; 0 lifts the limit)"),
    ("PORTES_RATE_GROUP", "messages per minute in one group (default 20; 0 lifts the limit)"),
    ("PORTES_RATE_CHAT", "messages per second in any one chat, a burst of 3 allowed (default 1; "
                         "0 lifts the limit)"),
    ("PORTES_RATE_RETRIES", "retries after a 429 'retry after' answer (default 5)"),
    ("PORTES_NEW_PER_MINUTE", "/new commands one player may send per minute; more are refused "
     "with one notice a minute (default 5; 0 lifts the cap; counted per bot instance)"),
    ("PORTES_NEW_PER_GROUP_MINUTE", "/new commands answered per minute in one group, whoever "
     "sends them; more are told privately that the group is busy (default 5; 0 lifts the cap; "
     "counted per bot instance)"),
    ("PORTES_OPEN_CHALLENGES_CHAT", "open challenges one player may have in one group "
     "(default 3; 0 lifts the cap)"),
    ("PORTES_OPEN_CHALLENGES", "open challenges one player may have in all (default 10; "
     "0 lifts the cap)"),
    ("PORTES_REMINDERS", "hours after which the player to move is reminded (default 12,24), "
     "with the default time per move; another time chosen at /new reminds at half of it"),
    ("PORTES_MOVE_TIMEOUT", "the default time per move, ticked on the /new card: hours without "
     "a move after which the player to move loses the match (default 168 = 7 days)"),
    ("PORTES_CHALLENGE_TTL", "hours a challenge stays open (default 24)"),
    ("PORTES_TIMER_POLL", "seconds between checks for due reminders and timeouts (default 30)"),
    ("PORTES_DELIVERY_LEASE", "seconds a delivery worker holds a board it is posting before "
     "another instance may take it over (default 15)"),
    ("PORTES_RECONCILE", "seconds between checks that every active match's boards show what "
     "the database says (default 300)"),
    ("PORTES_COMPUTER_LEASE", "seconds an instance holds the computer's turn it is playing "
     "before another instance may take it over (default 30)"),
    ("PORTES_COMPUTER_DELAY", "seconds the computer pauses before its move shows "
     "(default 1.0; 0 for none)"),
    ("PORTES_DICE_HELP_URL", "http(s) URL of a page on checking the dice (e.g. docs/dice.md "
     "where you publish the source), linked from the seed revealed at the end of every match "
     "(default: the bot's own page, t.me/<bot>?start=dice)"),
    ("PORTES_VACATION_DAYS", "vacation days each player has per calendar year, /vacation "
     "(default 14)"),
    ("PORTES_METRICS_PORT", "in polling mode, serve /healthz, /readyz and /metrics on this "
     "port (in webhook mode they are served beside the webhook; keep /metrics off the "
     "public proxy)"),
    ("PORTES_METRICS_LISTEN", "address of that side port (default 127.0.0.1)"),
    ("PORTES_ADMIN_CHAT", "chat id (a number) of the operator's chat: unhandled errors are "
     "reported there, at most one a minute of each kind, with how many were held back"),
    ("SENTRY_DSN", "report unhandled errors to Sentry too (needs: pip install 'portes[sentry]')"),
    ("PORTES_LOG_FORMAT", "text (default) or json: one JSON object per log line"),
    ("PORTES_HTTP_CLIENT", "httpx (default) or lean: the Bot API calls over a lean HTTP/1.1 "
     "transport under httpx (about half the CPU per call; proxies still go through httpx's)"),
    ("PORTES_LOG_LEVEL", "DEBUG, INFO, WARNING... (default INFO)"),
)


WEBHOOK_SECRET_RE = re.compile(r"[A-Za-z0-9_-]{1,256}")


def _webhook_secret(env: Mapping[str, str]) -> str | None:
    """The webhook's secret token; required in webhook mode, where without it anyone who can
    reach the listener could post updates and play or resign for any user."""
    secret = env.get("PORTES_WEBHOOK_SECRET", "").strip() or None
    if not env.get("PORTES_WEBHOOK_URL", "").strip():
        return secret
    if secret is None:
        raise SettingsError(
            "PORTES_WEBHOOK_SECRET is not set. In webhook mode the bot refuses updates that "
            "do not carry it; make one (every instance the same), e.g.:  "
            "PORTES_WEBHOOK_SECRET=$(python3 -c 'import secrets; print(secrets.token_urlsafe(32))')"
        )
    if not WEBHOOK_SECRET_RE.fullmatch(secret):
        raise SettingsError("PORTES_WEBHOOK_SECRET must be 1-256 of A-Z a-z 0-9 _ - "
                            "(Telegram's rule for secret tokens)")
    return secret


def _url(env: Mapping[str, str], name: str) -> str | None:
    raw = env.get(name, "").strip()
    if raw and not re.fullmatch(r"https?://\S+", raw):
        raise SettingsError(f"{name} must be an http:// or https:// URL, not {raw!r}")
    return raw or None


def _float(env: Mapping[str, str], name: str, default: float) -> float:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise SettingsError(f"{name} must be a number, not {raw!r}") from None
    if value < 0:
        raise SettingsError(f"{name} must not be negative")
    return value


def _hours(env: Mapping[str, str], name: str, default_seconds: float) -> float:
    return _float(env, name, default_seconds / 3600.0) * 3600.0


def _port(env: Mapping[str, str], name: str) -> int | None:
    raw = env.get(name, "").strip()
    if not raw:
        return None
    if not raw.isdigit() or not 0 < int(raw) < 65536:
        raise SettingsError(f"{name} must be a port number, not {raw!r}")
    return int(raw)


def _chat(env: Mapping[str, str], name: str) -> int | None:
    raw = env.get(name, "").strip()
    if not raw:
        return None
    if not re.fullmatch(r"-?\d+", raw):
        raise SettingsError(f"{name} must be a chat id (a number such as -1001234567890), "
                            f"not {raw!r}")
    return int(raw)


def _http_client(env: Mapping[str, str]) -> str:
    raw = env.get("PORTES_HTTP_CLIENT", "").strip().lower() or "httpx"
    if raw not in ("httpx", "lean"):
        raise SettingsError(f"PORTES_HTTP_CLIENT must be httpx or lean, not {raw!r}")
    return raw


def _log_format(env: Mapping[str, str]) -> str:
    raw = env.get("PORTES_LOG_FORMAT", "").strip().lower() or "text"
    if raw not in ("text", "json"):
        raise SettingsError(f"PORTES_LOG_FORMAT must be text or json, not {raw!r}")
    return raw


def _timeouts(env: Mapping[str, str]) -> Timeouts:
    """The reminders, the time per move, the challenges' life and the workers' periods."""
    reminders_raw = env.get("PORTES_REMINDERS", "").strip()
    reminders: tuple[float, ...] = Timeouts().reminders
    if reminders_raw:
        try:
            reminders = tuple(
                sorted(float(x) * 3600.0 for x in reminders_raw.split(",") if x.strip())
            )
        except ValueError:
            raise SettingsError(
                f"PORTES_REMINDERS must be hours separated by commas, not {reminders_raw!r}"
            ) from None
    return Timeouts(
        reminders=reminders,
        move_timeout=_hours(env, "PORTES_MOVE_TIMEOUT", Timeouts.move_timeout),
        challenge_ttl=_hours(env, "PORTES_CHALLENGE_TTL", Timeouts.challenge_ttl),
        timer_poll=_float(env, "PORTES_TIMER_POLL", Timeouts.timer_poll) or Timeouts.timer_poll,
        delivery_lease=_float(env, "PORTES_DELIVERY_LEASE", Timeouts.delivery_lease)
        or Timeouts.delivery_lease,
        reconcile_every=_float(env, "PORTES_RECONCILE", Timeouts.reconcile_every)
        or Timeouts.reconcile_every,
        computer_lease=_float(env, "PORTES_COMPUTER_LEASE", Timeouts.computer_lease)
        or Timeouts.computer_lease,
    )


def from_env(env: Mapping[str, str] | None = None) -> Settings:
    """Read the settings; raises :class:`SettingsError` with a message for the owner."""
    env = os.environ if env is None else env
    token = env.get("TELEGRAM_BOT_TOKEN", "").strip()
    if not token:
        raise SettingsError(
            "TELEGRAM_BOT_TOKEN is not set. Create a bot with @BotFather in Telegram "
            "(/newbot), then run:  TELEGRAM_BOT_TOKEN=123456:ABC... portes-bot"
        )
    port_raw = env.get("PORTES_WEBHOOK_PORT", "8443").strip() or "8443"
    if not port_raw.isdigit():
        raise SettingsError(f"PORTES_WEBHOOK_PORT must be a port number, not {port_raw!r}")
    timeouts = _timeouts(env)
    rate = RateLimits(
        overall_per_second=_float(env, "PORTES_RATE_OVERALL", RateLimits.overall_per_second),
        group_per_minute=_float(env, "PORTES_RATE_GROUP", RateLimits.group_per_minute),
        chat_per_second=_float(env, "PORTES_RATE_CHAT", RateLimits.chat_per_second),
        max_retries=int(_float(env, "PORTES_RATE_RETRIES", RateLimits.max_retries)),
    )
    limits = Limits(
        new_per_minute=int(_float(env, "PORTES_NEW_PER_MINUTE", Limits.new_per_minute)),
        new_per_group_minute=int(_float(env, "PORTES_NEW_PER_GROUP_MINUTE",
                                        Limits.new_per_group_minute)),
        open_per_chat=int(_float(env, "PORTES_OPEN_CHALLENGES_CHAT", Limits.open_per_chat)),
        open_overall=int(_float(env, "PORTES_OPEN_CHALLENGES", Limits.open_overall)),
    )
    return Settings(
        token=token,
        database_url=env.get("DATABASE_URL", "").strip() or DEFAULT_DATABASE_URL,
        api_url=env.get("TELEGRAM_API_URL", "").strip() or None,
        file_url=env.get("TELEGRAM_FILE_URL", "").strip() or None,
        webhook_url=env.get("PORTES_WEBHOOK_URL", "").strip() or None,
        webhook_listen=env.get("PORTES_WEBHOOK_LISTEN", "").strip() or "127.0.0.1",
        webhook_port=int(port_raw),
        webhook_path=env.get("PORTES_WEBHOOK_PATH", "").strip().strip("/") or "telegram",
        webhook_secret=_webhook_secret(env),
        rate=rate,
        timeouts=timeouts,
        limits=limits,
        log_level=env.get("PORTES_LOG_LEVEL", "").strip().upper() or "INFO",
        computer_delay=_float(env, "PORTES_COMPUTER_DELAY", Settings.computer_delay),
        dice_help_url=_url(env, "PORTES_DICE_HELP_URL"),
        vacation_days=int(_float(env, "PORTES_VACATION_DAYS", Settings.vacation_days)),
        metrics_port=_port(env, "PORTES_METRICS_PORT"),
        metrics_listen=env.get("PORTES_METRICS_LISTEN", "").strip() or "127.0.0.1",
        admin_chat=_chat(env, "PORTES_ADMIN_CHAT"),
        sentry_dsn=env.get("SENTRY_DSN", "").strip() or None,
        log_format=_log_format(env),
        http_client=_http_client(env),
    )
