-- bench/feed.sql: grows the change feed to about 1,000,000 entries: 450
-- versions of 1,000 additions each followed by their 1,000 removals, of
-- ban ids that are not in the blocklist (the entries in force are unchanged).
DO $$
DECLARE v bigint; base bigint;
BEGIN
  FOR i IN 1..450 LOOP
    base := 50000000 + i * 1000;
    INSERT INTO blocklist_versions (generated_at, digest, entries) SELECT now(), '\x00', entries FROM blocklist_versions ORDER BY version DESC LIMIT 1 RETURNING version INTO v;
    INSERT INTO blocklist_changes (version, op, reason, ban_id, cpf, name, first_day, case_number, court)
    SELECT v, 'add', 'new_ban', base + g, lpad((20000000000 + base + g)::text, 11, '0'), 'Sintético ' || g, current_date, '00099999920258260100', '26.0100'
    FROM generate_series(1, 1000) g;
    INSERT INTO blocklist_versions (generated_at, digest, entries) SELECT now(), '\x00', entries FROM blocklist_versions ORDER BY version DESC LIMIT 1 RETURNING version INTO v;
    INSERT INTO blocklist_changes (version, op, reason, ban_id, cpf, name, first_day, case_number, court)
    SELECT v, 'remove', 'lifted', base + g, lpad((20000000000 + base + g)::text, 11, '0'), 'Sintético ' || g, current_date, '00099999920258260100', '26.0100'
    FROM generate_series(1, 1000) g;
  END LOOP;
END $$;
ANALYZE blocklist_changes;
