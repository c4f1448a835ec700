-- +goose Up
-- Case search at scale (issue 10, bench/search.sh). GET /api/v1/cases?q=
-- matches a defendant's person name OR group name (cases.Service.List):
-- with a trigram index on full_name only, the OR made PostgreSQL scan the
-- whole defendants table (about 1 s at 100,000 cases, linear in the
-- cases). With the group name indexed too, both sides are bitmap index
-- scans (BitmapOr) and the cost follows the number of matches instead.
-- Group names are '' for persons: the index stays small.
CREATE INDEX defendants_group_name_trgm ON defendants USING gin (f_unaccent(group_name) gin_trgm_ops);

-- The page of a search (newest first) and the court's list without a
-- filter: ORDER BY filed_at DESC, id DESC within the court.
CREATE INDEX cases_court_filed ON cases (court_code, filed_at DESC, id DESC);

-- +goose Down
DROP INDEX cases_court_filed;
DROP INDEX defendants_group_name_trgm;
