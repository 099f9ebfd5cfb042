-- Batches and their items, in the database the job queue (pg-boss) keeps its jobs in, so a batch's rows and its
-- jobs are written in one transaction. One dialect: PostgreSQL, or PGlite (PostgreSQL in WebAssembly) embedded.
CREATE TABLE batches (
  id           TEXT PRIMARY KEY,
  account_id   TEXT NOT NULL,
  mode         TEXT NOT NULL CHECK (mode IN ('quick', 'full')),
  status       TEXT NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'done', 'cancelled')),
  total        INTEGER NOT NULL,
  -- Items finished with a verdict, and items finished without one (an error result).
  done         INTEGER NOT NULL DEFAULT 0,
  failed       INTEGER NOT NULL DEFAULT 0,
  created_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
  started_at   TIMESTAMPTZ,
  finished_at  TIMESTAMPTZ
);

CREATE INDEX batches_account ON batches (account_id, created_at);

-- One row per distinct domain of a batch. An account has at most its concurrency of items with a job (queued or
-- running); the others wait, and each item that ends hands its turn to the account's next waiting one, in the
-- transaction that records its result. An item is claimed (running, claim_id, lease_until) before its scan, so
-- a job delivered twice runs once, and a claim whose instance died lapses with its lease. Its result is written
-- once, numbered in the batch's order of finishing (result_no), which is the results' cursor.
CREATE TABLE batch_items (
  batch_id       TEXT NOT NULL REFERENCES batches (id) ON DELETE CASCADE,
  seq            INTEGER NOT NULL,
  -- The account's order of work across its batches.
  n              BIGSERIAL,
  account_id     TEXT NOT NULL,
  domain         TEXT NOT NULL,
  -- A full item's payment token until the item finishes or is cancelled; then only the ledger's hash remains.
  payment_token  TEXT,
  state          TEXT NOT NULL DEFAULT 'waiting'
                   CHECK (state IN ('waiting', 'queued', 'running', 'done', 'failed', 'cancelled')),
  claim_id       TEXT,
  lease_until    TIMESTAMPTZ,
  attempts       INTEGER NOT NULL DEFAULT 0,
  result_no      INTEGER,
  result         JSONB,
  PRIMARY KEY (batch_id, seq)
);

CREATE UNIQUE INDEX batch_items_results ON batch_items (batch_id, result_no) WHERE result_no IS NOT NULL;
CREATE INDEX batch_items_waiting ON batch_items (account_id, n) WHERE state = 'waiting';
CREATE INDEX batch_items_in_work ON batch_items (account_id) WHERE state IN ('queued', 'running');
