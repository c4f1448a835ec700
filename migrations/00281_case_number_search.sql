-- +goose Up
-- The search by a part of the case number (issue 30, item 5): "1234-56",
-- "2025.8.26" or any run of its digits finds the cases whose 20-digit
-- number contains it (cases.number::text LIKE '%digits%'), over a
-- trigram index instead of a scan of every case.
CREATE INDEX cases_number_trgm ON cases USING gin ((number::text) gin_trgm_ops);

-- +goose Down
DROP INDEX cases_number_trgm;
