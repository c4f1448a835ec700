-- +goose Up
-- Petitions from the defence (issue 29, items 4 and 5; Lei 11.419/2006,
-- art. 10: the lawyer files in the electronic case without the clerk): the
-- kind, the text, an attachment stored as evidence (the evidence rules:
-- type by content, size limit), the author, the instant, the case and the
-- defendant. Each lands in the judge's queue (decisions) or the clerk's
-- (procedural) and waits for its answer (granted, refused or noted, with
-- its text). late marks an appeal or embargos filed after the window: the
-- filing is received all the same (issue 29: the system never refuses a
-- filing), and the judge decides. effect says what the filing did on the
-- defendant's track (appeal: the track moved to appeal; embargos: the
-- windows interrupted; none). A contest of a group-ban inclusion names the
-- member (member_id) and the ground (not a member on the facts date, under
-- 18 then, a homonym); the member may file it himself, without a lawyer,
-- on the public form (filed_by NULL) once he proves who he is; when the judge grants it the member's ban ends at
-- once with status contested, and leaves the blocklist as a removal with
-- reason contested.
CREATE TABLE petitions (
    id           bigserial PRIMARY KEY,
    case_id      bigint NOT NULL REFERENCES cases(id),
    defendant_id bigint NOT NULL REFERENCES defendants(id),
    kind         text NOT NULL CHECK (kind IN ('appeal', 'embargos', 'breach_justification', 'lift_request', 'group_inclusion_contest', 'other')),
    queue        text NOT NULL CHECK (queue IN ('judge', 'clerk')),
    text         text NOT NULL,
    late         boolean NOT NULL DEFAULT false,
    effect       text NOT NULL DEFAULT 'none' CHECK (effect IN ('none', 'appeal', 'embargos')),
    effect_note  text NOT NULL DEFAULT '',
    member_id    bigint REFERENCES members(id),
    ban_id       bigint REFERENCES bans(id),
    ground       text CHECK (ground IN ('not_member', 'under_18', 'homonym')),
    evidence_id  bigint REFERENCES evidence(id),
    embargos_id  bigint REFERENCES embargos(id),
    status       text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'answered')),
    decision     text CHECK (decision IN ('granted', 'refused', 'noted')),
    answer_text  text NOT NULL DEFAULT '',
    filed_at     timestamptz NOT NULL,
    filed_by     bigint REFERENCES users(id), -- NULL: the member himself, by the public form
    answered_at  timestamptz,
    answered_by  bigint REFERENCES users(id),
    CHECK ((status = 'answered') = (decision IS NOT NULL AND answered_at IS NOT NULL)),
    CHECK ((kind = 'group_inclusion_contest') = (member_id IS NOT NULL AND ground IS NOT NULL))
);
CREATE INDEX petitions_case ON petitions (case_id, id);
CREATE INDEX petitions_pending ON petitions (queue, case_id) WHERE status = 'pending';
CREATE INDEX petitions_filed_by ON petitions (filed_by, id);
SELECT audit_attach('petitions');

-- A member's ban ended by a contest of the inclusion granted.
ALTER TABLE bans DROP CONSTRAINT bans_status_check,
    ADD CONSTRAINT bans_status_check CHECK (status IN ('active', 'lifted', 'awaiting_final', 'replaced', 'reformed', 'annulled', 'converted', 'undone', 'contested'));
ALTER TABLE bans DROP CONSTRAINT bans_lifted,
    ADD CONSTRAINT bans_lifted CHECK (lifted_on IS NULL OR status IN ('lifted', 'replaced', 'converted', 'undone', 'contested'));
-- A member's ban contested while it awaited the final judgment never had a first day.
ALTER TABLE bans DROP CONSTRAINT bans_days,
    ADD CONSTRAINT bans_days CHECK (status IN ('awaiting_final', 'reformed', 'annulled', 'contested') OR first_day IS NOT NULL);
ALTER TABLE blocklist_changes DROP CONSTRAINT blocklist_changes_reason_check,
    ADD CONSTRAINT blocklist_changes_reason_check CHECK (reason IN ('new_ban', 'lifted', 'expiry', 'start', 'correction', 'member', 'contested'));

-- +goose Down
ALTER TABLE blocklist_changes DROP CONSTRAINT blocklist_changes_reason_check,
    ADD CONSTRAINT blocklist_changes_reason_check CHECK (reason IN ('new_ban', 'lifted', 'expiry', 'start', 'correction', 'member'));
ALTER TABLE bans DROP CONSTRAINT bans_days,
    ADD CONSTRAINT bans_days CHECK (status IN ('awaiting_final', 'reformed', 'annulled') OR first_day IS NOT NULL);
ALTER TABLE bans DROP CONSTRAINT bans_lifted,
    ADD CONSTRAINT bans_lifted CHECK (lifted_on IS NULL OR status IN ('lifted', 'replaced', 'converted', 'undone'));
ALTER TABLE bans DROP CONSTRAINT bans_status_check,
    ADD CONSTRAINT bans_status_check CHECK (status IN ('active', 'lifted', 'awaiting_final', 'replaced', 'reformed', 'annulled', 'converted', 'undone'));
DROP TABLE petitions;
