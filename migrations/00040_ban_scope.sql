-- +goose Up
-- Bans as courts write them (issue 19): where a ban applies and terms
-- counted in matches.
--
-- scope: NULL is anywhere (every statutory ban: LGE art. 201 § 2º, Lei
-- 10.671/2003 arts. 39 and 41-B, Lei 7.716/1989 art. 20 § 2º-A); a
-- precautionary measure (CPP art. 319, II), a suspension condition (Lei
-- 9.099/1995, art. 89, § 1º, II) or a TAC may name places:
-- {"venues": [NAME...], "venue_ids": [ID...], "clubs": [NAME...]}.
-- match_term: {"matches": N, "club": NAME, "home_only": bool}, resolved
-- against the court's imported schedule into match_days (a jsonb array of
-- dates; the last is last_day).
ALTER TABLE bans
    ADD COLUMN scope      jsonb,
    ADD COLUMN match_term jsonb,
    ADD COLUMN match_days jsonb;
ALTER TABLE bans ADD CONSTRAINT bans_scope_statutory
    CHECK ((scope IS NULL AND match_term IS NULL) OR precautionary OR source IN ('precautionary_order', 'conditional_suspension', 'settlement'));
CREATE INDEX bans_match_term ON bans (court_code) WHERE match_term IS NOT NULL;

-- The blocklist carries the scope and the match days (a change of either is
-- a removal and an addition in the feed).
ALTER TABLE blocklist_entries ADD COLUMN scope jsonb, ADD COLUMN match_days jsonb;
ALTER TABLE blocklist_changes ADD COLUMN scope jsonb, ADD COLUMN match_days jsonb;

-- A match the schedule marks as cancelled no longer counts for a match
-- term (nor for the reporting duty).
ALTER TABLE matches ADD COLUMN cancelled boolean NOT NULL DEFAULT false;

-- +goose Down
ALTER TABLE matches DROP COLUMN cancelled;
ALTER TABLE blocklist_changes DROP COLUMN scope, DROP COLUMN match_days;
ALTER TABLE blocklist_entries DROP COLUMN scope, DROP COLUMN match_days;
DROP INDEX bans_match_term;
ALTER TABLE bans DROP CONSTRAINT bans_scope_statutory;
ALTER TABLE bans DROP COLUMN scope, DROP COLUMN match_term, DROP COLUMN match_days;
