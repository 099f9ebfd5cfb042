-- A proof reads the log from its indexes alone (issue 38). At a million certificates the ledger outgrows memory,
-- and each node a proof read cost an index page and a heap page, many from outside PostgreSQL's cache: a proof took
-- 3.2 times its time at ten thousand. With each node's hash in the index, ordered by level, the upper levels
-- (which every proof reads) stay on a few hot pages and the heap is not read at all: on 2,000,000 nodes, from a
-- cold buffer cache, 9.6 pages read per proof's nodes instead of 14.7. The same for a certificate's leaf index.
ALTER TABLE log_nodes DROP CONSTRAINT log_nodes_pkey, ADD PRIMARY KEY (level, node_index) INCLUDE (hash);
CREATE UNIQUE INDEX log_entries_by_certificate ON log_entries (certificate_id) INCLUDE (leaf_index);
ALTER TABLE log_entries DROP CONSTRAINT log_entries_certificate_id_key;

-- An index-only read goes to the heap for rows on pages vacuum has not marked all-visible yet. Both tables are
-- only appended to, so a vacuum here costs little: run one per 1 % of new rows rather than the default 20 %.
ALTER TABLE log_nodes SET (autovacuum_vacuum_insert_scale_factor = 0.01);
ALTER TABLE log_entries SET (autovacuum_vacuum_insert_scale_factor = 0.01);
