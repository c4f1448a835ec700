-- +goose Up
-- Embargos de declaração (issue 28, item 3; Lei 9.099/1995, art. 83; CPC
-- arts. 1.022 to 1.026 in group cases):
-- embargos.late: filed after the party's window counted from its notice of
-- the decision (Lei 9.099/1995, art. 83, § 1º: 5 running days; CPC art.
-- 1.023: 5 working days, doubled by CPC arts. 180 and 186). The clerk
-- records them (the system never refuses the defence's filing) but they
-- interrupt nothing; the judge decides them. window_last_day is the last
-- day of that window (NULL: no notice recorded, the window not begun) and
-- rule the law it was counted by.
-- embargos.against: the decision attacked, the sentence or the Turma
-- Recursal's result; after the ruling the window against that decision runs
-- again from each party's notice of the ruling (art. 83, § 2º; CPC art.
-- 1.026).
-- notifications.kind 'extraordinary': a notice of the ruling on embargos
-- against the Turma's result, which opens the window against it (CF art.
-- 102, III; CPC art. 1.003, § 5º), 'appeal' the window against the
-- sentence (Lei 9.099/1995, art. 82, § 1º).
ALTER TABLE embargos
    ADD COLUMN late boolean NOT NULL DEFAULT false,
    ADD COLUMN against text NOT NULL DEFAULT 'sentence' CHECK (against IN ('sentence', 'appeal_result')),
    ADD COLUMN window_last_day date,
    ADD COLUMN rule text NOT NULL DEFAULT '';
ALTER TABLE notifications DROP CONSTRAINT notifications_kind_check,
    ADD CONSTRAINT notifications_kind_check CHECK (kind IN ('appeal', 'extraordinary'));

-- +goose Down
DELETE FROM notifications WHERE kind = 'extraordinary';
ALTER TABLE notifications DROP CONSTRAINT notifications_kind_check,
    ADD CONSTRAINT notifications_kind_check CHECK (kind IN ('appeal'));
ALTER TABLE embargos DROP COLUMN rule, DROP COLUMN window_last_day, DROP COLUMN against, DROP COLUMN late;
