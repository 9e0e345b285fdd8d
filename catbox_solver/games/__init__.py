"""Games played by bots, and the referee that checks a game record."""
