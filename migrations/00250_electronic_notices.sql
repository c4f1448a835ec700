-- +goose Up
-- Electronic notices to the defence (issue 29, item 3; Lei 11.419/2006,
-- art. 5º). A notice to the defence may be made available in the system
-- (electronic, available_on: the day in the court's zone) instead of
-- recorded by its date: it counts as made on the day the linked defence
-- user opens it (opened_on, opened_by; § 1º), the next working day when
-- opened on a day without court business (§ 2º), or on the tenth running
-- day after it was made available when nobody opens it (§ 3º; the next
-- working day when that one has no court business, STJ REsp 1.663.172).
-- notified_on keeps the day it counts on as known when written (the tenth
-- day while unopened); the system recomputes it on read with the court's
-- calendar (cases/calendar). Every opening is kept (notice_openings).
ALTER TABLE notifications
    ADD COLUMN electronic   boolean NOT NULL DEFAULT false,
    ADD COLUMN available_on date,
    ADD COLUMN opened_on    date,
    ADD COLUMN opened_by    bigint REFERENCES users(id),
    ADD CONSTRAINT notifications_electronic CHECK (NOT electronic OR
        (party = 'defence' AND available_on IS NOT NULL AND NOT waived_appeal)),
    ADD CONSTRAINT notifications_opened CHECK ((opened_on IS NULL OR electronic) AND (opened_on IS NULL) = (opened_by IS NULL));
CREATE INDEX notifications_electronic_defendant ON notifications (defendant_id) WHERE electronic AND NOT superseded;

CREATE TABLE notice_openings (
    id              bigserial PRIMARY KEY,
    notification_id bigint NOT NULL REFERENCES notifications(id),
    user_id         bigint NOT NULL REFERENCES users(id),
    opened_at       timestamptz NOT NULL
);
CREATE INDEX notice_openings_notification ON notice_openings (notification_id);
SELECT audit_attach('notice_openings');

-- +goose Down
DROP TABLE notice_openings;
DROP INDEX notifications_electronic_defendant;
ALTER TABLE notifications DROP CONSTRAINT notifications_opened, DROP CONSTRAINT notifications_electronic,
    DROP COLUMN opened_by, DROP COLUMN opened_on, DROP COLUMN available_on, DROP COLUMN electronic;
