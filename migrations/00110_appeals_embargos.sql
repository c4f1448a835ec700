-- +goose Up
-- Appeals in every direction and embargos de declaração (issue 28, item 3;
-- DOMAIN.md §4 "Appeals").
--
-- appeals: who appealed, per defendant's track (defendant_id NULL: a group
-- case, which has one status): the defence (the defendant himself or his
-- counsel, CPP art. 577) or the prosecution (Lei 9.099/1995, art. 82). The
-- Turma Recursal's result is judged against them: a harsher result when the
-- prosecution did not appeal is forbidden (CPP art. 617, reformatio in
-- pejus).
CREATE TABLE appeals (
    id           bigserial PRIMARY KEY,
    case_id      bigint NOT NULL REFERENCES cases(id),
    defendant_id bigint REFERENCES defendants(id),
    party        text NOT NULL CHECK (party IN ('defence', 'prosecution')),
    created_at   timestamptz NOT NULL,
    created_by   bigint REFERENCES users(id)
);
CREATE INDEX appeals_case ON appeals (case_id);
SELECT audit_attach('appeals');

-- appeal_results.appellants: the parties whose appeal the Turma judged
-- (comma-separated: defence, prosecution); outcome, ban_id: what a reform
-- decided (the new ban, when it made one).
ALTER TABLE appeal_results
    ADD COLUMN appellants text NOT NULL DEFAULT 'defence'
        CHECK (appellants IN ('defence', 'prosecution', 'defence,prosecution')),
    ADD COLUMN outcome text NOT NULL DEFAULT '' CHECK (outcome IN ('', 'ban', 'prison', 'acquittal')),
    ADD COLUMN ban_id bigint REFERENCES bans(id);

-- embargos: embargos de declaração of a party as to one defendant (Lei
-- 9.099/1995, art. 83): they interrupt every party's appeal window as to
-- him (§ 2º, as amended by Lei 13.105/2015); the judge's ruling (granted
-- or not) reopens them in full from each party's notice of it.
CREATE TABLE embargos (
    id           bigserial PRIMARY KEY,
    case_id      bigint NOT NULL REFERENCES cases(id),
    defendant_id bigint REFERENCES defendants(id),
    party        text NOT NULL CHECK (party IN ('defendant', 'defence', 'prosecution')),
    filed_on     date NOT NULL,
    text         text NOT NULL,
    status       text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'ruled')),
    granted      boolean,
    decided_on   date,
    ruling_text  text NOT NULL DEFAULT '',
    created_at   timestamptz NOT NULL,
    created_by   bigint REFERENCES users(id),
    ruled_at     timestamptz,
    ruled_by     bigint REFERENCES users(id),
    CHECK ((status = 'pending') = (decided_on IS NULL)),
    CHECK ((status = 'pending') = (granted IS NULL)),
    CHECK (decided_on IS NULL OR decided_on >= filed_on)
);
CREATE INDEX embargos_case ON embargos (case_id);
SELECT audit_attach('embargos');

-- +goose Down
DROP TABLE embargos;
ALTER TABLE appeal_results DROP COLUMN ban_id, DROP COLUMN outcome, DROP COLUMN appellants;
DROP TABLE appeals;
