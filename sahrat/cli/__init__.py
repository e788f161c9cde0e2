"""The ``sahrat`` command line: one module per command group."""
