"""Pictures of a position: SVG (:mod:`.svg`), the text diagram (:mod:`.diagram`),
a record's position (:mod:`.show`) and the text of a deal's result (:mod:`.report`)."""
