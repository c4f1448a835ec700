package cases_test

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/internal/casetest"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/testenv"
	"github.com/juizado/juizado/sanctions"
)

// Res. CNJ 65/2008: NNNNNNN-DD.AAAA.J.TR.OOOO, J = 8 (state courts), TR.OOOO
// of the court, AAAA the filing year in the court's zone.
func assertCNJ(t *testing.T, c *cases.Case, year, seq int) {
	t.Helper()
	n, err := cases.ParseCNJ(c.Number)
	if err != nil {
		t.Fatalf("number %q is not a valid CNJ number: %v", c.Number, err)
	}
	if n.Segment != 8 || n.Court != 26 || n.Unit != 100 || n.Year != year {
		t.Errorf("number %s: J=%d TR=%d OOOO=%d AAAA=%d, want J=8 TR=26 OOOO=0100 AAAA=%d", n, n.Segment, n.Court, n.Unit, n.Year, year)
	}
	if seq > 0 && (n.Sequence != seq || c.Sequence != seq) {
		t.Errorf("number %s: sequence %d (case %d), want %d", n, n.Sequence, c.Sequence, seq)
	}
	if c.Year != year {
		t.Errorf("case year = %d, want %d", c.Year, year)
	}
}

// Every representation of the fixture files: persons (R1-R4, R7, R8) and the
// fan groups (R5, R6, not registered: group_id nil).
func TestFile_FixtureRepresentations_ResCNJ65(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	m, refs := casetest.Fixtures(t)
	for i, ref := range refs {
		c := e.File(t, m[ref])
		assertCNJ(t, c, 2025, i+1)
		if c.Status != cases.StatusDistributed || c.JudgeID == nil || *c.JudgeID != e.Judges[0].UserID {
			t.Errorf("%s: status %q judge %v, want distributed to %d", ref, c.Status, c.JudgeID, e.Judges[0].UserID)
		}
		ds := e.Defendants(t, c.ID)
		if len(ds) != len(m[ref].Defendants) {
			t.Fatalf("%s: %d defendants stored, want %d", ref, len(ds), len(m[ref].Defendants))
		}
		in := m[ref].Defendants[0]
		d := ds[0]
		switch in.Kind {
		case "person":
			if d.Kind != "person" || d.FullName != in.FullName || d.CPF == nil || len(*d.CPF) != 11 || d.BirthDate == nil || d.BirthDate.String() != in.BirthDate {
				t.Errorf("%s: defendant stored as %+v", ref, d)
			}
		case "fan_group":
			if d.Kind != "fan_group" || d.GroupName != in.Name || d.GroupID != nil {
				t.Errorf("%s: group defendant stored as %+v (want group_id nil: no registered group)", ref, d)
			}
		}
	}
	// Stored facts date of every case is the date of occurred_at in São Paulo.
	var got []cases.Case
	if err := e.G.Order("sequence").Find(&got).Error; err != nil {
		t.Fatal(err)
	}
	if len(got) != 8 {
		t.Fatalf("%d cases stored, want 8", len(got))
	}
	for i, c := range got {
		occ, _ := time.Parse(time.RFC3339, m[refs[i]].Facts.OccurredAt)
		if want := civil.Today(occ, testenv.SaoPaulo); c.FactsDate != want {
			t.Errorf("%s: facts date %s, want %s", refs[i], c.FactsDate, want)
		}
	}
}

// The facts date is the date in the court's zone (America/Sao_Paulo): R2
// happened at 21:05 -03:00 (00:05 UTC of the next day) on 30/03/2025.
func TestFile_FactsDateInCourtZone(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	c := e.File(t, casetest.Fixture(t, "R2"))
	if want := civil.MustParse("2025-03-30"); c.FactsDate != want {
		t.Errorf("facts date = %s, want %s", c.FactsDate, want)
	}
	var stored cases.Case
	if err := e.G.Take(&stored, c.ID).Error; err != nil {
		t.Fatal(err)
	}
	if want := civil.MustParse("2025-03-30"); stored.FactsDate != want {
		t.Errorf("stored facts date = %s, want %s", stored.FactsDate, want)
	}
}

// The CNJ year (AAAA) is the filing year in America/Sao_Paulo, and the
// sequence restarts at 1 each year (Res. CNJ 65/2008).
func TestFile_CNJYearInSaoPauloAndSequencePerYear(t *testing.T) {
	t.Parallel()
	e := newEnv(t, time.Date(2026, 12, 31, 23, 30, 0, 0, testenv.SaoPaulo), 1) // 2027-01-01 02:30 UTC
	r := casetest.Fixture(t, "R1")
	a := e.File(t, r)
	assertCNJ(t, a, 2026, 1)
	b := e.File(t, r)
	assertCNJ(t, b, 2026, 2)
	e.Clk.Set(time.Date(2027, 1, 1, 0, 30, 0, 0, testenv.SaoPaulo))
	c := e.File(t, r)
	assertCNJ(t, c, 2027, 1)
	if a.Number == c.Number {
		t.Errorf("same number %s in two years", a.Number)
	}
}

// Gapless and unique sequence under concurrency: 200 filings at once get
// exactly 1..200.
func TestFile_CNJSequenceGaplessUnderConcurrency(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 2)
	r := casetest.Fixture(t, "R1")
	const n = 200
	var wg sync.WaitGroup
	errsCh := make(chan error, n)
	seqs := make(chan int, n)
	start := make(chan struct{})
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			c, err := e.Svc.Case.File(context.Background(), e.Pros, r)
			if err != nil {
				errsCh <- err
				return
			}
			n, err := cases.ParseCNJ(c.Number)
			if err != nil || n.Sequence != c.Sequence {
				errsCh <- fmt.Errorf("number %s, sequence %d: %v", c.Number, c.Sequence, err)
				return
			}
			seqs <- c.Sequence
		}()
	}
	close(start)
	wg.Wait()
	close(errsCh)
	close(seqs)
	for err := range errsCh {
		t.Error(err)
	}
	var got []int
	for s := range seqs {
		got = append(got, s)
	}
	sort.Ints(got)
	if len(got) != n {
		t.Fatalf("got %d sequences, want %d", len(got), n)
	}
	for i, s := range got {
		if s != i+1 {
			t.Fatalf("sequences = %v, want 1..%d", got, n)
		}
	}
	if k := e.Count(t, "cases", ""); k != n {
		t.Errorf("%d cases stored, want %d", k, n)
	}
	// Equitable distribution in turn under concurrency: 100 each.
	for _, j := range e.Judges {
		if k := e.Count(t, "cases", "judge_id = ?", j.UserID); k != n/2 {
			t.Errorf("judge %s has %d cases, want %d", j.Name, k, n/2)
		}
	}
}

func TestFile_Validation(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	ctx := context.Background()

	t.Run("CPFCheckDigits", func(t *testing.T) {
		r := casetest.Fixture(t, "R1")
		r.Defendants[0].CPF = casetest.Ptr("663.923.321-55")
		_, err := e.Svc.Case.File(ctx, e.Pros, r)
		casetest.InvalidField(t, err, "defendants[0].cpf", false)
	})
	t.Run("UnknownVenue", func(t *testing.T) {
		r := casetest.Fixture(t, "R1")
		r.Event.Venue = "Estádio do Pacaembu Imaginário"
		_, err := e.Svc.Case.File(ctx, e.Pros, r)
		casetest.InvalidField(t, err, "event.venue", false)
	})
	t.Run("UnknownConductWord", func(t *testing.T) {
		r := casetest.Fixture(t, "R1")
		r.Facts.Conduct = []string{"violence", "shouting"}
		_, err := e.Svc.Case.File(ctx, e.Pros, r)
		casetest.InvalidField(t, err, "facts.conduct", true)
	})
	t.Run("MinorAtFactsDate_ECA", func(t *testing.T) {
		r := casetest.Fixture(t, "R1")           // facts 30/03/2025
		r.Defendants[0].BirthDate = "2007-03-31" // 18 the day after the facts
		_, err := e.Svc.Case.File(ctx, e.Pros, r)
		casetest.InvalidField(t, err, "defendants[0].birth_date", false)
		r.Defendants[0].BirthDate = "2007-03-30" // 18 on the day of the facts
		if _, err := e.Svc.Case.File(ctx, e.Pros, r); err != nil {
			t.Errorf("18 on the date of the facts: %v", err)
		}
	})
	t.Run("EventRequiredForOnVenueConduct", func(t *testing.T) {
		r := casetest.Fixture(t, "R1")
		r.Event = nil
		_, err := e.Svc.Case.File(ctx, e.Pros, r)
		casetest.InvalidField(t, err, "event", false)
	})
	t.Run("VenueMatchIgnoresAccentsAndCase", func(t *testing.T) {
		for _, tc := range []struct{ name, want string }{
			{"arena corinthians", "Arena Corinthians"},
			{"ESTADIO JORNALISTA MARIO FILHO (MARACANA)", "Estádio Jornalista Mário Filho (Maracanã)"},
			{"Maracanã", "Estádio Jornalista Mário Filho (Maracanã)"},
			{"  maracana ", "Estádio Jornalista Mário Filho (Maracanã)"},
			{"Beira-Rio", "Estádio José Pinheiro Borda (Beira-Rio)"},
		} {
			r := casetest.Fixture(t, "R1")
			r.Event.Venue = tc.name
			c, err := e.Svc.Case.File(ctx, e.Pros, r)
			if err != nil {
				t.Errorf("venue %q: %v", tc.name, err)
				continue
			}
			var v cases.Venue
			if c.VenueID == nil || e.G.Take(&v, *c.VenueID).Error != nil || v.Name != tc.want {
				t.Errorf("venue %q matched %q, want %q", tc.name, v.Name, tc.want)
			}
		}
	})
}

// A refused filing writes nothing and consumes no CNJ sequence number.
func TestFile_RefusedFilingLeavesNoCaseNorSequence(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	ctx := context.Background()
	first := e.File(t, casetest.Fixture(t, "R1"))
	assertCNJ(t, first, 2025, 1)
	bad := casetest.Fixture(t, "R2")
	bad.Defendants[0].CPF = casetest.Ptr("468.819.736-58")
	if _, err := e.Svc.Case.File(ctx, e.Pros, bad); err == nil {
		t.Fatal("invalid CPF filed")
	}
	bad = casetest.Fixture(t, "R2")
	bad.Event.Venue = "Nowhere"
	if _, err := e.Svc.Case.File(ctx, e.Pros, bad); err == nil {
		t.Fatal("unknown venue filed")
	}
	if n := e.Count(t, "cases", ""); n != 1 {
		t.Errorf("%d cases after refused filings, want 1", n)
	}
	if n := e.Count(t, "defendants", ""); n != 1 {
		t.Errorf("%d defendants after refused filings, want 1", n)
	}
	next := e.File(t, casetest.Fixture(t, "R2"))
	assertCNJ(t, next, 2025, 2)
}

// Distribution (TPU 26): a court without a judge keeps the case filed; the
// first judge created gets it; two judges share cases in turn.
func TestDistribution_TPU26(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 0)
	ctx := context.Background()
	c := e.File(t, casetest.Fixture(t, "R1"))
	if c.Status != cases.StatusFiled || c.JudgeID != nil {
		t.Fatalf("no judge: status %q judge %v, want filed and nil", c.Status, c.JudgeID)
	}
	if n := e.Count(t, "movements", "case_id = ? AND tpu_code = 26", c.ID); n != 0 {
		t.Errorf("%d distribution movements without a judge", n)
	}
	j := e.AddJudge(t, "Juíza Primeira")
	n, err := e.Svc.Case.DistributePending(ctx, testenv.Court)
	if err != nil || n != 1 {
		t.Fatalf("DistributePending = %d, %v; want 1", n, err)
	}
	var got cases.Case
	if err := e.G.Take(&got, c.ID).Error; err != nil {
		t.Fatal(err)
	}
	if got.Status != cases.StatusDistributed || got.JudgeID == nil || *got.JudgeID != j.UserID {
		t.Errorf("after DistributePending: status %q judge %v, want distributed to %d", got.Status, got.JudgeID, j.UserID)
	}
	if n := e.Count(t, "movements", "case_id = ? AND tpu_code = 26", c.ID); n != 1 {
		t.Errorf("%d TPU 26 movements, want 1", n)
	}
	if n, err := e.Svc.Case.DistributePending(ctx, testenv.Court); err != nil || n != 0 {
		t.Errorf("second DistributePending = %d, %v; want 0", n, err)
	}
	v, err := e.Svc.Casefile.Get(ctx, e.Pros, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	if v.Judge == nil || v.Judge.ID != j.UserID || v.Judge.Name != "Juíza Primeira" {
		t.Errorf("view judge = %+v", v.Judge)
	}
}

func TestDistribution_TwoJudgesSplitEvenly(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 2)
	r := casetest.Fixture(t, "R1")
	per := map[int64]int{}
	for i := 0; i < 4; i++ {
		c := e.File(t, r)
		if c.JudgeID == nil || c.Status != cases.StatusDistributed {
			t.Fatalf("case %d not distributed", i)
		}
		per[*c.JudgeID]++
		if n := e.Count(t, "movements", "case_id = ? AND tpu_code = 26", c.ID); n != 1 {
			t.Errorf("case %d: %d TPU 26 movements, want 1", c.ID, n)
		}
	}
	for _, j := range e.Judges {
		if per[j.UserID] != 2 {
			t.Errorf("split = %v, want 2 per judge", per)
		}
	}
}

// A fan_group defendant is linked to the one registered group of the same
// name (case and accents ignored); a group_id that does not exist is 422;
// a linked group is sentenced under LGE art. 183 § 2º (up to 60 months),
// as a civil judgment, unpublished by default.
func TestFile_FanGroupLinkAndGroupBanArt183(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	ctx := context.Background()
	r := casetest.Fixture(t, "R5")
	r.Defendants[0].GroupID = casetest.Ptr(int64(999))
	_, err := e.Svc.Case.File(ctx, e.Pros, r)
	casetest.KindIs(t, err, errs.NotFound)

	// A group of another court is neither taken by id (404 as the unknown
	// 999) nor linked by its name.
	if err := cases.EnsureCourt(ctx, e.G, "19.0001", ""); err != nil {
		t.Fatal(err)
	}
	var other int64
	if err := e.G.Raw("INSERT INTO fan_groups (name, supported_club, court_code) VALUES ('Torcida Organizada Garra do Tatuapé', 'Corinthians', '19.0001') RETURNING id").Scan(&other).Error; err != nil {
		t.Fatal(err)
	}
	r = casetest.Fixture(t, "R5")
	r.Defendants[0].GroupID = &other
	_, err2 := e.Svc.Case.File(ctx, e.Pros, r)
	casetest.KindIs(t, err2, errs.NotFound)
	if err != nil && err2 != nil && strings.ReplaceAll(err.Error(), "999", "N") != strings.ReplaceAll(err2.Error(), fmt.Sprint(other), "N") {
		t.Errorf("another court's group is told apart from an unknown one: %q vs %q", err, err2)
	}
	if c := e.File(t, casetest.Fixture(t, "R5")); e.Defendants(t, c.ID)[0].GroupID != nil {
		t.Errorf("filing linked the group of another court by its name")
	}
	if err := e.G.Exec("DELETE FROM fan_groups WHERE id = ?", other).Error; err != nil {
		t.Fatal(err)
	}

	var gid int64
	if err := e.G.Raw("INSERT INTO fan_groups (name, supported_club, court_code) VALUES ('TORCIDA ORGANIZADA GARRA DO TATUAPE', 'Corinthians', '26.0100') RETURNING id").Scan(&gid).Error; err != nil {
		t.Fatal(err)
	}
	c := e.File(t, casetest.Fixture(t, "R5"))
	d := e.Defendants(t, c.ID)[0]
	if d.GroupID == nil || *d.GroupID != gid {
		t.Fatalf("group_id = %v, want %d", d.GroupID, gid)
	}
	j := e.JudgeOf(t, c)
	_, err = e.Svc.Decisions.Sentence(ctx, j, c.ID, casetest.GroupSentenceIn(d.ID, 61))
	if msg := casetest.InvalidField(t, err, "ban.months", false); !strings.Contains(msg, "art. 183") {
		t.Errorf("61 months: message %q does not name art. 183", msg)
	}
	res, err := e.Svc.Decisions.Sentence(ctx, j, c.ID, casetest.GroupSentenceIn(d.ID, 60))
	if err != nil {
		t.Fatal(err)
	}
	b := res.Ban
	if b.Subject != sanctions.Group || !strings.HasPrefix(b.Article, "art. 183") || b.Source != sanctions.FromCivilJudgment ||
		b.Publish || b.GroupID == nil || *b.GroupID != gid || b.CPF != nil || b.Name != "TORCIDA ORGANIZADA GARRA DO TATUAPE" { // the registered name
		t.Errorf("group ban = %+v", b)
	}
}
