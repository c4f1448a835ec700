#!/usr/bin/env bash
# bench/fanout.sh: a state's gates at once (issue 32, item 7), loopback
# only. In a throwaway PostgreSQL cluster: a court (`juizado serve`) seeded
# by `juizado seed --scale SCALE` (cases awaiting sentence) plus
# bench/seed.sql's BANS bans in force, the bare Echo handler (bench/constecho),
# and bench/fanout: CLIENTS feed clients long-polling the court while
# FINALS cases become final one after the other; it prints the time from
# each final judgment to the last client's answer (p50, p99, max; goal
# p99 < 2 s at 1,000), the court's resident memory before the clients and
# with them waiting, and the court's check throughput meanwhile as a ratio
# of the constant handler just before and just after (CONNS callers).
# Not run by `make test`.
# Usage: bench/fanout.sh     (CLIENTS=1000 FINALS=20 CONNS=8 SCALE=100 BANS=100000)
source "$(dirname "$0")/lib.sh"
bench_cluster "$@"
CLIENTS=${CLIENTS:-1000}; FINALS=${FINALS:-20}; CONNS=${CONNS:-8}; SCALE=${SCALE:-100}; BANS=${BANS:-100000}
CONST=127.0.0.1:18081
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"
echo "machine: $(nproc) vCPUs, load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
go build -o "$T/constecho" ./bench/constecho
go build -o "$T/fanout" ./bench/fanout
bench_setup "$SCALE"
PROSECUTOR=$(bench_token prosecutor bench-prosecutor) # the filer of seed.sql's case, and the accusations
psql "$DATABASE_URL" -v ON_ERROR_STOP=1 -v bans="$BANS" -qf bench/seed.sql
"$T/juizado" blocklist refresh >/dev/null
CLUB=$("$T/juizado" token create --role club --name bench-club --club Corinthians | tail -1)
CLERK=$(bench_token clerk bench-clerk)
bench_serve
SERVE_PID=${pids[-1]}
"$T/constecho" -addr $CONST & pids+=($!)
for _ in $(seq 100); do curl -sf "http://$CONST/const" >/dev/null && break; sleep 0.1; done
: >"$T/judges"
for j in $(psql "$DATABASE_URL" -Atc "SELECT name FROM users WHERE name LIKE 'scale-juiz-%' ORDER BY id"); do
	printf '%s\t%s\n' "$j" "$(bench_token judge "$j")" >>"$T/judges"
done
psql "$DATABASE_URL" -AtF $'\t' -c "SELECT c.id, d.id, u.name FROM cases c JOIN defendants d ON d.case_id = c.id JOIN users u ON u.id = c.judge_id
	WHERE c.status = 'distributed' AND d.kind = 'person' AND d.cpf IS NOT NULL
	  AND (SELECT count(*) FROM defendants x WHERE x.case_id = c.id) = 1
	  AND NOT EXISTS (SELECT 1 FROM bans b WHERE b.cpf = d.cpf)
	ORDER BY c.id LIMIT $FINALS" >"$T/pending"
awk -F'\t' 'NR == FNR { tok[$1] = $2; next } { printf "%s\t%s\t%s\n", $1, $2, tok[$3] }' "$T/judges" "$T/pending" >"$T/cases"
echo; echo "== $CLIENTS feed clients, $FINALS final judgments, $CONNS check callers"
"$T/fanout" -court "http://$APP" -club "$CLUB" -clerk "$CLERK" -prosecutor "$PROSECUTOR" -cases "$T/cases" -clients "$CLIENTS" -conns "$CONNS" \
	-const "http://$CONST/const" -pid "$SERVE_PID" -today "$(TZ=America/Sao_Paulo date +%F)"
