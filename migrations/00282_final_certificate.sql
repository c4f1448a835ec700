-- +goose Up
-- The certidão de trânsito em julgado (issue 30, item 5): a document kind
-- of its own ('final'), stored and verified like the others (00005).
ALTER TABLE documents DROP CONSTRAINT documents_kind_check;
ALTER TABLE documents ADD CONSTRAINT documents_kind_check
    CHECK (kind IN ('sentence','notice','letter','certificate','poster','summary','register','mandate','receipt','final'));

-- +goose Down
-- (fails while certidões de trânsito em julgado exist: records of the
-- court are not deleted)
ALTER TABLE documents DROP CONSTRAINT documents_kind_check;
ALTER TABLE documents ADD CONSTRAINT documents_kind_check
    CHECK (kind IN ('sentence','notice','letter','certificate','poster','summary','register','mandate','receipt'));
