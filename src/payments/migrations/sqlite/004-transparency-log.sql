-- The transparency log (RFC 9162 section 2.1): one entry per issued certificate, appended in the transaction
-- that stores it. log_nodes keeps the hash of every perfect subtree (level 0: the leaf hashes), so a tree head
-- or a proof reads at most two nodes per level; log_heads keeps each signed tree head, so every process serves
-- the same head for a size.
CREATE TABLE log_entries (
  leaf_index      INTEGER PRIMARY KEY,
  certificate_id  TEXT NOT NULL UNIQUE REFERENCES certificates (id)
);

CREATE TABLE log_nodes (
  level       INTEGER NOT NULL,
  node_index  INTEGER NOT NULL,
  hash        BLOB NOT NULL,
  PRIMARY KEY (level, node_index)
);

CREATE TABLE log_heads (
  tree_size   INTEGER PRIMARY KEY,
  root_hash   TEXT NOT NULL,
  timestamp   TEXT NOT NULL,
  signature   TEXT NOT NULL
);
