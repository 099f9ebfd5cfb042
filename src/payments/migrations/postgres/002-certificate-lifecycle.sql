-- What a relying party asks of a certificate after it was issued: when it expires, whether the operator
-- withdrew it (and why), and the evidence it was judged on (gzip of the canonical observations), kept only
-- while the certificate is valid.
ALTER TABLE certificates ADD COLUMN expires_at TIMESTAMPTZ;
ALTER TABLE certificates ADD COLUMN revoked_at TIMESTAMPTZ;
ALTER TABLE certificates ADD COLUMN revocation_reason TEXT;
ALTER TABLE certificates ADD COLUMN evidence BYTEA;

CREATE INDEX certificates_domain ON certificates (domain, created_at);
