-- Monitors (issue 33): a domain Full-Validated on a schedule for an account, each run paid by one of the
-- monitor's prepaid tokens. The tokens are held in the ledger (reserved under the monitor's id until their own
-- expiry); here only their hashes are kept. A monitor's next run is one job of the engine (startAfter its due
-- time), written in the transaction that records the run before it. Each job names the schedule generation it
-- was made for: a pause, an interval change or a deletion moves the generation on, and the stale job does
-- nothing. A run is claimed (claim_id, lease_until) before its scan, so a job delivered twice runs once, and a
-- claim whose instance died lapses with its lease.
CREATE TABLE monitors (
  id              TEXT PRIMARY KEY,
  account_id      TEXT NOT NULL,
  domain          TEXT NOT NULL,
  -- The interval as the caller gave it (ISO 8601), and its length.
  interval        TEXT NOT NULL,
  interval_ms     BIGINT NOT NULL CHECK (interval_ms > 0),
  -- Why the monitor is paused (null: it runs): asked by its owner, or out of tokens.
  paused          TEXT CHECK (paused IN ('requested', 'no_credits')),
  generation      INTEGER NOT NULL DEFAULT 0,
  -- The due time of the next run (null while paused).
  next_due_at     TIMESTAMPTZ,
  claim_id        TEXT,
  lease_until     TIMESTAMPTZ,
  -- The certificate of the last run that issued one, and its verdict: what the next run is compared with.
  certificate_id  TEXT,
  verdict         TEXT,
  created_at      TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE INDEX monitors_account ON monitors (account_id, created_at, id);

-- The monitor's prepaid tokens, by hash: spent one per issuing run, earliest expiry first.
CREATE TABLE monitor_tokens (
  monitor_id      TEXT NOT NULL REFERENCES monitors (id) ON DELETE CASCADE,
  token_hash      TEXT NOT NULL,
  expires_at      TIMESTAMPTZ NOT NULL,
  added_at        TIMESTAMPTZ NOT NULL DEFAULT now(),
  spent_at        TIMESTAMPTZ,
  certificate_id  TEXT,
  PRIMARY KEY (monitor_id, token_hash)
);

CREATE INDEX monitor_tokens_unspent ON monitor_tokens (monitor_id, expires_at) WHERE spent_at IS NULL;

-- One row per due time: a due run happens once. The token a run spends is chosen at its first attempt and kept,
-- so an attempt after a crash finds the ledger's word on that very token (spent: the certificate exists).
CREATE TABLE monitor_runs (
  monitor_id      TEXT NOT NULL REFERENCES monitors (id) ON DELETE CASCADE,
  due_at          TIMESTAMPTZ NOT NULL,
  token_hash      TEXT,
  attempts        INTEGER NOT NULL DEFAULT 0,
  started_at      TIMESTAMPTZ NOT NULL DEFAULT now(),
  finished_at     TIMESTAMPTZ,
  -- issued: a certificate; incomplete: not judged after every retry (nothing spent); failed: the service failed.
  outcome         TEXT CHECK (outcome IN ('issued', 'incomplete', 'failed')),
  verdict         TEXT,
  score           INTEGER,
  certificate_id  TEXT,
  PRIMARY KEY (monitor_id, due_at)
);
