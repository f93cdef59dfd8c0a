# Portes bot image: small, non-root, the data (an SQLite file when no PostgreSQL) in /data.
# Build: docker build -t portes-bot .   Run: see compose.yaml and docs/operating.md.
# Python 3.12: gnubg-nn (the computer extra) has wheels for CPython 3.11-3.13 on x86_64.

FROM python:3.12-slim AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /src
COPY pyproject.toml README.md LICENSE ./
COPY rules rules
COPY rendering rendering
COPY storage storage
COPY migrations migrations
COPY computer computer
COPY bot bot
# the computer extra where its wheels exist (x86_64); elsewhere the bot runs without it
ARG EXTRAS=computer
RUN python -m venv /opt/portes \
    && /opt/portes/bin/pip install --no-cache-dir ".${EXTRAS:+[$EXTRAS]}"

FROM python:3.12-slim
# DejaVu Sans: the Greek on boards, titles and leaderboards (Pillow's own font has no Greek)
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends fonts-dejavu-core \
    && rm -rf /var/lib/apt/lists/*
RUN useradd --system --uid 10001 --user-group --home-dir /data --shell /usr/sbin/nologin portes \
    && mkdir -p /data \
    && chown portes:portes /data
COPY --from=build /opt/portes /opt/portes
ENV PATH=/opt/portes/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    DATABASE_URL=sqlite:////data/portes.sqlite3 \
    PORTES_WEBHOOK_LISTEN=0.0.0.0 \
    PORTES_WEBHOOK_PORT=8443 \
    PORTES_METRICS_LISTEN=0.0.0.0 \
    PORTES_METRICS_PORT=9100
WORKDIR /data
VOLUME ["/data"]
USER 10001:10001
EXPOSE 8443 9100
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python", "-m", "bot.ops.healthcheck"]
CMD ["portes-bot"]
