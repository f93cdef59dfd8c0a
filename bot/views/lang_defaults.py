"""What differs by language besides the words: the order games are listed in (the local
favourite first) and the /new card's "no triple" default. The favourites are the
registry's (:attr:`rules.game.MatchKind.favourite_in`); a language without any gets the
registry's order, so a new language needs only its catalogue folder.

- Russian: Long Nardy («Длинные нарды») is the game of Russia and the Caucasus; Portes is
  «Короткие нарды», the backgammon played there too.
- Turkish: tavla is backgammon without the cube where a mars (gammon) counts 2 and there is
  no triple: Portes with "no triple" ticked, still changeable on the card.
"""

from __future__ import annotations

from rules.game import KINDS

NO_TRIPLE: frozenset[str] = frozenset({"tr"})
"""The languages whose /new card ticks "no triple" first."""


def games_in_order(lang: str) -> tuple[str, ...]:
    """The games as ``lang``'s readers list them: their favourites first (the registry's
    ``favourite_in``), then the others in the registry's order."""
    kinds = list(KINDS.values())

    def rank(index: int) -> tuple[int, int]:
        ranks = dict(kinds[index].favourite_in)
        return (ranks[lang], index) if lang in ranks else (len(kinds), index)

    return tuple(kinds[i].key for i in sorted(range(len(kinds)), key=rank))


def favourite_game(lang: str) -> str:
    """The game a /new card in ``lang`` has chosen before any tap."""
    return games_in_order(lang)[0]


def no_triple_default(lang: str) -> bool:
    return lang in NO_TRIPLE
