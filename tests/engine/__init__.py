"""The tests of states, moves, views and the engine's low-level door (backalley.engine, the cards, the masks)."""
