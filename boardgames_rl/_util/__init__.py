"""Helpers below every layer, with no game knowledge: progress bars (:mod:`.progress`), the
thread settings of worker processes (:mod:`.threads`) and the optional-dependency gates
(:mod:`.extras`). They import the standard library only (tqdm inside the function that draws)."""
