#!/usr/bin/env bash
# bench/statistics.sh: GET /api/v1/statistics (issue 30 item 6) at the scale
# seed (juizado seed --scale, COPY; default 1,000,000 cases), on loopback
# with the bounded load client bench/load on one connection: the first
# answer after the server starts (cold: every query runs), then N answers
# (warm: app.App.Statistics serves a court's figures for StatisticsTTL,
# 5 minutes), p50/p99; then EXPLAIN (ANALYZE, BUFFERS) of each query the
# statistics run (the SQL of cases/statistics.go and
# cases/decisions/statistics.go, with the court, the days and the zone as
# constants) and the time of a whole cold computation measured in the
# server (the same request after the cache is emptied by a restart).
# Usage: bench/statistics.sh                 SCALES=1000000 N=2000 (default)
#        SCALES=100000 bench/statistics.sh
# With DATABASE_URL set it uses that (empty) database instead of a private
# cluster; give one scale then.
source "$(dirname "$0")/lib.sh"
bench_cluster "$@"
SCALES=${SCALES:-1000000}; N=${N:-2000}; DUR=${DUR:-60s}; COLD=${COLD:-5}
COURT=${JUIZADO_COURT:-26.0100}
# Another benchmark may be serving on the default address: ours must be the
# one that answers (a port taken makes our serve exit after /healthz answered).
serve_ours() {
	bench_serve
	sleep 1
	kill -0 "${pids[-1]}" 2>/dev/null || { echo "juizado serve exited (is $APP taken? set APP=127.0.0.1:PORT):"; tail -5 "$T/serve.log"; exit 1; }
}
for n in $SCALES; do
	echo; echo "######## $n cases"
	bench_setup "$n"
	psql "$DATABASE_URL" -Atc "SELECT 'cases: ' || count(*) FROM cases" -c "SELECT 'bans: ' || count(*) FROM bans" \
		-c "SELECT 'sentences: ' || count(*) FROM sentences" -c "SELECT 'defendants with final_on: ' || count(*) FROM defendants WHERE final_on IS NOT NULL"
	URL="http://$APP/api/v1/statistics?court=$COURT"
	echo "-- cold: the first answer after each start of the server ($COLD starts)"
	for i in $(seq "$COLD"); do
		serve_ours
		curl -s -o "$T/stats.json" -w "cold answer $i: %{http_code} in %{time_total} s, %{size_download} bytes\n" "$URL"
		bench_stop_serve
	done
	head -c 600 "$T/stats.json"; echo " ..."
	serve_ours
	printf 'GET\t%s\n' "$URL" >"$T/stats.req"
	echo; echo "load average before the run: $(cut -d' ' -f1-3 /proc/loadavg)"
	bench_load "statistics $n, c=1" "$T/stats.req" -c 1 -n "$N" -d "$DUR" -warm 20
	bench_stop_serve
	# The plans, with the figures' constants: today and the 12 month ends.
	read -r TODAY <<<"$(psql "$DATABASE_URL" -Atc "SELECT (now() AT TIME ZONE 'America/Sao_Paulo')::date")"
	DAYS=$(psql "$DATABASE_URL" -Atc "SELECT string_agg(CASE WHEN i = 0 THEN '$TODAY'::date ELSE (date_trunc('month', '$TODAY'::date) - (i - 1) * interval '1 month' - interval '1 day')::date END::text, ',' ORDER BY i DESC) FROM generate_series(0, 11) i")
	FROM=$(psql "$DATABASE_URL" -Atc "SELECT (date_trunc('month', '$TODAY'::date) - interval '11 months')::date")
	explain() { echo; echo "---- $1"; psql "$DATABASE_URL" -Atc "EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) $2"; }
	explain "bans in force at 12 days (decisions.BansInForceOn: each ban's span in force, sanctions.InForceThenSpanSQL, bucketed among the days)" "SELECT width_bucket(x.first - 1, string_to_array('$DAYS', ',')::date[]), coalesce(width_bucket(x.last, string_to_array('$DAYS', ',')::date[]), 12), count(*)
		FROM (SELECT (CASE WHEN b.status = 'active' OR (b.status IN ('lifted', 'replaced', 'converted') AND b.lifted_on IS NOT NULL) THEN b.first_day END) AS first,
		             (CASE WHEN b.status = 'active' THEN b.last_day ELSE least(b.last_day, b.lifted_on - 1) END) AS last
		        FROM bans b WHERE b.court_code = '$COURT' AND b.group_ban_id IS NULL) x
		WHERE x.first <= '$TODAY' GROUP BY 1, 2"
	explain "new bans by month, law and source (decisions.NewBansSince)" "SELECT to_char(b.created_at AT TIME ZONE 'America/Sao_Paulo', 'YYYY-MM'), b.law, b.source, count(*) FROM bans b
		WHERE b.court_code = '$COURT' AND b.group_ban_id IS NULL AND b.created_at >= ('$FROM'::date)::timestamp AT TIME ZONE 'America/Sao_Paulo' GROUP BY 1, 2, 3 ORDER BY 1, 2, 3"
	explain "bans in force by home club (decisions.BansInForceByClub)" "SELECT c.home_team, count(*) FROM bans b JOIN cases c ON c.id = b.case_id
		WHERE b.court_code = '$COURT' AND b.group_ban_id IS NULL AND (b.status = 'active' AND b.first_day <= '$TODAY' AND (b.last_day IS NULL OR b.last_day >= '$TODAY')) GROUP BY 1 ORDER BY 2 DESC, 1"
	explain "cases by stage (cases.CasesByStatus)" "SELECT status, count(*) FROM cases WHERE court_code = '$COURT' GROUP BY status ORDER BY 2 DESC, 1"
	explain "cases by home club (cases.CasesByHomeClub)" "SELECT home_team, count(*) FROM cases WHERE court_code = '$COURT' GROUP BY home_team ORDER BY 2 DESC, 1"
	explain "median days to sentence (decisions.MedianDaysToSentence)" "SELECT count(*), percentile_cont(0.5) WITHIN GROUP (ORDER BY x.days) FROM (SELECT DISTINCT ON (s.defendant_id)
		(s.signed_at AT TIME ZONE 'America/Sao_Paulo')::date - (c.filed_at AT TIME ZONE 'America/Sao_Paulo')::date AS days FROM sentences s JOIN cases c ON c.id = s.case_id
		WHERE c.court_code = '$COURT' AND s.signed_at IS NOT NULL AND s.outcome <> 'precautionary' ORDER BY s.defendant_id, s.signed_at) x"
	explain "median days to final judgment (cases.MedianDaysToFinal)" "SELECT count(*), percentile_cont(0.5) WITHIN GROUP (ORDER BY d.final_on - (c.filed_at AT TIME ZONE 'America/Sao_Paulo')::date)
		FROM defendants d JOIN cases c ON c.id = d.case_id WHERE c.court_code = '$COURT' AND d.final_on IS NOT NULL"
	bench_drop "$n"
done
