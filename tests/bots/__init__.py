"""The tests of the bots (backalley.bots)."""
