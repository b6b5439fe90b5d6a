"""The tests of the command line and its plug-ins (backalley.cli)."""
