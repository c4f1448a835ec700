#!/usr/bin/env bash
# bench/pdf.sh: court documents per second, GET
# /api/v1/cases/{id}/documents/sentence.pdf?ban_id=B (read the case, render
# the PDF with internal/pdf, store it in documents with its SHA-256 and
# verification code), on sentenced cases seeded by `juizado seed --scale`
# (SCALE, default 20000: the cost does not depend on the number of cases),
# by the judge of each case; 1 connection, then CONNS. Loopback only.
# Usage: bench/pdf.sh        SCALE=20000 CONNS=2 N=300 DUR=30s
source "$(dirname "$0")/lib.sh"
bench_cluster "$@"
SCALE=${SCALE:-20000}; CONNS=${CONNS:-2}; N=${N:-300}; DUR=${DUR:-30s}
bench_setup "$SCALE"
bench_serve
: >"$T/tokens"
for j in $(psql "$DATABASE_URL" -Atc "SELECT name FROM users WHERE name LIKE 'scale-juiz-%' ORDER BY id"); do
	printf '%s\t%s\n' "$j" "$(bench_token judge "$j")" >>"$T/tokens"
done
psql "$DATABASE_URL" -AtF $'\t' -c "SELECT u.name, b.case_id, b.id FROM bans b JOIN cases c ON c.id = b.case_id JOIN users u ON u.id = c.judge_id
	ORDER BY md5(b.id::text) LIMIT 1000" >"$T/bans"
awk -F'\t' -v a="$APP" 'NR == FNR { tok[$1] = $2; next }
	{ printf "GET\thttp://%s/api/v1/cases/%s/documents/sentence.pdf?ban_id=%s\t%s\n", a, $2, $3, tok[$1] }' "$T/tokens" "$T/bans" >"$T/pdf.req"
line=$(head -1 "$T/pdf.req")
curl -sf -H "Authorization: Bearer $(echo "$line" | cut -f3)" "$(echo "$line" | cut -f2)" -o "$T/one.pdf"
echo "one sentence PDF: $(wc -c <"$T/one.pdf") bytes, $(pdfinfo "$T/one.pdf" 2>/dev/null | grep -E '^Pages' | tr -s ' ' || echo 'pages: pdfinfo missing')"
bench_load "sentence.pdf, 1 connection" "$T/pdf.req" -c 1 -n 100 -d "$DUR" -warm 5
bench_load "sentence.pdf, $CONNS connections" "$T/pdf.req" -c "$CONNS" -n "$N" -d "$DUR" -warm 5
psql "$DATABASE_URL" -Atc "SELECT 'documents stored: ' || count(*) || ', ' || pg_size_pretty(sum(length(content))::bigint) FROM documents"
bench_stop_serve
