"""The tests of the OpenSpiel and PettingZoo adapters (backalley.adapters)."""
