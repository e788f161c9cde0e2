"""The server's log lines: readable text by default, or one JSON object per line
(``sahrat serve --log-format json``) for a cluster's log collector.

A JSON line carries its time, level, logger and message, the node's id, and the
table's id when the message names one (the server's messages say "table t…"), so
one table's story can be followed across the nodes that owned it:

>>> record = logging.LogRecord("sahrat.table", logging.WARNING, "", 0,
...                            "table %s: lease lost", ("t0123456789ab",), None)
>>> line = json.loads(JsonLines("n1").format(record))
>>> (line["level"], line["node"], line["table"], line["msg"])
('warning', 'n1', 't0123456789ab', 'table t0123456789ab: lease lost')
"""

from __future__ import annotations

import json
import logging
import re
import time

#: A table's id as the server makes them (:func:`sahrat.server.new_tables.new_table_row`).
TABLE_ID = re.compile(r"\bt[0-9a-f]{12}\b")


class JsonLines(logging.Formatter):
    """One JSON object per record."""

    def __init__(self, node: str | None) -> None:
        super().__init__()
        self.node = node

    def format(self, record: logging.LogRecord) -> str:
        message = record.getMessage()
        line: dict[str, object] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": message,
        }
        if self.node:
            line["node"] = self.node
        table = TABLE_ID.search(message)
        if table is not None:
            line["table"] = table.group()
        if record.exc_info:
            line["error"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False)


def configure(log_format: str, node: str | None) -> None:
    """The root logger's handler, in ``text`` or ``json``."""
    handler = logging.StreamHandler()
    if log_format == "json":
        handler.setFormatter(JsonLines(node))
    else:
        prefix = f"{node} " if node else ""
        handler.setFormatter(logging.Formatter(f"%(asctime)s {prefix}%(name)s %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(logging.INFO)
