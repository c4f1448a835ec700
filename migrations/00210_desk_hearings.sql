-- +goose Up
-- The court's desk (issue 30, items 1 and 2).
--
-- Hearings are redesignated (the old row 'redesignated', a new row naming it
-- in redesignated_from), cancelled, or recorded as held or not held, each
-- with the reason or the record (absent: the parties absent, a jsonb array
-- of "prosecution", "defendant:ID", "defence:ID"). One open (scheduled)
-- hearing of a kind per case: hearings name no defendant, so the case's
-- defendants share it (Lei 9.099/1995, arts. 72 and 81: one preliminary
-- hearing, one instruction hearing).
ALTER TABLE hearings DROP CONSTRAINT hearings_status_check,
    ADD CONSTRAINT hearings_status_check CHECK (status IN ('scheduled', 'cancelled', 'redesignated', 'held', 'not_held'));
ALTER TABLE hearings
    ADD COLUMN reason            text NOT NULL DEFAULT '',
    ADD COLUMN result_text       text NOT NULL DEFAULT '',
    ADD COLUMN absent            jsonb NOT NULL DEFAULT '[]',
    ADD COLUMN redesignated_from bigint REFERENCES hearings(id),
    ADD COLUMN closed_at         timestamptz,
    ADD COLUMN closed_by         bigint REFERENCES users(id);
-- Rows written before: a hearing no longer scheduled closed when it was
-- created (nothing better is known); of two open hearings of a kind in a
-- case (accepted before this rule), the later ones are cancelled, saying so.
UPDATE hearings SET closed_at = created_at WHERE status <> 'scheduled' AND closed_at IS NULL;
UPDATE hearings h SET status = 'cancelled', closed_at = now(),
       reason = 'cancelada na atualização do sistema: o processo já tinha outra audiência do mesmo tipo designada'
 WHERE h.status = 'scheduled' AND EXISTS (SELECT 1 FROM hearings o WHERE o.case_id = h.case_id AND o.kind = h.kind
       AND o.status = 'scheduled' AND (o.starts_at, o.id) < (h.starts_at, h.id));
ALTER TABLE hearings ADD CONSTRAINT hearings_closed CHECK ((status = 'scheduled') = (closed_at IS NULL));
CREATE UNIQUE INDEX hearings_one_open_kind ON hearings (case_id, kind) WHERE status = 'scheduled';
CREATE INDEX hearings_open_calendar ON hearings (court_code, starts_at) WHERE status = 'scheduled';

-- The desk's queues, set-based at 1,000,000 cases: the conclusions (TPU 51)
-- read by the index, not the docket; the precautionary reviews and the bans
-- ending by their day; the sentences signed by their day.
CREATE INDEX movements_conclusion ON movements (case_id, at, id) WHERE tpu_code = 51;
CREATE INDEX bans_review_on ON bans (court_code, review_on) WHERE status = 'active' AND precautionary;
CREATE INDEX bans_ending ON bans (court_code, last_day) WHERE status = 'active' AND NOT precautionary;
CREATE INDEX sentences_signed ON sentences (case_id, defendant_id) WHERE status = 'signed' AND outcome <> 'precautionary';
CREATE INDEX notifications_recent ON notifications (notified_on, case_id) WHERE NOT superseded;
CREATE INDEX representations_requested ON representations (case_id) WHERE status = 'requested';

-- +goose Down
DROP INDEX representations_requested, notifications_recent, sentences_signed, bans_ending, bans_review_on, movements_conclusion;
DROP INDEX hearings_open_calendar, hearings_one_open_kind;
DELETE FROM hearings WHERE redesignated_from IS NOT NULL;
UPDATE hearings SET status = 'cancelled' WHERE status <> 'scheduled';
ALTER TABLE hearings DROP CONSTRAINT hearings_closed,
    DROP COLUMN closed_by, DROP COLUMN closed_at, DROP COLUMN redesignated_from,
    DROP COLUMN absent, DROP COLUMN result_text, DROP COLUMN reason;
ALTER TABLE hearings DROP CONSTRAINT hearings_status_check,
    ADD CONSTRAINT hearings_status_check CHECK (status IN ('scheduled', 'cancelled'));
