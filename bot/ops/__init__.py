"""Running the bot: its HTTP server (webhook, health, metrics), error reports, log filters."""
