-- +goose Up
-- The application's own database role (issue 32, item 4; ../shared/API.md
-- "Operations"): `juizado_app` is not a superuser, owns no table and holds
-- only what the server needs: SELECT, INSERT, UPDATE and DELETE on the
-- court's tables, USAGE on their sequences; no TRUNCATE, REFERENCES or
-- TRIGGER, no DDL (it owns nothing, and CREATE on the schema is taken from
-- PUBLIC), INSERT and SELECT only on the audit trail, SELECT only on goose's
-- table. The server and the CLI's data commands take it on every connection
-- (internal/db.Open: the startup parameter role=juizado_app, so a RESET ROLE
-- or DISCARD ALL stays in it); `juizado migrate` works as the role it is
-- given, which owns the tables.
--
-- Roles belong to the cluster, grants to each database: the role is made
-- once (several databases of one cluster migrate at the same time in the
-- tests, hence the exceptions), the grants here for this database. Tables
-- that later migrations create get the same rights by default (ALTER
-- DEFAULT PRIVILEGES, for the role that runs the migrations); a migration
-- that wants fewer rights on its table revokes them.

-- +goose StatementBegin
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'juizado_app') THEN
    BEGIN
      CREATE ROLE juizado_app NOLOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS;
    EXCEPTION WHEN duplicate_object OR unique_violation THEN
      NULL; -- made meanwhile by another database's migration
    END;
  END IF;
  -- The role that migrates (the owner) may take juizado_app, as the server
  -- does when DATABASE_URL names it; a superuser may take any role.
  IF NOT (SELECT rolsuper FROM pg_roles WHERE rolname = session_user) AND NOT pg_has_role(session_user, 'juizado_app', 'MEMBER') THEN
    BEGIN
      EXECUTE format('GRANT juizado_app TO %I', session_user);
    EXCEPTION WHEN insufficient_privilege THEN
      RAISE NOTICE 'juizado_app: % may not take it (no CREATEROLE): the server needs a login role that is a member of juizado_app', session_user;
    END;
  END IF;
END $$;
-- +goose StatementEnd

REVOKE CREATE ON SCHEMA public FROM PUBLIC;
GRANT USAGE ON SCHEMA public TO juizado_app;
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO juizado_app;
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO juizado_app;
REVOKE UPDATE, DELETE ON audit_log, audit_checkpoints FROM juizado_app;
REVOKE INSERT, UPDATE, DELETE ON goose_db_version FROM juizado_app;
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO juizado_app;
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO juizado_app;

-- A baseline for `juizado audit verify`, which compares every audited row
-- with its last audited image (internal/audit.Drifts): a row that no audit
-- row names yet (written before the trail, migration 00006, such as the
-- venue seed) is recorded as it stands now, action 'baseline', by
-- "migration 00095", before the chaining trigger below starts to mark the
-- rows of other roles than juizado_app. A row that differs from its audited
-- image is not recorded: it stays reported. A later migration that writes
-- audited rows does it as the application (SET LOCAL ROLE juizado_app ...
-- RESET ROLE: its rows come through the tables' triggers), or they are
-- audited as written outside the application.
-- +goose StatementBegin
DO $$
DECLARE
  r record; k text; kc text;
BEGIN
  FOR r IN SELECT c.oid::regclass AS t, c.relname AS name,
                  (SELECT array_agg(a.attname::text ORDER BY x.n) FROM pg_index i
                     CROSS JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS x(attnum, n)
                     JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = x.attnum
                    WHERE i.indrelid = c.oid AND i.indisprimary) AS cols
           FROM pg_trigger tg JOIN pg_class c ON c.oid = tg.tgrelid
           WHERE tg.tgname = 'audit_write' AND NOT tg.tgisinternal AND c.relnamespace = 'public'::regnamespace
           ORDER BY c.relname
  LOOP
    CONTINUE WHEN r.cols IS NULL;
    SELECT string_agg(format('%L, c.img -> %L', col, col), ', '),
           string_agg(format('%L, coalesce(a.after, a.before) -> %L', col, col), ', ')
      INTO k, kc FROM unnest(r.cols) AS col;
    EXECUTE format($q$
      INSERT INTO audit_log (id, actor_name, role, domain, action, table_name, record_id, after, prev_hash, row_hash)
      SELECT 0, 'migration 00095 (rows written before the audit trail)', '', '', 'baseline', %L,
             coalesce(c.img ->> 'id', c.img ->> 'code', ''), c.img, '\x', '\x'
      FROM (SELECT CASE WHEN %L = 'user_passwords' THEN to_jsonb(t) || '{"hash": "(oculto)"}'::jsonb  -- as 00008 hides it
                        ELSE audit_compact(to_jsonb(t)) END AS img FROM %s t) c
      WHERE NOT EXISTS (SELECT 1 FROM audit_log a WHERE a.table_name = %L AND jsonb_build_object(%s) = jsonb_build_object(%s))
      ORDER BY jsonb_build_object(%s)::text$q$, r.name, r.name, r.t, r.name, kc, k, k);
  END LOOP;
END $$;
-- +goose StatementEnd

-- The audit trail tells the application's writes from outside ones by the
-- database role, never by a setting a client can set (migration 00031 trusted
-- juizado.origin = 'app', which any connection could set). Every row entering
-- audit_log (the row trigger's, or audit.Read's) passes the chaining
-- trigger: made by a role other than juizado_app, it is recorded with role
-- 'outside', no actor id nor domain, and as its actor's name the database
-- role (the session's and the current one when they differ), the client's
-- application_name and the actor the connection claimed in the
-- juizado.actor_* settings, if any ("postgres (psql) claiming Ana, judge
-- 26.0100"). The application's role inserts directly only reads
-- (audit.Read); its other rows come from the tables' triggers (an audit row
-- of a write it did not make is refused). The row trigger itself goes back
-- to 00006's: the actor from the settings, which only the application's
-- role is believed for.
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION audit_chain() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  prev bytea; who text; claim text;
BEGIN
  IF current_user = 'juizado_app' AND pg_trigger_depth() = 1 AND NEW.action <> 'read' THEN
    RAISE EXCEPTION 'audit_log: the application inserts only reads (%), its writes come from the tables'' triggers', NEW.action
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  IF current_user <> 'juizado_app' THEN
    who := CASE WHEN session_user = current_user THEN current_user::text ELSE session_user || ' as ' || current_user END;
    who := who || coalesce(nullif(' (' || current_setting('application_name', true) || ')', ' ()'), '');
    claim := concat_ws(', ', nullif(NEW.actor_name, ''), nullif(NEW.role, ''), nullif(NEW.domain, ''),
                       CASE WHEN NEW.actor_id IS NOT NULL THEN 'id ' || NEW.actor_id END);
    IF claim <> '' THEN
      who := who || ' claiming ' || claim;
    END IF;
    NEW.role := 'outside';
    NEW.actor_name := who;
    NEW.actor_id := NULL;
    NEW.domain := '';
  END IF;
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

-- +goose Down
-- The role stays (other databases of the cluster may use it); its rights
-- here go, and the trail trusts juizado.origin again (00031).
ALTER DEFAULT PRIVILEGES IN SCHEMA public REVOKE SELECT, INSERT, UPDATE, DELETE ON TABLES FROM juizado_app;
ALTER DEFAULT PRIVILEGES IN SCHEMA public REVOKE USAGE, SELECT ON SEQUENCES FROM juizado_app;
REVOKE ALL ON ALL TABLES IN SCHEMA public FROM juizado_app;
REVOKE ALL ON ALL SEQUENCES IN SCHEMA public FROM juizado_app;
REVOKE USAGE ON SCHEMA public FROM juizado_app;

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION audit_chain() RETURNS trigger LANGUAGE plpgsql AS $$
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
