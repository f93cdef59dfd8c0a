"""Portes: its board (the :class:`Position` every game's board extends), single moves, the
fast legal-play generator, tap-by-tap input, notation and GNU Backgammon's Match ID."""
