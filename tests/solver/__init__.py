"""The tests of the double-dummy solver (backalley.solver)."""
