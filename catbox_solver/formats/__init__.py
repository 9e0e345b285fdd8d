"""Text and JSON forms of a position, files and batches, and game records."""
