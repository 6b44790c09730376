-- ClauseGraph PostgreSQL schema, version 2: what a reader records about a document beyond
-- its text and pages (Word/HTML blocks, OCR'd pages and words, low-confidence spans, the
-- text encoding, warnings), as one JSON object, so a Document round-trips whole.

ALTER TABLE documents ADD COLUMN extra jsonb NOT NULL DEFAULT '{}'::jsonb;
