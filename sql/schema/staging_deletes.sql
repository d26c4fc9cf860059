-- Staging tables of a deletion pass (the delete records of an ingest call, or a prune), private to
-- the write connection; created only by a call that deletes (src/ingest/deletions.ts). The pass
-- reuses the ingest call's stg_old (analyses to remove) and stg_affected (days to recompute).
-- del_members holds the prompts (kind 1), competitors (2) and themes (3) deleted from domains that
-- stay; del_renumber maps the local indexes of the members left in those domains to dense ones.
CREATE OR REPLACE TEMP TABLE del_teams (id VARCHAR);
CREATE OR REPLACE TEMP TABLE del_domains (domain_key INTEGER);
CREATE OR REPLACE TEMP TABLE del_members (kind UTINYINT, domain_key INTEGER, idx INTEGER);
CREATE OR REPLACE TEMP TABLE del_analyses (id VARCHAR);
CREATE OR REPLACE TEMP TABLE del_renumber (kind UTINYINT, domain_key INTEGER, old_idx INTEGER, new_idx INTEGER);
