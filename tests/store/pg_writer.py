"""A separate writer process for the concurrency tests: stores pickled documents.

    python pg_writer.py URL ARTIFACTS.pkl ORDER [PAUSE_MARKER]

ORDER is a comma list of positions in the pickled list. With PAUSE_MARKER the process
creates that file once the first document's clauses are written, inside the open
transaction, and then sleeps (the test kills it there).
"""

from __future__ import annotations

import pickle
import sys
import time
from pathlib import Path

from clausegraph.store.postgres.store import PostgresIndex


def main() -> None:
    url, pickled, order = sys.argv[1:4]
    marker = Path(sys.argv[4]) if len(sys.argv) > 4 else None
    artifacts = pickle.loads(Path(pickled).read_bytes())
    index = PostgresIndex(url)
    if marker is not None:
        original = index._insert_graph

        def pause_after_graph(*args):
            original(*args)
            marker.write_text("in transaction")
            time.sleep(120)

        index._insert_graph = pause_after_graph
    stored = []
    for position in (int(p) for p in order.split(",")):
        a = artifacts[position]
        if index.add_document(a.document, a.clauses, a.graph, a.embeddings, a.tokens,
                              {"clauses": len(a.clauses)}):
            stored.append(a.document.doc_id)
    print(",".join(stored))


if __name__ == "__main__":
    main()
