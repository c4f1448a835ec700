-- +goose Up
-- The defence (issue 29, item 1): a lawyer, with an OAB number and the
-- state of the OAB section (Lei 8.906/1994, arts. 8º and 10: "SP123456"),
-- or a public defender of a state's Defensoria Pública (LC 80/1994, art.
-- 97: the state, "SP"). A defence user belongs to no court: it reads the
-- cases of the defendants it represents (table representations, 00171)
-- and nothing else.
ALTER TABLE users DROP CONSTRAINT users_role_check;
ALTER TABLE users ADD CONSTRAINT users_role_check
    CHECK (role IN ('admin','clerk','judge','prosecutor','police','fan_group','club','defence'));
ALTER TABLE users
    ADD COLUMN oab text CHECK (oab ~ '^(AC|AL|AP|AM|BA|CE|DF|ES|GO|MA|MT|MS|MG|PA|PB|PR|PE|PI|RJ|RN|RS|RO|RR|SC|SP|SE|TO)[0-9]{1,7}$'),
    ADD COLUMN defensoria text CHECK (defensoria ~ '^(AC|AL|AP|AM|BA|CE|DF|ES|GO|MA|MT|MS|MG|PA|PB|PR|PE|PI|RJ|RN|RS|RO|RR|SC|SP|SE|TO)$'),
    ADD CONSTRAINT users_defence_check CHECK (
        CASE WHEN role = 'defence' THEN (oab IS NULL) <> (defensoria IS NULL)
             ELSE oab IS NULL AND defensoria IS NULL END);

-- The policy's rows (00130) may name the new role.
ALTER TABLE casbin_rule DROP CONSTRAINT casbin_rule_shape;
ALTER TABLE casbin_rule ADD CONSTRAINT casbin_rule_shape CHECK (
    coalesce(ptype, '') = 'p'
    AND coalesce(v0, '') IN ('admin', 'clerk', 'judge', 'prosecutor', 'police', 'fan_group', 'club', 'defence')
    AND (coalesce(v1, '') = '*'
         OR coalesce(v1, '') ~ '^[0-9]{2}\.[0-9]{4}$'
         OR coalesce(v1, '') ~ '^group:[1-9][0-9]*$'
         OR coalesce(v1, '') ~ '^club:[^*[:space:]][^*]*$')
    AND coalesce(v2, '') ~ '^/[^*[:space:]]*$'
    AND coalesce(v3, '') IN ('GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE')
    AND coalesce(v4, '') = '' AND coalesce(v5, '') = ''
) NOT VALID;

-- +goose Down
ALTER TABLE casbin_rule DROP CONSTRAINT casbin_rule_shape;
ALTER TABLE casbin_rule ADD CONSTRAINT casbin_rule_shape CHECK (
    coalesce(ptype, '') = 'p'
    AND coalesce(v0, '') IN ('admin', 'clerk', 'judge', 'prosecutor', 'police', 'fan_group', 'club')
    AND (coalesce(v1, '') = '*'
         OR coalesce(v1, '') ~ '^[0-9]{2}\.[0-9]{4}$'
         OR coalesce(v1, '') ~ '^group:[1-9][0-9]*$'
         OR coalesce(v1, '') ~ '^club:[^*[:space:]][^*]*$')
    AND coalesce(v2, '') ~ '^/[^*[:space:]]*$'
    AND coalesce(v3, '') IN ('GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE')
    AND coalesce(v4, '') = '' AND coalesce(v5, '') = ''
) NOT VALID;
ALTER TABLE users DROP CONSTRAINT users_defence_check, DROP COLUMN defensoria, DROP COLUMN oab;
ALTER TABLE users DROP CONSTRAINT users_role_check;
ALTER TABLE users ADD CONSTRAINT users_role_check
    CHECK (role IN ('admin','clerk','judge','prosecutor','police','fan_group','club'));
