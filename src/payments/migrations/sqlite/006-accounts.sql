-- Accounts hold the API keys of bulk callers, stored by SHA-256 only. Times are ms since the epoch (UTC).
-- The day's quota is one counter per account, moved by a single conditional UPDATE, so every process that
-- shares the file sees the same count; quota_day is the UTC date (YYYY-MM-DD) quota_used counts for.
CREATE TABLE accounts (
  id               TEXT PRIMARY KEY,
  name             TEXT NOT NULL UNIQUE,
  key_hash         TEXT NOT NULL UNIQUE,
  domains_per_day  INTEGER NOT NULL CHECK (domains_per_day > 0),
  max_batch        INTEGER NOT NULL CHECK (max_batch > 0),
  concurrency      INTEGER NOT NULL CHECK (concurrency > 0),
  created_at       INTEGER NOT NULL,
  revoked_at       INTEGER,
  quota_day        TEXT NOT NULL DEFAULT '',
  quota_used       INTEGER NOT NULL DEFAULT 0
);
