-- +goose Up
-- Conditional suspension (Lei 9.099/1995, art. 89; issue 17): the four
-- conditions of § 1º each recorded (I reparação do dano, or why it is
-- impossible; II the places the defendant may not attend, and whether they
-- are sporting venues; III not leaving the district without leave; IV
-- appearing monthly), the others the judge adds (§ 2º: the existing
-- conditions column), the ban a stadium condition makes (source
-- conditional_suspension), and how it ended (revocation, §§ 3º and 4º, or
-- extinction after the period, § 5º).
ALTER TABLE conditional_suspensions
    ADD COLUMN repair_damage      text NOT NULL DEFAULT '',
    ADD COLUMN repair_impossible  text NOT NULL DEFAULT '',
    ADD COLUMN forbidden_places   jsonb NOT NULL DEFAULT '[]',
    ADD COLUMN sporting_venues    boolean NOT NULL DEFAULT false,
    ADD COLUMN stay_in_district   boolean NOT NULL DEFAULT false,
    ADD COLUMN monthly_appearance boolean NOT NULL DEFAULT false,
    ADD COLUMN cpf                char(11) CHECK (cpf ~ '^[0-9]{11}$'),
    ADD COLUMN ban_id             bigint REFERENCES bans(id),
    ADD COLUMN ended_on           date,
    ADD COLUMN end_reason         text NOT NULL DEFAULT '';
CREATE INDEX conditional_suspensions_cpf ON conditional_suspensions (cpf) WHERE cpf IS NOT NULL;

-- +goose Down
DROP INDEX conditional_suspensions_cpf;
ALTER TABLE conditional_suspensions
    DROP COLUMN repair_damage, DROP COLUMN repair_impossible, DROP COLUMN forbidden_places, DROP COLUMN sporting_venues,
    DROP COLUMN stay_in_district, DROP COLUMN monthly_appearance, DROP COLUMN cpf, DROP COLUMN ban_id, DROP COLUMN ended_on,
    DROP COLUMN end_reason;
