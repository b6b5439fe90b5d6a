"""The tests of documents, records, house-rule files and the schema (backalley.io)."""
