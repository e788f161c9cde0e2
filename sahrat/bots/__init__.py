"""Bots: game-agnostic search and per-game heuristics; they choose among legal actions."""
