"""Sahrat: Jackaroo and Buraco, online, Arabic first."""

__version__ = "0.1.0"
