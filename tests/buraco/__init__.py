"""Tests of the Buraco engine, its command line and its benchmark."""
