-- +goose Up
-- Plea agreement bars (Lei 9.099/1995, art. 76, § 2º; issue 17) recorded
-- with the offer: bar III, the prosecutor's statement on antecedents,
-- conduct, personality, motives and circumstances (favourable or not, and
-- the text), and bar_checks, what the system checked by CPF across the
-- court's cases for bars I (a final conviction to prison for a crime), II
-- (another agreement in 5 years) and III (antecedents it knows).
ALTER TABLE plea_agreements
    ADD COLUMN circumstances_favourable boolean,
    ADD COLUMN circumstances_statement  text NOT NULL DEFAULT '',
    ADD COLUMN bar_checks               jsonb NOT NULL DEFAULT '[]';

-- +goose Down
ALTER TABLE plea_agreements DROP COLUMN circumstances_favourable, DROP COLUMN circumstances_statement, DROP COLUMN bar_checks;
