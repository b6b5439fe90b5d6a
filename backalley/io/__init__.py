"""Documents: JSON for every value (:mod:`.serialize`), game records
(:mod:`.record`), the JSON Schema (:mod:`.schema`), house-rule files
(:mod:`.houserules`) and conformance vectors (:mod:`.vectors`)."""
