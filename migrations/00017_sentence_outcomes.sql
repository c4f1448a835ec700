-- +goose Up
-- Sentences as the law writes them (DOMAIN.md §2 "Outcomes", §3 "When a ban
-- is enforced", §8 "Breach").
--
-- A sentence per defendant: acquittal (CPP art. 386), conviction with the
-- conversion to a ban (art. 201 § 2º / 41-B § 2º / art. 39), conviction to
-- reclusão and fine with no conversion (§ 2º not met, § 6º), or racism in a
-- sporting context (Lei 7.716/1989 art. 20 § 2º-A: reclusão and a cumulative
-- 3-year ban). A draft (minuta) is saved and previewed, then signed.
CREATE TABLE sentences (
    id                   bigserial PRIMARY KEY,
    case_id              bigint NOT NULL REFERENCES cases(id),
    defendant_id         bigint NOT NULL REFERENCES defendants(id),
    status               text NOT NULL CHECK (status IN ('draft', 'signed', 'reformed', 'annulled')),
    outcome              text NOT NULL CHECK (outcome IN ('ban', 'prison', 'acquittal', 'precautionary')),
    input                jsonb NOT NULL,          -- the judge's request, as sent (drafts are signed from it)
    law                  text NOT NULL DEFAULT '',
    article              text NOT NULL DEFAULT '', -- the offence of the conviction (before any conversion)
    prison_months        integer CHECK (prison_months > 0),
    fine_days            integer CHECK (fine_days BETWEEN 10 AND 360),
    no_conversion_reason text NOT NULL DEFAULT '',
    acquittal_ground     text NOT NULL DEFAULT '',
    flags                jsonb NOT NULL DEFAULT '{}',
    report               text NOT NULL DEFAULT '',
    reasoning            text NOT NULL DEFAULT '',
    dosimetry            jsonb,
    ban_id               bigint REFERENCES bans(id),
    precautionary_ban_id bigint REFERENCES bans(id),
    document_id          bigint REFERENCES documents(id),
    created_at           timestamptz NOT NULL,
    created_by           bigint REFERENCES users(id),
    signed_at            timestamptz,
    CHECK (status = 'draft' OR signed_at IS NOT NULL)
);
CREATE UNIQUE INDEX sentences_one_signed ON sentences (defendant_id) WHERE status = 'signed' AND outcome <> 'precautionary';
CREATE UNIQUE INDEX sentences_one_draft ON sentences (defendant_id) WHERE status = 'draft';
CREATE INDEX sentences_case ON sentences (case_id);
SELECT audit_attach('sentences');

-- Ban states: a ban decided in a sentence or a civil judgment waits for the
-- final judgment (awaiting_final: no first or last day yet); a
-- precautionary ban is replaced by the final ban when that one starts; a
-- ban is reformed or annulled by the Turma Recursal, or converted to prison
-- after a breach (§ 3º).
ALTER TABLE bans ALTER COLUMN first_day DROP NOT NULL;
ALTER TABLE bans DROP CONSTRAINT bans_status_check,
    ADD CONSTRAINT bans_status_check CHECK (status IN ('active', 'lifted', 'awaiting_final', 'replaced', 'reformed', 'annulled', 'converted', 'undone'));
ALTER TABLE bans DROP CONSTRAINT bans_check1,
    ADD CONSTRAINT bans_term CHECK (precautionary OR months IS NOT NULL),
    ADD CONSTRAINT bans_days CHECK (status IN ('awaiting_final', 'reformed', 'annulled') OR first_day IS NOT NULL),
    ADD CONSTRAINT bans_last_day CHECK (precautionary OR first_day IS NULL OR last_day IS NOT NULL);
ALTER TABLE bans DROP CONSTRAINT bans_lifted,
    ADD CONSTRAINT bans_lifted CHECK (lifted_on IS NULL OR status IN ('lifted', 'replaced', 'converted', 'undone'));
ALTER TABLE bans
    ADD COLUMN start_not_before date,             -- a later first day the judge fixed
    ADD COLUMN review_on        date,             -- precautionary: the review date (Res. CNJ 417/2021, art. 19)
    ADD COLUMN credit_days      integer CHECK (credit_days >= 0),  -- CP art. 42, the judge's decision
    ADD COLUMN credit_reason    text NOT NULL DEFAULT '',
    ADD COLUMN cumulative       boolean NOT NULL DEFAULT false;   -- Lei 7.716/1989 art. 20 § 2º-A
DROP INDEX bans_one_per_defendant;
CREATE UNIQUE INDEX bans_one_per_defendant ON bans (defendant_id)
    WHERE status IN ('active', 'awaiting_final') AND NOT precautionary AND group_ban_id IS NULL;
CREATE INDEX bans_awaiting_final ON bans (case_id) WHERE status = 'awaiting_final';

-- Renewals of precautionary bans (the review date moved, with a reason).
CREATE TABLE ban_renewals (
    id               bigserial PRIMARY KEY,
    ban_id           bigint NOT NULL REFERENCES bans(id),
    previous_review  date,
    new_review       date NOT NULL,
    reason           text NOT NULL,
    decided_at       timestamptz NOT NULL,
    decided_by       bigint REFERENCES users(id)
);
SELECT audit_attach('ban_renewals');

-- Notifications by party (Lei 9.099/1995, art. 82 § 1º: the prosecution, the
-- defendant and the defence), with an express waiver of the appeal.
ALTER TABLE notifications ALTER COLUMN defendant_id DROP NOT NULL,
    ADD COLUMN party text NOT NULL DEFAULT 'defendant' CHECK (party IN ('defendant', 'defence', 'prosecution')),
    ADD COLUMN waived_appeal boolean NOT NULL DEFAULT false,
    ADD CONSTRAINT notifications_party_defendant CHECK ((party = 'prosecution') = (defendant_id IS NULL)),
    DROP CONSTRAINT notifications_defendant_id_kind_key;
ALTER TABLE notifications ADD COLUMN superseded boolean NOT NULL DEFAULT false;  -- the sentence was annulled on appeal
CREATE UNIQUE INDEX notifications_once ON notifications (case_id, party, coalesce(defendant_id, 0), kind) WHERE NOT superseded;

-- A plea agreement undone after its ban was breached (Súmula Vinculante 35).
ALTER TABLE plea_agreements DROP CONSTRAINT plea_agreements_status_check,
    ADD CONSTRAINT plea_agreements_status_check CHECK (status IN ('offered', 'accepted', 'refused', 'homologated', 'undone'));

-- The judge's decision on a breach (Lei 14.597/2023, art. 201, § 3º; CP art.
-- 44, § 4º: the balance is the judge's; Súmula Vinculante 35; CP art. 359).
ALTER TABLE breaches
    ADD COLUMN decision        text CHECK (decision IN ('convert', 'undo_plea', 'justified', 'noted')),
    ADD COLUMN decided_balance_days integer CHECK (decided_balance_days > 0),
    ADD COLUMN decision_reason text NOT NULL DEFAULT '',
    ADD COLUMN decided_at      timestamptz,
    ADD COLUMN decided_by      bigint REFERENCES users(id);

-- The Turma Recursal's result of an appeal (Lei 9.099/1995, art. 82).
CREATE TABLE appeal_results (
    id           bigserial PRIMARY KEY,
    case_id      bigint NOT NULL REFERENCES cases(id),
    defendant_id bigint REFERENCES defendants(id),
    result       text NOT NULL CHECK (result IN ('confirmed', 'reformed', 'annulled')),
    decided_on   date NOT NULL,
    text         text NOT NULL DEFAULT '',
    created_at   timestamptz NOT NULL,
    created_by   bigint REFERENCES users(id)
);
SELECT audit_attach('appeal_results');

-- +goose Down
DROP TABLE appeal_results;
ALTER TABLE breaches DROP COLUMN decided_by, DROP COLUMN decided_at, DROP COLUMN decision_reason, DROP COLUMN decided_balance_days, DROP COLUMN decision;
UPDATE plea_agreements SET status = 'homologated' WHERE status = 'undone';
ALTER TABLE plea_agreements DROP CONSTRAINT plea_agreements_status_check,
    ADD CONSTRAINT plea_agreements_status_check CHECK (status IN ('offered', 'accepted', 'refused', 'homologated'));
DROP INDEX notifications_once;
DELETE FROM notifications WHERE superseded;
ALTER TABLE notifications DROP COLUMN superseded;
DELETE FROM notifications WHERE party <> 'defendant';
ALTER TABLE notifications DROP CONSTRAINT notifications_party_defendant, DROP COLUMN waived_appeal, DROP COLUMN party,
    ADD CONSTRAINT notifications_defendant_id_kind_key UNIQUE (defendant_id, kind);
ALTER TABLE notifications ALTER COLUMN defendant_id SET NOT NULL;
DROP TABLE ban_renewals;
DROP INDEX bans_awaiting_final;
DROP INDEX bans_one_per_defendant;
CREATE UNIQUE INDEX bans_one_per_defendant ON bans (defendant_id) WHERE status = 'active' AND NOT precautionary AND group_ban_id IS NULL;
ALTER TABLE bans DROP COLUMN cumulative, DROP COLUMN credit_reason, DROP COLUMN credit_days,
    DROP COLUMN review_on, DROP COLUMN start_not_before;
ALTER TABLE bans DROP CONSTRAINT bans_lifted, ADD CONSTRAINT bans_lifted CHECK (lifted_on IS NULL OR status = 'lifted');
ALTER TABLE bans DROP CONSTRAINT bans_last_day, DROP CONSTRAINT bans_days, DROP CONSTRAINT bans_term,
    ADD CONSTRAINT bans_check1 CHECK (precautionary OR (months IS NOT NULL AND last_day IS NOT NULL));
ALTER TABLE bans DROP CONSTRAINT bans_status_check, ADD CONSTRAINT bans_status_check CHECK (status IN ('active', 'lifted'));
ALTER TABLE bans ALTER COLUMN first_day SET NOT NULL;
DROP TABLE sentences;
