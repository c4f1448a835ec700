package casefile_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/casefile"
	"github.com/juizado/juizado/cases/internal/casetest"
	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/pgtest"
	"github.com/juizado/juizado/internal/testenv"
)

// GET by id and by CNJ number: of the actor's court only; a malformed number
// or wrong check digits is 422, a valid unknown number 404 (API.md).
func TestRead_GetAndByNumber(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	ctx := context.Background()
	c := e.File(t, casetest.Fixture(t, "R2"))
	formatted := cases.FormatNumber(c.Number)
	for _, number := range []string{c.Number, formatted, " " + formatted + " "} {
		v, err := e.Svc.Casefile.ByNumber(ctx, e.Pros, number)
		if err != nil {
			t.Errorf("ByNumber(%q): %v", number, err)
			continue
		}
		if v.ID != c.ID || v.Number != formatted {
			t.Errorf("ByNumber(%q) = case %d %s, want %d %s", number, v.ID, v.Number, c.ID, formatted)
		}
	}
	v, err := e.Svc.Casefile.Get(ctx, e.Pros, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	if v.Event == nil || v.Event.Venue != "Estádio Jornalista Mário Filho (Maracanã)" || v.Facts.Date.String() != "2025-03-30" ||
		len(v.Defendants) != 1 || v.Defendants[0].CPF == nil || *v.Defendants[0].CPF != "46881973659" ||
		v.FiledBy.Role != "prosecutor" || v.FiledBy.Kind != "prosecutor" || len(v.Movements) != 2 {
		t.Errorf("view = %+v", v)
	}
	// Another court sees nothing.
	if err := cases.EnsureCourt(ctx, e.G, "19.0001", ""); err != nil {
		t.Fatal(err)
	}
	stranger := actor.Actor{UserID: e.Pros.UserID, Role: "prosecutor", Court: "19.0001"}
	_, err = e.Svc.Casefile.Get(ctx, stranger, c.ID)
	casetest.KindIs(t, err, errs.NotFound)
	_, err = e.Svc.Casefile.ByNumber(ctx, stranger, c.Number)
	casetest.KindIs(t, err, errs.NotFound)
	// Valid but unknown; wrong check digits; malformed.
	other, _ := cases.NewCNJFor(testenv.Court, 2025, 99)
	_, err = e.Svc.Casefile.ByNumber(ctx, e.Pros, other.String())
	casetest.KindIs(t, err, errs.NotFound)
	_, err = e.Svc.Casefile.ByNumber(ctx, e.Pros, "0058967-76.2016.8.19.0000")
	casetest.InvalidField(t, err, "number", false)
	_, err = e.Svc.Casefile.ByNumber(ctx, e.Pros, "abc")
	casetest.InvalidField(t, err, "number", false)
}

// List: q matches defendant names ignoring accents and case; cpf with or
// without punctuation; status; pages from 1 with the total.
func TestRead_List(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	ctx := context.Background()
	_, refs, ids := e.FileFixtures(t)
	one := func(q casefile.ListQuery, want ...string) {
		t.Helper()
		vs, total, err := e.Svc.Casefile.List(ctx, e.Pros, q)
		if err != nil {
			t.Fatalf("List(%+v): %v", q, err)
		}
		if int(total) != len(want) || len(vs) != len(want) {
			t.Fatalf("List(%+v): total %d, %d items; want %d", q, total, len(vs), len(want))
		}
		got := map[int64]bool{}
		for _, v := range vs {
			got[v.ID] = true
			// A summary says whether the case may be sentenced, as the
			// case itself does.
			full, err := e.Svc.Casefile.Get(ctx, e.Pros, v.ID)
			if err != nil || full.Sentenceable != v.Sentenceable || len(full.Bans) != len(v.Bans) {
				t.Errorf("case %d: sentenceable %v and %d bans in the list, %v and %d alone (%v)", v.ID, v.Sentenceable, len(v.Bans), full.Sentenceable, len(full.Bans), err)
			}
		}
		for _, ref := range want {
			if !got[ids[ref]] {
				t.Errorf("List(%+v) misses %s", q, ref)
			}
		}
	}
	one(casefile.ListQuery{Q: "goncalves"}, "R2")
	one(casefile.ListQuery{Q: "THIAGO GONÇALVES"}, "R2")
	one(casefile.ListQuery{Q: "garra do tatuape"}, "R5", "R6")
	one(casefile.ListQuery{Q: "100%"})
	one(casefile.ListQuery{Q: "_"})
	one(casefile.ListQuery{CPF: " 663.923.321-54 "}, "R1")
	one(casefile.ListQuery{CPF: "66392332154"}, "R1")
	one(casefile.ListQuery{Status: cases.StatusDistributed}, refs...)
	one(casefile.ListQuery{Status: cases.StatusSentenced})
	vs, total, err := e.Svc.Casefile.List(ctx, e.Pros, casefile.ListQuery{Page: 2, PerPage: 3})
	if err != nil || total != 8 || len(vs) != 3 {
		t.Fatalf("page 2 of 3: %d items, total %d, %v", len(vs), total, err)
	}
	if vs[0].ID != ids["R5"] { // newest first: R8..R6 on page 1, R5 first on page 2
		t.Errorf("page 2 starts with case %d, want R5 (%d)", vs[0].ID, ids["R5"])
	}
	// A sentenced case's summary carries its bans, as the case does.
	sc, _, _ := e.SentenceR1(t, "2025-06-01", 12, nil)
	if vs, _, err := e.Svc.Casefile.List(ctx, e.Pros, casefile.ListQuery{Number: sc.Number}); err != nil || len(vs) != 1 || len(vs[0].Bans) != 1 ||
		vs[0].Bans[0].State == "" || vs[0].Sentenceable {
		t.Errorf("sentenced case in the list: %+v, %v", vs, err)
	} else if full, err := e.Svc.Casefile.Get(ctx, e.Pros, sc.ID); err != nil || full.Bans[0].ID != vs[0].Bans[0].ID || full.Bans[0].State != vs[0].Bans[0].State {
		t.Errorf("ban in the list %+v, alone %+v (%v)", vs[0].Bans[0], full.Bans, err)
	}
	_, _, err = e.Svc.Casefile.List(ctx, e.Pros, casefile.ListQuery{CPF: "663.923.321-55"})
	casetest.InvalidField(t, err, "cpf", false)
	_, _, err = e.Svc.Casefile.List(ctx, e.Pros, casefile.ListQuery{PerPage: 101})
	casetest.InvalidField(t, err, "per_page", false)
}

// List by name (migration 00013): every word begins a word of one
// defendant's name, in any order, accents and case ignored; person and
// group names alike; a piece from the middle of a word does not match.
func TestRead_ListByName(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	ctx := context.Background()
	m, _, ids := e.FileFixtures(t)
	// P1: R4 again with a name with punctuation inside words.
	p1 := m["R4"]
	p1.Ref = "P1"
	p1.Defendants = append([]cases.DefendantInput(nil), p1.Defendants...)
	p1.Defendants[0].FullName = "Antônio C.Neves Ana/Paula D'Ávila"
	ids["P1"] = e.File(t, p1).ID
	for _, tc := range []struct {
		q      casefile.ListQuery
		want   []string
		reason string
	}{
		// Punctuation separates words, in names and in q; a name's
		// apostrophes may also be left out.
		{casefile.ListQuery{Q: "neves"}, []string{"P1"}, "a word after a dot"},
		{casefile.ListQuery{Q: "c neves paula"}, []string{"P1"}, "words around a dot and a slash"},
		{casefile.ListQuery{Q: "c.neves"}, []string{"P1"}, "a dot in q"},
		{casefile.ListQuery{Q: "paula/ana"}, []string{"P1"}, "a slash in q"},
		{casefile.ListQuery{Q: "davila"}, []string{"P1"}, "without the apostrophe"},
		{casefile.ListQuery{Q: "d’ávila antonio"}, []string{"P1"}, "with a typographic apostrophe"},
		{casefile.ListQuery{Q: "avila"}, []string{"P1"}, "after the apostrophe"},
		{casefile.ListQuery{Q: "THIAGO GONCALVES"}, []string{"R2"}, "case and accents"},
		{casefile.ListQuery{Q: "lacerda thiago"}, []string{"R2"}, "any order"},
		{casefile.ListQuery{Q: "Gonç thi"}, []string{"R2"}, "prefixes, with an accent"},
		{casefile.ListQuery{Q: "  fábio   SAMPAIO "}, []string{"R4"}, "spaces"},
		{casefile.ListQuery{Q: "tatu garra"}, []string{"R5", "R6"}, "group name, prefixes"},
		{casefile.ListQuery{Q: "organizada"}, []string{"R5", "R6"}, "group name, one word"},
		{casefile.ListQuery{Q: "garra", Status: cases.StatusDistributed}, []string{"R5", "R6"}, "with a status"},
		{casefile.ListQuery{Q: "garra", Status: cases.StatusSentenced}, nil, "with another status"},
		{casefile.ListQuery{Q: "lves"}, nil, "the end of a word"},
		{casefile.ListQuery{Q: "thiago figueiredo"}, nil, "words of two names"},
		{casefile.ListQuery{Q: "garra thiago"}, nil, "a group word and a person word"},
		{casefile.ListQuery{Q: "thiago x"}, nil, "one word matches nothing"},
		{casefile.ListQuery{Q: `o'neil \ 'a' | 'b' & !c:*`}, nil, "tsquery syntax is text"},
		{casefile.ListQuery{Q: "---"}, nil, "no word at all"},
		// Words of one to three letters only: the GIN index, not name_heads.
		{casefile.ListQuery{Q: "THI GON"}, []string{"R2"}, "short prefixes"},
		{casefile.ListQuery{Q: "tat ga"}, []string{"R5", "R6"}, "short prefixes of a group name"},
		{casefile.ListQuery{Q: "lve"}, nil, "a short end of a word"},
		{casefile.ListQuery{Q: "thi fig"}, nil, "short words of two names"},
		// LIKE's wildcards are separators of the words, not wildcards.
		{casefile.ListQuery{Q: "thiag%"}, []string{"R2"}, "a percent sign"},
		{casefile.ListQuery{Q: "t_iago"}, nil, "an underscore"},
		// Hyphens, tabs and line breaks separate words.
		{casefile.ListQuery{Q: "lacerda-thiago"}, []string{"R2"}, "a hyphen"},
		{casefile.ListQuery{Q: "gon-thi"}, []string{"R2"}, "a hyphen between short words"},
		{casefile.ListQuery{Q: "thiago\tlacerda\n"}, []string{"R2"}, "a tab and a line break"},
		{casefile.ListQuery{Q: "zzzz"}, nil, "nothing, by walking"},
		{casefile.ListQuery{Q: "zzzz", Page: 3}, nil, "nothing, page 3"},
	} {
		vs, total, err := e.Svc.Casefile.List(ctx, e.Pros, tc.q)
		if err != nil {
			t.Fatalf("%s: List(%+v): %v", tc.reason, tc.q, err)
		}
		if vs == nil { // JSON "items": [], not null
			t.Errorf("%s: List(%q) items are nil", tc.reason, tc.q.Q)
		}
		got := map[int64]bool{}
		for _, v := range vs {
			got[v.ID] = true
		}
		if int(total) != len(tc.want) || len(vs) != len(tc.want) {
			t.Errorf("%s: List(%q): total %d, %d items; want %v", tc.reason, tc.q.Q, total, len(vs), tc.want)
			continue
		}
		for _, ref := range tc.want {
			if !got[ids[ref]] {
				t.Errorf("%s: List(%q) misses %s", tc.reason, tc.q.Q, ref)
			}
		}
	}
	// Sort by name with a name: the group cases, then nothing else.
	vs, total, err := e.Svc.Casefile.List(ctx, e.Pros, casefile.ListQuery{Q: "torcida", Sort: "name"})
	if err != nil || total != 2 || len(vs) != 2 || vs[0].ID != min(ids["R5"], ids["R6"]) {
		t.Fatalf("q=torcida sort=name: %d items, total %d, %v", len(vs), total, err)
	}
}

// A common surname: the total counts cases (not defendants) exactly up to
// the cap and says 1,000 above it; the pages are newest first (or by name)
// however many cases match.
func TestRead_ListCommonName(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	ctx := context.Background()
	orig := e.File(t, casetest.Fixture(t, "R1"))
	// 1,300 copies of the filed case, one minute apart, with their own
	// sequences; their defendants are inserted below.
	var cols []string
	if err := e.G.Raw(`SELECT column_name FROM information_schema.columns WHERE table_name = 'cases' AND is_generated = 'NEVER'
		AND column_name NOT IN ('id', 'number', 'sequence', 'filed_at') ORDER BY ordinal_position`).Scan(&cols).Error; err != nil {
		t.Fatal(err)
	}
	list := strings.Join(cols, ", ")
	if err := e.G.Exec(`INSERT INTO cases (number, sequence, filed_at, `+list+`)
		SELECT lpad((1000000 + i)::text, 7, '0') || substr(number, 8), 1000000 + i, filed_at + i * interval '1 minute', `+list+`
		FROM cases, generate_series(1, 1300) AS i WHERE id = ?`, orig.ID).Error; err != nil {
		t.Fatal(err)
	}
	var copies []int64
	if err := e.G.Raw("SELECT id FROM cases WHERE sequence > 1000000 ORDER BY sequence").Scan(&copies).Error; err != nil || len(copies) != 1300 {
		t.Fatalf("%d copies: %v", len(copies), err)
	}
	// Defendants of copies [from, to): copy i has "Maria Magalhães 000i",
	// or "Joana Prado 000i" when i is a multiple of 7; every tenth copy
	// has a second defendant, "José Magalhaes Neto".
	addDefendants := func(from, to int) {
		t.Helper()
		err := e.G.Exec(`INSERT INTO defendants (case_id, position, kind, full_name)
			SELECT c.id, 0, 'person', CASE WHEN (c.sequence - 1000000) % 7 = 0 THEN 'Joana Prado ' ELSE 'Maria Magalhães ' END || lpad((c.sequence - 1000000)::text, 4, '0')
			FROM cases c WHERE c.id IN ?
			UNION ALL
			SELECT c.id, 1, 'person', 'José Magalhaes Neto' FROM cases c WHERE c.id IN ? AND (c.sequence - 1000000) % 10 = 0`,
			copies[from:to], copies[from:to]).Error
		if err != nil {
			t.Fatal(err)
		}
		if err := pgtest.Admin(t, e.G).Exec("ANALYZE cases, defendants").Error; err != nil {
			t.Fatal(err)
		}
	}
	// The oracle: the cases with a defendant whose unaccented name
	// matches the regular expression re, without name_search.
	want := func(re, order string) []int64 {
		t.Helper()
		var ids []int64
		if err := e.G.Raw(`SELECT id FROM cases c WHERE EXISTS (SELECT 1 FROM defendants d WHERE d.case_id = c.id
			AND f_unaccent(d.full_name) ~ ?) ORDER BY `+order, re).Scan(&ids).Error; err != nil {
			t.Fatal(err)
		}
		return ids
	}
	const newest = "filed_at DESC, id DESC"
	const byName = "(SELECT full_name FROM defendants d WHERE d.case_id = c.id ORDER BY position LIMIT 1) COLLATE juizado_pt, id"
	const magalh = `\mmagalh`
	page := func(q casefile.ListQuery, wantTotal int64, wantIDs []int64) {
		t.Helper()
		vs, total, err := e.Svc.Casefile.List(ctx, e.Pros, q)
		if err != nil {
			t.Fatalf("List(%+v): %v", q, err)
		}
		if total != wantTotal || len(vs) != len(wantIDs) {
			t.Fatalf("List(%+v): total %d, %d items; want %d, %d", q, total, len(vs), wantTotal, len(wantIDs))
		}
		for i, v := range vs {
			if v.ID != wantIDs[i] {
				t.Fatalf("List(%+v): item %d is case %d, want %d", q, i, v.ID, wantIDs[i])
			}
		}
	}
	// Copies 1-1,100: 1,053 defendants of that surname in 958 cases.
	addDefendants(0, 1100)
	if n := e.Count(t, "defendants", "full_name ~ 'Magalh'"); n != 1053 {
		t.Fatalf("%d defendants named Magalhães, want 1053", n)
	}
	all := want(magalh, newest)
	if len(all) != 958 {
		t.Fatalf("oracle: %d cases, want 958", len(all))
	}
	page(casefile.ListQuery{Q: "magalhães"}, 958, all[:20])
	page(casefile.ListQuery{Q: "MAGALH", Page: 48}, 958, all[940:])
	page(casefile.ListQuery{Q: "magalhaes", Page: 49}, 958, nil)
	page(casefile.ListQuery{Q: "magalhaes", Sort: "name", Page: 2, PerPage: 30}, 958, want(magalh, byName)[30:60])
	page(casefile.ListQuery{Q: "0701 magalh maria"}, 1, []int64{copies[700]})
	page(casefile.ListQuery{Q: "neto magalhaes jose"}, 110, want(`jose magalhaes neto`, newest)[:20])
	page(casefile.ListQuery{Q: "ne mag jos"}, 110, want(`jose magalhaes neto`, newest)[:20]) // the GIN path
	page(casefile.ListQuery{Q: "mag", Page: 48}, 958, all[940:])
	// Copies 1,101-1,300: 1,133 cases, more than the cap.
	addDefendants(1100, 1300)
	all = want(magalh, newest)
	if len(all) != 1133 {
		t.Fatalf("oracle: %d cases, want 1133", len(all))
	}
	page(casefile.ListQuery{Q: "Magalhães"}, 1000, all[:20])
	page(casefile.ListQuery{Q: "magalhaes", Page: 3, PerPage: 50}, 1000, all[100:150])
	page(casefile.ListQuery{Q: "magalhaes", Page: 57}, 1000, all[1120:])
	page(casefile.ListQuery{Q: "magalhaes", Sort: "name"}, 1000, want(magalh, byName)[:20])
	page(casefile.ListQuery{Q: "magalhaes", Sort: "name", Page: 57}, 1000, want(magalh, byName)[1120:])
	page(casefile.ListQuery{Q: "mag", Page: 2}, 1000, all[20:40]) // the GIN path
	page(casefile.ListQuery{Q: "magalhaes", Status: cases.StatusSentenced}, 0, nil)
	page(casefile.ListQuery{Q: "prado"}, 185, want(`prado`, newest)[:20])

	// With statistics (ANALYZE) a name of several heads walks the pair of
	// its two rarest ("jose neto": 130 defendants each, "maga": 1,244), a
	// name of one head that head; the answers are the same as above.
	if err := pgtest.Admin(t, e.G).Exec("ANALYZE name_heads").Error; err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"neto magalhaes jose": "jose neto", "magalhães": "maga", "MAGALH magalhaes": "maga",
		"maria magalhaes": "maga mari", "jo": "", "jo magalh": "maga"} {
		head, err := e.Svc.Casefile.NamePlan(ctx, name, true)
		if err != nil || head != want {
			t.Errorf("NamePlan(%q) = %q, %v; want %q", name, head, err, want)
		}
	}
	page(casefile.ListQuery{Q: "neto magalhaes jose"}, 130, want(`jose magalhaes neto`, newest)[:20])
	page(casefile.ListQuery{Q: "neto magalhaes jose", Page: 7}, 130, want(`jose magalhaes neto`, newest)[120:])
	page(casefile.ListQuery{Q: "Magalhães", Page: 2}, 1000, all[20:40])
	page(casefile.ListQuery{Q: "maria magalhaes"}, 1000, want(`maria magalhaes`, newest)[:20])
	page(casefile.ListQuery{Q: "0701 magalh maria"}, 1, []int64{copies[700]})
}

// name_heads (migration 00016) follows the defendants and their cases:
// after filing, renaming, moving a case's filing instant and deleting a
// defendant, its rows are exactly those computed here from each
// defendant's words (f_name_words_stored): one per distinct head, the first four
// letters of a word of three letters or more, and one per pair of distinct
// four-letter heads.
func TestRead_NameHeadsFollowDefendants(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	e.FileFixtures(t)
	type row struct {
		Head, CourtCode string
		FiledAt         time.Time
		CaseID, DefID   int64
		Words           string
	}
	check := func(step string) {
		t.Helper()
		var ds []struct {
			ID, CaseID int64
			CourtCode  string
			FiledAt    time.Time
			Words      string
		}
		if err := e.G.Raw(`SELECT d.id, d.case_id, c.court_code, c.filed_at,
			array_to_string(f_name_words_stored(d.full_name || ' ' || d.group_name), ' ') AS words
			FROM defendants d JOIN cases c ON c.id = d.case_id`).Scan(&ds).Error; err != nil {
			t.Fatal(err)
		}
		want := map[row]bool{}
		for _, d := range ds {
			var fours []string // distinct four-letter heads
			for _, w := range strings.Fields(d.Words) {
				r := []rune(w)
				if len(r) < 3 {
					continue
				}
				h := string(r[:min(4, len(r))])
				want[row{h, d.CourtCode, d.FiledAt.UTC(), d.CaseID, d.ID, " " + d.Words}] = true
				if len(r) >= 4 && !slices.Contains(fours, h) {
					fours = append(fours, h)
				}
			}
			for _, a := range fours { // and every pair of them, in order
				for _, b := range fours {
					if a < b {
						want[row{a + " " + b, d.CourtCode, d.FiledAt.UTC(), d.CaseID, d.ID, " " + d.Words}] = true
					}
				}
			}
		}
		var got []row
		if err := e.G.Raw("SELECT head, court_code, filed_at, case_id, defendant_id AS def_id, words FROM name_heads").Scan(&got).Error; err != nil {
			t.Fatal(err)
		}
		seen := map[row]bool{}
		for _, r := range got {
			r.FiledAt = r.FiledAt.UTC()
			if !want[r] || seen[r] {
				t.Errorf("%s: name_heads has %+v, which is not wanted or twice", step, r)
			}
			seen[r] = true
		}
		for r := range want {
			if !seen[r] {
				t.Errorf("%s: name_heads misses %+v", step, r)
			}
		}
		if len(want) < 10 {
			t.Fatalf("%s: only %d rows wanted: the fixtures changed?", step, len(want))
		}
	}
	check("filed")
	exec := func(sql string, args ...any) {
		t.Helper()
		if err := e.G.Exec(sql, args...).Error; err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	var d cases.Defendant
	if err := e.G.Where("kind = 'person'").Order("id").First(&d).Error; err != nil {
		t.Fatal(err)
	}
	exec("UPDATE defendants SET full_name = 'Ênio Xavier da Sé Würzburg' WHERE id = ?", d.ID)
	check("renamed")
	if vs, _, err := e.Svc.Casefile.List(context.Background(), e.Pros, casefile.ListQuery{Q: "wurz enio"}); err != nil || len(vs) != 1 || vs[0].ID != d.CaseID {
		t.Errorf("the renamed defendant's case is not found by its new name: %d items, %v", len(vs), err)
	}
	exec("UPDATE cases SET filed_at = filed_at - interval '1 day' WHERE id = ?", d.CaseID)
	check("case refiled")
	exec("DELETE FROM defendants WHERE id = ?", d.ID)
	check("defendant deleted")
}
