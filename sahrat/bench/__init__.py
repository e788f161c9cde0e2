"""Benchmarks behind ``sahrat bench``: they print figures, they assert nothing."""
