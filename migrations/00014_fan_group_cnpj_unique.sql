-- +goose Up
-- A CNPJ names one legal entity: two registered fan groups cannot share it
-- (POST /api/v1/groups answered 201 twice for 11.222.333/0001-81 under two
-- names). fan_groups.cnpj holds the 14 digits (CHECK of 00001), so the index
-- is on the normalised value as stored; de facto groups (no CNPJ) are many.
-- Groups that already share a CNPJ stop the migration with their list: the
-- court decides which record is right (records are never deleted here).
-- +goose StatementBegin
DO $$
DECLARE
    dups text;
BEGIN
    SELECT string_agg(format('CNPJ %s: torcidas %s', cnpj, groups), '; ' ORDER BY cnpj) INTO dups
    FROM (SELECT cnpj, string_agg(format('%s (%s)', id, name), ', ' ORDER BY id) AS groups
          FROM fan_groups WHERE cnpj IS NOT NULL GROUP BY cnpj HAVING count(*) > 1) d;
    IF dups IS NOT NULL THEN
        RAISE EXCEPTION 'torcidas com o mesmo CNPJ; corrija o cadastro antes de migrar: %', dups;
    END IF;
END
$$;
-- +goose StatementEnd
CREATE UNIQUE INDEX fan_groups_cnpj_key ON fan_groups (cnpj) WHERE cnpj IS NOT NULL;

-- +goose Down
DROP INDEX fan_groups_cnpj_key;
