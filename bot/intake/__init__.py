"""What comes in from Telegram: per-chat lanes, crowds in groups, each command once, per-match
locks, per-player pace."""
