"""The tests of the library in the browser: the build, Node and Pyodide, Chromium (backalley.web)."""
