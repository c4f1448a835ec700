-- +goose Up
-- The register as evidence (issue 32, item 6): when a case names a
-- registered fan group as defendant (at filing, or when the group is
-- linked), the group's register as it stands then is kept with the case:
-- each member's identification and membership periods. A group ban reaches
-- the members of that register for the date of the facts (Lei 14.597/2023,
-- art. 178, § 4º; arts. 183 and 184); changes the group records later that
-- touch the facts date are listed to the judge, who decides on each.
CREATE TABLE case_registers (
    defendant_id bigint PRIMARY KEY REFERENCES defendants(id),
    case_id      bigint NOT NULL REFERENCES cases(id),
    group_id     bigint NOT NULL REFERENCES fan_groups(id),
    taken_at     timestamptz NOT NULL
);
CREATE TABLE case_register_members (
    defendant_id bigint NOT NULL REFERENCES case_registers(defendant_id) ON DELETE CASCADE,
    member_id    bigint NOT NULL REFERENCES members(id),
    cpf          char(11) NOT NULL CHECK (cpf ~ '^[0-9]{11}$'),
    full_name    text NOT NULL,
    birth_date   date NOT NULL,
    -- [{"joined_on": "YYYY-MM-DD", "left_on": "YYYY-MM-DD" | null}, ...]
    periods      jsonb NOT NULL,
    PRIMARY KEY (defendant_id, member_id)
);
SELECT audit_attach('case_registers');
SELECT audit_attach('case_register_members');

-- +goose Down
DROP TABLE case_register_members, case_registers;
