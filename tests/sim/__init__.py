"""The tests of simulations (backalley.sim)."""
