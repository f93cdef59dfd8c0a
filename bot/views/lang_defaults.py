"""What differs by language besides the words: the order games are listed in (the local
favourite first) and the /new card's "no triple" default. One table, keyed by the game keys
the code uses (``portes``, ``plakoto``, ``fevga``, ``tavli``, ``nardy``); a language not in
it gets the default, so a new language needs only its catalogue folder.

- Russian: Long Nardy («Длинные нарды») is the game of Russia and the Caucasus; Portes is
  «Короткие нарды», the backgammon played there too.
- Turkish: tavla is backgammon without the cube where a mars (gammon) counts 2 and there is
  no triple: Portes with "no triple" ticked, still changeable on the card.
"""

from __future__ import annotations

GAMES = ("portes", "plakoto", "fevga", "tavli", "nardy")
"""Every game, in the default order (Greek tavli first, then Long Nardy)."""


GAME_ORDER: dict[str, tuple[str, ...]] = {
    "ru": ("nardy", "portes", "plakoto", "fevga", "tavli"),
    "tr": ("portes", "nardy", "plakoto", "fevga", "tavli"),
}
NO_TRIPLE: frozenset[str] = frozenset({"tr"})
"""The languages whose /new card ticks "no triple" first."""


def games_in_order(lang: str) -> tuple[str, ...]:
    """The games as ``lang``'s readers list them, their favourite first."""
    return GAME_ORDER.get(lang, GAMES)


def favourite_game(lang: str) -> str:
    """The game a /new card in ``lang`` has chosen before any tap."""
    return games_in_order(lang)[0]


def no_triple_default(lang: str) -> bool:
    return lang in NO_TRIPLE
