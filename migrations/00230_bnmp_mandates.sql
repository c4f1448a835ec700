-- +goose Up
-- BNMP mandates (Res. CNJ 417/2021, as amended by Res. CNJ 577/2024): each
-- stadium ban and precautionary measure of a person is a mandate to
-- register in the national bank, with the content of art. 19 (the person by
-- CPF, the conditions, the legal basis, the extent, a duration of at most 12
-- months and a review date). A renewal, a change or correction, the start
-- of a new 12-month period of a longer ban is a new mandate (art. 20); a
-- lifting, a replacement by the final ban, a conversion or an annulment is a
-- revocation (art. 2º, VIII). Owner: cases/bnmp, which derives the rows from
-- the bans (idempotent, keyed by ban, period and content); the clerk
-- records the BNMP number and date of each.
CREATE TABLE bnmp_mandates (
    id            bigserial PRIMARY KEY,
    court_code    text NOT NULL REFERENCES courts(code),
    ban_id        bigint NOT NULL REFERENCES bans(id),
    case_id       bigint NOT NULL REFERENCES cases(id),
    kind          text NOT NULL CHECK (kind IN ('cautelar', 'execucao', 'alteracao', 'prorrogacao', 'revogacao')),
    period        integer NOT NULL CHECK (period >= 0),  -- the ban's 12-month period (0: the first)
    valid_from    date NOT NULL,
    valid_until   date,
    review_on     date,
    cpf           char(11) CHECK (cpf ~ '^[0-9]{11}$'),  -- NULL: awaits the person's identification
    name          text NOT NULL,
    content       jsonb NOT NULL,                        -- art. 19's content as issued
    fingerprint   text NOT NULL,
    created_at    timestamptz NOT NULL,
    bnmp_number   text,
    registered_on date,
    registered_at timestamptz,
    registered_by bigint REFERENCES users(id),
    CONSTRAINT bnmp_mandates_term CHECK (kind = 'revogacao' OR (valid_until IS NOT NULL AND review_on IS NOT NULL
        AND valid_until >= valid_from AND valid_until <= valid_from + interval '12 months')),
    CONSTRAINT bnmp_mandates_registered CHECK ((bnmp_number IS NULL) = (registered_on IS NULL)
        AND (bnmp_number IS NULL OR cpf IS NOT NULL))
);
CREATE UNIQUE INDEX bnmp_mandates_once ON bnmp_mandates (ban_id, period, fingerprint) WHERE kind <> 'revogacao';
CREATE UNIQUE INDEX bnmp_mandates_one_revocation ON bnmp_mandates (ban_id) WHERE kind = 'revogacao';
CREATE INDEX bnmp_mandates_court ON bnmp_mandates (court_code, id);
CREATE INDEX bnmp_mandates_ban ON bnmp_mandates (ban_id, id);
SELECT audit_attach('bnmp_mandates');

-- The mandate's document (PDF with its verification code), issued again only
-- when its wording changes (its registration in BNMP, the CPF).
ALTER TABLE documents DROP CONSTRAINT documents_kind_check;
ALTER TABLE documents ADD CONSTRAINT documents_kind_check
    CHECK (kind IN ('sentence','notice','letter','certificate','poster','summary','register','mandate'));
ALTER TABLE documents ADD COLUMN mandate_id bigint REFERENCES bnmp_mandates(id);
CREATE INDEX documents_mandate ON documents (mandate_id, source_sha256) WHERE mandate_id IS NOT NULL;

-- +goose Down
DROP INDEX documents_mandate;
ALTER TABLE documents DROP COLUMN mandate_id;
ALTER TABLE documents DROP CONSTRAINT documents_kind_check;
ALTER TABLE documents ADD CONSTRAINT documents_kind_check
    CHECK (kind IN ('sentence','notice','letter','certificate','poster','summary','register'));
DROP TABLE bnmp_mandates;
