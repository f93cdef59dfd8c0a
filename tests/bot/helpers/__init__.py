"""Helpers of the bot's tests (no tests here): delivery's retries on a held clock, a slow
computer player."""
