"""The tests of the documentation's pages and examples."""
