-- +goose Up
-- A sentence asks whether the defendant already has a ban (any status) and
-- which defendants of the case are still without one; the case page lists
-- the bans of a case. The only index on bans.defendant_id was partial
-- (active, not precautionary, not a member's), so both questions scanned
-- every ban: 25-55 ms each at 100,000 cases, ten times that at 1,000,000
-- (bench/sentence.sh: 16.6 sentences/s at 100k, 2.0/s at 1M). With these
-- the cost no longer grows with the number of bans.
CREATE INDEX bans_defendant ON bans (defendant_id);
CREATE INDEX bans_case ON bans (case_id);

-- +goose Down
DROP INDEX bans_case;
DROP INDEX bans_defendant;
