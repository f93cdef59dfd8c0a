"""What goes out to Telegram: the outbox worker, publishing boards and notices, the rate limiter,
safe Telegram calls."""
