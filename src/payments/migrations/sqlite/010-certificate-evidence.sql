-- Evidence in a table of its own (issue 38). SQLite writes a row again whole, overflow pages included, when one
-- of its columns changes: clearing 9 KiB of evidence in a 60 KiB certificate row cost about 0.25 ms per
-- certificate, and once certificates began to expire the ledger's appends slowed by a quarter. Deleting a row
-- of this table costs a fifteenth of that. (PostgreSQL keeps large values out of line, so clearing its evidence
-- column writes only a small tuple; it keeps the column.)
CREATE TABLE certificate_evidence (
  certificate_id  TEXT PRIMARY KEY REFERENCES certificates (id),
  expires_at      INTEGER,
  evidence        BLOB NOT NULL
);

INSERT INTO certificate_evidence (certificate_id, expires_at, evidence)
  SELECT id, expires_at, evidence FROM certificates WHERE evidence IS NOT NULL;

-- Expired evidence is deleted in small batches, earliest expiry first, over this range.
CREATE INDEX certificate_evidence_expiry ON certificate_evidence (expires_at) WHERE expires_at IS NOT NULL;

DROP INDEX certificates_evidence_expiry;
ALTER TABLE certificates DROP COLUMN evidence;
