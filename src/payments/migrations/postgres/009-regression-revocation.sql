-- A certificate revoked because a later monitoring run found the domain worse (reason `regression`) links the
-- report of that run, so a relying party sees what changed; an operator's revocation leaves it null.
ALTER TABLE certificates ADD COLUMN revocation_report TEXT;
