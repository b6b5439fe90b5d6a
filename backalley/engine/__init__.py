"""The engine: the step kernel that moves a game on, the game state, legality,
a seat's view, starting a game, and the raw forms (:mod:`.lowlevel`)."""
