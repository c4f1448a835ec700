# bench/lib.sh: the steps bench/search.sh, bench/sentence.sh and bench/pdf.sh
# share (sourced, not run). Everything listens on 127.0.0.1 only.
#
# bench_cluster "$@": unless DATABASE_URL is set, re-runs the calling script
# inside a private PostgreSQL cluster (bench/pgrun: fsync on, 1 GB shared
# buffers; PGRUN_FLAGS=-fast for fsync off) that is removed afterwards.
# bench_setup N: builds the binary and the load client, makes a database
# bench_N (or uses DATABASE_URL, which should then be an empty database),
# migrates it and runs `juizado seed --scale N`.
# bench_serve: starts `juizado serve` on $APP and waits for /healthz.
# bench_token ROLE NAME: prints a fresh token of that account.
# bench_load LABEL FILE [load flags]: the bounded load client (bench/load).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
APP=${APP:-127.0.0.1:18090}

bench_cluster() {
	if [ -z "${DATABASE_URL:-}" ] && [ -z "${PGTEST_DSN:-}" ]; then
		exec go run ./bench/pgrun ${PGRUN_FLAGS:-} -- bash "$0" "$@"
	fi
}

T=$(mktemp -d)
pids=()
bench_cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done
	rm -rf "$T"
}
trap bench_cleanup EXIT

bench_setup() {
	local n=$1
	[ -x "$T/juizado" ] || go build -o "$T/juizado" ./cmd/juizado
	[ -x "$T/load" ] || go build -o "$T/load" ./bench/load
	if [ -n "${PGTEST_DSN:-}" ]; then
		psql "$PGTEST_DSN" -qc "DROP DATABASE IF EXISTS bench_$n" -c "CREATE DATABASE bench_$n"
		export DATABASE_URL="${PGTEST_DSN/dbname=postgres/dbname=bench_$n}"
	fi
	export JUIZADO_ADDR=$APP JUIZADO_KEY_DIR=$T/keys JUIZADO_PUBLIC_URL=http://$APP
	"$T/juizado" migrate up >/dev/null
	echo "== juizado seed --scale $n"
	local t0=$SECONDS
	"$T/juizado" seed --scale "$n"
	echo "seeding took $((SECONDS - t0)) s"
	psql "$DATABASE_URL" -Atc "SELECT 'database size: ' || pg_size_pretty(pg_database_size(current_database()))"
}

bench_drop() { # bench_drop N: after a run in the private cluster
	if [ -n "${PGTEST_DSN:-}" ]; then psql "$PGTEST_DSN" -qc "DROP DATABASE IF EXISTS bench_$1"; fi
}

bench_serve() {
	"$T/juizado" serve 2>"$T/serve.log" &
	pids+=($!)
	for _ in $(seq 200); do curl -sf "http://$APP/healthz" >/dev/null && return 0; sleep 0.1; done
	echo "serve did not start:"; tail -20 "$T/serve.log"; return 1
}

bench_stop_serve() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done
	pids=()
}

bench_token() { "$T/juizado" token create --role "$1" --name "$2" | tail -1; }

bench_load() {
	local label=$1 file=$2
	shift 2
	"$T/load" -label "$label" -f "$file" "$@"
}
