"""Registered players: names, passwords, sessions, and the coins an account holds."""
