#!/usr/bin/env bash
# bench/datajud.sh: time and peak resident memory of `juizado export datajud`
# (issue 31, item 2: a month of 100,000 cases under 200 MB) in a throwaway
# cluster (bench/lib.sh).
#
#   bench/datajud.sh            # N=100000
#   N=20000 bench/datajud.sh
#
# `seed --scale N` spreads its filings over two years; to put all N cases in
# one month, the script moves every movement into June 2025 keeping their
# order (as the owner, with the audit trigger off: benchmark data only), and
# gives the court its DataJud unit. Each format is then written to a file
# under /usr/bin/time.
source "$(dirname "$0")/lib.sh"
N=${N:-100000}
bench_cluster "$@"
bench_setup "$N"
psql "$DATABASE_URL" -q <<'SQL'
SET session_replication_role = replica;
UPDATE movements SET at = timestamptz '2025-06-01 00:00-03'
    + (extract(epoch FROM at - b.lo) / b.span) * interval '29 days'
FROM (SELECT min(at) AS lo, greatest(extract(epoch FROM max(at) - min(at)), 1) AS span FROM movements) b;
UPDATE courts SET unit_code = 100, unit_name = 'Juizado Especial Criminal do Torcedor', ibge_municipality = 3550308;
VACUUM ANALYZE movements;
SQL
psql "$DATABASE_URL" -Atc "SELECT 'cases with a movement in 2025-06: ' || count(DISTINCT case_id) || ', movements: ' || count(*) FROM movements WHERE at >= '2025-06-01 00:00-03' AND at < '2025-07-01 00:00-03'"
for f in json xml; do
	echo "== juizado export datajud --month 2025-06 --format $f"
	/usr/bin/time -f "elapsed %e s, user %U s, max RSS %M KB" "$T/juizado" export datajud --month 2025-06 --format "$f" --out "$T/datajud.$f" 2> >(tail -3 >&2) || echo "exit status $?"
	echo "file: $(du -h "$T/datajud.$f" | cut -f1)"
done
bench_drop "$N"
