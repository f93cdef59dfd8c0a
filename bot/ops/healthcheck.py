"""``python -m bot.ops.healthcheck``: the container's HEALTHCHECK. Asks this instance's
``/healthz`` (beside the webhook in webhook mode, else on ``PORTES_METRICS_PORT``) and exits
0 when it answers 200, 1 otherwise. Standard library only: it runs every 30 s."""

from __future__ import annotations

import os
import sys
import urllib.request
from collections.abc import Mapping


def health_url(env: Mapping[str, str]) -> str | None:
    if env.get("PORTES_WEBHOOK_URL", "").strip():
        port = env.get("PORTES_WEBHOOK_PORT", "").strip() or "8443"
    else:
        port = env.get("PORTES_METRICS_PORT", "").strip()
    if not port:
        return None
    return f"http://127.0.0.1:{port}/healthz"


def main(env: Mapping[str, str] | None = None) -> int:
    url = health_url(os.environ if env is None else env)
    if url is None:
        print("healthcheck: set PORTES_METRICS_PORT (polling) or PORTES_WEBHOOK_URL",
              file=sys.stderr)
        return 1
    try:
        with urllib.request.urlopen(url, timeout=4) as response:
            return 0 if response.status == 200 else 1
    except OSError as exc:
        print(f"healthcheck: {url}: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
