"""The Telegram bot for Portes: the only code in the project that talks to Telegram.

Handlers are thin: they decode an update, call one Telegram-free use case from :mod:`storage`,
and turn the result into a caption, an inline keyboard and a board image.
"""
