-- +goose Up
-- The case workflow (issue "Cases the way a juizado works them"): the flow a
-- case follows (JECRIM or, for fan groups, civil), a version for optimistic
-- concurrency, idempotent filings, evidence files, hearings without
-- conflicts, plea agreements (Lei 9.099/1995, art. 76), conditional
-- suspensions (art. 89), the court's holidays and the notifications that
-- open the appeal window (art. 82, § 1º).

CREATE EXTENSION IF NOT EXISTS btree_gist;

-- Names sort in Portuguese: pt-BR of ICU when the cluster has it, else the
-- root ICU collation, else the database's default.
-- +goose StatementBegin
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_collation WHERE collname = 'pt-BR-x-icu') THEN
    CREATE COLLATION juizado_pt FROM "pt-BR-x-icu";
  ELSIF EXISTS (SELECT 1 FROM pg_collation WHERE collname = 'und-x-icu') THEN
    CREATE COLLATION juizado_pt FROM "und-x-icu";
  ELSE
    CREATE COLLATION juizado_pt FROM "default";
  END IF;
END $$;
-- +goose StatementEnd

ALTER TABLE cases ADD COLUMN version integer NOT NULL DEFAULT 1 CHECK (version > 0);
ALTER TABLE cases ADD COLUMN flow text NOT NULL DEFAULT 'criminal' CHECK (flow IN ('criminal', 'civil'));
-- Group cases are civil (DOMAIN.md §2): every defendant is a fan group.
UPDATE cases SET flow = 'civil'
 WHERE NOT EXISTS (SELECT 1 FROM defendants d WHERE d.case_id = cases.id AND d.kind <> 'fan_group');
CREATE INDEX cases_facts_date ON cases (court_code, facts_date);

-- Idempotent filings: a key per filer names one case; the request's hash
-- tells a replay from a different body under the same key.
CREATE TABLE filing_keys (
    id           bigserial PRIMARY KEY,
    user_id      bigint NOT NULL REFERENCES users(id),
    key          text NOT NULL CHECK (length(key) BETWEEN 1 AND 255),
    request_hash bytea NOT NULL CHECK (length(request_hash) = 32),
    case_id      bigint REFERENCES cases(id),
    created_at   timestamptz NOT NULL,
    UNIQUE (user_id, key)
);

-- Evidence files: PDF, JPEG or PNG (type checked by content), with SHA-256.
CREATE TABLE evidence (
    id           bigserial PRIMARY KEY,
    case_id      bigint NOT NULL REFERENCES cases(id),
    court_code   text NOT NULL REFERENCES courts(code),
    filename     text NOT NULL,
    content_type text NOT NULL CHECK (content_type IN ('application/pdf', 'image/jpeg', 'image/png')),
    size         integer NOT NULL CHECK (size > 0),
    sha256       bytea NOT NULL CHECK (length(sha256) = 32),
    description  text NOT NULL DEFAULT '',
    content      bytea NOT NULL,
    uploaded_at  timestamptz NOT NULL,
    uploaded_by  bigint REFERENCES users(id),
    uploader_role text NOT NULL DEFAULT ''
);
CREATE INDEX evidence_case ON evidence (case_id, id);

-- Hearings: the same judge or the same room of a court never holds two at
-- once (exclusion constraints over the time range).
CREATE TABLE hearings (
    id          bigserial PRIMARY KEY,
    case_id     bigint NOT NULL REFERENCES cases(id),
    court_code  text NOT NULL REFERENCES courts(code),
    judge_id    bigint NOT NULL REFERENCES users(id),
    kind        text NOT NULL CHECK (kind IN ('preliminary', 'instruction', 'conciliation')),
    room        text NOT NULL CHECK (length(room) > 0),
    starts_at   timestamptz NOT NULL,
    ends_at     timestamptz NOT NULL,
    status      text NOT NULL DEFAULT 'scheduled' CHECK (status IN ('scheduled', 'cancelled')),
    created_at  timestamptz NOT NULL,
    created_by  bigint REFERENCES users(id),
    CHECK (ends_at > starts_at),
    CONSTRAINT hearings_judge_free EXCLUDE USING gist (judge_id WITH =, tstzrange(starts_at, ends_at) WITH &&) WHERE (status = 'scheduled'),
    CONSTRAINT hearings_room_free EXCLUDE USING gist (court_code WITH =, lower(room) WITH =, tstzrange(starts_at, ends_at) WITH &&) WHERE (status = 'scheduled')
);
CREATE INDEX hearings_calendar ON hearings (court_code, starts_at);
CREATE INDEX hearings_case ON hearings (case_id);

-- Plea agreements (transação penal, Lei 9.099/1995, art. 76; Lei
-- 14.597/2023, art. 201, § 5º): offered by the prosecutor, accepted or
-- refused by the defendant, homologated by the judge (the ban).
CREATE TABLE plea_agreements (
    id             bigserial PRIMARY KEY,
    case_id        bigint NOT NULL REFERENCES cases(id),
    defendant_id   bigint NOT NULL REFERENCES defendants(id),
    cpf            char(11) CHECK (cpf ~ '^[0-9]{11}$'),
    months         integer NOT NULL CHECK (months > 0),
    first_day      date,
    status         text NOT NULL CHECK (status IN ('offered', 'accepted', 'refused', 'homologated')),
    offered_at     timestamptz NOT NULL,
    offered_by     bigint REFERENCES users(id),
    answered_at    timestamptz,
    homologated_at timestamptz,
    ban_id         bigint REFERENCES bans(id)
);
CREATE UNIQUE INDEX plea_agreements_open ON plea_agreements (defendant_id) WHERE status IN ('offered', 'accepted', 'homologated');
CREATE INDEX plea_agreements_cpf ON plea_agreements (cpf) WHERE cpf IS NOT NULL;

-- Conditional suspensions (suspensão condicional do processo, Lei
-- 9.099/1995, art. 89): 2 to 4 years with conditions.
CREATE TABLE conditional_suspensions (
    id           bigserial PRIMARY KEY,
    case_id      bigint NOT NULL REFERENCES cases(id),
    defendant_id bigint NOT NULL REFERENCES defendants(id),
    months       integer NOT NULL CHECK (months BETWEEN 24 AND 48),
    first_day    date NOT NULL,
    last_day     date NOT NULL,
    conditions   jsonb NOT NULL DEFAULT '[]',
    status       text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'revoked', 'extinguished')),
    created_at   timestamptz NOT NULL,
    created_by   bigint REFERENCES users(id)
);
CREATE UNIQUE INDEX conditional_suspensions_active ON conditional_suspensions (defendant_id) WHERE status = 'active';

-- The court's holidays (CPP art. 798, § 3º: a deadline ending on one moves
-- to the next working day).
CREATE TABLE court_holidays (
    id         bigserial PRIMARY KEY,
    court_code text NOT NULL REFERENCES courts(code),
    day        date NOT NULL,
    name       text NOT NULL CHECK (length(name) > 0),
    created_at timestamptz NOT NULL,
    created_by bigint REFERENCES users(id),
    UNIQUE (court_code, day)
);

-- Notifications (ciência) of a decision to a defendant: they open the
-- appeal window (Lei 9.099/1995, art. 82, § 1º).
CREATE TABLE notifications (
    id           bigserial PRIMARY KEY,
    case_id      bigint NOT NULL REFERENCES cases(id),
    defendant_id bigint NOT NULL REFERENCES defendants(id),
    kind         text NOT NULL DEFAULT 'appeal' CHECK (kind IN ('appeal')),
    notified_on  date NOT NULL,
    created_at   timestamptz NOT NULL,
    created_by   bigint REFERENCES users(id),
    UNIQUE (defendant_id, kind)
);

SELECT audit_attach('filing_keys');
SELECT audit_attach('evidence');
SELECT audit_attach('hearings');
SELECT audit_attach('plea_agreements');
SELECT audit_attach('conditional_suspensions');
SELECT audit_attach('court_holidays');
SELECT audit_attach('notifications');

-- +goose Down
DROP TABLE notifications, court_holidays, conditional_suspensions, plea_agreements, hearings, evidence, filing_keys;
DROP INDEX cases_facts_date;
ALTER TABLE cases DROP COLUMN flow;
ALTER TABLE cases DROP COLUMN version;
DROP COLLATION juizado_pt;
