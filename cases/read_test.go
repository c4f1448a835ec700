package cases_test

import (
	"context"
	"testing"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/errs"
)

// GET by id and by CNJ number: of the actor's court only; a malformed number
// or wrong check digits is 422, a valid unknown number 404 (API.md).
func TestRead_GetAndByNumber(t *testing.T) {
	t.Parallel()
	e := newEnv(t, t0, 1)
	ctx := context.Background()
	c := e.file(t, fixture(t, "R2"))
	formatted := cases.FormatNumber(c.Number)
	for _, number := range []string{c.Number, formatted, " " + formatted + " "} {
		v, err := e.svc.ByNumber(ctx, e.pros, number)
		if err != nil {
			t.Errorf("ByNumber(%q): %v", number, err)
			continue
		}
		if v.ID != c.ID || v.Number != formatted {
			t.Errorf("ByNumber(%q) = case %d %s, want %d %s", number, v.ID, v.Number, c.ID, formatted)
		}
	}
	v, err := e.svc.Get(ctx, e.pros, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	if v.Event == nil || v.Event.Venue != "Estádio Jornalista Mário Filho (Maracanã)" || v.Facts.Date.String() != "2025-03-30" ||
		len(v.Defendants) != 1 || v.Defendants[0].CPF == nil || *v.Defendants[0].CPF != "46881973659" ||
		v.FiledBy.Role != "prosecutor" || v.FiledBy.Kind != "prosecutor" || len(v.Movements) != 2 {
		t.Errorf("view = %+v", v)
	}
	// Another court sees nothing.
	if err := cases.EnsureCourt(ctx, e.g, "19.0001", ""); err != nil {
		t.Fatal(err)
	}
	stranger := cases.Actor{UserID: e.pros.UserID, Role: "prosecutor", Court: "19.0001"}
	_, err = e.svc.Get(ctx, stranger, c.ID)
	kindIs(t, err, errs.NotFound)
	_, err = e.svc.ByNumber(ctx, stranger, c.Number)
	kindIs(t, err, errs.NotFound)
	// Valid but unknown; wrong check digits; malformed.
	other, _ := cases.NewCNJFor(court, 2025, 99)
	_, err = e.svc.ByNumber(ctx, e.pros, other.String())
	kindIs(t, err, errs.NotFound)
	_, err = e.svc.ByNumber(ctx, e.pros, "0058967-76.2016.8.19.0000")
	invalidField(t, err, "number", false)
	_, err = e.svc.ByNumber(ctx, e.pros, "abc")
	invalidField(t, err, "number", false)
}

// List: q matches defendant names ignoring accents and case; cpf with or
// without punctuation; status; pages from 1 with the total.
func TestRead_List(t *testing.T) {
	t.Parallel()
	e := newEnv(t, t0, 1)
	ctx := context.Background()
	m, refs := fixtures(t)
	ids := map[string]int64{}
	for _, ref := range refs {
		ids[ref] = e.file(t, m[ref]).ID
	}
	one := func(q cases.ListQuery, want ...string) {
		t.Helper()
		vs, total, err := e.svc.List(ctx, e.pros, q)
		if err != nil {
			t.Fatalf("List(%+v): %v", q, err)
		}
		if int(total) != len(want) || len(vs) != len(want) {
			t.Fatalf("List(%+v): total %d, %d items; want %d", q, total, len(vs), len(want))
		}
		got := map[int64]bool{}
		for _, v := range vs {
			got[v.ID] = true
		}
		for _, ref := range want {
			if !got[ids[ref]] {
				t.Errorf("List(%+v) misses %s", q, ref)
			}
		}
	}
	one(cases.ListQuery{Q: "goncalves"}, "R2")
	one(cases.ListQuery{Q: "THIAGO GONÇALVES"}, "R2")
	one(cases.ListQuery{Q: "garra do tatuape"}, "R5", "R6")
	one(cases.ListQuery{Q: "100%"})
	one(cases.ListQuery{Q: "_"})
	one(cases.ListQuery{CPF: " 663.923.321-54 "}, "R1")
	one(cases.ListQuery{CPF: "66392332154"}, "R1")
	one(cases.ListQuery{Status: cases.StatusDistributed}, refs...)
	one(cases.ListQuery{Status: cases.StatusSentenced})
	vs, total, err := e.svc.List(ctx, e.pros, cases.ListQuery{Page: 2, PerPage: 3})
	if err != nil || total != 8 || len(vs) != 3 {
		t.Fatalf("page 2 of 3: %d items, total %d, %v", len(vs), total, err)
	}
	if vs[0].ID != ids["R5"] { // newest first: R8..R6 on page 1, R5 first on page 2
		t.Errorf("page 2 starts with case %d, want R5 (%d)", vs[0].ID, ids["R5"])
	}
	_, _, err = e.svc.List(ctx, e.pros, cases.ListQuery{CPF: "663.923.321-55"})
	invalidField(t, err, "cpf", false)
	_, _, err = e.svc.List(ctx, e.pros, cases.ListQuery{PerPage: 101})
	invalidField(t, err, "per_page", false)
}
