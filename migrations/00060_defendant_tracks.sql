-- +goose Up
-- Each defendant has his own track (issue 28, item 1; DOMAIN.md §4: plea,
-- suspension, accusation, sentence, appeal, final judgment and archive are
-- per defendant). status is the defendant's procedural status, with the
-- case's status words; NULL means "the case's status" (every row written
-- before tracks existed, and a defendant whose case never split: the
-- first step of one defendant writes every co-defendant's status).
-- final_on is the day his judgment became final (trânsito em julgado per
-- defendant); separated_on the day the judge separated his proceedings
-- (CPP art. 80).
ALTER TABLE defendants ADD COLUMN status text;
ALTER TABLE defendants ADD COLUMN final_on date;
ALTER TABLE defendants ADD COLUMN separated_on date;

-- The prosecution's notice of a sentence is per defendant too (API.md: "a
-- prosecution notice may name defendant_id; without it, it is the
-- prosecution's notice as to every defendant sentenced so far", one row
-- each). A row without defendant_id stays the prosecution's as to every
-- defendant (rows written before; a group case's one notice).
ALTER TABLE notifications DROP CONSTRAINT notifications_party_defendant,
    ADD CONSTRAINT notifications_party_defendant CHECK (party = 'prosecution' OR defendant_id IS NOT NULL);

-- +goose Down
DELETE FROM notifications WHERE party = 'prosecution' AND defendant_id IS NOT NULL;
ALTER TABLE notifications DROP CONSTRAINT notifications_party_defendant,
    ADD CONSTRAINT notifications_party_defendant CHECK ((party = 'prosecution') = (defendant_id IS NULL));
ALTER TABLE defendants DROP COLUMN separated_on;
ALTER TABLE defendants DROP COLUMN final_on;
ALTER TABLE defendants DROP COLUMN status;
