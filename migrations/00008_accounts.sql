-- +goose Up
-- Accounts (issue "Who may do what"): people's passwords, HTML sessions,
-- failed logins for the lockout, the Casbin policy with domains, and a
-- notification on every change of the policy.

-- Passwords (argon2id PHC strings) apart from users, so that reading a
-- user never reads its hash. Audited, with the hash hidden from the trail.
CREATE TABLE user_passwords (
    user_id    bigint PRIMARY KEY REFERENCES users(id),
    hash       text NOT NULL CHECK (hash LIKE '$argon2id$%'),
    updated_at timestamptz NOT NULL DEFAULT now()
);

-- audit_write (00006) with the hash replaced by a mark.
-- +goose StatementBegin
CREATE FUNCTION audit_write_password() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  b jsonb; a jsonb;
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN b := to_jsonb(OLD) || '{"hash": "(oculto)"}'::jsonb; END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN a := to_jsonb(NEW) || '{"hash": "(oculto)"}'::jsonb; END IF;
  INSERT INTO audit_log (id, actor_id, actor_name, role, domain, action, table_name, record_id, before, after, prev_hash, row_hash)
  VALUES (0, nullif(current_setting('juizado.actor_id', true), '')::bigint,
          coalesce(current_setting('juizado.actor_name', true), ''),
          coalesce(current_setting('juizado.actor_role', true), ''),
          coalesce(current_setting('juizado.actor_domain', true), ''),
          lower(TG_OP), TG_TABLE_NAME, coalesce(a ->> 'user_id', b ->> 'user_id', ''), b, a, '\x', '\x');
  RETURN NULL;
END $$;
-- +goose StatementEnd
CREATE TRIGGER audit_write AFTER INSERT OR UPDATE OR DELETE ON user_passwords
    FOR EACH ROW EXECUTE FUNCTION audit_write_password();

-- HTML sessions (alexedwards/scs postgresstore layout). Not audited.
CREATE TABLE sessions (
    token  text PRIMARY KEY,
    data   bytea NOT NULL,
    expiry timestamptz NOT NULL
);
CREATE INDEX sessions_expiry_idx ON sessions (expiry);

-- Failed logins, counted per account name and per address for the
-- lockout (authz.Lockout). Not audited; purged after the window.
CREATE TABLE login_failures (
    id      bigserial PRIMARY KEY,
    account text NOT NULL,
    ip      text NOT NULL,
    at      timestamptz NOT NULL
);
CREATE INDEX login_failures_account ON login_failures (account, at);
CREATE INDEX login_failures_ip ON login_failures (ip, at);

CREATE INDEX api_tokens_user ON api_tokens (user_id);

-- Casbin with domains: (role, domain, route, method). Rules of the former
-- shape (role, route, method) apply to every domain ("*").
UPDATE casbin_rule SET v3 = v2, v2 = v1, v1 = '*'
 WHERE ptype = 'p' AND coalesce(v3, '') = '' AND coalesce(v2, '') <> '';

-- Every change of the policy is announced on channel "casbin"; each server
-- LISTENs and reloads (policy.Watch, internal/authz/policy).
-- +goose StatementBegin
CREATE FUNCTION casbin_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('casbin', '');
  RETURN NULL;
END $$;
-- +goose StatementEnd
CREATE TRIGGER casbin_rule_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON casbin_rule
    FOR EACH STATEMENT EXECUTE FUNCTION casbin_notify();

-- +goose Down
DROP TRIGGER casbin_rule_notify ON casbin_rule;
DROP FUNCTION casbin_notify();
DELETE FROM casbin_rule WHERE ptype = 'p' AND v1 <> '*';
UPDATE casbin_rule SET v1 = v2, v2 = v3, v3 = '' WHERE ptype = 'p' AND v1 = '*';
DROP INDEX api_tokens_user;
DROP TABLE login_failures;
DROP TABLE sessions;
DROP TABLE user_passwords;
DROP FUNCTION audit_write_password();
