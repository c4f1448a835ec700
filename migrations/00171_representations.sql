-- +goose Up
-- Representation records (issue 29, item 2): which defence user (role
-- defence, 00170) represents which defendant, since and until when, as a
-- lawyer (OAB) or the Defensoria Pública, with the procuração stored as
-- evidence (CPP art. 266: the lawyer constituted by procuração; a public
-- defender needs none, LC 80/1994, art. 128, XI). The clerk links and
-- unlinks (status active, then ended); a defence user may ask to be linked
-- with its procuração (status requested), which the clerk approves
-- (active) or refuses (refused, with the reason). A defendant represented
-- by the Defensoria Pública has its windows doubled (LC 80/1994, art. 128,
-- I; CPC art. 186).
CREATE TABLE representations (
    id           bigserial PRIMARY KEY,
    case_id      bigint NOT NULL REFERENCES cases(id),
    defendant_id bigint NOT NULL REFERENCES defendants(id),
    counsel_id   bigint NOT NULL REFERENCES users(id),
    kind         text NOT NULL CHECK (kind IN ('lawyer', 'defensoria')),
    status       text NOT NULL CHECK (status IN ('requested', 'active', 'ended', 'refused')),
    requested_at timestamptz,
    since        timestamptz,
    until        timestamptz,
    evidence_id  bigint REFERENCES evidence(id),
    reason       text NOT NULL DEFAULT '',
    linked_by    bigint REFERENCES users(id),
    ended_by     bigint REFERENCES users(id),
    CHECK ((status IN ('active', 'ended')) = (since IS NOT NULL)),
    CHECK ((status IN ('ended', 'refused')) = (until IS NOT NULL)),
    CHECK (status <> 'requested' OR requested_at IS NOT NULL),
    CHECK (until IS NULL OR since IS NULL OR until >= since)
);
CREATE UNIQUE INDEX representations_open ON representations (defendant_id, counsel_id)
    WHERE status IN ('requested', 'active');
CREATE INDEX representations_counsel ON representations (counsel_id, case_id) WHERE status = 'active';
CREATE INDEX representations_case ON representations (case_id);
SELECT audit_attach('representations');

-- +goose Down
DROP TABLE representations;
