-- +goose Up
-- The extract of a group's register of members as a court document
-- (issue 5 item 5, issue 8 item 1: "extrato do cadastro de associados", LGE
-- art. 178 § 4º): a new document kind, and the group it extracts (the
-- documents table keeps its audit trigger from 00006).
ALTER TABLE documents DROP CONSTRAINT documents_kind_check;
ALTER TABLE documents ADD CONSTRAINT documents_kind_check
    CHECK (kind IN ('sentence','notice','letter','certificate','poster','summary','register'));
ALTER TABLE documents ADD COLUMN group_id bigint REFERENCES fan_groups(id);
CREATE INDEX documents_group ON documents (group_id) WHERE group_id IS NOT NULL;

-- +goose Down
-- (fails while register extracts exist: records of the court are not deleted)
DROP INDEX documents_group;
ALTER TABLE documents DROP COLUMN group_id;
ALTER TABLE documents DROP CONSTRAINT documents_kind_check;
ALTER TABLE documents ADD CONSTRAINT documents_kind_check
    CHECK (kind IN ('sentence','notice','letter','certificate','poster','summary'));
