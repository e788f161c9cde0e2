"""The pure rules engines, one package per game."""
