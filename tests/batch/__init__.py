"""The tests of the batch engine and its Gymnasium environments (backalley.batch)."""
