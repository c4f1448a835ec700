-- bench/seed.sql: :bans bans in force (psql -v bans=N; blocklist.sh passes BANS,
-- 100,000 by default), one of them of the valid CPF 468.819.736-59, each of its own defendant, in one
-- case; CPFs are 11 digits (not check-digit valid: the database does not
-- check them; the bench queries one valid CPF added by blocklist.sh).
INSERT INTO cases (number, court_code, year, sequence, status, filer_user_id, filer_role, filed_by_kind, filed_by_name,
                   home_team, occurred_at, facts_date, filed_at)
SELECT '00099999920258260100', '26.0100', 2025, 999999, 'final', id, 'prosecutor', 'mp', 'Bench', 'Corinthians',
       '2025-05-01 16:00-03', '2025-05-01', now()
FROM users WHERE name = 'bench-prosecutor';
INSERT INTO defendants (case_id, position, kind, full_name, cpf, birth_date)
SELECT c.id, g, 'person', 'Torcedor ' || g, lpad((10000000000 + g::bigint * 7919)::text, 11, '0'), date '1990-01-01' + (g % 5000)
FROM cases c, generate_series(1, :bans - 1) g WHERE c.number = '00099999920258260100';
INSERT INTO defendants (case_id, position, kind, full_name, cpf, birth_date)
SELECT id, 0, 'person', 'Torcedor Verificado', '46881973659', '1991-07-22' FROM cases WHERE number = '00099999920258260100';
INSERT INTO bans (case_id, defendant_id, subject, source, court_code, case_number, cpf, name, birth_date, facts_date,
                  law, article, range_min_months, range_max_months, first_day, months, computed_last_day, last_day,
                  publish, created_at)
SELECT d.case_id, d.id, 'person', 'sentence', '26.0100', '00099999920258260100', d.cpf, d.full_name, d.birth_date, '2025-05-01',
       'Lei 14.597/2023', 'art. 201, § 2º', 6, 36, current_date - 10, 24, current_date + 700, current_date + 700, true, now()
FROM defendants d JOIN cases c ON c.id = d.case_id WHERE c.number = '00099999920258260100';
