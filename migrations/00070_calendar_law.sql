-- +goose Up
-- The calendar the law fixes (issue 28, item 7; DOMAIN.md § 4).
--
-- courts.defensoria_doubles_jecrim: the court's reading of the Defensoria
-- Pública's doubled windows in the JECRIM (LC 80/1994, arts. 44, I, 89, I,
-- and 128, I): doubled by default; some Turmas Recursais deny it, and a
-- court that follows them turns it off. Civil windows are always doubled
-- (CPC art. 186).
ALTER TABLE courts ADD COLUMN defensoria_doubles_jecrim boolean NOT NULL DEFAULT true;

-- notifications.public_defender: the defence notified is the Defensoria
-- Pública (its window is doubled, above). notifications.recess_exception:
-- the exception of CPP art. 798-A, I to III, that keeps a criminal window
-- running from 20 December to 20 January ('' none: suspended).
ALTER TABLE notifications
    ADD COLUMN public_defender boolean NOT NULL DEFAULT false,
    ADD COLUMN recess_exception text NOT NULL DEFAULT ''
        CHECK (recess_exception IN ('', 'custody', 'maria_da_penha', 'urgent')),
    ADD CONSTRAINT notifications_public_defender CHECK (NOT public_defender OR party = 'defence');

-- hearings.recess_exception: the exception of CPP art. 798-A, I to III,
-- under which a criminal hearing is held in the recess ('' none).
ALTER TABLE hearings ADD COLUMN recess_exception text NOT NULL DEFAULT ''
    CHECK (recess_exception IN ('', 'custody', 'maria_da_penha', 'urgent'));

-- +goose Down
ALTER TABLE hearings DROP COLUMN recess_exception;
ALTER TABLE notifications DROP CONSTRAINT notifications_public_defender,
    DROP COLUMN recess_exception, DROP COLUMN public_defender;
ALTER TABLE courts DROP COLUMN defensoria_doubles_jecrim;
