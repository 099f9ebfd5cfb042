-- The log's nodes move to the tree file attached as `tree` (src/payments/sqlite-log.ts says why). The store
-- creates tree.log_nodes before the migrations run. OR IGNORE: the two files commit one after the other, so a
-- crash can leave this copy done in the tree file while the ledger file still holds its table and no record.
INSERT OR IGNORE INTO tree.log_nodes (level, node_index, hash) SELECT level, node_index, hash FROM main.log_nodes;
DROP TABLE main.log_nodes;
