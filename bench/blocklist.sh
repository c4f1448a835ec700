#!/usr/bin/env bash
# bench/blocklist.sh: load figures for the gate blocklist (issue 6), on
# loopback only. Seeds 100,000 bans in force and a feed of about 1,000,000
# changes in a throwaway PostgreSQL cluster, then measures with wrk:
#   1. GET /api/v1/blocklist/check/{cpf} (club token) vs a bare Echo handler
#      returning a constant (bench/constecho), same machine, same run;
#   2. GET /api/v1/blocklist (prepared body, identity and gzip) vs nginx
#      serving the same bytes as a static file;
#   3. GET /api/v1/blocklist/changes?since=V (a page of 1,000 changes).
# Usage: bench/blocklist.sh   (DUR=10s CONNS=32 THREADS=2 to change the load;
#        BANS=1000000 for ten times the bans in force)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" != inner ]; then
	command -v wrk >/dev/null || apt-get install -y wrk
	command -v nginx >/dev/null || apt-get install -y nginx-light
	exec go run ./internal/pgtest/cmd/testcluster -- bash bench/blocklist.sh inner
fi
DUR=${DUR:-10s}; CONNS=${CONNS:-32}; THREADS=${THREADS:-2}; BANS=${BANS:-100000}
APP=127.0.0.1:18080; CONST=127.0.0.1:18081; NGINX=127.0.0.1:18082
T=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done; rm -rf "$T"; }
trap cleanup EXIT
go build -o "$T/juizado" ./cmd/juizado
go build -o "$T/constecho" ./bench/constecho
psql "$PGTEST_DSN" -qc "CREATE DATABASE bench"
export DATABASE_URL="${PGTEST_DSN/dbname=postgres/dbname=bench}" JUIZADO_ADDR=$APP JUIZADO_KEY_DIR=$T/keys
"$T/juizado" migrate up >/dev/null
CLUB=$("$T/juizado" token create --role club --name bench-club --club Corinthians | tail -1)
"$T/juizado" token create --role prosecutor --name bench-prosecutor >/dev/null   # the court and the filer of the seeded case
psql "$DATABASE_URL" -v ON_ERROR_STOP=1 -v bans="$BANS" -qf bench/seed.sql
echo "== blocklist refresh ($BANS entries into the feed)"; time "$T/juizado" blocklist refresh
psql "$DATABASE_URL" -v ON_ERROR_STOP=1 -qf bench/feed.sql
psql "$DATABASE_URL" -Atc "SELECT 'bans in force: ' || count(*) FROM bans WHERE status = 'active'; SELECT 'entries: ' || count(*) FROM blocklist_entries; SELECT 'feed changes: ' || count(*) FROM blocklist_changes"
"$T/juizado" serve 2>"$T/serve.log" & pids+=($!)
"$T/constecho" -addr $CONST & pids+=($!)
for _ in $(seq 100); do curl -sf "http://$APP/healthz" >/dev/null && curl -sf "http://$CONST/const" >/dev/null && break; sleep 0.1; done
AUTH="Authorization: Bearer $CLUB"
curl -sf -H "$AUTH" -H 'Accept-Encoding: identity' "http://$APP/api/v1/blocklist" -o "$T/blocklist.json"
mkdir -p "$T/www" && cp "$T/blocklist.json" "$T/www/blocklist.json" && chmod -R a+rX "$T"
cat >"$T/nginx.conf" <<CONF
worker_processes 1; daemon off; pid $T/nginx.pid; error_log $T/nginx.err;
events { worker_connections 1024; }
http { access_log off; sendfile on; default_type application/json;
  client_body_temp_path $T/nb; proxy_temp_path $T/np; fastcgi_temp_path $T/nf; uwsgi_temp_path $T/nu; scgi_temp_path $T/ns;
  server { listen $NGINX; root $T/www; } }
CONF
nginx -c "$T/nginx.conf" -p "$T" & pids+=($!)
sleep 0.5
echo "snapshot: $(wc -c <"$T/blocklist.json") bytes, version $(grep -o '"version":[0-9]*' "$T/blocklist.json" | head -1)"
run() { echo; echo "== $1"; shift; wrk -t"$THREADS" -c"$CONNS" -d"$DUR" --latency "$@" | tee "$T/last" | grep -E 'Requests/sec|Transfer/sec|Latency  |99%|Non-2xx'; }
rps() { awk '/Requests\/sec/ {print $2}' "$T/last"; }
# Warm-up (the first check prepares the version's bodies), then the check and
# the constant handler alternate so that a drift of the machine during the
# run weighs on both; the ratio is against the mean of the two constant runs.
wrk -t"$THREADS" -c"$CONNS" -d2s -H "$AUTH" "http://$APP/api/v1/blocklist/check/468.819.736-59" >/dev/null
wrk -t"$THREADS" -c"$CONNS" -d2s "http://$CONST/const" >/dev/null
run "Echo constant handler (1)" "http://$CONST/const"; C1=$(rps)
run "check (blocked CPF, club token, logged)" -H "$AUTH" "http://$APP/api/v1/blocklist/check/468.819.736-59"; B=$(rps)
run "check (CPF not blocked, logged)" -H "$AUTH" "http://$APP/api/v1/blocklist/check/52998224725"; N=$(rps)
run "Echo constant handler (2)" "http://$CONST/const"; C2=$(rps)
awk -v b="$B" -v n="$N" -v c1="$C1" -v c2="$C2" 'BEGIN { c = (c1 + c2) / 2; printf "\n== check / constant handler (mean %.0f req/s): blocked %.1f %%, not blocked %.1f %% (goal: 50 %%)\n", c, 100 * b / c, 100 * n / c }'
run "snapshot JSON, identity (prepared body)" -H "$AUTH" -H 'Accept-Encoding: identity' "http://$APP/api/v1/blocklist"
run "nginx, same bytes as a static file" "http://$NGINX/blocklist.json"
run "snapshot JSON, gzip (prepared)" -H "$AUTH" -H 'Accept-Encoding: gzip' "http://$APP/api/v1/blocklist"
run "snapshot 304 (If-None-Match)" -H "$AUTH" -H 'Accept-Encoding: identity' -H "If-None-Match: $(curl -s -o /dev/null -D - -H "$AUTH" -H 'Accept-Encoding: identity' "http://$APP/api/v1/blocklist" | sed -n 's/^ETag: //Ip' | tr -d '\r')" "http://$APP/api/v1/blocklist"
MID=$(psql "$DATABASE_URL" -Atc "SELECT version FROM blocklist_versions ORDER BY version DESC OFFSET 450 LIMIT 1")
psql "$DATABASE_URL" -Atc "EXPLAIN ANALYZE SELECT * FROM blocklist_changes WHERE version > $MID AND version <= (SELECT max(version) FROM blocklist_versions) ORDER BY version, id LIMIT 1001" | grep -E 'Scan|Execution'
run "feed page of 1,000 changes (since=$MID)" -H "$AUTH" -H 'Accept-Encoding: identity' "http://$APP/api/v1/blocklist/changes?since=$MID"
sleep 1
echo; psql "$DATABASE_URL" -Atc "SELECT 'check log rows: ' || count(*) FROM blocklist_checks"
