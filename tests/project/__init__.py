"""The tests of the project as a whole: its architecture, packaging, a fresh install, the benchmarks."""
