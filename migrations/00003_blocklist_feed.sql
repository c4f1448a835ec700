-- +goose Up
-- The gate blocklist as a change feed (../shared/API.md "Public list and
-- blocklist"): the entry set of the latest version, materialised, and every
-- addition and removal that led to it, keyed by ban and version.

-- The entries of the latest version: the feed applied from the start.
CREATE TABLE blocklist_entries (
    ban_id       bigint PRIMARY KEY REFERENCES bans(id),
    cpf          char(11) NOT NULL CHECK (cpf ~ '^[0-9]{11}$'),
    name         text NOT NULL,
    birth_date   date,
    first_day    date NOT NULL,
    last_day     date,
    group_ban_id bigint,
    case_number  char(20) NOT NULL,
    court        text NOT NULL
);
CREATE INDEX blocklist_entries_cpf ON blocklist_entries (cpf);

-- Changes, in version order; within a version a removal comes before the
-- addition of the same ban (a correction).
CREATE TABLE blocklist_changes (
    id           bigserial PRIMARY KEY,
    version      bigint NOT NULL REFERENCES blocklist_versions(version),
    op           text NOT NULL CHECK (op IN ('add','remove')),
    reason       text NOT NULL CHECK (reason IN ('new_ban','lifted','expiry','start','correction','member')),
    ban_id       bigint NOT NULL,
    cpf          char(11) NOT NULL,
    name         text NOT NULL,
    birth_date   date,
    first_day    date NOT NULL,
    last_day     date,
    group_ban_id bigint,
    case_number  char(20) NOT NULL,
    court        text NOT NULL
);
CREATE INDEX blocklist_changes_version ON blocklist_changes (version, id);

-- What the feed keeps: a gate whose version is below floor must take a new
-- snapshot (410). initialised is false on a database that had versions
-- before the feed existed: its first refresh rebases the feed.
CREATE TABLE blocklist_feed (
    one         boolean PRIMARY KEY DEFAULT true CHECK (one),
    floor       bigint NOT NULL,
    initialised boolean NOT NULL
);
INSERT INTO blocklist_feed (floor, initialised)
SELECT COALESCE(max(version), 0), max(version) IS NULL FROM blocklist_versions;

-- The highest ban id when a version was made: an entry added later for a
-- ban at or below it comes from a ban that existed (a start, a correction),
-- not from a new ban.
ALTER TABLE blocklist_versions ADD COLUMN max_ban_id bigint NOT NULL DEFAULT 0;

-- Each CPF check by a club (breach evidence), written in batches.
CREATE TABLE blocklist_checks (
    id         bigserial PRIMARY KEY,
    user_id    bigint NOT NULL REFERENCES users(id),
    club       text NOT NULL DEFAULT '',
    cpf        char(11) NOT NULL CHECK (cpf ~ '^[0-9]{11}$'),
    checked_at timestamptz NOT NULL,
    version    bigint NOT NULL
);
CREATE INDEX blocklist_checks_cpf ON blocklist_checks (cpf, checked_at);

-- +goose Down
DROP TABLE blocklist_checks, blocklist_feed, blocklist_changes, blocklist_entries;
ALTER TABLE blocklist_versions DROP COLUMN max_ban_id;
