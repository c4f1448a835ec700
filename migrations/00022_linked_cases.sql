-- +goose Up
-- Mixed representations (DOMAIN.md §4; issue 17): persons and fan groups
-- filed together become a criminal case for the persons and a civil case
-- for the groups, each linked to the other.
ALTER TABLE cases ADD COLUMN linked_case_id bigint REFERENCES cases(id);
CREATE INDEX cases_linked ON cases (linked_case_id) WHERE linked_case_id IS NOT NULL;

-- +goose Down
DROP INDEX cases_linked;
ALTER TABLE cases DROP COLUMN linked_case_id;
