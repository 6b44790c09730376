-- ClauseGraph PostgreSQL schema, version 3: each clause's CUAD clause types
-- ([{label, probability}], most probable first; clausegraph.classify). Clauses stored before
-- this version get '[]' and their documents' summaries name no clause-type model, so
-- `clausegraph reembed` knows to type them.

ALTER TABLE clauses ADD COLUMN clause_types jsonb NOT NULL DEFAULT '[]'::jsonb;
