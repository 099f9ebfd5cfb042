-- What a relying party asks of a certificate after it was issued: when it expires, whether the operator
-- withdrew it (and why), and the evidence it was judged on (gzip of the canonical observations), kept only
-- while the certificate is valid. Times are milliseconds since the epoch (UTC).
ALTER TABLE certificates ADD COLUMN expires_at INTEGER;
ALTER TABLE certificates ADD COLUMN revoked_at INTEGER;
ALTER TABLE certificates ADD COLUMN revocation_reason TEXT;
ALTER TABLE certificates ADD COLUMN evidence BLOB;

CREATE INDEX certificates_domain ON certificates (domain, created_at);
