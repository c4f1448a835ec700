-- +goose Up
-- Check records sent by gate agents (issue "The stadium gate that keeps
-- enforcing offline"): each batch once, by its batch_id (a retry after a
-- lost answer stores nothing twice); the records join the court's own check
-- log (DOMAIN.md §6: each read is logged), with the agent's device and
-- whether the agent blocked.
CREATE TABLE blocklist_check_batches (
    batch_id    text PRIMARY KEY CHECK (batch_id <> '' AND length(batch_id) <= 100),
    user_id     bigint NOT NULL,
    club        text NOT NULL DEFAULT '',
    device      text NOT NULL DEFAULT '',
    records     integer NOT NULL CHECK (records >= 0),
    received_at timestamptz NOT NULL
);
ALTER TABLE blocklist_checks
    ADD COLUMN device   text NOT NULL DEFAULT '',
    ADD COLUMN batch_id text,
    ADD COLUMN blocked  boolean;

-- +goose Down
ALTER TABLE blocklist_checks DROP COLUMN blocked, DROP COLUMN batch_id, DROP COLUMN device;
DROP TABLE blocklist_check_batches;
