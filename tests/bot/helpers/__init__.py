"""Helpers of the bot's tests (no tests here), by what they set up: the real process
(processes, webhook, service), matches opened the way players do (computer, private, tavli,
several, review), a turn played up to its last tap (delivery), delivery's retries on a held
clock (retries), a slow computer player (slow_player)."""
