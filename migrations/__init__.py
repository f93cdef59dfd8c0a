"""Alembic migrations for :mod:`storage` (run them with :func:`storage.migrate.upgrade`)."""
