"""The tree-sitter Go front end: files and patterns to syntax records."""
