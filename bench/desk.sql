-- bench/desk.sql: the court's desk's work on top of `juizado seed --scale N`
-- (whose cases are either distributed, awaiting everything, or final with
-- their bans): run by bench/desk.sh as the cluster's superuser, written
-- directly (no audit, no foreign-key triggers), deterministic by case id.
--   * 1 in 10 open cases sentenced (a signed sentence per defendant, signed
--     0 to 149 days ago), with the defendant's notice for 2 in 3 of them,
--     the defence's for 1 in 2 and the prosecution's for 1 in 3 (notified
--     0 to 4 days after the sentence, never after today): appeal windows
--     running, sentences to notify, judgments ready to certify;
--   * 1 in 100 open cases concluded to the judge (TPU 51 the last movement);
--   * hearings of the next 14 days: 8 a day for each judge, one room each.
SET session_replication_role = replica;
CREATE TEMP TABLE desk_sentenced AS
	SELECT k.id AS case_id, d.id AS defendant_id, k.judge_id, current_date - (k.id / 10 % 150)::int AS signed_on
	FROM cases k JOIN defendants d ON d.case_id = k.id
	WHERE k.status = 'distributed' AND k.id % 10 = 1;
INSERT INTO sentences (case_id, defendant_id, status, outcome, input, created_at, created_by, signed_at)
	SELECT case_id, defendant_id, 'signed', 'ban', '{}', signed_on + time '15:00', judge_id, signed_on + time '15:00' FROM desk_sentenced;
UPDATE cases SET status = 'sentenced' WHERE id IN (SELECT case_id FROM desk_sentenced);
INSERT INTO notifications (case_id, defendant_id, party, kind, notified_on, created_at)
	SELECT case_id, defendant_id, 'defendant', 'appeal', least(current_date, signed_on + (case_id % 5)::int), least(now(), signed_on + (case_id % 5)::int + time '16:00')
	FROM desk_sentenced WHERE case_id % 3 <> 0;
INSERT INTO notifications (case_id, defendant_id, party, kind, notified_on, created_at)
	SELECT case_id, defendant_id, 'defence', 'appeal', least(current_date, signed_on + (case_id % 4)::int), least(now(), signed_on + (case_id % 4)::int + time '16:00')
	FROM desk_sentenced WHERE case_id % 2 = 1 AND case_id % 3 <> 0;
INSERT INTO notifications (case_id, defendant_id, party, kind, notified_on, created_at)
	SELECT DISTINCT case_id, NULL::bigint, 'prosecution', 'appeal', least(current_date, signed_on + 1), least(now(), signed_on + 1 + time '16:00')
	FROM desk_sentenced WHERE case_id % 3 = 1;
INSERT INTO movements (case_id, at, kind, tpu_code, description, author_role)
	SELECT id, now() - (id % 20) * interval '1 day', 'manual', 51, 'Conclusos ao(à) juiz(a).', 'clerk'
	FROM cases WHERE status = 'distributed' AND id % 97 = 0;
INSERT INTO hearings (case_id, court_code, judge_id, kind, room, starts_at, ends_at, status, created_at)
	SELECT id, court_code, judge_id, 'preliminary', 'Sala ' || judge_id,
		current_date + ((rn - 1) / 8)::int + time '09:00' + ((rn - 1) % 8) * interval '1 hour',
		current_date + ((rn - 1) / 8)::int + time '10:00' + ((rn - 1) % 8) * interval '1 hour', 'scheduled', now()
	FROM (SELECT id, court_code, judge_id, row_number() OVER (PARTITION BY judge_id ORDER BY id) AS rn
	      FROM cases WHERE status = 'distributed' AND id % 89 = 7 AND judge_id IS NOT NULL) AS c
	WHERE rn <= 8 * 14;
RESET session_replication_role;
ANALYZE sentences; ANALYZE notifications; ANALYZE movements; ANALYZE hearings; ANALYZE cases;
SELECT 'desk workload: ' || (SELECT count(*) FROM sentences) || ' signed sentences, ' || (SELECT count(*) FROM notifications) || ' notices, '
	|| (SELECT count(*) FROM movements WHERE tpu_code = 51) || ' conclusions, ' || (SELECT count(*) FROM hearings) || ' hearings';
