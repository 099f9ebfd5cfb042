-- Tokens are stored by SHA-256 only.
CREATE TABLE tokens (
  hash            TEXT PRIMARY KEY,
  created_at      TIMESTAMPTZ NOT NULL,
  expires_at      TIMESTAMPTZ NOT NULL,
  state           TEXT NOT NULL DEFAULT 'issued' CHECK (state IN ('issued', 'reserved', 'redeemed')),
  reservation_id  TEXT,
  reserved_until  TIMESTAMPTZ,
  domain          TEXT,
  certificate_id  TEXT,
  source          TEXT NOT NULL
);

CREATE TABLE certificates (
  id          TEXT PRIMARY KEY,
  domain      TEXT NOT NULL,
  body        TEXT NOT NULL,
  created_at  TIMESTAMPTZ NOT NULL
);

CREATE INDEX tokens_certificate_id ON tokens (certificate_id);
