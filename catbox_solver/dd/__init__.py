"""Double dummy: exact answers with all hands open, and odds with some hidden."""
