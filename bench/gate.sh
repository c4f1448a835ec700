#!/usr/bin/env bash
# bench/gate.sh: load figures for the gate agent (issue 20, "Speed"), on
# loopback only. In a throwaway PostgreSQL cluster: a court (`juizado serve`)
# with BANS bans in force (bench/seed.sql, plus `juizado seed --scale 100`
# for cases awaiting sentence), the agent (`juizado gate serve --config`)
# following it, and the bare Echo handler returning a constant
# (bench/constecho). Measures, side by side, with the same client and
# settings:
#   1. the agent's first sync (seconds, its resident memory: VmRSS, VmHWM);
#   2. wrk -t$THREADS -c$CONNS -d$DUR, in ROUNDS rounds: the agent's
#      GET /check/{cpf} (blocked and not) between two runs of the constant
#      handler, each round against the mean of its two (goal >= 0.8; every
#      round, the median and the lowest printed); then, once the agent has
#      uploaded those runs' check records, the court's own
#      GET /api/v1/blocklist/check/{cpf} between two more (goal >= 0.5);
#   3. once the agent has uploaded the wrk runs' check records,
#      bench/load -rate $RATE (a fixed rate; bench/load's comment says how
#      latency is counted), in ROUNDS rounds of the agent's check then the
#      constant handler, and the court's check once: p50/p99 of each, the
#      medians of the rounds' p99 (goal: agent p99 < 1 ms at 3,600
#      checks/s);
#   4. sentence to the agent's answer, long-poll: for SENTENCES cases, the
#      judge's sentence and every party's notice with a waiver of appeal,
#      then the timed part: from the clerk's final-judgment call
#      (POST /api/v1/cases/{id}/transitions {"to": "final"}, the ban starts
#      today) to the first GET /check/{cpf} of the agent that answers
#      blocked (polled every 2 ms; goal < 2 s). With WAIT_PREPARED=1,
#      before each the script waits until the court's own check answers
#      the previous case's ban (the workaround of the code before the feed
#      stopped preparing the snapshot: see bench/README.md).
#   5. the court stopped: 2 and 3 again for the agent (it answers from its
#      copy and keeps its records; nothing is stored beside the runs, as on
#      a stadium whose court is elsewhere).
# Usage: bench/gate.sh   (DUR=8s CONNS=32 THREADS=2 BANS=100000 RATE=3600
#        RATED=10s SENTENCES=10 WAIT_PREPARED=0 ROUNDS=3; BANS=1000000 for the
#        agent's memory at 1M)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" != inner ]; then
	command -v wrk >/dev/null || apt-get install -y wrk
	command -v jq >/dev/null || apt-get install -y jq
	exec go run ./internal/pgtest/cmd/testcluster -- bash bench/gate.sh inner
fi
DUR=${DUR:-8s}; CONNS=${CONNS:-32}; THREADS=${THREADS:-2}; BANS=${BANS:-100000}
RATE=${RATE:-3600}; RATED=${RATED:-10s}; SENTENCES=${SENTENCES:-10}; WAIT_PREPARED=${WAIT_PREPARED:-0}; ROUNDS=${ROUNDS:-3}
APP=127.0.0.1:18080; CONST=127.0.0.1:18081; AGENT=127.0.0.1:18083
T=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done; rm -rf "$T"; }
trap cleanup EXIT
echo "machine: $(nproc) vCPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)), load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
go build -o "$T/juizado" ./cmd/juizado
go build -o "$T/constecho" ./bench/constecho
go build -o "$T/load" ./bench/load
psql "$PGTEST_DSN" -qc "CREATE DATABASE bench"
export DATABASE_URL="${PGTEST_DSN/dbname=postgres/dbname=bench}" JUIZADO_ADDR=$APP JUIZADO_KEY_DIR=$T/keys JUIZADO_PUBLIC_URL=http://$APP
"$T/juizado" migrate up >/dev/null
CLUB=$("$T/juizado" token create --role club --name bench-club --club Corinthians | tail -1)
"$T/juizado" token create --role prosecutor --name bench-prosecutor >/dev/null   # the filer of seed.sql's case
CLERK=$("$T/juizado" token create --role clerk --name bench-clerk | tail -1)
"$T/juizado" seed --scale 100 >/dev/null   # cases distributed to judges scale-juiz-*, awaiting sentence
psql "$DATABASE_URL" -v ON_ERROR_STOP=1 -v bans="$BANS" -qf bench/seed.sql
echo "== blocklist refresh ($BANS entries)"; time "$T/juizado" blocklist refresh
"$T/juizado" serve 2>"$T/serve.log" & SERVE_PID=$!; pids+=($SERVE_PID)
"$T/constecho" -addr $CONST & pids+=($!)
for _ in $(seq 200); do curl -sf "http://$APP/healthz" >/dev/null && curl -sf "http://$CONST/const" >/dev/null && break; sleep 0.1; done
KEY=$(curl -sf "http://$APP/api/v1/blocklist/key" | jq -r '.keys[0].public_key')
VERSION=$(psql "$DATABASE_URL" -Atc "SELECT max(version) FROM blocklist_versions")
jq -n --arg dir "$T/gate" --arg addr "$AGENT" --arg url "http://$APP" --arg token "$CLUB" --arg key "$KEY" \
	'{data_dir: $dir, addr: $addr, device: "bench-gate", max_age: "24h", venues: [], courts: [{url: $url, token: $token, keys: [$key]}]}' >"$T/gate.json"

echo; echo "== agent: first sync of version $VERSION ($BANS entries)"
t0=$(date +%s.%N)
"$T/juizado" gate serve --config "$T/gate.json" 2>"$T/gate.log" & AGENT_PID=$!; pids+=($AGENT_PID)
until [ "$(curl -sf "http://$AGENT/status" | jq -r '.courts[0].version' 2>/dev/null)" = "$VERSION" ]; do sleep 0.05; done
t1=$(date +%s.%N)
sleep 2 # the snapshot's garbage returned to the system (debug.FreeOSMemory after the apply)
awk -v a="$t0" -v b="$t1" 'BEGIN { printf "synced in %.2f s (start of the process to /status at the version)\n", b - a }'
grep -E 'VmHWM|VmRSS' /proc/$AGENT_PID/status | tr -s ' \t' ' ' | sed "s/^/agent after the sync: /"
du -sh "$T/gate" | sed 's/^/agent data_dir: /'
curl -sf "http://$AGENT/check/468.819.736-59" | jq -c '{blocked, bans: (.bans | length), versions, stale}' | sed 's/^/agent check, blocked CPF: /'
curl -sf "http://$AGENT/check/529.982.247-25" | jq -c '{blocked, versions}' | sed 's/^/agent check, CPF not blocked: /'

# uploaded waits until the agent has sent the check records of the runs
# before and the court has stored them.
uploaded() {
	local t0; t0=$(date +%s)
	until [ -z "$(ls "$T/gate/outbox" 2>/dev/null)" ] && [ "$(curl -sf "http://$AGENT/metrics" | awk '/^gate_spooled_checks/ {print $2}')" = 0 ]; do
		[ $(( $(date +%s) - t0 )) -lt 300 ] || { echo "the agent did not upload its check records in 300 s"; break; }
		sleep 0.5
	done
	echo; echo "agent's check records uploaded after $(( $(date +%s) - t0 )) s: $(psql "$DATABASE_URL" -Atc "SELECT count(*) FROM blocklist_checks WHERE device = 'bench-gate'") at the court"
	sleep 2
}
run() { echo; echo "== $1"; shift; wrk -t"$THREADS" -c"$CONNS" -d"$DUR" --latency "$@" | tee "$T/last" | grep -E 'Requests/sec|Latency  |99%|Non-2xx'; }
rps() { awk '/Requests\/sec/ {print $2}' "$T/last"; }
AUTH="Authorization: Bearer $CLUB"
# rounds WHEN: ROUNDS rounds of the agent blocked and not blocked, each
# followed by the constant handler (one more constant run first): each
# round's agent runs are put against the mean of the constant runs just
# before and just after them, so that a drift of the shared machine (the
# constant handler alone has moved by a quarter between two runs a minute
# apart) weighs on both sides. Every round is printed, then the median and
# the lowest round.
rounds() {
	local when=$1 C CN AB AN r col
	run "Echo constant handler (0, $when)" "http://$CONST/const"; C=$(rps)
	: >"$T/rounds"
	for r in $(seq "$ROUNDS"); do
		run "round $r, $when: agent GET /check/{cpf}, blocked" "http://$AGENT/check/468.819.736-59"; AB=$(rps)
		run "round $r, $when: agent GET /check/{cpf}, not blocked" "http://$AGENT/check/52998224725"; AN=$(rps)
		run "Echo constant handler ($r, $when)" "http://$CONST/const"; CN=$(rps)
		awk -v r="$r" -v ab="$AB" -v an="$AN" -v c0="$C" -v c1="$CN" 'BEGIN { c = (c0 + c1) / 2;
			printf "%d\t%.3f\t%.3f\t%.0f\t%.0f\t%.0f\n", r, ab / c, an / c, ab, an, c }' >>"$T/rounds"
		C=$CN
	done
	echo; echo "== agent against the constant handler, $when, by round (goal 0.8)"
	awk -F'\t' '{ printf "round %d: blocked %.2f (%.0f req/s), not blocked %.2f (%.0f req/s), constant %.0f req/s\n", $1, $2, $4, $3, $5, $6 }' "$T/rounds"
	for col in 2 3; do cut -f"$col" "$T/rounds" | sort -n | awk -v what="$([ $col = 2 ] && echo blocked || echo 'not blocked')" -v when="$when" \
		'{ v[NR] = $1 } END { printf "agent %s, %s: median %.2f, lowest %.2f over %d rounds\n", what, when, v[int((NR + 1) / 2)], v[1], NR }'; done
}
N=$(awk -v r="$RATE" -v d="${RATED%s}" 'BEGIN { printf "%d", r * d }')
printf 'GET\thttp://%s/check/468.819.736-59\n' "$AGENT" >"$T/agent.req"
printf 'GET\thttp://%s/const\n' "$CONST" >"$T/const.req"
printf 'GET\thttp://%s/api/v1/blocklist/check/468.819.736-59\t%s\n' "$APP" "$CLUB" >"$T/court.req"
# rated LABEL FILE: bench/load at RATE for RATED; its line is kept in
# $T/rated.
rated() { "$T/load" -label "$1" -f "$2" -rate "$RATE" -c 16 -n "$N" -d "$RATED" -warm 200 | tee "$T/rated"; }
p99() { awk '{ for (i = 1; i < NF; i++) if ($i == "p99") { print $(i + 1); exit } }' "$T/rated"; }
# rated_rounds WHEN: ROUNDS rounds of the agent, then the constant handler,
# at the fixed rate; the p99 of each and their medians.
rated_rounds() {
	local when=$1 r
	echo; echo "== fixed rate, $when: $RATE requests/s for $RATED, $ROUNDS rounds (bench/load -rate, 16 connections; latency from the due instant when the connection was still busy then, else from the write)"
	: >"$T/rated_rounds"
	for r in $(seq "$ROUNDS"); do
		rated "round $r, $when: agent check at $RATE/s" "$T/agent.req"; local a; a=$(p99)
		rated "round $r, $when: constant handler at $RATE/s" "$T/const.req"; printf '%s\t%s\n' "$a" "$(p99)" >>"$T/rated_rounds"
	done
	for col in 1 2; do cut -f"$col" "$T/rated_rounds" | sort -n | awk -v what="$([ $col = 1 ] && echo 'agent check' || echo 'constant handler')" -v when="$when" \
		'{ v[NR] = $1; all = all sep $1; sep = ", " } END { printf "%s at the fixed rate, %s: p99 by round %s ms; median %.2f ms (goal for the agent < 1 ms)\n", what, when, all, v[int((NR + 1) / 2)] }'; done
}
wrk -t"$THREADS" -c"$CONNS" -d2s "http://$AGENT/check/46881973659" >/dev/null
wrk -t"$THREADS" -c"$CONNS" -d2s -H "$AUTH" "http://$APP/api/v1/blocklist/check/46881973659" >/dev/null
wrk -t"$THREADS" -c"$CONNS" -d2s "http://$CONST/const" >/dev/null
# With the court running on the same two vCPUs, the agent's uploads of its
# check records are stored beside the runs (at 30,000 checks a second, the
# court and PostgreSQL storing them take about a third of the machine:
# BenchmarkBlocklistChecksUpload); whether an upload falls in a run is
# chance.
rounds "court running"
uploaded # the court stores the agent's records of the runs above before its own check is measured
run "Echo constant handler (before the court)" "http://$CONST/const"; C1=$(rps)
run "court GET /api/v1/blocklist/check/{cpf}, blocked (club token, logged)" -H "$AUTH" "http://$APP/api/v1/blocklist/check/468.819.736-59"; CB=$(rps)
run "Echo constant handler (after the court)" "http://$CONST/const"; C2=$(rps)
awk -v cb="$CB" -v c1="$C1" -v c2="$C2" 'BEGIN { c = (c1 + c2) / 2;
	printf "\n== court check against the constant handler (mean %.0f req/s): %.2f (goal 0.5)\n", c, cb / c }'
grep -E 'VmHWM|VmRSS' /proc/$AGENT_PID/status | tr -s ' \t' ' ' | sed "s/^/agent after the load: /"

# The wrk runs above left the agent hundreds of thousands of check records
# to upload (a backlog no stadium makes: 3,600 checks a second is 36,000
# records every 10 s). The fixed-rate runs measure the steady state: they
# start once the agent has sent them all and the court has stored them;
# the records of the agent's own fixed-rate runs are uploaded during them,
# as at a stadium.
uploaded
rated_rounds "court running"
rated "court check at $RATE/s" "$T/court.req" >/dev/null; sed 's/^/court: /' "$T/rated"

echo; echo "== sentence to the agent's answer (long-poll), $SENTENCES cases (WAIT_PREPARED=$WAIT_PREPARED)"
: >"$T/judges"
for j in $(psql "$DATABASE_URL" -Atc "SELECT name FROM users WHERE name LIKE 'scale-juiz-%' ORDER BY id"); do
	printf '%s\t%s\n' "$j" "$("$T/juizado" token create --role judge --name "$j" | tail -1)" >>"$T/judges"
done
TODAY=$(TZ=America/Sao_Paulo date +%F)
psql "$DATABASE_URL" -AtF $'\t' -c "SELECT c.id, d.id, d.cpf, u.name FROM cases c JOIN defendants d ON d.case_id = c.id JOIN users u ON u.id = c.judge_id
	WHERE c.status = 'distributed' AND d.kind = 'person' AND d.cpf IS NOT NULL
	  AND (SELECT count(*) FROM defendants x WHERE x.case_id = c.id) = 1
	  AND NOT EXISTS (SELECT 1 FROM bans b WHERE b.cpf = d.cpf)
	ORDER BY c.id LIMIT $SENTENCES" >"$T/cases"
post() { # post TOKEN PATH JSON: the status code; the body in $T/post
	curl -s -o "$T/post" -w '%{http_code}' -X POST -H "Authorization: Bearer $1" -H 'Content-Type: application/json' -d "$3" "http://$APP$2"
}
: >"$T/latency"
while IFS=$'\t' read -r cid did cpf judge; do
	jt=$(awk -F'\t' -v j="$judge" '$1 == j { print $2 }' "$T/judges")
	s=$(post "$jt" "/api/v1/cases/$cid/sentence" "{\"defendant_id\":$did,\"ban\":{\"months\":12},\"reporting_duty\":{\"place\":\"1º Distrito Policial\",\"club\":\"Corinthians\"}}")
	[ "$s" = 201 ] || { echo "sentence of case $cid: $s $(cat "$T/post")"; exit 1; }
	flow=$(curl -sf -H "Authorization: Bearer $CLERK" "http://$APP/api/v1/cases/$cid" | jq -r .flow)
	for n in "{\"party\":\"prosecution\",\"notified_on\":\"$TODAY\",\"waived_appeal\":true}" \
		"{\"party\":\"defendant\",\"defendant_id\":$did,\"notified_on\":\"$TODAY\",\"waived_appeal\":true}" \
		$([ "$flow" = criminal ] && echo "{\"party\":\"defence\",\"defendant_id\":$did,\"notified_on\":\"$TODAY\",\"waived_appeal\":true}"); do
		s=$(post "$CLERK" "/api/v1/cases/$cid/notifications" "$n")
		[ "$s" = 201 ] || { echo "notice of case $cid: $s $(cat "$T/post")"; exit 1; }
	done
	[ "$(curl -sf "http://$AGENT/check/$cpf" | jq -r .blocked)" = false ] || { echo "CPF $cpf blocked before the final judgment"; exit 1; }
	# WAIT_PREPARED=1: wait until the court's own check blocks the previous
	# case's CPF (the court has prepared that version) before the timed
	# part. Before the feed stopped preparing the snapshot, the agent's
	# next long-poll waited behind that preparation; now it should not
	# matter.
	if [ "$WAIT_PREPARED" = 1 ] && [ -n "${prev:-}" ]; then
		until [ "$(curl -s -H "$AUTH" "http://$APP/api/v1/blocklist/check/$prev" | jq -r .blocked)" = true ]; do sleep 0.05; done
	fi
	sleep 1 # the agent's long-poll is waiting at the court
	t0=$(date +%s%N)
	s=$(post "$CLERK" "/api/v1/cases/$cid/transitions" '{"to":"final"}')
	t1=$(date +%s%N)
	[ "$s" = 200 ] || { echo "final judgment of case $cid: $s $(cat "$T/post")"; exit 1; }
	until [ "$(curl -s "http://$AGENT/check/$cpf" | jq -r .blocked)" = true ]; do
		[ $(( ($(date +%s%N) - t0) / 1000000 )) -lt 30000 ] || { echo "case $cid: not blocked at the agent after 30 s"; exit 1; }
		sleep 0.002
	done
	t2=$(date +%s%N)
	prev=$cpf
	printf '%d\t%d\n' $(( (t2 - t0) / 1000000 )) $(( (t1 - t0) / 1000000 )) | tee -a "$T/latency" | awk -F'\t' -v c="$cid" '{ printf "case %s: final judgment call %d ms, agent answers blocked %d ms after the call started\n", c, $2, $1 }'
done <"$T/cases"
sort -n "$T/latency" | awk -F'\t' '{ v[NR] = $1 } END { printf "sentence to the agent: %d cases, min %d ms, median %d ms, max %d ms (goal < 2000 ms)\n", NR, v[1], v[int((NR + 1) / 2)], v[NR] }'
grep -E 'VmHWM|VmRSS' /proc/$AGENT_PID/status | tr -s ' \t' ' ' | sed "s/^/agent at the end: /"

# The court stopped (a stadium offline, or a court that is not on the
# gate's machine): the agent answers from its copy and keeps its records
# to send later, so nothing is stored beside the runs.
echo; echo "== the court stopped"
kill "$SERVE_PID"; wait "$SERVE_PID" 2>/dev/null || true
sleep 2
curl -sf "http://$AGENT/check/468.819.736-59" | jq -c '{blocked, stale}' | sed 's/^/agent check, court stopped: /'
rounds "court stopped"
rated_rounds "court stopped"
curl -sf "http://$AGENT/metrics" | grep -E '^gate_(checks_total|court_version|court_entries|spooled)' || true
sleep 1
psql "$DATABASE_URL" -Atc "SELECT 'check records at the court from the agent: ' || count(*) FROM blocklist_checks WHERE device = 'bench-gate'" || true
