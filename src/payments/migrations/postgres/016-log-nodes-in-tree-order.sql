-- The log's nodes ordered by their in-order position in the tree (issue 38; inOrderPosition in src/lib/merkle.ts),
-- not by level. Every node then lies within 2^level places of the leaves it covers, so the lower levels of a proof,
-- whose pages no cache keeps at a million certificates, are neighbours on a few index pages instead of one
-- page per level; and one key makes the lookup a single index scan over a sorted array instead of a join of one
-- index descent per node. On 2,000,000 nodes (a million leaves), the nodes of a random consistency proof below the
-- levels the service keeps in memory: 0.42-0.45 ms median instead of 0.75-0.83 ms; the statement planned in
-- 0.13 ms instead of 0.56 ms and ran in 0.15 ms instead of 0.56 ms.
CREATE TABLE log_nodes_in_order (
  position  BIGINT NOT NULL CHECK (position >= 0),
  hash      BYTEA NOT NULL,
  PRIMARY KEY (position) INCLUDE (hash)
);
INSERT INTO log_nodes_in_order (position, hash)
SELECT (2 * node_index + 1) * (1::bigint << level) - 1, hash FROM log_nodes ORDER BY 1;
DROP TABLE log_nodes;
ALTER TABLE log_nodes_in_order RENAME TO log_nodes;
ALTER INDEX log_nodes_in_order_pkey RENAME TO log_nodes_pkey;
ALTER TABLE log_nodes RENAME CONSTRAINT log_nodes_in_order_position_check TO log_nodes_position_check;
-- As migration 15 set it for the table this one replaces: index-only reads need pages vacuum has marked.
ALTER TABLE log_nodes SET (autovacuum_vacuum_insert_scale_factor = 0.01);
