"""Storage: SQLAlchemy models, migrations, and the Telegram-free use cases the bot calls.

Start with :mod:`storage.usecases` (the API), :mod:`storage.results` (what it returns),
:mod:`storage.db` (engines) and :mod:`storage.migrate` (``upgrade head``).
"""
