"""``portes-bot`` / ``python -m bot``: run the Portes bot (long polling, or a webhook)."""

from __future__ import annotations

import argparse
import logging
import sys
import textwrap

from bot.ops.logjson import configure
from bot.ops.logsafe import hide_secrets, token_secrets
from bot.settings import ENV_HELP, SettingsError, from_env

DESCRIPTION = """\
Run the Portes Telegram bot: Greek backgammon without the cube, in groups, private chats and
inline. It long-polls Telegram by default; set PORTES_WEBHOOK_URL to receive updates through a
webhook behind a reverse proxy instead (the way to run several instances on one PostgreSQL
database). Database migrations are applied at start. Only TELEGRAM_BOT_TOKEN is required: with
nothing else set, the bot keeps its data in ./portes.sqlite3.
"""


def _epilog() -> str:
    lines = ["settings (environment variables):"]
    for name, text in ENV_HELP:
        wrapped = textwrap.wrap(text, width=68)
        lines.append(f"  {name}")
        lines.extend(f"      {w}" for w in wrapped)
    lines.append("")
    lines.append("example:  TELEGRAM_BOT_TOKEN=123456:ABC-DEF portes-bot")
    return "\n".join(lines)


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="portes-bot",
        description=DESCRIPTION,
        epilog=_epilog(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--check", action="store_true",
                   help="check the settings, the token with Telegram and the database, apply "
                        "the migrations, then exit: 0 all good, 1 database, 2 settings or "
                        "token, 3 Telegram unreachable (for ExecStartPre=)")
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        settings = from_env()
    except SettingsError as exc:
        print(f"portes-bot: {exc}", file=sys.stderr)
        return 2
    configure(getattr(logging, settings.log_level, logging.INFO), settings.log_format)
    hide_secrets(token_secrets(settings.token, settings.webhook_secret))
    logging.getLogger("httpx").setLevel(logging.WARNING)
    from bot.app import run

    return run(settings, check_only=args.check)


if __name__ == "__main__":
    sys.exit(main())
