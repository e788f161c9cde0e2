"""Cluster mode's parts: a node's identity, table leases with fencing tokens, fenced
writes in the database, messages between nodes and the shared live lobby.

Every node is a whole ``sahrat serve``; PostgreSQL holds what must last and decides
which owner's write counts (:mod:`.fencing`), Redis holds what is live and may be lost:
who owns which table (:mod:`.leases`), the lobby (:mod:`.lobby`) and the messages
between nodes (:mod:`.bus`).
"""
