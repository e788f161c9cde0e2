"""Sahrat: Jackaroo and Buraco, online, Arabic first."""

# First of all: whether the engines below load compiled or as Python is decided once,
# before any of them is imported (see sahrat.compiled).
from sahrat import compiled as compiled

__version__ = "0.1.0"
