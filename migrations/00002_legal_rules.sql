-- +goose Up
-- The legal rules engine, storage part (issue 3): the 5,000 m rule on cases
-- (LGE art. 201 § 1º I), venue time zones and the match schedule the court
-- imports for reporting duties (§ 4º), breaches (§ 3º), extensions of a ban
-- counted from its first day, and the lifting of precautionary bans (CPP
-- art. 319 II; art. 282 § 5º).

-- Where the facts happened relative to the venue: great-circle distance in
-- whole metres and the relation recorded at filing (sanctions.PlaceOf).
-- NULL when the facts have no coordinates or no venue.
ALTER TABLE cases
    ADD COLUMN distance_to_venue_m integer CHECK (distance_to_venue_m >= 0),
    ADD COLUMN place_relation text CHECK (place_relation IN ('at_venue','within_5000m','on_route','beyond_5000m')),
    ADD COLUMN on_route boolean NOT NULL DEFAULT false;

-- Cases filed before this migration: the same haversine (R = 6,371,008.8 m).
UPDATE cases c SET distance_to_venue_m = round(2 * 6371008.8 * asin(least(1, sqrt(
        power(sin(radians(v.latitude - c.latitude) / 2), 2) +
        cos(radians(c.latitude)) * cos(radians(v.latitude)) * power(sin(radians(v.longitude - c.longitude) / 2), 2)))))
FROM venues v
WHERE v.id = c.venue_id AND c.latitude IS NOT NULL AND c.longitude IS NOT NULL;
UPDATE cases SET place_relation = CASE
        WHEN distance_to_venue_m <= 500 THEN 'at_venue'
        WHEN distance_to_venue_m <= 5000 THEN 'within_5000m'
        ELSE 'beyond_5000m' END
WHERE distance_to_venue_m IS NOT NULL;

-- A venue's kick-off times are local times of its IANA zone. Brazil has
-- used one offset for the São Paulo zone since 2019; the zones below differ
-- in offset (west) or in past daylight-saving rules (north-east).
ALTER TABLE venues ADD COLUMN time_zone text NOT NULL DEFAULT 'America/Sao_Paulo' CHECK (time_zone ~ '^[A-Za-z_]+(/[A-Za-z_+-]+)+$');
UPDATE venues SET time_zone = CASE uf
    WHEN 'AM' THEN 'America/Manaus'     WHEN 'RR' THEN 'America/Boa_Vista'
    WHEN 'RO' THEN 'America/Porto_Velho' WHEN 'AC' THEN 'America/Rio_Branco'
    WHEN 'MT' THEN 'America/Cuiaba'     WHEN 'MS' THEN 'America/Campo_Grande'
    WHEN 'BA' THEN 'America/Bahia'      WHEN 'CE' THEN 'America/Fortaleza'
    WHEN 'PE' THEN 'America/Recife'     WHEN 'PA' THEN 'America/Belem'
    WHEN 'AP' THEN 'America/Belem'      WHEN 'MA' THEN 'America/Fortaleza'
    WHEN 'PI' THEN 'America/Fortaleza'  WHEN 'RN' THEN 'America/Fortaleza'
    WHEN 'PB' THEN 'America/Fortaleza'  WHEN 'AL' THEN 'America/Maceio'
    WHEN 'SE' THEN 'America/Maceio'     WHEN 'TO' THEN 'America/Araguaina'
    ELSE 'America/Sao_Paulo' END;

-- Match duration per competition (minutes); without a row, 120 (kick-off
-- plus 2 hours).
CREATE TABLE competitions (
    id            bigserial PRIMARY KEY,
    name          text NOT NULL,
    match_minutes integer NOT NULL DEFAULT 120 CHECK (match_minutes BETWEEN 30 AND 600)
);
CREATE UNIQUE INDEX competitions_name_key ON competitions (f_unaccent(name));

-- The match schedule each court imports (matches-2025.csv format). A match
-- is identified by competition, round, home and away (accents and case
-- ignored): a new import of a rescheduled match updates it.
CREATE TABLE matches (
    id             bigserial PRIMARY KEY,
    court_code     text NOT NULL REFERENCES courts(code),
    competition    text NOT NULL CHECK (competition <> ''),
    round          text NOT NULL DEFAULT '',
    home           text NOT NULL CHECK (home <> ''),
    away           text NOT NULL CHECK (away <> ''),
    venue_id       bigint NOT NULL REFERENCES venues(id),
    match_date     date NOT NULL,            -- the local date of the schedule
    kickoff_local  text NOT NULL CHECK (kickoff_local ~ '^[0-2][0-9]:[0-5][0-9]$'),
    kickoff        timestamptz NOT NULL,     -- kickoff_local read in the venue's zone
    match_minutes  integer NOT NULL DEFAULT 120 CHECK (match_minutes BETWEEN 30 AND 600),
    imported_at    timestamptz NOT NULL,
    imported_by    bigint REFERENCES users(id)
);
CREATE UNIQUE INDEX matches_key ON matches (court_code, f_unaccent(competition), f_unaccent(round), f_unaccent(home), f_unaccent(away));
CREATE INDEX matches_kickoff ON matches (court_code, kickoff);

-- Unjustified breaches of a ban (LGE art. 201 § 3º) and the conversion step
-- they open: days served and the custodial balance (at least 30 days).
CREATE TABLE breaches (
    id            bigserial PRIMARY KEY,
    ban_id        bigint NOT NULL REFERENCES bans(id),
    case_id       bigint NOT NULL REFERENCES cases(id),
    occurred_on   date NOT NULL,
    source        text NOT NULL CHECK (source IN ('police_report','gate_hit')),
    reference     text NOT NULL CHECK (reference <> ''),
    description   text NOT NULL DEFAULT '',
    days_served   integer NOT NULL CHECK (days_served >= 0),
    prison_months integer,
    quantum_days  integer,
    balance_days  integer CHECK (balance_days >= 30),
    recorded_at   timestamptz NOT NULL,
    recorded_by   bigint REFERENCES users(id),
    recorder_role text NOT NULL DEFAULT ''
);
CREATE UNIQUE INDEX breaches_once ON breaches (ban_id, occurred_on, source, reference);
CREATE INDEX breaches_ban ON breaches (ban_id, occurred_on);

-- Extensions of a ban: the term always counts from the original first day.
CREATE TABLE ban_extensions (
    id                bigserial PRIMARY KEY,
    ban_id            bigint NOT NULL REFERENCES bans(id),
    previous_months   integer NOT NULL CHECK (previous_months > 0),
    added_months      integer NOT NULL CHECK (added_months > 0),
    total_months      integer NOT NULL CHECK (total_months = previous_months + added_months),
    previous_last_day date NOT NULL,
    new_last_day      date NOT NULL CHECK (new_last_day > previous_last_day),
    reason            text NOT NULL CHECK (reason <> ''),
    decided_at        timestamptz NOT NULL,
    decided_by        bigint REFERENCES users(id)
);
CREATE INDEX ban_extensions_ban ON ban_extensions (ban_id, id);

-- Lifting a precautionary ban: the date of the decision and its reason.
ALTER TABLE bans
    ADD COLUMN lifted_on date,
    ADD COLUMN lift_reason text NOT NULL DEFAULT '',
    ADD CONSTRAINT bans_lifted CHECK (lifted_on IS NULL OR status = 'lifted');

-- +goose Down
ALTER TABLE bans DROP CONSTRAINT bans_lifted, DROP COLUMN lift_reason, DROP COLUMN lifted_on;
DROP TABLE ban_extensions, breaches, matches, competitions;
ALTER TABLE venues DROP COLUMN time_zone;
ALTER TABLE cases DROP COLUMN on_route, DROP COLUMN place_relation, DROP COLUMN distance_to_venue_m;
