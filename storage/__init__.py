"""Storage: SQLAlchemy models, migrations, and the Telegram-free use cases the bot calls.

Start with :mod:`storage.usecases` (the API: one package, a module per feature around one
transaction kernel), :mod:`storage.results` (what it returns), :mod:`storage.db` (the one engine
per database) and :mod:`storage.migrate` (``upgrade head``).
"""
