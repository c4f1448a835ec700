-- +goose Up
-- Base rules the admin removes stay removed (issue 32, item 5): every
-- server adds the embedded base policy's rules missing from casbin_rule
-- (internal/authz.Open), which put back, at the next start, a base rule an
-- administrator had deliberately deleted. Each removal of a rule is now
-- recorded here, by its content (role, domain, route, method), whoever
-- makes it (the enforcer's RemovePolicy, a DELETE or UPDATE in SQL); the
-- seeding skips the base rules recorded; adding the rule again (INSERT, or
-- an UPDATE to it) clears the record. Audited like the policy itself.
-- TRUNCATE of casbin_rule is no removal of rules: the next start seeds the
-- base policy whole.
CREATE TABLE casbin_rule_removed (
    id         bigserial PRIMARY KEY,
    v0         text NOT NULL,
    v1         text NOT NULL,
    v2         text NOT NULL,
    v3         text NOT NULL,
    removed_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (v0, v1, v2, v3)
);
SELECT audit_attach('casbin_rule_removed');

-- +goose StatementBegin
CREATE FUNCTION casbin_rule_removal() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') AND OLD.ptype = 'p' THEN
    INSERT INTO casbin_rule_removed (v0, v1, v2, v3)
    VALUES (coalesce(OLD.v0, ''), coalesce(OLD.v1, ''), coalesce(OLD.v2, ''), coalesce(OLD.v3, ''))
    ON CONFLICT (v0, v1, v2, v3) DO NOTHING;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.ptype = 'p' THEN
    DELETE FROM casbin_rule_removed
     WHERE v0 = coalesce(NEW.v0, '') AND v1 = coalesce(NEW.v1, '') AND v2 = coalesce(NEW.v2, '') AND v3 = coalesce(NEW.v3, '');
  END IF;
  RETURN NULL;
END $$;
-- +goose StatementEnd
CREATE TRIGGER casbin_rule_removal AFTER INSERT OR UPDATE OR DELETE ON casbin_rule
    FOR EACH ROW EXECUTE FUNCTION casbin_rule_removal();

-- +goose Down
DROP TRIGGER casbin_rule_removal ON casbin_rule;
DROP FUNCTION casbin_rule_removal();
DROP TABLE casbin_rule_removed;
