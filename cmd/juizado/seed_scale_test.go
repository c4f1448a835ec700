package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/casefile"
	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/app"
	"github.com/juizado/juizado/internal/config"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/pgtest"
	"github.com/juizado/juizado/registry"
	"github.com/juizado/juizado/registry/blocklist"
)

// seed --scale on a fresh database, twice (200 then 50 cases): the counts
// it reports are the rows stored, every CPF and CNJ number is valid, the
// numbers of each year are gapless from 1 and match case_sequences, and the
// blocklist holds exactly the bans in force with a CPF.
func TestSeedScale(t *testing.T) {
	ctx := context.Background()
	g, err := db.OpenOwner(ctx, pgtest.NewDSN(t)) // seed --scale works as the owner (COPY, setval, VACUUM)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { s, _ := g.DB(); s.Close() }()
	cfg := config.Config{Court: "26.0100", TimeZone: "America/Sao_Paulo"}
	count := func(q string, args ...any) int64 {
		t.Helper()
		var n int64
		if err := g.Raw(q, args...).Scan(&n).Error; err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return n
	}
	want := map[string]int64{}
	var prevInForce int64
	for run, n := range []int{200, 50} {
		st, err := seedScale(ctx, g, cfg, scaleOptions{N: n, Seed: 7, Sentenced: 0.6, Judges: 3})
		if err != nil {
			t.Fatalf("run %d: %v", run, err)
		}
		want["cases"] += int64(st.Cases)
		want["defendants"] += int64(st.Defendants)
		want["movements"] += int64(st.Movements)
		want["bans"] += int64(st.Bans)
		want["fan_groups"] += int64(st.Groups)
		want["members"] += int64(st.Members)
		want["member_periods"] += int64(st.Members)
		for table, w := range want {
			if got := count("SELECT count(*) FROM " + table); got != w {
				t.Errorf("run %d: %s has %d rows, want %d", run, table, got, w)
			}
		}
		if st.Bans == 0 || st.BansInForce == 0 || st.BansInForce > st.Bans {
			t.Errorf("run %d: %d bans, %d in force: want some of each", run, st.Bans, st.BansInForce)
		}
		inForce := count(`SELECT count(*) FROM bans WHERE status = 'active' AND cpf IS NOT NULL
			AND first_day <= (now() AT TIME ZONE 'America/Sao_Paulo')::date
			AND (last_day IS NULL OR last_day >= (now() AT TIME ZONE 'America/Sao_Paulo')::date)`)
		entries := count("SELECT count(*) FROM blocklist_entries")
		latest := count("SELECT entries FROM blocklist_versions ORDER BY version DESC LIMIT 1")
		if inForce != prevInForce+int64(st.BansInForce) || entries != inForce || latest != inForce || st.BlocklistEntries != inForce {
			t.Errorf("run %d: bans in force %d (before %d, seed said %d more), blocklist entries %d, latest version says %d, stats %d",
				run, inForce, prevInForce, st.BansInForce, entries, latest, st.BlocklistEntries)
		}
		prevInForce = inForce
	}
	// Every CPF valid (defendants, bans, members, blocklist), persons named
	// with at least two words.
	for _, q := range []string{"SELECT cpf FROM defendants WHERE cpf IS NOT NULL", "SELECT cpf FROM bans WHERE cpf IS NOT NULL",
		"SELECT cpf FROM members", "SELECT cpf FROM member_periods", "SELECT cpf FROM blocklist_entries"} {
		var cpfs []string
		if err := g.Raw(q).Scan(&cpfs).Error; err != nil {
			t.Fatal(err)
		}
		if len(cpfs) == 0 {
			t.Errorf("%s: none", q)
		}
		for _, c := range cpfs {
			if p, err := registry.ParseCPF(c); err != nil || p.String() != c {
				t.Fatalf("%s: CPF %q invalid: %v", q, c, err)
			}
		}
	}
	if n := count("SELECT count(*) FROM defendants WHERE kind <> 'person' OR array_length(regexp_split_to_array(full_name, ' '), 1) < 2 OR mother_name = ''"); n != 0 {
		t.Errorf("%d defendants without a full name or a mother's name", n)
	}
	if n := count("SELECT count(*) FROM defendants WHERE full_name ~ '[ãáâéêíóôõúç]'"); n == 0 {
		t.Error("no accented names")
	}
	// Every CNJ number valid, of the court, gapless per year from 1, and
	// the court's sequence at the last one.
	var rows []struct {
		Number   string
		Year     int
		Sequence int
	}
	if err := g.Raw("SELECT number, year, sequence FROM cases ORDER BY year, sequence").Scan(&rows).Error; err != nil {
		t.Fatal(err)
	}
	next := map[int]int{}
	for _, r := range rows {
		n, err := cases.ParseCNJ(r.Number)
		if err != nil {
			t.Fatalf("CNJ %s: %v", r.Number, err)
		}
		if n.Digits() != r.Number || n.Year != r.Year || n.Sequence != r.Sequence || !strings.HasSuffix(r.Number, "8260100") {
			t.Fatalf("CNJ %s does not say year %d sequence %d of court 26.0100", r.Number, r.Year, r.Sequence)
		}
		if next[r.Year]++; next[r.Year] != r.Sequence {
			t.Fatalf("year %d: sequence %d where %d was due (not gapless)", r.Year, r.Sequence, next[r.Year])
		}
	}
	for y, last := range next {
		if got := count("SELECT last FROM case_sequences WHERE court_code = '26.0100' AND year = ?", y); got != int64(last) {
			t.Errorf("case_sequences %d: last %d, want %d", y, got, last)
		}
	}
	// References hold (the foreign-key triggers may have been off).
	for _, q := range []string{
		"SELECT count(*) FROM defendants d LEFT JOIN cases c ON c.id = d.case_id WHERE c.id IS NULL",
		"SELECT count(*) FROM movements m LEFT JOIN cases c ON c.id = m.case_id WHERE c.id IS NULL",
		"SELECT count(*) FROM bans b LEFT JOIN defendants d ON d.id = b.defendant_id AND d.case_id = b.case_id WHERE d.id IS NULL",
		"SELECT count(*) FROM cases c LEFT JOIN venues v ON v.id = c.venue_id WHERE v.id IS NULL",
		"SELECT count(*) FROM members m LEFT JOIN fan_groups f ON f.id = m.group_id WHERE f.id IS NULL",
		"SELECT count(*) FROM member_periods p JOIN members m ON m.id = p.member_id WHERE m.group_id <> p.group_id OR m.cpf <> p.cpf",
		"SELECT count(*) FROM cases WHERE status = 'final' AND NOT EXISTS (SELECT 1 FROM bans b WHERE b.case_id = cases.id)",
		"SELECT count(*) FROM cases WHERE judge_id IS NULL",
		// Every defendant of a final case has his signed sentence and the
		// day of his final judgment, the ban's first day (the statistics).
		`SELECT count(*) FROM bans b JOIN defendants d ON d.id = b.defendant_id
		  WHERE d.final_on IS DISTINCT FROM b.first_day
		     OR NOT EXISTS (SELECT 1 FROM sentences s WHERE s.defendant_id = d.id AND s.status = 'signed' AND s.signed_at = b.created_at)`,
		"SELECT count(*) FROM defendants d JOIN cases c ON c.id = d.case_id WHERE (c.status = 'final') <> (d.final_on IS NOT NULL)",
		// Súmula 643 STJ: a sentence's ban runs only once the judgment is
		// final, from the day it became final.
		`SELECT count(*) FROM bans b JOIN cases c ON c.id = b.case_id WHERE b.source = 'sentence' AND b.status = 'active'
		   AND (c.status <> 'final' OR NOT EXISTS (SELECT 1 FROM movements m WHERE m.case_id = c.id AND m.tpu_code = 848 AND m.description LIKE '%' || to_char(b.first_day, 'DD/MM/YYYY') || '%'))`,
	} {
		if n := count(q); n != 0 {
			t.Errorf("%s: %d", q, n)
		}
	}
	// The seeded cases read back through the service.
	loc, _ := time.LoadLocation("America/Sao_Paulo")
	svc, err := app.NewCases(g, nil, loc, &blocklist.Lists{DB: g, Loc: loc, FormatNumber: cases.FormatNumber})
	if err != nil {
		t.Fatal(err)
	}
	var id int64
	if err := g.Raw("SELECT id FROM cases WHERE status = 'final' ORDER BY id LIMIT 1").Scan(&id).Error; err != nil {
		t.Fatal(err)
	}
	v, err := svc.Casefile.Get(ctx, actor.Actor{Court: "26.0100"}, id)
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Bans) == 0 || len(v.Movements) < 4 || v.Event == nil {
		t.Errorf("case %d reads back as %+v", id, v)
	}
	list, total, err := svc.Casefile.List(ctx, actor.Actor{Court: "26.0100"}, casefile.ListQuery{CPF: *v.Defendants[0].CPF})
	if err != nil || total < 1 || len(list) < 1 {
		t.Errorf("search by CPF %s: %d, %v", *v.Defendants[0].CPF, total, err)
	}
}
