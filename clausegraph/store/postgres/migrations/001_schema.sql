-- ClauseGraph PostgreSQL schema, version 1.
--
-- Every row belongs to a workspace. Row-level security (FORCE, so the owning role is
-- bound too) shows a session only the rows of the workspace named by the setting
-- clausegraph.workspace, which the store sets once per connection: the one place the
-- workspace filter is enforced. {dim} is the embedding dimension, fixed per database.

CREATE TABLE store_settings (
    name  text PRIMARY KEY,
    value text NOT NULL
);

CREATE TABLE documents (
    workspace    text NOT NULL,
    doc_id       text NOT NULL,            -- sha256 of the file bytes, 16 hex digits
    key          text NOT NULL,
    title        text NOT NULL,
    source_path  text NOT NULL,
    media_type   text NOT NULL,
    text         text NOT NULL,
    pages        jsonb NOT NULL,           -- [{number, start, end}]
    excluded     jsonb NOT NULL,           -- [[start, end]] running headers/footers
    summary      jsonb NOT NULL,           -- counts shown by stats / ingest (manifest entry)
    title_tokens text[] NOT NULL,          -- tokens of file name + title (document scoping)
    name_tokens  text[] NOT NULL,          -- title tokens + parties named in the opening
    ingested_at  timestamptz NOT NULL DEFAULT now(),
    seq          bigserial,                -- order of addition (document order)
    PRIMARY KEY (workspace, doc_id)
);
CREATE INDEX documents_key ON documents (workspace, key);
CREATE INDEX documents_source ON documents (workspace, source_path);

CREATE TABLE clauses (
    workspace      text NOT NULL,
    clause_id      text NOT NULL,
    doc_id         text NOT NULL,
    ord            integer NOT NULL,       -- position in the document
    number         text,
    section_path   text[] NOT NULL,
    heading        text,
    kind           text NOT NULL,
    text           text NOT NULL,
    span_start     integer NOT NULL,
    span_end       integer NOT NULL,
    segments       jsonb NOT NULL,
    pages          integer[] NOT NULL,
    entities       jsonb NOT NULL,
    defined_terms  text[] NOT NULL,
    n_tokens       integer NOT NULL,       -- BM25 document length
    centrality     double precision NOT NULL,  -- log-scaled degree in its document graph
    tsv            tsvector GENERATED ALWAYS AS (to_tsvector('english', text)) STORED,
    embedding      vector({dim}) NOT NULL,
    PRIMARY KEY (workspace, clause_id),
    FOREIGN KEY (workspace, doc_id) REFERENCES documents ON DELETE CASCADE
);
CREATE INDEX clauses_doc ON clauses (workspace, doc_id, ord);
CREATE INDEX clauses_tsv ON clauses USING gin (tsv);
-- Inner product: the stored vectors are unit length (cosine = inner product).
CREATE INDEX clauses_embedding ON clauses USING hnsw (embedding vector_ip_ops)
    WITH (m = 16, ef_construction = 64);

CREATE TABLE edges (
    workspace       text NOT NULL,
    doc_id          text NOT NULL,
    edge_no         integer NOT NULL,      -- order within the document's graph
    type            text NOT NULL,
    source          text NOT NULL,
    target          text NOT NULL,
    confidence      double precision NOT NULL,
    rule_id         text NOT NULL,
    evidence        text NOT NULL,
    evidence_start  integer NOT NULL,
    evidence_end    integer NOT NULL,
    term            text,
    seq             bigserial,             -- stored order (breadth-first walk order)
    PRIMARY KEY (workspace, doc_id, edge_no),
    FOREIGN KEY (workspace, doc_id) REFERENCES documents ON DELETE CASCADE
);
CREATE INDEX edges_source ON edges (workspace, source);
CREATE INDEX edges_target ON edges (workspace, target);

CREATE TABLE unresolved_references (
    workspace   text NOT NULL,
    doc_id      text NOT NULL,
    ref_no      integer NOT NULL,
    source      text NOT NULL,
    text        text NOT NULL,
    span_start  integer NOT NULL,
    span_end    integer NOT NULL,
    rule_id     text NOT NULL,
    PRIMARY KEY (workspace, doc_id, ref_no),
    FOREIGN KEY (workspace, doc_id) REFERENCES documents ON DELETE CASCADE
);

-- BM25 term statistics, kept in step with the clauses by the same transactions. Two
-- fields share the tables: 'clause' (clause search) and 'profile' (a document's name and
-- opening text, for finding the document a question names).
CREATE TABLE terms (
    workspace    text NOT NULL,
    field        text NOT NULL,
    term         text NOT NULL,
    unit_id      text NOT NULL,            -- clause id, or doc id for 'profile'
    doc_id       text NOT NULL,
    tf           integer NOT NULL,
    unit_length  integer NOT NULL,         -- tokens in the unit (BM25 document length)
    -- No foreign key: ~50 postings per clause would each pay a lookup on ingest; the
    -- store deletes a document's postings in the transaction that deletes the document.
    PRIMARY KEY (workspace, field, term, unit_id)
);
CREATE INDEX terms_doc ON terms (workspace, doc_id);

CREATE TABLE term_stats (
    workspace  text NOT NULL,
    field      text NOT NULL,
    term       text NOT NULL,
    df         integer NOT NULL,           -- units containing the term
    PRIMARY KEY (workspace, field, term)
);

CREATE TABLE corpus_stats (
    workspace     text NOT NULL,
    field         text NOT NULL,
    n_units       bigint NOT NULL,
    total_tokens  bigint NOT NULL,
    PRIMARY KEY (workspace, field)
);

DO $$
DECLARE
    t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['documents', 'clauses', 'edges', 'unresolved_references',
                             'terms', 'term_stats', 'corpus_stats'] LOOP
        EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
        EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
        EXECUTE format(
            'CREATE POLICY workspace_only ON %I '
            'USING (workspace = current_setting(''clausegraph.workspace'', true)) '
            'WITH CHECK (workspace = current_setting(''clausegraph.workspace'', true))', t);
    END LOOP;
END $$;
