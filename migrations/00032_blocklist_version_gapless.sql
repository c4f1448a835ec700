-- +goose Up
-- Blocklist versions without a gap (issue 16, item 6). The version came from
-- a sequence, which hands out values ahead of what the WAL records (a
-- standby promoted after the primary's loss, or a crash recovery, starts up
-- to 32 further on) and never gives back the value of a rolled-back
-- transaction: after a failover the next version was 34 where 6 was due.
-- Now each version is the last one plus one, assigned under the advisory
-- lock that already orders the versions by commit (registry/feed.go,
-- blocklistLock = 0x6a75697a61646f01; taken again here for any other writer).
-- +goose StatementBegin
CREATE FUNCTION blocklist_next_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(7671153514636406529);
  SELECT coalesce(max(version), 0) + 1 INTO NEW.version FROM blocklist_versions;
  RETURN NEW;
END $$;
-- +goose StatementEnd
CREATE TRIGGER blocklist_versions_next BEFORE INSERT ON blocklist_versions
  FOR EACH ROW EXECUTE FUNCTION blocklist_next_version();
ALTER TABLE blocklist_versions ALTER COLUMN version DROP DEFAULT;
DROP SEQUENCE blocklist_versions_version_seq;

-- +goose Down
DROP TRIGGER blocklist_versions_next ON blocklist_versions;
DROP FUNCTION blocklist_next_version();
CREATE SEQUENCE blocklist_versions_version_seq OWNED BY blocklist_versions.version;
SELECT setval('blocklist_versions_version_seq', coalesce(max(version), 0) + 1, false) FROM blocklist_versions;
ALTER TABLE blocklist_versions ALTER COLUMN version SET DEFAULT nextval('blocklist_versions_version_seq');
