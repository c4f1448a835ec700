-- +goose Up
-- Audit trail (issue "Who may do what"): every write to the court's tables,
-- who, role, domain, instant, action, record, before and after, in an
-- append-only table whose rows are chained by SHA-256. The actor comes from
-- the transaction settings juizado.actor_* (set by db.WithTx from the
-- request's actor); writes without one are recorded as the system's.

-- Ids are taken inside the chaining trigger, under its lock, so id order is
-- chain order.
CREATE SEQUENCE audit_log_id_seq;
CREATE TABLE audit_log (
    id         bigint PRIMARY KEY,
    at         timestamptz NOT NULL DEFAULT clock_timestamp(),
    actor_id   bigint,
    actor_name text NOT NULL DEFAULT '',
    role       text NOT NULL DEFAULT '',
    domain     text NOT NULL DEFAULT '',
    action     text NOT NULL,           -- insert, update, delete, read
    table_name text NOT NULL,
    record_id  text NOT NULL DEFAULT '',
    before     jsonb,
    after      jsonb,
    prev_hash  bytea NOT NULL,
    row_hash   bytea NOT NULL
);
CREATE INDEX audit_log_record ON audit_log (table_name, record_id);
CREATE INDEX audit_log_actor ON audit_log (actor_id, at);
CREATE INDEX audit_log_at ON audit_log (at);

-- The hash of a row: SHA-256 over the previous row's hash and the row's
-- fields in a fixed order, separated by a unit separator (U+001F).
-- +goose StatementBegin
CREATE FUNCTION audit_row_hash(prev bytea, id bigint, at timestamptz, actor_id bigint, actor_name text, role text,
    domain text, action text, table_name text, record_id text, before jsonb, after jsonb) RETURNS bytea
LANGUAGE sql IMMUTABLE AS $$
  SELECT sha256(prev || convert_to(concat_ws(chr(31), id::text, to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US'),
      coalesce(actor_id::text, ''), actor_name, role, domain, action, table_name, record_id,
      coalesce(before::text, ''), coalesce(after::text, '')), 'UTF8'))
$$;
-- +goose StatementEnd

-- Rows are chained in id order; one writer at a time (advisory lock held
-- to the end of the transaction) so ids follow the chain.
-- +goose StatementBegin
CREATE FUNCTION audit_chain() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  prev bytea;
BEGIN
  PERFORM pg_advisory_xact_lock(7365432119);
  SELECT row_hash INTO prev FROM audit_log ORDER BY id DESC LIMIT 1;
  NEW.prev_hash := coalesce(prev, '\x'::bytea);
  NEW.id := nextval('audit_log_id_seq');
  NEW.at := clock_timestamp();
  NEW.row_hash := audit_row_hash(NEW.prev_hash, NEW.id, NEW.at, NEW.actor_id, NEW.actor_name, NEW.role,
      NEW.domain, NEW.action, NEW.table_name, NEW.record_id, NEW.before, NEW.after);
  RETURN NEW;
END $$;
-- +goose StatementEnd
CREATE TRIGGER audit_log_chain BEFORE INSERT ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_chain();

-- +goose StatementBegin
CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END $$;
-- +goose StatementEnd
CREATE TRIGGER audit_log_no_update BEFORE UPDATE OR DELETE ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only();

-- Large values (photos, PDF bytes) are kept out of the trail: a string of
-- more than 2,000 characters becomes its SHA-256.
-- +goose StatementBegin
CREATE FUNCTION audit_compact(j jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce(jsonb_object_agg(key, CASE WHEN jsonb_typeof(value) = 'string' AND length(value #>> '{}') > 2000
        THEN to_jsonb('sha256:' || encode(sha256(convert_to(value #>> '{}', 'UTF8')), 'hex')) ELSE value END), '{}'::jsonb)
  FROM jsonb_each(j)
$$;
-- +goose StatementEnd

-- The generic row trigger: before and after as JSON, actor from settings.
-- +goose StatementBegin
CREATE FUNCTION audit_write() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  b jsonb; a jsonb; rid text;
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN b := audit_compact(to_jsonb(OLD)); END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN a := audit_compact(to_jsonb(NEW)); END IF;
  IF TG_OP = 'UPDATE' AND a = b THEN RETURN NULL; END IF;
  rid := coalesce(a ->> 'id', b ->> 'id', a ->> 'code', b ->> 'code', '');
  INSERT INTO audit_log (id, actor_id, actor_name, role, domain, action, table_name, record_id, before, after, prev_hash, row_hash)
  VALUES (0, nullif(current_setting('juizado.actor_id', true), '')::bigint,
          coalesce(current_setting('juizado.actor_name', true), ''),
          coalesce(current_setting('juizado.actor_role', true), ''),
          coalesce(current_setting('juizado.actor_domain', true), ''),
          lower(TG_OP), TG_TABLE_NAME, rid, b, a, '\x', '\x');
  RETURN NULL;
END $$;
-- +goose StatementEnd

-- audit_attach(table) puts the audit trigger on a table; later migrations
-- call it for the tables they create.
-- +goose StatementBegin
CREATE FUNCTION audit_attach(t regclass) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('CREATE TRIGGER audit_write AFTER INSERT OR UPDATE OR DELETE ON %s FOR EACH ROW EXECUTE FUNCTION audit_write()', t);
END $$;
-- +goose StatementEnd

-- Every table of the court's records that exists now, except the trail
-- itself, derived data (blocklist versions, feeds, caches), read logs and
-- goose's own table.
-- +goose StatementBegin
DO $$
DECLARE r record;
BEGIN
  FOR r IN SELECT c.oid::regclass AS t FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
           WHERE n.nspname = 'public' AND c.relkind = 'r'
             AND c.relname NOT IN ('audit_log', 'audit_checkpoints', 'goose_db_version', 'case_sequences')
             AND c.relname NOT LIKE 'blocklist%' AND c.relname NOT LIKE '%_log' AND c.relname NOT LIKE '%_reads'
  LOOP
    PERFORM audit_attach(r.t);
  END LOOP;
END $$;
-- +goose StatementEnd

-- Signed checkpoints of the chain's head (Ed25519, key outside the database).
CREATE TABLE audit_checkpoints (
    id        bigserial PRIMARY KEY,
    at        timestamptz NOT NULL DEFAULT now(),
    audit_id  bigint NOT NULL,
    head_hash bytea NOT NULL,
    key_id    text NOT NULL,
    signature bytea NOT NULL
);

-- +goose Down
-- +goose StatementBegin
DO $$
DECLARE r record;
BEGIN
  FOR r IN SELECT tgrelid::regclass AS t FROM pg_trigger WHERE tgname = 'audit_write' LOOP
    EXECUTE format('DROP TRIGGER audit_write ON %s', r.t);
  END LOOP;
END $$;
-- +goose StatementEnd
DROP TABLE audit_checkpoints;
DROP TABLE audit_log;
DROP SEQUENCE audit_log_id_seq;
DROP FUNCTION audit_attach(regclass);
DROP FUNCTION audit_write();
DROP FUNCTION audit_compact(jsonb);
DROP FUNCTION audit_log_append_only();
DROP FUNCTION audit_chain();
DROP FUNCTION audit_row_hash(bytea, bigint, timestamptz, bigint, text, text, text, text, text, text, jsonb, jsonb);
