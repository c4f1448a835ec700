package decisions_test

import (
	"context"
	"strings"
	"testing"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/decisions"
	"github.com/juizado/juizado/cases/internal/casetest"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/testenv"
	"github.com/juizado/juizado/sanctions"
)

// The term must lie in the range of the rule in force at the date of the
// facts, and the refusal names that article: LGE art. 201 § 2º (2025),
// Estatuto art. 41-B § 2º (2018), Estatuto art. 39 (2008).
func TestSentence_TermRangeByDateOfFacts(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	ctx := context.Background()
	for _, tc := range []struct {
		ref, first string
		max        int
		article    string
	}{
		{"R1", "", 36, "art. 201"},
		{"R7", "", 36, "art. 41-B"},
		{"R8", "", 12, "art. 39"},
	} {
		t.Run(tc.ref, func(t *testing.T) {
			c, d, j := e.FileOne(t, tc.ref)
			e.Receive(t, c)
			for _, m := range []int{tc.max + 1, 2} {
				_, err := e.Svc.Decisions.Sentence(ctx, j, c.ID, casetest.SentenceIn(d.ID, tc.first, m))
				msg := casetest.InvalidField(t, err, "ban.months", false)
				if !strings.Contains(msg, tc.article) {
					t.Errorf("%d months: message %q does not name %q", m, msg, tc.article)
				}
			}
			if n := e.Count(t, "bans", "case_id = ?", c.ID); n != 0 {
				t.Fatalf("%d bans after refused sentences", n)
			}
			res, err := e.Svc.Decisions.Sentence(ctx, j, c.ID, casetest.SentenceIn(d.ID, tc.first, tc.max))
			if err != nil {
				t.Fatalf("%d months: %v", tc.max, err)
			}
			if !strings.HasPrefix(res.Ban.Article, tc.article) {
				t.Errorf("article = %q, want %q", res.Ban.Article, tc.article)
			}
			if res.Ban.RangeMaxMonths != tc.max || res.Ban.RangeMinMonths != 3 {
				t.Errorf("range = %d..%d, want 3..%d", res.Ban.RangeMinMonths, res.Ban.RangeMaxMonths, tc.max)
			}
		})
	}
}

// The ban cannot start before the date of the facts, nor before the final
// judgment (Súmula 643 STJ): a first day the judge fixes is a future day.
func TestSentence_FirstDayNotBeforeFacts_Sumula_643_STJ(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	c, d, j := e.FileOne(t, "R1")
	e.Receive(t, c)
	_, err := e.Svc.Decisions.Sentence(context.Background(), j, c.ID, casetest.SentenceIn(d.ID, "2025-03-29", 6))
	casetest.InvalidField(t, err, "ban.first_day", false)
	_, err = e.Svc.Decisions.Sentence(context.Background(), j, c.ID, casetest.SentenceIn(d.ID, "2025-06-09", 6))
	if msg := casetest.InvalidField(t, err, "ban.first_day", false); !strings.Contains(msg, "Súmula 643") {
		t.Errorf("past first day: %q should cite Súmula 643", msg)
	}
	if n := e.Count(t, "bans", ""); n != 0 {
		t.Errorf("%d bans, want 0", n)
	}
}

// CP art. 10: the first day counts; the last day is the day before the same
// day-number; a missing day rolls to the 1st of the next month. The first
// day is the day the judgment became final.
func TestSentence_LastDayCPArt10(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	for _, tc := range []struct{ first, last string }{
		{"2025-05-31", "2025-08-30"},
		{"2025-11-30", "2026-02-28"},
	} {
		_, banID, _ := e.FinalBan(t, "R1", tc.first, 3, nil)
		var b sanctions.Ban
		if err := e.G.Take(&b, banID).Error; err != nil {
			t.Fatal(err)
		}
		if b.FirstDay == nil || b.FirstDay.String() != tc.first || b.LastDay == nil || b.LastDay.String() != tc.last ||
			b.ComputedLastDay == nil || b.ComputedLastDay.String() != tc.last || b.Months == nil || *b.Months != 3 || b.Status != "active" {
			t.Errorf("stored ban: first %v last %v computed %v months %v status %s; want %s..%s, 3", b.FirstDay, b.LastDay, b.ComputedLastDay, b.Months, b.Status, tc.first, tc.last)
		}
	}
}

// § 2º: without the conditions (eligible=false) there is no conversion; the
// refusal writes nothing (one transaction).
func TestSentence_NotEligibleArt201Sec2_WritesNothing(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	c, d, j := e.FileOne(t, "R1")
	e.Receive(t, c)
	bans, moves := e.Count(t, "bans", ""), e.Count(t, "movements", "")
	versions := e.Count(t, "blocklist_versions", "")
	in := casetest.SentenceIn(d.ID, "", 12)
	in.Eligible = casetest.Ptr(false)
	_, err := e.Svc.Decisions.Sentence(context.Background(), j, c.ID, in)
	if msg := casetest.InvalidField(t, err, "eligible", false); !strings.Contains(msg, "prison") {
		t.Errorf("message %q should point to outcome prison", msg)
	}
	if n := e.Count(t, "bans", ""); n != bans {
		t.Errorf("bans %d → %d after a refused sentence", bans, n)
	}
	if n := e.Count(t, "movements", ""); n != moves {
		t.Errorf("movements %d → %d after a refused sentence", moves, n)
	}
	if n := e.Count(t, "blocklist_versions", ""); n != versions {
		t.Errorf("blocklist versions %d → %d after a refused sentence", versions, n)
	}
	var got cases.Case
	if err := e.G.Take(&got, c.ID).Error; err != nil {
		t.Fatal(err)
	}
	if got.Status != cases.StatusInstructionHearing { // the accusation received (Lei 9.099/1995, art. 81)
		t.Errorf("status = %q, want instruction_hearing", got.Status)
	}
}

// A defendant is sentenced once (409); only the case's judge sentences (403).
func TestSentence_ConflictAndForbidden(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 2)
	ctx := context.Background()
	c, d, j := e.FileOne(t, "R1")
	e.Receive(t, c)
	other := e.Judges[0]
	if other.UserID == j.UserID {
		other = e.Judges[1]
	}
	_, err := e.Svc.Decisions.Sentence(ctx, other, c.ID, casetest.SentenceIn(d.ID, "", 12))
	casetest.KindIs(t, err, errs.Forbidden)
	_, err = e.Svc.Decisions.Sentence(ctx, e.Pros, c.ID, casetest.SentenceIn(d.ID, "", 12))
	casetest.KindIs(t, err, errs.Forbidden)
	if n := e.Count(t, "bans", ""); n != 0 {
		t.Fatalf("%d bans after forbidden sentences", n)
	}
	if _, err := e.Svc.Decisions.Sentence(ctx, j, c.ID, casetest.SentenceIn(d.ID, "", 12)); err != nil {
		t.Fatal(err)
	}
	_, err = e.Svc.Decisions.Sentence(ctx, j, c.ID, casetest.SentenceIn(d.ID, "", 6))
	casetest.KindIs(t, err, errs.Conflict)
	if n := e.Count(t, "bans", "defendant_id = ?", d.ID); n != 1 {
		t.Errorf("%d bans for the defendant, want 1", n)
	}
}

// The ban records the law, the article, the source and the date of the facts
// that chose them (DOMAIN.md §2); the case becomes sentenced with TPU 219.
func TestSentence_RecordsRuleAndSentencesCase(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	ctx := context.Background()
	c, _, j, res := e.Sentenced(t, "R1", 12)
	var b sanctions.Ban
	if err := e.G.Take(&b, res.Ban.ID).Error; err != nil {
		t.Fatal(err)
	}
	if b.Law != "Lei 14.597/2023" || !strings.HasPrefix(b.Article, "art. 201") || b.Source != sanctions.FromSentence ||
		b.FactsDate != civil.MustParse("2025-03-30") || b.Subject != sanctions.Person {
		t.Errorf("ban law %q article %q source %q facts %s subject %q", b.Law, b.Article, b.Source, b.FactsDate, b.Subject)
	}
	if b.CPF == nil || *b.CPF != "66392332154" || b.Name != "Marcelo Augusto Figueiredo" || b.CaseNumber != c.Number ||
		b.CourtCode != testenv.Court || b.BirthDate == nil || b.BirthDate.String() != "1991-07-22" || b.Status != "awaiting_final" || !b.Publish ||
		b.FirstDay != nil || b.LastDay != nil {
		t.Errorf("ban identity: %+v", b)
	}
	if b.CreatedBy == nil || *b.CreatedBy != j.UserID {
		t.Errorf("ban created_by = %v, want the judge %d", b.CreatedBy, j.UserID)
	}
	v, err := e.Svc.Casefile.Get(ctx, j, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	if v.Status != cases.StatusSentenced {
		t.Errorf("status = %q, want sentenced", v.Status)
	}
	has := map[int]bool{}
	for _, m := range v.Movements {
		if m.TPUCode != nil {
			has[*m.TPUCode] = true
		}
	}
	if !has[cases.TPUOf(cases.MoveDistribution)] || !has[cases.TPUOf(cases.MoveConviction)] {
		t.Errorf("movement codes %v, want 26 and 219", has)
	}
	if len(v.Bans) != 1 || v.Bans[0].ID != b.ID {
		t.Errorf("view bans = %+v", v.Bans)
	}
}

// LGE art. 201 § 7º (stated for the defendant of R1): the range doubles to
// 6–72 months by the court's default reading; § 6º (organiser, R4): no
// conversion, the outcome is prison.
func TestSentence_Art201Sec7DoublesAndSec6Refuses(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	ctx := context.Background()
	c, d, j := e.FileOne(t, "R1")
	e.Receive(t, c)
	for _, m := range []int{5, 73} {
		in := casetest.SentenceIn(d.ID, "", m)
		in.Sec7 = casetest.Ptr(true)
		_, err := e.Svc.Decisions.Sentence(ctx, j, c.ID, in)
		if msg := casetest.InvalidField(t, err, "ban.months", false); !strings.Contains(msg, "§ 7º") {
			t.Errorf("%d months: message %q does not name § 7º", m, msg)
		}
	}
	in := casetest.SentenceIn(d.ID, "", 72)
	in.Sec7 = casetest.Ptr(true)
	res, err := e.Svc.Decisions.Sentence(ctx, j, c.ID, in)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Ban.Sec7Applied || !res.Ban.Sec7DoublesBan || res.Ban.RangeMinMonths != 6 || res.Ban.RangeMaxMonths != 72 {
		t.Errorf("§ 7º ban: %+v", res.Ban)
	}

	c, d, j = e.FileOne(t, "R4")
	e.Receive(t, c)
	_, err = e.Svc.Decisions.Sentence(ctx, j, c.ID, casetest.SentenceIn(d.ID, "", 12))
	if msg := casetest.InvalidField(t, err, "organiser", false); !strings.Contains(msg, "§ 6º") {
		t.Errorf("organiser: message %q does not name § 6º", msg)
	}
	if n := e.Count(t, "bans", "case_id = ?", c.ID); n != 0 {
		t.Errorf("%d bans for the organiser", n)
	}
}

// The judge may override the computed last day with a reason; both stay
// recorded (DOMAIN.md §3).
func TestSentence_LastDayOverrideKeepsComputed(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	ctx := context.Background()
	c, d, j := e.FileOne(t, "R1")
	e.Receive(t, c)
	// 31/05/2026 + 6 months: 31/11 does not exist, so the computed last day
	// is 30/11/2026; the clamp reading ends on 29/11/2026 (DOMAIN.md §3),
	// still above the 3-month minimum. The first day is one the judge fixes
	// after the final judgment; the override is kept when the ban starts
	// on it.
	in := casetest.SentenceIn(d.ID, "2026-05-31", 6)
	in.Ban.LastDayOverride = "2026-11-29"
	_, err := e.Svc.Decisions.Sentence(ctx, j, c.ID, in)
	casetest.InvalidField(t, err, "ban.last_day_override", false) // reason missing
	in.Ban.OverrideReason = "Leitura do prazo pelo juízo."
	res, err := e.Svc.Decisions.Sentence(ctx, j, c.ID, in)
	if err != nil {
		t.Fatal(err)
	}
	var b sanctions.Ban
	if err := e.G.Take(&b, res.Ban.ID).Error; err != nil {
		t.Fatal(err)
	}
	if b.LastDay == nil || b.LastDay.String() != "2026-11-29" || b.ComputedLastDay == nil || b.ComputedLastDay.String() != "2026-11-30" || b.OverrideReason == "" {
		t.Errorf("override: last %v computed %v reason %q", b.LastDay, b.ComputedLastDay, b.OverrideReason)
	}
	e.MakeFinal(t, c.ID)
	if err := e.G.Take(&b, res.Ban.ID).Error; err != nil {
		t.Fatal(err)
	}
	if b.Status != "active" || b.FirstDay == nil || b.FirstDay.String() != "2026-05-31" || b.LastDay.String() != "2026-11-29" {
		t.Errorf("after the final judgment: %s first %v last %v, want active 2026-05-31..2026-11-29", b.Status, b.FirstDay, b.LastDay)
	}
}

// A precautionary ban has no term and does not count as the sentence: the
// defendant can still be sentenced and the case stays open until then.
func TestSentence_PrecautionaryThenSentence(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	ctx := context.Background()
	c, d, j := e.FileOne(t, "R1")
	e.Receive(t, c)
	res, err := e.Svc.Decisions.Sentence(ctx, j, c.ID, decisions.SentenceInput{Text: casetest.Reasoned(), DefendantID: d.ID, Precautionary: true, ReviewOn: "2025-09-10", Ban: decisions.BanInput{FirstDay: "2025-06-10"}})
	if err != nil {
		t.Fatal(err)
	}
	pb := res.PrecautionaryBan
	if pb == nil || pb.LastDay != nil || pb.Source != sanctions.FromPrecautionaryOrder || pb.Publish || pb.Status != "active" || pb.ReviewOn == nil {
		t.Errorf("precautionary ban: %+v", pb)
	}
	var got cases.Case
	if err := e.G.Take(&got, c.ID).Error; err != nil {
		t.Fatal(err)
	}
	if got.Status == cases.StatusSentenced {
		t.Error("a precautionary ban sentenced the case")
	}
	if _, err := e.Svc.Decisions.Sentence(ctx, j, c.ID, casetest.SentenceIn(d.ID, "", 12)); err != nil {
		t.Fatalf("sentence after a precautionary ban: %v", err)
	}
	if err := e.G.Take(&got, c.ID).Error; err != nil {
		t.Fatal(err)
	}
	if got.Status != cases.StatusSentenced {
		t.Errorf("status = %q, want sentenced", got.Status)
	}
}

// The override can never make the ban shorter than the statutory minimum
// (Lei 14.597/2023, art. 201, § 2º: 3 months): the earliest last day allowed
// is the last day of the 3-month term counted like the term itself (CP art.
// 10), not one day before it. The tester's examples: first day 01/12/2026
// (3 months end on 28/02/2027) and 15/12/2026 (14/03/2027).
func TestSentence_OverrideNotBelowMinimumTerm(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	ctx := context.Background()
	for _, tc := range []struct{ first, short, minLast, minBR, maxBR string }{
		{"2026-12-01", "2027-02-27", "2027-02-28", "28/02/2027", "30/11/2029"},
		{"2026-12-15", "2027-03-13", "2027-03-14", "14/03/2027", "14/12/2029"},
		// (first days the judge fixes after the final judgment)
	} {
		c, d, j := e.FileOne(t, "R1")
		e.Receive(t, c)
		in := casetest.SentenceIn(d.ID, tc.first, 6)
		in.Ban.LastDayOverride, in.Ban.OverrideReason = tc.short, "erro"
		_, err := e.Svc.Decisions.Sentence(ctx, j, c.ID, in)
		msg := casetest.InvalidField(t, err, "ban.last_day_override", false)
		if !strings.Contains(msg, "entre "+tc.minBR+" e "+tc.maxBR) {
			t.Errorf("%s: message %q, want the range %s to %s", tc.first, msg, tc.minBR, tc.maxBR)
		}
		if n := e.Count(t, "bans", "case_id = ?", c.ID); n != 0 {
			t.Fatalf("%s: %d bans after a refused override", tc.first, n)
		}
		in.Ban.LastDayOverride = tc.minLast
		res, err := e.Svc.Decisions.Sentence(ctx, j, c.ID, in)
		if err != nil {
			t.Fatalf("%s: override to the minimum term's last day %s: %v", tc.first, tc.minLast, err)
		}
		if res.Ban.LastDay == nil || res.Ban.LastDay.String() != tc.minLast {
			t.Errorf("%s: last day %v, want %s", tc.first, res.Ban.LastDay, tc.minLast)
		}
	}
}
