"""The tests of the table server (backalley.server)."""
