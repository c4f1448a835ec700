-- +goose Up
-- The court's statistics (issue 30 item 6, GET /api/v1/statistics): the
-- cases of a court by stage and by home club read from this index alone
-- (index-only scans), and the bans a court decided in the last 12 months
-- by month from the second.
CREATE INDEX cases_court_stage_club ON cases (court_code, status, home_team);
CREATE INDEX bans_court_created ON bans (court_code, created_at) WHERE group_ban_id IS NULL;

-- +goose Down
DROP INDEX bans_court_created;
DROP INDEX cases_court_stage_club;
