-- +goose Up
-- Organised fan groups and their member register (LGE art. 178 § 4º):
-- the group's court and managers, members with the ten mandatory fields,
-- membership periods (a member who leaves and rejoins keeps one history),
-- photos stored in the database, a change history, the log of reads of
-- member data, and member bans linked to the group ban (DOMAIN.md §2, §5).

ALTER TABLE fan_groups
    ADD COLUMN court_code          text REFERENCES courts(code),
    ADD COLUMN created_by          bigint REFERENCES users(id),
    ADD COLUMN register_updated_at timestamptz;
CREATE INDEX fan_groups_court ON fan_groups (court_code);

-- One record per person and group: the ten fields of art. 178 § 4º (the
-- photo in member_photos). father_name NULL: father unknown.
CREATE TABLE members (
    id           bigserial PRIMARY KEY,
    group_id     bigint NOT NULL REFERENCES fan_groups(id),
    full_name    text NOT NULL CHECK (full_name <> ''),
    mother_name  text NOT NULL CHECK (mother_name <> ''),
    father_name  text CHECK (father_name <> ''),
    rg           text NOT NULL CHECK (rg <> ''),
    rg_issuer    text NOT NULL CHECK (rg_issuer <> ''),
    cpf          char(11) NOT NULL CHECK (cpf ~ '^[0-9]{11}$'),
    birth_date   date NOT NULL,
    civil_status text NOT NULL CHECK (civil_status <> ''),
    profession   text NOT NULL CHECK (profession <> ''),
    address      text NOT NULL CHECK (address <> ''),
    schooling    text NOT NULL CHECK (schooling <> ''),
    photo_id     bigint,
    photo_name   text NOT NULL DEFAULT '',   -- the file name the group used
    created_at   timestamptz NOT NULL,
    updated_at   timestamptz NOT NULL,
    UNIQUE (group_id, cpf)
);
CREATE INDEX members_cpf ON members (cpf);
CREATE INDEX members_name_trgm ON members USING gin (f_unaccent(full_name) gin_trgm_ops);

-- Membership periods: joined on, left on (NULL while a member). A CPF is an
-- active member of a group once (partial unique index).
CREATE TABLE member_periods (
    id        bigserial PRIMARY KEY,
    member_id bigint NOT NULL REFERENCES members(id),
    group_id  bigint NOT NULL REFERENCES fan_groups(id),
    cpf       char(11) NOT NULL,
    joined_on date NOT NULL,
    left_on   date,
    CHECK (left_on IS NULL OR left_on >= joined_on)
);
CREATE UNIQUE INDEX member_periods_active ON member_periods (group_id, cpf) WHERE left_on IS NULL;
CREATE INDEX member_periods_member ON member_periods (member_id, joined_on);

-- Photos (JPEG or PNG, re-encoded without metadata), kept when replaced.
CREATE TABLE member_photos (
    id           bigserial PRIMARY KEY,
    member_id    bigint NOT NULL REFERENCES members(id),
    content_type text NOT NULL CHECK (content_type IN ('image/jpeg','image/png')),
    data         bytea NOT NULL,
    sha256       bytea NOT NULL CHECK (length(sha256) = 32),
    width        integer NOT NULL,
    height       integer NOT NULL,
    created_at   timestamptz NOT NULL
);
ALTER TABLE members ADD CONSTRAINT members_photo_fk FOREIGN KEY (photo_id) REFERENCES member_photos(id);

-- History of the register: every create, update, leave, rejoin and photo,
-- with the record before the change.
CREATE TABLE member_history (
    id        bigserial PRIMARY KEY,
    member_id bigint NOT NULL REFERENCES members(id),
    at        timestamptz NOT NULL,
    user_id   bigint REFERENCES users(id),
    action    text NOT NULL,
    before    jsonb
);
CREATE INDEX member_history_member ON member_history (member_id, at);

-- Reads of member data by anyone but the group's managers (LGPD art. 5 II:
-- need-to-know and logged). A list read names the group only.
CREATE TABLE member_reads (
    id        bigserial PRIMARY KEY,
    at        timestamptz NOT NULL,
    user_id   bigint NOT NULL REFERENCES users(id),
    role      text NOT NULL,
    group_id  bigint NOT NULL REFERENCES fan_groups(id),
    member_id bigint REFERENCES members(id),
    what      text NOT NULL CHECK (what IN ('list','member','photo','export'))
);
CREATE INDEX member_reads_group ON member_reads (group_id, at);

-- +goose StatementBegin
CREATE FUNCTION member_reads_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'member_reads is append-only';
END $$;
-- +goose StatementEnd
CREATE TRIGGER member_reads_append_only BEFORE UPDATE OR DELETE ON member_reads
    FOR EACH ROW EXECUTE FUNCTION member_reads_append_only();

-- Member bans: a ban of its own per member, pointing to the group ban.
ALTER TABLE bans
    ADD COLUMN group_ban_id bigint REFERENCES bans(id),
    ADD COLUMN member_id    bigint REFERENCES members(id),
    ADD CONSTRAINT bans_member_ban CHECK (group_ban_id IS NULL OR (subject = 'person' AND cpf IS NOT NULL AND member_id IS NOT NULL));
CREATE UNIQUE INDEX bans_one_per_member ON bans (group_ban_id, member_id) WHERE group_ban_id IS NOT NULL;
-- Member bans share the group defendant: one active ban per defendant
-- counts the defendant's own ban only.
DROP INDEX bans_one_per_defendant;
CREATE UNIQUE INDEX bans_one_per_defendant ON bans (defendant_id) WHERE status = 'active' AND NOT precautionary AND group_ban_id IS NULL;

-- +goose Down
DROP INDEX bans_one_per_defendant;
-- (fails while member bans exist: records of the court are not deleted)
CREATE UNIQUE INDEX bans_one_per_defendant ON bans (defendant_id) WHERE status = 'active' AND NOT precautionary;
DROP INDEX bans_one_per_member;
ALTER TABLE bans DROP CONSTRAINT bans_member_ban, DROP COLUMN member_id, DROP COLUMN group_ban_id;
DROP TABLE member_reads, member_history;
DROP FUNCTION member_reads_append_only();
ALTER TABLE members DROP CONSTRAINT members_photo_fk;
DROP TABLE member_photos, member_periods, members;
DROP INDEX fan_groups_court;
ALTER TABLE fan_groups DROP COLUMN register_updated_at, DROP COLUMN created_by, DROP COLUMN court_code;
