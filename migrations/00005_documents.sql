-- +goose Up
-- Court documents issued as PDFs (sentence, notice, letter, certificate,
-- public list poster, representation summary): each with a random
-- verification code printed on every page, the SHA-256 of its bytes and the
-- bytes themselves, so that anyone can check a copy (GET/POST /verificar/{code}).
-- Records of the court are never deleted nor changed.
CREATE TABLE documents (
    id          bigserial PRIMARY KEY,
    code        char(12) NOT NULL UNIQUE CHECK (code ~ '^[A-Z2-7]{12}$'),
    kind        text NOT NULL CHECK (kind IN ('sentence','notice','letter','certificate','poster','summary')),
    court_code  text NOT NULL REFERENCES courts(code),
    case_id     bigint REFERENCES cases(id),
    case_number char(20) CHECK (case_number ~ '^[0-9]{20}$'),
    ban_id      bigint REFERENCES bans(id),
    issued_at   timestamptz NOT NULL,
    issued_by   bigint REFERENCES users(id),
    pages       integer NOT NULL CHECK (pages > 0),
    size        integer NOT NULL CHECK (size > 0),
    sha256      bytea NOT NULL CHECK (length(sha256) = 32),
    -- SHA-256 of the filled wording: the public poster is issued again only
    -- when the list (or the day) changes, not on every anonymous request.
    source_sha256 bytea NOT NULL CHECK (length(source_sha256) = 32),
    content     bytea NOT NULL
);
CREATE INDEX documents_source ON documents (kind, court_code, source_sha256);
CREATE INDEX documents_case ON documents (case_id) WHERE case_id IS NOT NULL;
CREATE INDEX documents_sha256 ON documents (sha256);

-- +goose StatementBegin
CREATE FUNCTION documents_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'documents are never changed nor deleted';
END $$;
-- +goose StatementEnd
CREATE TRIGGER documents_append_only BEFORE UPDATE OR DELETE ON documents
    FOR EACH ROW EXECUTE FUNCTION documents_append_only();

-- +goose Down
DROP TABLE documents;
DROP FUNCTION documents_append_only();
