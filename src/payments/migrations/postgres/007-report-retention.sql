-- Reports may be kept for less time than the certificates they came with (DVS_REPORT_RETENTION): they are
-- cleared in small batches, oldest first, over this index of the certificates still holding one.
CREATE INDEX certificates_report_age ON certificates (created_at) WHERE report IS NOT NULL;
