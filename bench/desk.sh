#!/usr/bin/env bash
# bench/desk.sh: GET /api/v1/desk (issue 30) at 1,000,000 cases (juizado
# seed --scale, COPY) with the desk's work added by bench/desk.sql, on
# loopback with the bounded load client bench/load on ONE connection (a
# clerk, a judge and a prosecutor opening their desk, one request at a
# time: the latency the goal, p99 < 50 ms, is about), then EXPLAIN ANALYZE
# of the desk's queries for the clerk.
# Usage: bench/desk.sh              SCALES=1000000 (default) N=300
#        SCALES=100000 N=200 bench/desk.sh
# With DATABASE_URL set it uses that (empty) database instead of a private
# cluster; give one scale then.
source "$(dirname "$0")/lib.sh"
bench_cluster "$@"
SCALES=${SCALES:-1000000}; N=${N:-300}; DUR=${DUR:-120s}
for n in $SCALES; do
	echo; echo "######## $n cases"
	bench_setup "$n"
	psql "$DATABASE_URL" -v ON_ERROR_STOP=1 -Atq -f bench/desk.sql
	bench_serve
	JUDGE=$(psql "$DATABASE_URL" -Atc "SELECT u.name FROM users u JOIN hearings h ON h.judge_id = u.id GROUP BY u.name ORDER BY u.name LIMIT 1")
	for who in "clerk bench-cartorio" "judge $JUDGE" "prosecutor bench-promotoria"; do
		set -- $who
		tok=$(bench_token "$1" "$2")
		printf 'GET\thttp://%s/api/v1/desk\t%s\n' "$APP" "$tok" >"$T/$1.req"
		echo "-- $1 ($2): queues (kind count items)"
		curl -s -H "Authorization: Bearer $tok" "http://$APP/api/v1/desk" |
			python3 -c 'import json,sys; [print("  ", q["kind"], q["count"], len(q["items"])) for q in json.load(sys.stdin)["queues"]]'
	done
	echo; echo "load average before the runs: $(cut -d' ' -f1-3 /proc/loadavg)"
	for role in clerk judge prosecutor; do
		bench_load "desk $n $role, c=1" "$T/$role.req" -c 1 -n "$N" -d "$DUR" -warm 10
	done
	# The plans of the set-based queues (cases/desk/queries.go,
	# cases/calendar/due.go), with the clerk's constants.
	C=26.0100
	explain() {
		echo "-- EXPLAIN ANALYZE, $1"
		psql "$DATABASE_URL" -Atc "EXPLAIN (ANALYZE, COSTS OFF) $2" | grep -E 'Index|Scan|Loop|Join|Sort Method|Rows Removed|Heap Fetches|Planning Time|Execution|Heap Blocks' | sed 's/^/   /'
	}
	explain "windows: the recent notices" "SELECT n.* FROM notifications n
		CROSS JOIN LATERAL (SELECT flow, number, status FROM cases WHERE id = n.case_id AND court_code = '$C' OFFSET 0) k
		LEFT JOIN LATERAL (SELECT id, full_name, group_name, status, final_on FROM defendants WHERE id = n.defendant_id OFFSET 0) d ON true
		WHERE n.notified_on BETWEEN current_date - 120 AND current_date + 7 AND NOT n.superseded AND NOT n.waived_appeal
		AND k.status NOT IN ('final', 'executing', 'archived') AND (d.id IS NULL OR (d.final_on IS NULL AND coalesce(d.status, k.status) NOT IN ('final', 'executing', 'archived', 'rejected', 'extinct')))
		AND NOT EXISTS (SELECT 1 FROM embargos e WHERE e.case_id = n.case_id AND e.status = 'pending' AND NOT e.late AND (n.defendant_id IS NULL OR e.defendant_id = n.defendant_id))"
	explain "hearings of the week" "SELECT h.id, count(*) OVER () FROM hearings h JOIN cases k ON k.id = h.case_id WHERE h.court_code = '$C' AND h.status = 'scheduled'
		AND h.starts_at >= current_date + 1 AND h.starts_at < current_date + 7 ORDER BY h.starts_at, h.id LIMIT 50"
	explain "concluded" "SELECT m.case_id, count(*) OVER () FROM movements m JOIN cases k ON k.id = m.case_id WHERE m.tpu_code = 51 AND k.court_code = '$C'
		AND NOT EXISTS (SELECT 1 FROM movements l WHERE l.case_id = m.case_id AND (l.at, l.id) > (m.at, m.id)) ORDER BY m.at, m.id LIMIT 50"
	explain "bans ending" "SELECT b.id, count(*) OVER () FROM bans b JOIN cases k ON k.id = b.case_id WHERE b.court_code = '$C' AND b.status = 'active'
		AND NOT b.precautionary AND b.last_day BETWEEN current_date AND current_date + 10 ORDER BY b.last_day, b.id LIMIT 50"
	explain "awaiting identification" "SELECT b.id, count(*) OVER () FROM bans b JOIN cases k ON k.id = b.case_id WHERE b.court_code = '$C' AND b.status = 'active'
		AND b.cpf IS NULL AND b.subject = 'person' ORDER BY b.id LIMIT 50"
	explain "sentences to notify" "SELECT s.id, count(*) OVER () FROM sentences s
		CROSS JOIN LATERAL (SELECT id, number, flow, status, judge_id FROM cases WHERE id = s.case_id AND court_code = '$C' OFFSET 0) k
		CROSS JOIN LATERAL (SELECT kind, full_name, group_name, status, final_on FROM defendants WHERE id = s.defendant_id OFFSET 0) d
		WHERE s.status = 'signed' AND s.outcome <> 'precautionary' AND d.final_on IS NULL AND coalesce(d.status, k.status) IN ('sentenced', 'judgment')
		AND (NOT EXISTS (SELECT 1 FROM notifications n WHERE n.case_id = s.case_id AND n.defendant_id = s.defendant_id AND n.party = 'defendant' AND NOT n.superseded)
		  OR NOT EXISTS (SELECT 1 FROM notifications n WHERE n.case_id = s.case_id AND n.party = 'prosecution' AND NOT n.superseded))
		ORDER BY s.signed_at, s.id LIMIT 50"
	bench_stop_serve
	bench_drop "$n"
done
