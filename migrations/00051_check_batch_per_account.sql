-- +goose Up
-- A gate agent's batch_id belongs to the club account that sent it: the
-- idempotency key of blocklist_check_batches is (user_id, batch_id), so a
-- batch id of one club never hides another club's records. digest is the
-- SHA-256 of the batch's canonical records (registry.StoreCheckBatch):
-- the same account resending a batch id with the same records is a
-- duplicate, with other records a conflict (409, nothing stored). A batch
-- stored before this migration has no digest (NULL): a resend of it is
-- answered as a duplicate, as before.
ALTER TABLE blocklist_check_batches DROP CONSTRAINT blocklist_check_batches_pkey;
ALTER TABLE blocklist_check_batches ADD PRIMARY KEY (user_id, batch_id);
ALTER TABLE blocklist_check_batches ADD COLUMN digest bytea CHECK (digest IS NULL OR length(digest) = 32);

-- +goose Down
-- One batch per batch_id again: of the accounts' batches sharing an id,
-- the first received keeps it (the check records themselves stay).
DELETE FROM blocklist_check_batches b USING blocklist_check_batches o
 WHERE o.batch_id = b.batch_id AND (o.received_at, o.user_id) < (b.received_at, b.user_id);
ALTER TABLE blocklist_check_batches DROP COLUMN digest;
ALTER TABLE blocklist_check_batches DROP CONSTRAINT blocklist_check_batches_pkey;
ALTER TABLE blocklist_check_batches ADD PRIMARY KEY (batch_id);
