"""The coin ledger: double-entry transfers between accounts, stored with the balances.

:mod:`.transfers` says what a movement is (pure: who pays whom, and its key);
:mod:`.book` writes it in a database transaction; :mod:`.audit` checks the
whole ledger from the database alone.
"""
