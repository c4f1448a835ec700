-- +goose Up
-- Court boundaries in the database (issue 16, item 1): a fan-group
-- defendant is linked only to a group registered in its case's court (LGE
-- art. 178: each court keeps its own register). The application checks it
-- at filing and linking (404 for a group of another court, as for an
-- unknown one); this trigger checks it again in the same transaction, so
-- no path (a page, an import, a later change) can link across courts.

-- +goose StatementBegin
CREATE FUNCTION defendant_group_in_court() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.group_id IS NOT NULL AND NOT EXISTS (
      SELECT 1 FROM fan_groups g JOIN cases c ON c.court_code = g.court_code
      WHERE g.id = NEW.group_id AND c.id = NEW.case_id) THEN
    RAISE EXCEPTION 'fan group % is not registered in the court of case %', NEW.group_id, NEW.case_id
      USING ERRCODE = 'foreign_key_violation', CONSTRAINT = 'defendants_group_in_court';
  END IF;
  RETURN NEW;
END $$;
-- +goose StatementEnd
CREATE TRIGGER defendants_group_in_court BEFORE INSERT OR UPDATE OF group_id, case_id ON defendants
  FOR EACH ROW EXECUTE FUNCTION defendant_group_in_court();

-- Links made across courts before this migration, on defendants without a
-- ban, are undone (the automatic link by name matched groups of any
-- court); the audit trail names this migration as their author.
SELECT set_config('juizado.actor_name', 'migração 00030', true), set_config('juizado.actor_role', 'system', true);
UPDATE defendants d SET group_id = NULL
WHERE d.group_id IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM fan_groups g JOIN cases c ON c.court_code = g.court_code WHERE g.id = d.group_id AND c.id = d.case_id)
  AND NOT EXISTS (SELECT 1 FROM bans b WHERE b.defendant_id = d.id);

-- +goose Down
DROP TRIGGER defendants_group_in_court ON defendants;
DROP FUNCTION defendant_group_in_court();
