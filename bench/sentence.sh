#!/usr/bin/env bash
# bench/sentence.sh: sentences per second, POST /api/v1/cases/{id}/sentence
# (one write transaction: the ban, the docket movements, the case status,
# the blocklist refresh with its change feed, and the audit rows of each),
# on cases seeded by `juizado seed --scale` (SCALES, default 100000) and
# still awaiting sentence, each sent once by the judge of the case; first
# one connection, then CONNS. Loopback only; bounded by count and time.
# Usage: bench/sentence.sh        SCALES="100000 1000000" CONNS=4 N=400 DUR=40s
source "$(dirname "$0")/lib.sh"
bench_cluster "$@"
SCALES=${SCALES:-100000}; CONNS=${CONNS:-4}; N=${N:-400}; DUR=${DUR:-40s}
TODAY=$(TZ=America/Sao_Paulo date +%F)
for n in $SCALES; do
	echo; echo "######## $n cases"
	bench_setup "$n"
	bench_serve
	: >"$T/tokens"
	for j in $(psql "$DATABASE_URL" -Atc "SELECT name FROM users WHERE name LIKE 'scale-juiz-%' ORDER BY id"); do
		printf '%s\t%s\n' "$j" "$(bench_token judge "$j")" >>"$T/tokens"
	done
	psql "$DATABASE_URL" -AtF $'\t' -c "SELECT u.name, c.id, d.id, c.home_team FROM cases c JOIN defendants d ON d.case_id = c.id
		JOIN users u ON u.id = c.judge_id WHERE c.status = 'distributed' ORDER BY md5(d.id::text) LIMIT $((N * 2))" >"$T/pending"
	awk -F'\t' -v a="$APP" -v day="$TODAY" 'NR == FNR { tok[$1] = $2; next }
		{ printf "POST\thttp://%s/api/v1/cases/%s/sentence\t%s\t{\"defendant_id\":%s,\"ban\":{\"first_day\":\"%s\",\"months\":12},\"reporting_duty\":{\"place\":\"1º Distrito Policial\",\"club\":\"%s\"}}\n", a, $2, tok[$1], $3, day, $4 }' \
		"$T/tokens" "$T/pending" >"$T/all.req"
	head -n 100 "$T/all.req" >"$T/one.req"
	tail -n +101 "$T/all.req" >"$T/many.req"
	before=$(psql "$DATABASE_URL" -Atc "SELECT entries FROM blocklist_versions ORDER BY version DESC LIMIT 1")
	echo "blocklist entries before: $before"
	bench_load "sentence $n, 1 connection" "$T/one.req" -once -c 1 -n 100 -d "$DUR"
	bench_load "sentence $n, $CONNS connections" "$T/many.req" -once -c "$CONNS" -n "$N" -d "$DUR"
	psql "$DATABASE_URL" -Atc "SELECT 'blocklist: version ' || max(version) || ', entries ' || (SELECT entries FROM blocklist_versions ORDER BY version DESC LIMIT 1) FROM blocklist_versions"
	psql "$DATABASE_URL" -Atc "SELECT 'audit rows written: ' || count(*) FROM audit_log"
	# The part of each sentence that grows with the list: the refresh's diff
	# of the bans in force against the stored entries (registry/blocklist/feed.go).
	psql "$DATABASE_URL" -Atc "EXPLAIN (ANALYZE, COSTS OFF) WITH cur AS (SELECT b.id AS ban_id, b.cpf, b.name, b.birth_date, b.first_day, b.last_day,
		b.group_ban_id, b.case_number, b.court_code AS court FROM bans b WHERE b.status = 'active' AND b.first_day <= current_date
		AND (b.last_day IS NULL OR b.last_day >= current_date) AND b.cpf IS NOT NULL)
		SELECT c.ban_id FROM cur c FULL JOIN blocklist_entries e ON e.ban_id = c.ban_id LEFT JOIN bans b ON b.id = COALESCE(c.ban_id, e.ban_id)
		WHERE c.ban_id IS NULL OR e.ban_id IS NULL OR (c.cpf, c.name, c.birth_date, c.first_day, c.last_day, c.group_ban_id, c.case_number, c.court)
		IS DISTINCT FROM (e.cpf, e.name, e.birth_date, e.first_day, e.last_day, e.group_ban_id, e.case_number, e.court)" | grep -E 'Execution' | sed 's/^/refresh diff (no change): /'
	bench_stop_serve
	bench_drop "$n"
done
