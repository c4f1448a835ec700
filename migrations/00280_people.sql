-- +goose Up
-- People, not ids (issue 30, item 4): a user's full name and title, used
-- in signature blocks and wherever a page names who acted, instead of the
-- login name (users.name stays the unique account name). Both optional:
-- a user without a full name is shown by its account name.
ALTER TABLE users
    ADD COLUMN full_name text CHECK (full_name IS NULL OR length(full_name) BETWEEN 1 AND 200),
    ADD COLUMN title     text CHECK (title IS NULL OR length(title) BETWEEN 1 AND 200);

-- +goose Down
ALTER TABLE users DROP COLUMN title, DROP COLUMN full_name;
