"""What each place (a chat, an inline message) should show, and the claims, budgets and work of
delivering it."""
