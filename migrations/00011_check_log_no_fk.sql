-- +goose Up
-- The CPF check log is written at the rate of the gates (thousands a second
-- on a match day): a foreign key adds a lookup in users for every row. The
-- user id comes from the authenticated token, so the reference holds
-- without it; the log keeps every row even if a user is later removed.
ALTER TABLE blocklist_checks DROP CONSTRAINT IF EXISTS blocklist_checks_user_id_fkey;

-- +goose Down
ALTER TABLE blocklist_checks ADD CONSTRAINT blocklist_checks_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id);
