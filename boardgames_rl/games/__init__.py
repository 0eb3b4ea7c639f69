"""One package per game. Importing this module registers every game."""
