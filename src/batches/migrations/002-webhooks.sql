-- Webhook endpoints and their messages (Standard Webhooks), in the queue database: a message is written with the
-- rows whose change it reports and with its first delivery job, in one transaction.
CREATE TABLE webhook_endpoints (
  id               TEXT PRIMARY KEY,
  account_id       TEXT NOT NULL,
  url              TEXT NOT NULL,
  events           TEXT[] NOT NULL,
  secret           TEXT NOT NULL,
  -- The secret a rotation replaced: deliveries are signed with both until previous_until.
  previous_secret  TEXT,
  previous_until   TIMESTAMPTZ,
  -- Set when the receiver answered 410 Gone: nothing more is sent to it.
  disabled_at      TIMESTAMPTZ,
  created_at       TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE INDEX webhook_endpoints_account ON webhook_endpoints (account_id, created_at);

-- One event for one endpoint: its webhook-id (id) stays the same on every attempt.
CREATE TABLE webhook_messages (
  id           TEXT PRIMARY KEY,
  endpoint_id  TEXT NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  event        TEXT NOT NULL,
  body         TEXT NOT NULL,
  state        TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'failed')),
  attempts     INTEGER NOT NULL DEFAULT 0,
  created_at   TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- Every attempt: what the receiver answered (status) or why nothing was answered (error).
CREATE TABLE webhook_attempts (
  message_id   TEXT NOT NULL REFERENCES webhook_messages (id) ON DELETE CASCADE,
  attempt      INTEGER NOT NULL,
  endpoint_id  TEXT NOT NULL,
  at           TIMESTAMPTZ NOT NULL DEFAULT now(),
  status       INTEGER,
  error        TEXT,
  PRIMARY KEY (message_id, attempt)
);

CREATE INDEX webhook_attempts_endpoint ON webhook_attempts (endpoint_id, at DESC);
