-- +goose Up
-- Writes outside the application are caught (issue 16, item 4). The
-- application's connections carry the setting juizado.origin = 'app'
-- (internal/db.Open). An audited write from any other connection (psql, a
-- script) without an actor is recorded with role 'outside' and, as its
-- actor's name, the database user and application name that made it; the
-- role is hashed into the chain, so it cannot be changed afterwards without
-- `juizado audit verify` seeing the break, and verify reports every such row
-- (table, record, instant) and exits 1.

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION audit_write() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  b jsonb; a jsonb; rid text; r text; n text;
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN b := audit_compact(to_jsonb(OLD)); END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN a := audit_compact(to_jsonb(NEW)); END IF;
  IF TG_OP = 'UPDATE' AND a = b THEN RETURN NULL; END IF;
  rid := coalesce(a ->> 'id', b ->> 'id', a ->> 'code', b ->> 'code', '');
  r := coalesce(current_setting('juizado.actor_role', true), '');
  n := coalesce(current_setting('juizado.actor_name', true), '');
  IF r = '' AND n = '' AND coalesce(current_setting('juizado.origin', true), '') <> 'app' THEN
    r := 'outside';
    n := session_user || coalesce(nullif(' (' || current_setting('application_name', true) || ')', ' ()'), '');
  END IF;
  INSERT INTO audit_log (id, actor_id, actor_name, role, domain, action, table_name, record_id, before, after, prev_hash, row_hash)
  VALUES (0, nullif(current_setting('juizado.actor_id', true), '')::bigint, n, r,
          coalesce(current_setting('juizado.actor_domain', true), ''),
          lower(TG_OP), TG_TABLE_NAME, rid, b, a, '\x', '\x');
  RETURN NULL;
END $$;
-- +goose StatementEnd

-- +goose Down
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION audit_write() RETURNS trigger LANGUAGE plpgsql AS $$
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
