"""The step-search engine Plakoto, Fevga and Long Nardy share: their board, each game's
single steps (:mod:`rules.steps.singles`), the search for legal plays, tap-by-tap input,
notation and the named rule options."""
