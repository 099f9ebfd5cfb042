-- A full item keeps its payment token's digest (the key the ledger stores the token under), never the token:
-- the queue database, like the ledger, then holds nothing a reader could spend. The worker redeems the item
-- through the ledger by that digest; no request accepts a digest in place of a token.
ALTER TABLE batch_items ADD COLUMN token_digest TEXT;
UPDATE batch_items SET token_digest = encode(sha256(convert_to(payment_token, 'UTF8')), 'hex')
  WHERE payment_token IS NOT NULL;
ALTER TABLE batch_items DROP COLUMN payment_token;

-- Removing a webhook endpoint deletes its messages (ON DELETE CASCADE): without an index on the reference, each
-- removal read every message of every endpoint.
CREATE INDEX webhook_messages_endpoint ON webhook_messages (endpoint_id);
