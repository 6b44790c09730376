"""Words for a document: "agreement", "policy", "wordings", ... A question names the
document it asks about with one ("under the Easy Health policy", "What is the term of the
agreement?"); the scoping and the verdict read this one list."""

from __future__ import annotations

import re

DOCUMENT_NOUN = re.compile(
    r"(?:agreement|contract|lease|licen[cs]e|policy|policies|plan|arrangement|wordings?|"
    r"terms|undertaking|add-on)", re.IGNORECASE)
