#!/usr/bin/env bash
# bench/search.sh: case search latency, GET /api/v1/cases?q=NAME and
# ?cpf=CPF, at 100,000 and 1,000,000 cases (juizado seed --scale, COPY),
# on loopback with the bounded load client bench/load. For each scale:
# seed, serve, four query sets drawn from the seeded data (full names, two
# surnames, one surname, CPFs), each run first on one connection (a
# clerk's search, one request at a time: the latency the goal is about)
# and then on CONNS connections (the machine saturated: its throughput,
# the latency then being mostly the queue), EXPLAIN ANALYZE of the SQL the
# search runs.
# Usage: bench/search.sh            SCALES="100000 1000000" (default)
#        SCALES=100000 CONNS=8 N=2000 DUR=20s bench/search.sh
# With DATABASE_URL set it uses that (empty) database instead of a private
# cluster; give one scale then.
source "$(dirname "$0")/lib.sh"
bench_cluster "$@"
SCALES=${SCALES:-100000 1000000}; CONNS=${CONNS:-8}; N=${N:-2000}; DUR=${DUR:-20s}
for n in $SCALES; do
	echo; echo "######## $n cases"
	bench_setup "$n"
	psql "$DATABASE_URL" -Atc "SELECT 'name_heads: ' || (SELECT count(*) FROM name_heads) || ' rows, ' || pg_size_pretty(pg_total_relation_size('name_heads'))
		|| ' with its indexes; defendants: ' || pg_size_pretty(pg_total_relation_size('defendants'))"
	bench_serve
	TOK=$(bench_token clerk bench-cartorio)
	# Query sets: 500 each, drawn deterministically (by md5 of the id).
	psql "$DATABASE_URL" -Atc "SELECT full_name FROM defendants ORDER BY md5(id::text) LIMIT 500" >"$T/full"
	psql "$DATABASE_URL" -Atc "SELECT regexp_replace(full_name, '^.* ([^ ]+ [^ ]+)$', '\1') FROM defendants WHERE full_name !~ ' (da|de|dos) [^ ]+$' ORDER BY md5(id::text || 'two') LIMIT 500" >"$T/two"
	psql "$DATABASE_URL" -Atc "SELECT regexp_replace(full_name, '^.* ([^ ]+)$', '\1') FROM defendants ORDER BY md5(id::text || 'one') LIMIT 500" >"$T/one"
	psql "$DATABASE_URL" -Atc "SELECT substr(cpf,1,3)||'.'||substr(cpf,4,3)||'.'||substr(cpf,7,3)||'-'||substr(cpf,10,2) FROM defendants WHERE cpf IS NOT NULL ORDER BY md5(id::text || 'cpf') LIMIT 500" >"$T/cpf"
	for set in full two one; do
		awk -v a="$APP" -v t="$TOK" '{printf "GET\thttp://%s/api/v1/cases?q=%s\t%s\n", a, $0, t}' "$T/$set" >"$T/$set.req"
	done
	awk -v a="$APP" -v t="$TOK" '{printf "GET\thttp://%s/api/v1/cases?cpf=%s\t%s\n", a, $0, t}' "$T/cpf" >"$T/cpf.req"
	echo "matches per query (total of the first page's answer), median over 20 queries of each set:"
	for set in full two one cpf; do
		key=q; [ $set = cpf ] && key=cpf
		head -20 "$T/$set" | while read -r v; do
			curl -s -G -H "Authorization: Bearer $TOK" --data-urlencode "$key=$v" "http://$APP/api/v1/cases" | grep -o '"total":[0-9]*' | cut -d: -f2
		done | sort -n | awk -v s=$set '{a[NR]=$1} END {print "  " s ": median " a[int((NR+1)/2)] ", max " a[NR]}'
	done
	echo; echo "load average before the runs: $(cut -d' ' -f1-3 /proc/loadavg)"
	for c in 1 "$CONNS"; do
		echo "-- $c connection(s)"
		bench_load "search $n full name, c=$c" "$T/full.req" -c "$c" -n "$N" -d "$DUR" -warm 50
		bench_load "search $n two surnames, c=$c" "$T/two.req" -c "$c" -n "$N" -d "$DUR" -warm 50
		bench_load "search $n one surname, c=$c" "$T/one.req" -c "$c" -n "$N" -d "$DUR" -warm 50
		bench_load "search $n CPF, c=$c" "$T/cpf.req" -c "$c" -n "$N" -d "$DUR" -warm 50
	done
	# The plans: the SQL of cases.Service.List (cases/read.go, listByName),
	# one query of each set, with the words as constants. A name with a word
	# of four letters or more walks name_heads (migration 00016) newest
	# first, index only: the rows of one key, the pair of the name's two
	# rarest heads (first four letters; rarest by pg_stats, as the service
	# chooses) or its one head, each checked against every word, until the
	# cap of the total (1,000 cases) or the end of the key's rows.
	lit() { sed -n 7p "$T/$1" | sed "s/'/''/g"; }
	walk() {
		local key likes
		key=$(psql "$DATABASE_URL" -Atc "WITH h AS (SELECT left(w, 4) AS head, max(length(w)) AS n FROM unnest(f_name_words('$1')) AS w
			WHERE length(w) >= 4 GROUP BY 1),
			f AS (SELECT h.head, h.n, coalesce((SELECT u.f FROM pg_stats s, unnest(s.most_common_vals::text::text[], s.most_common_freqs) AS u(v, f)
				WHERE s.tablename = 'name_heads' AND s.attname = 'head' AND u.v = h.head), 0) AS freq FROM h),
			two AS (SELECT head FROM f ORDER BY freq, n DESC LIMIT 2)
			SELECT string_agg(head, ' ' ORDER BY head) FROM two")
		likes=$(psql "$DATABASE_URL" -Atc "SELECT string_agg(format('h.words LIKE %L', '% ' || w || '%'), ' AND ') FROM unnest(f_name_words('$1')) AS w")
		echo "SELECT DISTINCT h.filed_at, h.case_id FROM name_heads h WHERE h.head = '$key' AND h.court_code = '26.0100' AND $likes ORDER BY h.filed_at DESC, h.case_id DESC LIMIT 1000"
	}
	CPF=$(sed -n 7p "$T/cpf" | tr -d '.-')
	CPFQ="cases.court_code = '26.0100' AND cases.id IN (SELECT case_id FROM defendants WHERE cpf = '$CPF')"
	explain() {
		echo "-- EXPLAIN ANALYZE, $1"
		psql "$DATABASE_URL" -Atc "EXPLAIN (ANALYZE, COSTS OFF) $2" | grep -E 'Index|Scan|Loop|Join|Sort Method|Rows Removed|Heap Fetches|Planning Time|Execution|Heap Blocks' | sed 's/^/   /'
	}
	for set in full two one; do
		explain "$set '$(sed -n 7p "$T/$set")': the walk" "$(walk "$(lit $set)")"
	done
	explain "cpf $CPF: count" "SELECT count(*) FROM (SELECT cases.id FROM cases WHERE $CPFQ LIMIT 1000) AS m"
	explain "cpf $CPF: page 1" "SELECT * FROM cases WHERE $CPFQ ORDER BY cases.filed_at DESC, cases.id DESC LIMIT 20"
	bench_stop_serve
	bench_drop "$n"
done
