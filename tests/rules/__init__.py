"""The tests of rule sets, their parts and options, the variants and presets (backalley.rules)."""
