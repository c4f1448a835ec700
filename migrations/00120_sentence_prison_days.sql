-- +goose Up
-- The dosimetry's third phase (issue 28, item 4; CP art. 68): causes of
-- decrease and increase, applied by fractions to the intermediate penalty,
-- leave a term in months and days (months of 30 days; fractions of a day
-- discarded, CP art. 11), which may fall below the offence's minimum or
-- above its maximum (Súmula 231 STJ binds the second phase only).
-- sentences.prison_days is the days beyond prison_months (1 to 29; NULL
-- for none); the causes themselves, each with its article and fraction,
-- are kept in sentences.dosimetry (jsonb).
ALTER TABLE sentences ADD COLUMN prison_days integer CHECK (prison_days BETWEEN 1 AND 29);

-- +goose Down
ALTER TABLE sentences DROP COLUMN prison_days;
