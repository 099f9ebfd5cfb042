-- A domain's history pages through its certificates newest first, ordered by (created_at, id) so that two
-- issued in one millisecond keep one order. This index serves that order whole, and the lookups of a domain's
-- newest certificate with it; it replaces (domain, created_at), which left the id tie to a sort.
DROP INDEX certificates_domain;
CREATE INDEX certificates_domain_history ON certificates (domain, created_at, id);
