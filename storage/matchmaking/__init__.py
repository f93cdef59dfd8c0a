"""Find me an opponent (``/play``): :mod:`~storage.matchmaking.cases` (the use cases),
:mod:`~storage.matchmaking.pairing` (one pairing claimed), :mod:`~storage.matchmaking.policy`
(the widening window, the caps)."""
