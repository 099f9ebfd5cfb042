-- The report a Full Validation returned beside its certificate (gzip of its canonical JSON), so a token
-- presented again returns the same typed result, not the certificate alone.
ALTER TABLE certificates ADD COLUMN report BLOB;
