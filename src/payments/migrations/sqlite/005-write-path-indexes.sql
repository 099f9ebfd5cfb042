-- Indexes for the statements that run on every write, so their cost does not grow with the ledger (issue 38).
-- The test checkout's cap counts the unused tokens of one source: a range of this partial index, bounded by
-- the cap itself, instead of a scan of every token ever sold.
CREATE INDEX tokens_unused ON tokens (source, expires_at) WHERE state = 'issued';

-- Expired evidence is pruned in small batches, oldest expiry first: only certificates still holding evidence
-- are in this index, so a batch reads what it clears and nothing else.
CREATE INDEX certificates_evidence_expiry ON certificates (expires_at) WHERE evidence IS NOT NULL;
