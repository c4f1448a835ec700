-- +goose Up
-- The receipt of a petition as a court document with its verification
-- code (issue 29, item 6; Lei 11.419/2006, art. 10: the electronic filing
-- gives an electronic receipt of its protocol).
ALTER TABLE documents DROP CONSTRAINT documents_kind_check;
ALTER TABLE documents ADD CONSTRAINT documents_kind_check
    CHECK (kind IN ('sentence','notice','letter','certificate','poster','summary','register','mandate','receipt'));

-- +goose Down
-- (fails while receipts exist: records of the court are not deleted)
ALTER TABLE documents DROP CONSTRAINT documents_kind_check;
ALTER TABLE documents ADD CONSTRAINT documents_kind_check
    CHECK (kind IN ('sentence','notice','letter','certificate','poster','summary','register','mandate'));
