"""The tests of the text diagram and the SVG picture (backalley.render)."""
