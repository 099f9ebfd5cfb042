-- An item put off because a politeness place it needs is full (src/service/batches.ts) is parked on that place
-- (parked_on: the place's key, 'ip:...' or 'site:...') instead of being enqueued again every few seconds: it
-- keeps its account's turn (state stays 'queued') but has no job. Each release of a place hands the oldest item
-- parked on it back to the engine as a new job; a sweep on the engine's scheduler hands back items parked
-- longer than a place's lease, whose wake-up was lost (an instance killed between a release and its wake-up).
ALTER TABLE batch_items ADD COLUMN parked_on TEXT;
ALTER TABLE batch_items ADD COLUMN parked_at TIMESTAMPTZ;

CREATE INDEX batch_items_parked ON batch_items (parked_on, n) WHERE parked_on IS NOT NULL;
CREATE INDEX batch_items_parked_since ON batch_items (parked_at) WHERE parked_on IS NOT NULL;
