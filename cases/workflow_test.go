package cases_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/casefile"
	"github.com/juizado/juizado/cases/decisions"
	"github.com/juizado/juizado/cases/internal/casetest"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/testenv"
	"github.com/juizado/juizado/registry"
	"github.com/juizado/juizado/sanctions"
)

// The transitions are data: a refused one names the allowed ones; each
// names its role; the judge is the case's judge.
func TestTransition_RefusedNamesAllowedAndRoles(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 2)
	ctx := context.Background()
	clerk := e.User(t, "Escrivã", "clerk")
	c := e.File(t, casetest.Fixture(t, "R1"))
	_, err := e.Svc.Casefile.Transition(ctx, clerk, c.ID, casefile.TransitionInput{To: cases.StatusFinal})
	msg := casetest.InvalidField(t, err, "to", false)
	if !strings.Contains(msg, "permitidas: preliminary_hearing") {
		t.Errorf("message %q does not name the allowed transition", msg)
	}
	_, err = e.Svc.Casefile.Transition(ctx, clerk, c.ID, casefile.TransitionInput{To: "hearing"}) // civil only
	casetest.InvalidField(t, err, "to", false)
	_, err = e.Svc.Casefile.Transition(ctx, e.Pros, c.ID, casefile.TransitionInput{To: cases.StatusPreliminaryHearing})
	casetest.KindIs(t, err, errs.Forbidden)
	e.Move(t, clerk, c, cases.StatusPreliminaryHearing)
	_, err = e.Svc.Casefile.Transition(ctx, e.Pros, c.ID, casefile.TransitionInput{To: cases.StatusPleaOffered})
	if m := casetest.InvalidField(t, err, "to", false); !strings.Contains(m, "/plea") {
		t.Errorf("plea offer through transitions: %q does not name the endpoint", m)
	}
	e.Move(t, e.Pros, c, cases.StatusAccusation)
	other := e.Judges[0]
	if other.UserID == *c.JudgeID {
		other = e.Judges[1]
	}
	_, err = e.Svc.Decisions.Suspend(ctx, other, c.ID, decisions.SuspensionInput{DefendantID: e.Defendants(t, c.ID)[0].ID, Months: casetest.Ptr(24), Conditions: []string{"x"}})
	casetest.KindIs(t, err, errs.Forbidden)
	var st string
	e.G.Raw("SELECT status FROM cases WHERE id = ?", c.ID).Scan(&st)
	if st != cases.StatusAccusation {
		t.Errorf("status %s after refusals, want accusation", st)
	}
}

// Plea agreements (Lei 9.099/1995, art. 76): refused when the person had
// one in the last five years (§ 2º, II, by CPF across cases); the
// homologation creates the ban with source plea_agreement through the
// sentence's range check (LGE art. 201, § 5º) and reaches the blocklist.
func TestPlea_Art76_HomologationAndFiveYears(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	ctx := context.Background()
	clerk := e.User(t, "Escrivão", "clerk")
	c, d, j := e.FileOne(t, "R1")
	e.Move(t, clerk, c, cases.StatusPreliminaryHearing)
	_, err := e.Svc.Decisions.OfferPlea(ctx, e.Pros, c.ID, decisions.PleaInput{DefendantID: d.ID, Months: casetest.Ptr(40)})
	if m := casetest.InvalidField(t, err, "months", false); !strings.Contains(m, "art. 201") {
		t.Errorf("months out of range: %q", m)
	}
	_, err = e.Svc.Decisions.OfferPlea(ctx, clerk, c.ID, decisions.PleaInput{DefendantID: d.ID, Months: casetest.Ptr(6)})
	casetest.KindIs(t, err, errs.Forbidden)
	if _, err := e.Svc.Decisions.OfferPlea(ctx, e.Pros, c.ID, decisions.PleaInput{DefendantID: d.ID, Months: casetest.Ptr(6)}); err != nil {
		t.Fatal(err)
	}
	_, err = e.Svc.Decisions.Homologate(ctx, j, c.ID, decisions.HomologateInput{})
	casetest.KindIs(t, err, errs.Conflict) // still offered: not accepted
	e.Move(t, clerk, c, cases.StatusPleaAccepted)
	res, err := e.Svc.Decisions.Homologate(ctx, j, c.ID, decisions.HomologateInput{})
	if err != nil {
		t.Fatal(err)
	}
	b := res.Ban
	if b.Source != sanctions.FromPleaAgreement || b.Months == nil || *b.Months != 6 || b.FirstDay.String() != "2025-06-10" ||
		b.LastDay == nil || b.LastDay.String() != "2025-12-09" || !strings.HasPrefix(b.Article, "art. 201") {
		t.Errorf("plea ban: source %s months %v first %s last %v article %s", b.Source, b.Months, b.FirstDay, b.LastDay, b.Article)
	}
	cpf, _ := registry.ParseCPF(*d.CPF)
	chk, err := e.Lists.Check(ctx, cpf)
	if err != nil || !chk.Blocked {
		t.Fatalf("blocklist after homologation: %+v %v", chk, err)
	}
	var entries int64
	e.G.Raw("SELECT count(*) FROM blocklist_versions").Scan(&entries)
	if entries == 0 {
		t.Error("the homologation made no blocklist version")
	}
	v, _ := e.Svc.Casefile.Get(ctx, j, c.ID)
	if v.Status != cases.StatusExecuting || len(v.Pleas) != 1 || v.Pleas[0].Status != "homologated" {
		t.Errorf("after homologation: status %s pleas %+v", v.Status, v.Pleas)
	}

	// The same CPF in another case: barred for five years.
	c2 := e.File(t, casetest.Fixture(t, "R1"))
	d2 := e.Defendants(t, c2.ID)[0]
	e.Move(t, clerk, c2, cases.StatusPreliminaryHearing)
	_, err = e.Svc.Decisions.OfferPlea(ctx, e.Pros, c2.ID, decisions.PleaInput{DefendantID: d2.ID, Months: casetest.Ptr(6)})
	if m := casetest.InvalidField(t, err, "defendant_id", false); !strings.Contains(m, "art. 76, § 2º, II") || !strings.Contains(m, "10/06/2025") {
		t.Errorf("five years: %q", m)
	}
	// Five years and a day later it is allowed again.
	e.Clk.Set(testenv.T0.AddDate(5, 0, 1))
	if _, err := e.Svc.Decisions.OfferPlea(ctx, e.Pros, c2.ID, decisions.PleaInput{DefendantID: d2.ID, Months: casetest.Ptr(6)}); err != nil {
		t.Errorf("after five years: %v", err)
	}
}

// No plea agreement for the organiser (LGE art. 201, § 6º) nor for groups
// (civil flow); no conditional suspension with § 7º; the suspension's
// period is 2 to 4 years (Lei 9.099/1995, art. 89).
func TestPlea_Art201_sec6_Sec7AndGroups(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	ctx := context.Background()
	clerk := e.User(t, "Escrivão", "clerk")
	c4, d4, _ := e.FileOne(t, "R4") // organiser
	e.Move(t, clerk, c4, cases.StatusPreliminaryHearing)
	_, err := e.Svc.Decisions.OfferPlea(ctx, e.Pros, c4.ID, decisions.PleaInput{DefendantID: d4.ID, Months: casetest.Ptr(6)})
	if m := casetest.InvalidField(t, err, "defendant_id", false); !strings.Contains(m, "§ 6º") {
		t.Errorf("organiser: %q", m)
	}
	c5, d5, j := e.FileOne(t, "R5") // group: civil flow
	if c5.Flow != cases.FlowCivil {
		t.Fatalf("R5 flow %q, want civil", c5.Flow)
	}
	e.Move(t, clerk, c5, cases.StatusHearing)
	_, err = e.Svc.Decisions.OfferPlea(ctx, e.Pros, c5.ID, decisions.PleaInput{DefendantID: d5.ID, Months: casetest.Ptr(6)})
	casetest.KindIs(t, err, errs.Conflict)
	_, err = e.Svc.Decisions.Suspend(ctx, j, c5.ID, decisions.SuspensionInput{DefendantID: d5.ID, Months: casetest.Ptr(24), Conditions: []string{"x"}})
	casetest.KindIs(t, err, errs.Conflict)
	c3, d3, j3 := e.FileOne(t, "R3") // racism alone: Lei 7.716/1989, art. 20, § 2º-A (2 to 5 years)
	e.Move(t, clerk, c3, cases.StatusPreliminaryHearing)
	_, err = e.Svc.Decisions.OfferPlea(ctx, e.Pros, c3.ID, decisions.PleaInput{DefendantID: d3.ID, Months: casetest.Ptr(6)})
	if m := casetest.InvalidField(t, err, "defendant_id", false); !strings.Contains(m, "rito ordinário") {
		t.Errorf("racism alone plea: %q", m)
	}
	e.Move(t, e.Pros, c3, cases.StatusAccusation)
	_, err = e.Svc.Decisions.Suspend(ctx, j3, c3.ID, casetest.LawConditions(decisions.SuspensionInput{DefendantID: d3.ID, Months: casetest.Ptr(24)}))
	if m := casetest.InvalidField(t, err, "defendant_id", false); !strings.Contains(m, "7.716") {
		t.Errorf("racism alone suspension: %q", m)
	}
	c1, d1, j1 := e.FileOne(t, "R1")
	e.Move(t, clerk, c1, cases.StatusPreliminaryHearing)
	// § 7º stated for this defendant: minimum 24 months, no plea, no suspension.
	_, err = e.Svc.Decisions.OfferPlea(ctx, e.Pros, c1.ID, decisions.PleaInput{DefendantID: d1.ID, Sec7: casetest.Ptr(true), Months: casetest.Ptr(6)})
	if m := casetest.InvalidField(t, err, "defendant_id", false); !strings.Contains(m, "rito ordinário") || !strings.Contains(m, "48 meses") {
		t.Errorf("§ 7º plea: %q", m)
	}
	e.Move(t, e.Pros, c1, cases.StatusAccusation)
	sec7 := casetest.LawConditions(decisions.SuspensionInput{DefendantID: d1.ID, Months: casetest.Ptr(24)})
	sec7.Sec7 = casetest.Ptr(true)
	_, err = e.Svc.Decisions.Suspend(ctx, j1, c1.ID, sec7)
	if m := casetest.InvalidField(t, err, "defendant_id", false); !strings.Contains(m, "§ 7º") {
		t.Errorf("§ 7º suspension: %q", m)
	}
	_, err = e.Svc.Decisions.Suspend(ctx, j1, c1.ID, casetest.LawConditions(decisions.SuspensionInput{DefendantID: d1.ID, Months: casetest.Ptr(12)}))
	casetest.InvalidField(t, err, "months", false)
	sp, err := e.Svc.Decisions.Suspend(ctx, j1, c1.ID, casetest.LawConditions(decisions.SuspensionInput{DefendantID: d1.ID, Months: casetest.Ptr(24)}))
	if err != nil {
		t.Fatal(err)
	}
	if sp.FirstDay.String() != "2025-06-10" || sp.LastDay.String() != "2027-06-09" {
		t.Errorf("suspension %s – %s", sp.FirstDay, sp.LastDay)
	}
	e.Clk.Set(testenv.T0.AddDate(2, 0, 1))
	e.Move(t, j1, c1, cases.StatusArchived)
	var st string
	e.G.Raw("SELECT status FROM conditional_suspensions WHERE id = ?", sp.ID).Scan(&st)
	if st != "extinguished" {
		t.Errorf("suspension status %s after the archive, want extinguished", st)
	}
}

// Hearings: the same judge or the same room (case ignored) never holds two
// overlapping hearings; back to back is fine.
func TestHearings_Conflicts(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 2)
	ctx := context.Background()
	clerk := e.User(t, "Escrivã", "clerk")
	a := e.File(t, casetest.Fixture(t, "R1"))
	b := e.File(t, casetest.Fixture(t, "R2"))
	a2 := e.File(t, casetest.Fixture(t, "R3"))
	if *a.JudgeID == *b.JudgeID || *a.JudgeID != *a2.JudgeID {
		t.Fatalf("judges: a %d b %d a2 %d", *a.JudgeID, *b.JudgeID, *a2.JudgeID)
	}
	at := func(hhmm string) string { return "2025-06-20T" + hhmm + ":00-03:00" }
	h, err := e.Svc.Case.ScheduleHearing(ctx, clerk, a.ID, cases.HearingInput{Kind: "preliminary", StartsAt: at("14:00"), Room: "Sala 1"})
	if err != nil {
		t.Fatal(err)
	}
	if h.EndsAt.Sub(h.StartsAt) != time.Hour {
		t.Errorf("default length %v", h.EndsAt.Sub(h.StartsAt))
	}
	_, err = e.Svc.Case.ScheduleHearing(ctx, clerk, a2.ID, cases.HearingInput{Kind: "preliminary", StartsAt: at("14:30"), Room: "Sala 2"})
	casetest.KindIs(t, err, errs.Conflict) // same judge
	_, err = e.Svc.Case.ScheduleHearing(ctx, clerk, b.ID, cases.HearingInput{Kind: "preliminary", StartsAt: at("14:59"), Room: " sala  1 "})
	casetest.KindIs(t, err, errs.Conflict) // same room
	if _, err := e.Svc.Case.ScheduleHearing(ctx, clerk, b.ID, cases.HearingInput{Kind: "preliminary", StartsAt: at("15:00"), Room: "Sala 1"}); err != nil {
		t.Errorf("back to back: %v", err)
	}
	if _, err := e.Svc.Case.ScheduleHearing(ctx, clerk, a2.ID, cases.HearingInput{Kind: "preliminary", StartsAt: at("13:00"), EndsAt: at("14:00"), Room: "Sala 2"}); err != nil {
		t.Errorf("before, same judge: %v", err)
	}
	_, err = e.Svc.Case.ScheduleHearing(ctx, clerk, a.ID, cases.HearingInput{Kind: "conciliation", StartsAt: at("18:00"), Room: "Sala 3"})
	casetest.InvalidField(t, err, "kind", false)
	_, err = e.Svc.Case.ScheduleHearing(ctx, clerk, a.ID, cases.HearingInput{Kind: "instruction", StartsAt: "2025-06-01T10:00:00-03:00", Room: "Sala 3"})
	casetest.InvalidField(t, err, "starts_at", false)
	cal, err := e.Svc.Case.Calendar(ctx, clerk, "2025-06-20", "2025-06-20")
	if err != nil || len(cal) != 3 || cal[0].StartsAt.After(cal[1].StartsAt) {
		t.Fatalf("calendar: %+v %v", cal, err)
	}
	if n := e.Count(t, "hearings", ""); n != 3 {
		t.Errorf("%d hearings stored, want 3", n)
	}
	// Concurrent schedules of the same room: exactly one wins (exclusion constraint).
	var wg sync.WaitGroup
	var ok, conflict int
	var mu sync.Mutex
	for i := 0; i < 6; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			id := []int64{a.ID, b.ID}[i%2]
			_, err := e.Svc.Case.ScheduleHearing(ctx, clerk, id, cases.HearingInput{Kind: "instruction", StartsAt: at("17:00"), Room: "Sala 9"})
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				ok++
			case errs.KindOf(err) == errs.Conflict:
				conflict++
			default:
				t.Errorf("concurrent schedule: %v", err)
			}
		}(i)
	}
	wg.Wait()
	if ok != 1 || conflict != 5 {
		t.Errorf("concurrent schedules: %d ok, %d conflicts; want 1 and 5", ok, conflict)
	}
}

var (
	pdfBytes = []byte("%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n")
	pngBytes = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x02\x00\x00\x00")
	jpgBytes = []byte("\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01")
)

// Evidence files: the type by content, the name must agree; stored with
// SHA-256.
func TestEvidence_TypeByContent(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	ctx := context.Background()
	c := e.File(t, casetest.Fixture(t, "R1"))
	for _, tc := range []struct {
		name string
		data []byte
		rule string
	}{
		{"foto.png", pdfBytes, "content_type"},
		{"laudo.pdf", pngBytes, "content_type"},
		{"video.gif", []byte("GIF89a...."), "content_type"},
		{"laudo.exe", pdfBytes, "extension"},
		{"vazio.pdf", nil, "required"},
	} {
		_, err := e.Svc.Case.AddEvidence(ctx, e.Pros, c.ID, tc.name, "", tc.data)
		var fe *errs.Error
		if !errors.As(err, &fe) || fe.Kind != errs.Invalid || fe.Fields[0].Field != "file" || fe.Fields[0].Rule != tc.rule {
			t.Errorf("%s: %v, want invalid file (%s)", tc.name, err, tc.rule)
		}
	}
	if n := e.Count(t, "evidence", ""); n != 0 {
		t.Fatalf("%d refused files stored", n)
	}
	for name, data := range map[string][]byte{"BO.PDF": pdfBytes, "foto.png": pngBytes, "camera.jpeg": jpgBytes} {
		v, err := e.Svc.Case.AddEvidence(ctx, e.Pros, c.ID, `C:\fotos\`+name, "câmera 3", data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if v.Filename != name || v.Size != len(data) || len(v.SHA256) != 64 {
			t.Errorf("%s stored as %+v", name, v)
		}
		got, body, err := e.Svc.Case.GetEvidence(ctx, e.Pros, v.ID)
		if err != nil || string(body) != string(data) || got.ContentType != cases.SniffEvidence(data) {
			t.Errorf("%s read back: %+v %v", name, got, err)
		}
	}
	list, err := e.Svc.Case.ListEvidence(ctx, e.Pros, c.ID)
	if err != nil || len(list) != 3 {
		t.Errorf("list: %d %v", len(list), err)
	}
}

// Search: names word by word without accents, judge, facts period, CNJ
// number; sorted by name in Portuguese order.
func TestSearch_UnaccentedWordsFiltersAndPortugueseOrder(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 2)
	ctx := context.Background()
	ids := map[string]*cases.Case{}
	for i, name := range []string{"Zeca Pagodinho Silva", "João Pedro da Conceição", "Álvaro Conceição Lima", "Ana Beatriz Souza", "Bruno Conceição"} {
		ids[name] = e.File(t, casetest.Person(t, name, fmt.Sprintf("%09d", 123456780+i)))
	}
	old := casetest.Fixture(t, "R7") // facts in 2018
	ids["R7"] = e.File(t, old)
	list := func(q casefile.ListQuery) []int64 {
		t.Helper()
		vs, total, err := e.Svc.Casefile.List(ctx, e.Pros, q)
		if err != nil {
			t.Fatalf("List(%+v): %v", q, err)
		}
		if int(total) != len(vs) {
			t.Errorf("total %d, %d items", total, len(vs))
		}
		var out []int64
		for _, v := range vs {
			out = append(out, v.ID)
		}
		return out
	}
	if got := list(casefile.ListQuery{Q: "joao conceicao"}); len(got) != 1 || got[0] != ids["João Pedro da Conceição"].ID {
		t.Errorf(`"joao conceicao" found %v`, got)
	}
	if got := list(casefile.ListQuery{Q: "CONCEICAO"}); len(got) != 3 {
		t.Errorf(`"CONCEICAO" found %d cases, want 3`, len(got))
	}
	got := list(casefile.ListQuery{Sort: "name", From: "2025-01-01"})
	want := []string{"Álvaro Conceição Lima", "Ana Beatriz Souza", "Bruno Conceição", "João Pedro da Conceição", "Zeca Pagodinho Silva"}
	for i, name := range want {
		if i >= len(got) || got[i] != ids[name].ID {
			t.Fatalf("sorted by name: %v, want the order %v (Portuguese collation)", got, want)
		}
	}
	if got := list(casefile.ListQuery{To: "2019-01-01"}); len(got) != 1 || got[0] != ids["R7"].ID {
		t.Errorf("facts until 2019: %v", got)
	}
	if got := list(casefile.ListQuery{From: "2018-09-15", To: "2018-09-15"}); len(got) != 1 {
		t.Errorf("facts on 15/09/2018: %v", got)
	}
	n := ids["Ana Beatriz Souza"].Number
	for _, num := range []string{n, cases.FormatNumber(n)} {
		if got := list(casefile.ListQuery{Number: num}); len(got) != 1 || got[0] != ids["Ana Beatriz Souza"].ID {
			t.Errorf("number %s: %v", num, got)
		}
	}
	j := *ids["Ana Beatriz Souza"].JudgeID
	byJudge := list(casefile.ListQuery{JudgeID: j})
	if len(byJudge) != 3 {
		t.Errorf("judge %d: %d cases, want 3", j, len(byJudge))
	}
	_, _, err := e.Svc.Casefile.List(ctx, e.Pros, casefile.ListQuery{Number: "0058967-76.2016.8.19.0000"})
	casetest.InvalidField(t, err, "number", false)
	_, _, err = e.Svc.Casefile.List(ctx, e.Pros, casefile.ListQuery{From: "2025-02-30"})
	casetest.InvalidField(t, err, "from", false)
	_, _, err = e.Svc.Casefile.List(ctx, e.Pros, casefile.ListQuery{From: "2025-03-01", To: "2025-02-01"})
	casetest.InvalidField(t, err, "to", false)
	_, _, err = e.Svc.Casefile.List(ctx, e.Pros, casefile.ListQuery{Sort: "cpf"})
	casetest.InvalidField(t, err, "sort", false)
}

// A write that expects an older version is refused (If-Match, 412) and
// writes nothing; every write moves the version on.
func TestVersion_StaleWriteRefused(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	clerk := e.User(t, "Escrivão", "clerk")
	c := e.File(t, casetest.Fixture(t, "R1"))
	v0, _ := e.Svc.Casefile.Get(context.Background(), clerk, c.ID)
	ctx := cases.ExpectVersions(context.Background(), v0.Version)
	v1, err := e.Svc.Casefile.Transition(ctx, clerk, c.ID, casefile.TransitionInput{To: cases.StatusPreliminaryHearing})
	if err != nil || v1.Version != v0.Version+1 {
		t.Fatalf("transition with the current version: %v (version %d → %+v)", err, v0.Version, v1)
	}
	_, err = e.Svc.Case.AddMovement(ctx, clerk, c.ID, cases.MovementInput{Description: "Conclusos ao juiz.", TPUCode: casetest.Ptr(51)})
	var stale *cases.StaleError
	if !errors.As(err, &stale) || stale.Current != v1.Version {
		t.Fatalf("stale write: %v", err)
	}
	if n := e.Count(t, "movements", "case_id = ? AND tpu_code = 51", c.ID); n != 0 {
		t.Error("the stale write left a movement")
	}
	if _, err := e.Svc.Case.AddMovement(cases.ExpectVersions(context.Background(), v1.Version), clerk, c.ID, cases.MovementInput{Description: "Conclusos ao juiz.", TPUCode: casetest.Ptr(51)}); err != nil {
		t.Fatal(err)
	}
}

// Idempotency-Key: the same filer and key return the first case; another
// body under the key is refused; another filer's key is theirs; ten
// concurrent repeats make one case.
func TestFileOnce_IdempotencyKey(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	ctx := context.Background()
	r := casetest.Fixture(t, "R1")
	c1, replayed, err := e.Svc.Case.FileOnce(ctx, e.Pros, r, "k-1")
	if err != nil || replayed {
		t.Fatal(err, replayed)
	}
	c2, replayed, err := e.Svc.Case.FileOnce(ctx, e.Pros, r, "k-1")
	if err != nil || !replayed || c2.ID != c1.ID || c2.Number != c1.Number {
		t.Fatalf("replay: %+v %v %v", c2, replayed, err)
	}
	_, _, err = e.Svc.Case.FileOnce(ctx, e.Pros, casetest.Fixture(t, "R2"), "k-1")
	casetest.InvalidField(t, err, "Idempotency-Key", false)
	police := e.User(t, "Delegado", "police")
	c3, replayed, err := e.Svc.Case.FileOnce(ctx, police, r, "k-1")
	if err != nil || replayed || c3.ID == c1.ID {
		t.Fatalf("another filer's key: %+v %v %v", c3, replayed, err)
	}
	var wg sync.WaitGroup
	got := make(chan int64, 10)
	for i := 0; i < 10; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, _, err := e.Svc.Case.FileOnce(ctx, e.Pros, r, "k-concurrent")
			if err != nil {
				t.Error(err)
				return
			}
			got <- c.ID
		}()
	}
	wg.Wait()
	close(got)
	first := int64(0)
	for id := range got {
		if first == 0 {
			first = id
		} else if id != first {
			t.Errorf("concurrent repeats gave cases %d and %d", first, id)
		}
	}
	if n := e.Count(t, "cases", ""); n != 3 {
		t.Errorf("%d cases, want 3", n)
	}
	_, _, err = e.Svc.Case.FileOnce(ctx, e.Pros, r, "chave com espaço")
	casetest.InvalidField(t, err, "Idempotency-Key", false)
}

// A plea offer, a homologation or a suspension asked for in a phase where
// the flow does not allow it is a 409 conflict about the case's phase with
// no field (it was 422 on "to", a field these requests do not have),
// naming the phase and where the step is taken; nothing is written.
func TestWorkflow_StepOutOfPhaseIsConflictWithoutField(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	ctx := context.Background()
	c, d, j := e.FileOne(t, "R1")
	if c.Status != cases.StatusDistributed {
		t.Fatalf("status %s, want distributed", c.Status)
	}
	moves := e.Count(t, "movements", "case_id = ?", c.ID)
	for name, call := range map[string]func() error{
		"plea": func() error {
			_, err := e.Svc.Decisions.OfferPlea(ctx, e.Pros, c.ID, decisions.PleaInput{DefendantID: d.ID, Months: casetest.Ptr(6)})
			return err
		},
		"homologate": func() error {
			_, err := e.Svc.Decisions.Homologate(ctx, j, c.ID, decisions.HomologateInput{})
			return err
		},
		"suspension": func() error {
			_, err := e.Svc.Decisions.Suspend(ctx, j, c.ID, casetest.LawConditions(decisions.SuspensionInput{DefendantID: d.ID, Months: casetest.Ptr(24)}))
			return err
		},
	} {
		err := call()
		casetest.KindIs(t, err, errs.Conflict)
		var fe *errs.Error
		if !errors.As(err, &fe) || len(fe.Fields) != 0 || !strings.Contains(fe.Message, "distribuído") || !strings.Contains(fe.Message, "cabe quando o réu está em") {
			t.Errorf("%s in distributed: %#v, want a conflict naming the phase, no field", name, err)
		}
	}
	if n := e.Count(t, "movements", "case_id = ?", c.ID); n != moves {
		t.Errorf("refused steps wrote %d movements", n-moves)
	}
}
