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
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/registry"
	"github.com/juizado/juizado/sanctions"
)

// cpfOf completes nine digits with the CPF check digits.
func cpfOf(nine string) string {
	d := []int{}
	for _, r := range nine {
		d = append(d, int(r-'0'))
	}
	for len(d) < 11 {
		sum := 0
		for i, x := range d {
			sum += x * (len(d) + 1 - i)
		}
		r := sum * 10 % 11
		if r == 10 {
			r = 0
		}
		d = append(d, r)
	}
	var b strings.Builder
	for _, x := range d {
		b.WriteByte(byte('0' + x))
	}
	return b.String()
}

// person returns R1 with another defendant.
func person(t *testing.T, name, nine string) cases.Representation {
	r := fixture(t, "R1")
	d := r.Defendants[0]
	d.FullName = name
	cpf := cpfOf(nine)
	d.CPF = &cpf
	r.Defendants = []cases.DefendantInput{d}
	return r
}

func (e *env) move(t *testing.T, a cases.Actor, c *cases.Case, to string) *cases.View {
	t.Helper()
	v, err := e.svc.Transition(context.Background(), a, c.ID, cases.TransitionInput{To: to})
	if err != nil {
		t.Fatalf("transition %s → %s by %s: %v", c.Status, to, a.Role, err)
	}
	c.Status = v.Status
	return v
}

// CPP art. 798 §§ 1º and 3º, Lei 9.099/1995 art. 82 § 1º: ten days from the
// notification, the notification day excluded and the last day included;
// a last day on a weekend or a court holiday moves to the next working day.
func TestDeadline_Lei9099_art82_sec1_CPP_art798(t *testing.T) {
	t.Parallel()
	holidays := map[string]bool{
		"2025-04-18": true, // Paixão de Cristo (Friday)
		"2025-04-21": true, // Tiradentes (Monday)
		"2025-06-19": true, // Corpus Christi (Thursday)
		"2025-11-20": true, // Consciência Negra (Thursday)
		"2026-01-01": true, // Confraternização Universal (Thursday)
	}
	isHoliday := func(d civil.Date) bool { return holidays[d.String()] }
	for _, tc := range []struct{ name, notified, want string }{
		{"weekday to weekday", "2025-06-02", "2025-06-12"},
		{"ends on Saturday: Monday", "2025-06-04", "2025-06-16"},
		{"ends on Sunday: Monday", "2025-06-05", "2025-06-16"},
		{"notified on Friday: the count starts on Monday (Súmula 310 STF)", "2025-06-06", "2025-06-18"},
		{"ends on a holiday: next day", "2025-06-09", "2025-06-20"},
		{"holiday, weekend and holiday again", "2025-04-08", "2025-04-22"},
		{"Consciência Negra", "2025-11-10", "2025-11-21"},
		{"year end: 1 January", "2025-12-22", "2026-01-02"},
		{"year end: notified on Friday 26/12, starts Monday 29/12", "2025-12-26", "2026-01-07"},
		{"leap year", "2024-02-19", "2024-02-29"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := cases.Deadline(civil.MustParse(tc.notified), cases.AppealDays, isHoliday)
			if got.String() != tc.want {
				t.Errorf("Deadline(%s) = %s, want %s", tc.notified, got, tc.want)
			}
		})
	}
	// Without the court's calendar a holiday is a working day.
	if got := cases.Deadline(civil.MustParse("2025-06-09"), cases.AppealDays, nil); got.String() != "2025-06-19" {
		t.Errorf("without holidays: %s, want 2025-06-19", got)
	}
}

// The transitions are data: a refused one names the allowed ones; each
// names its role; the judge is the case's judge.
func TestTransition_RefusedNamesAllowedAndRoles(t *testing.T) {
	t.Parallel()
	e := newEnv(t, t0, 2)
	ctx := context.Background()
	clerk := e.user(t, "Escrivã", "clerk")
	c := e.file(t, fixture(t, "R1"))
	_, err := e.svc.Transition(ctx, clerk, c.ID, cases.TransitionInput{To: cases.StatusFinal})
	msg := invalidField(t, err, "to", false)
	if !strings.Contains(msg, "permitidas: preliminary_hearing") {
		t.Errorf("message %q does not name the allowed transition", msg)
	}
	_, err = e.svc.Transition(ctx, clerk, c.ID, cases.TransitionInput{To: "hearing"}) // civil only
	invalidField(t, err, "to", false)
	_, err = e.svc.Transition(ctx, e.pros, c.ID, cases.TransitionInput{To: cases.StatusPreliminaryHearing})
	kindIs(t, err, errs.Forbidden)
	e.move(t, clerk, c, cases.StatusPreliminaryHearing)
	_, err = e.svc.Transition(ctx, e.pros, c.ID, cases.TransitionInput{To: cases.StatusPleaOffered})
	if m := invalidField(t, err, "to", false); !strings.Contains(m, "/plea") {
		t.Errorf("plea offer through transitions: %q does not name the endpoint", m)
	}
	e.move(t, e.pros, c, cases.StatusAccusation)
	other := e.judges[0]
	if other.UserID == *c.JudgeID {
		other = e.judges[1]
	}
	_, err = e.svc.Suspend(ctx, other, c.ID, cases.SuspensionInput{DefendantID: e.defendants(t, c.ID)[0].ID, Months: ptr(24), Conditions: []string{"x"}})
	kindIs(t, err, errs.Forbidden)
	var st string
	e.g.Raw("SELECT status FROM cases WHERE id = ?", c.ID).Scan(&st)
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
	e := newEnv(t, t0, 1)
	ctx := context.Background()
	clerk := e.user(t, "Escrivão", "clerk")
	c, d, j := e.fileOne(t, "R1")
	e.move(t, clerk, c, cases.StatusPreliminaryHearing)
	_, err := e.svc.OfferPlea(ctx, e.pros, c.ID, cases.PleaInput{DefendantID: d.ID, Months: ptr(40)})
	if m := invalidField(t, err, "months", false); !strings.Contains(m, "art. 201") {
		t.Errorf("months out of range: %q", m)
	}
	_, err = e.svc.OfferPlea(ctx, clerk, c.ID, cases.PleaInput{DefendantID: d.ID, Months: ptr(6)})
	kindIs(t, err, errs.Forbidden)
	if _, err := e.svc.OfferPlea(ctx, e.pros, c.ID, cases.PleaInput{DefendantID: d.ID, Months: ptr(6)}); err != nil {
		t.Fatal(err)
	}
	_, err = e.svc.Homologate(ctx, j, c.ID, cases.HomologateInput{})
	kindIs(t, err, errs.Conflict) // still offered: not accepted
	e.move(t, clerk, c, cases.StatusPleaAccepted)
	res, err := e.svc.Homologate(ctx, j, c.ID, cases.HomologateInput{})
	if err != nil {
		t.Fatal(err)
	}
	b := res.Ban
	if b.Source != sanctions.FromPleaAgreement || b.Months == nil || *b.Months != 6 || b.FirstDay.String() != "2025-06-10" ||
		b.LastDay == nil || b.LastDay.String() != "2025-12-09" || !strings.HasPrefix(b.Article, "art. 201") {
		t.Errorf("plea ban: source %s months %v first %s last %v article %s", b.Source, b.Months, b.FirstDay, b.LastDay, b.Article)
	}
	cpf, _ := registry.ParseCPF(*d.CPF)
	chk, err := e.lists.Check(ctx, cpf)
	if err != nil || !chk.Blocked {
		t.Fatalf("blocklist after homologation: %+v %v", chk, err)
	}
	var entries int64
	e.g.Raw("SELECT count(*) FROM blocklist_versions").Scan(&entries)
	if entries == 0 {
		t.Error("the homologation made no blocklist version")
	}
	v, _ := e.svc.Get(ctx, j, c.ID)
	if v.Status != cases.StatusExecuting || len(v.Pleas) != 1 || v.Pleas[0].Status != "homologated" {
		t.Errorf("after homologation: status %s pleas %+v", v.Status, v.Pleas)
	}

	// The same CPF in another case: barred for five years.
	c2 := e.file(t, fixture(t, "R1"))
	d2 := e.defendants(t, c2.ID)[0]
	e.move(t, clerk, c2, cases.StatusPreliminaryHearing)
	_, err = e.svc.OfferPlea(ctx, e.pros, c2.ID, cases.PleaInput{DefendantID: d2.ID, Months: ptr(6)})
	if m := invalidField(t, err, "defendant_id", false); !strings.Contains(m, "art. 76, § 2º, II") || !strings.Contains(m, "10/06/2025") {
		t.Errorf("five years: %q", m)
	}
	// Five years and a day later it is allowed again.
	e.clk.Set(t0.AddDate(5, 0, 1))
	if _, err := e.svc.OfferPlea(ctx, e.pros, c2.ID, cases.PleaInput{DefendantID: d2.ID, Months: ptr(6)}); err != nil {
		t.Errorf("after five years: %v", err)
	}
}

// No plea agreement for the organiser (LGE art. 201, § 6º) nor for groups
// (civil flow); no conditional suspension with § 7º; the suspension's
// period is 2 to 4 years (Lei 9.099/1995, art. 89).
func TestPlea_Art201_sec6_Sec7AndGroups(t *testing.T) {
	t.Parallel()
	e := newEnv(t, t0, 1)
	ctx := context.Background()
	clerk := e.user(t, "Escrivão", "clerk")
	c4, d4, _ := e.fileOne(t, "R4") // organiser
	e.move(t, clerk, c4, cases.StatusPreliminaryHearing)
	_, err := e.svc.OfferPlea(ctx, e.pros, c4.ID, cases.PleaInput{DefendantID: d4.ID, Months: ptr(6)})
	if m := invalidField(t, err, "defendant_id", false); !strings.Contains(m, "§ 6º") {
		t.Errorf("organiser: %q", m)
	}
	c5, d5, j := e.fileOne(t, "R5") // group: civil flow
	if c5.Flow != cases.FlowCivil {
		t.Fatalf("R5 flow %q, want civil", c5.Flow)
	}
	e.move(t, clerk, c5, cases.StatusHearing)
	_, err = e.svc.OfferPlea(ctx, e.pros, c5.ID, cases.PleaInput{DefendantID: d5.ID, Months: ptr(6)})
	kindIs(t, err, errs.Conflict)
	_, err = e.svc.Suspend(ctx, j, c5.ID, cases.SuspensionInput{DefendantID: d5.ID, Months: ptr(24), Conditions: []string{"x"}})
	kindIs(t, err, errs.Conflict)
	c3, d3, j3 := e.fileOne(t, "R3") // racism alone: Lei 7.716/1989, art. 20, § 2º-A (2 to 5 years)
	e.move(t, clerk, c3, cases.StatusPreliminaryHearing)
	_, err = e.svc.OfferPlea(ctx, e.pros, c3.ID, cases.PleaInput{DefendantID: d3.ID, Months: ptr(6)})
	if m := invalidField(t, err, "defendant_id", false); !strings.Contains(m, "rito ordinário") {
		t.Errorf("racism alone plea: %q", m)
	}
	e.move(t, e.pros, c3, cases.StatusAccusation)
	_, err = e.svc.Suspend(ctx, j3, c3.ID, lawConditions(cases.SuspensionInput{DefendantID: d3.ID, Months: ptr(24)}))
	if m := invalidField(t, err, "defendant_id", false); !strings.Contains(m, "7.716") {
		t.Errorf("racism alone suspension: %q", m)
	}
	c1, d1, j1 := e.fileOne(t, "R1")
	e.move(t, clerk, c1, cases.StatusPreliminaryHearing)
	// § 7º stated for this defendant: minimum 24 months, no plea, no suspension.
	_, err = e.svc.OfferPlea(ctx, e.pros, c1.ID, cases.PleaInput{DefendantID: d1.ID, Sec7: ptr(true), Months: ptr(6)})
	if m := invalidField(t, err, "defendant_id", false); !strings.Contains(m, "rito ordinário") || !strings.Contains(m, "48 meses") {
		t.Errorf("§ 7º plea: %q", m)
	}
	e.move(t, e.pros, c1, cases.StatusAccusation)
	sec7 := lawConditions(cases.SuspensionInput{DefendantID: d1.ID, Months: ptr(24)})
	sec7.Sec7 = ptr(true)
	_, err = e.svc.Suspend(ctx, j1, c1.ID, sec7)
	if m := invalidField(t, err, "defendant_id", false); !strings.Contains(m, "§ 7º") {
		t.Errorf("§ 7º suspension: %q", m)
	}
	_, err = e.svc.Suspend(ctx, j1, c1.ID, lawConditions(cases.SuspensionInput{DefendantID: d1.ID, Months: ptr(12)}))
	invalidField(t, err, "months", false)
	sp, err := e.svc.Suspend(ctx, j1, c1.ID, lawConditions(cases.SuspensionInput{DefendantID: d1.ID, Months: ptr(24)}))
	if err != nil {
		t.Fatal(err)
	}
	if sp.FirstDay.String() != "2025-06-10" || sp.LastDay.String() != "2027-06-09" {
		t.Errorf("suspension %s – %s", sp.FirstDay, sp.LastDay)
	}
	e.clk.Set(t0.AddDate(2, 0, 1))
	e.move(t, j1, c1, cases.StatusArchived)
	var st string
	e.g.Raw("SELECT status FROM conditional_suspensions WHERE id = ?", sp.ID).Scan(&st)
	if st != "extinguished" {
		t.Errorf("suspension status %s after the archive, want extinguished", st)
	}
}

// Hearings: the same judge or the same room (case ignored) never holds two
// overlapping hearings; back to back is fine.
func TestHearings_Conflicts(t *testing.T) {
	t.Parallel()
	e := newEnv(t, t0, 2)
	ctx := context.Background()
	clerk := e.user(t, "Escrivã", "clerk")
	a := e.file(t, fixture(t, "R1"))
	b := e.file(t, fixture(t, "R2"))
	a2 := e.file(t, fixture(t, "R3"))
	if *a.JudgeID == *b.JudgeID || *a.JudgeID != *a2.JudgeID {
		t.Fatalf("judges: a %d b %d a2 %d", *a.JudgeID, *b.JudgeID, *a2.JudgeID)
	}
	at := func(hhmm string) string { return "2025-06-20T" + hhmm + ":00-03:00" }
	h, err := e.svc.ScheduleHearing(ctx, clerk, a.ID, cases.HearingInput{Kind: "preliminary", StartsAt: at("14:00"), Room: "Sala 1"})
	if err != nil {
		t.Fatal(err)
	}
	if h.EndsAt.Sub(h.StartsAt) != time.Hour {
		t.Errorf("default length %v", h.EndsAt.Sub(h.StartsAt))
	}
	_, err = e.svc.ScheduleHearing(ctx, clerk, a2.ID, cases.HearingInput{Kind: "preliminary", StartsAt: at("14:30"), Room: "Sala 2"})
	kindIs(t, err, errs.Conflict) // same judge
	_, err = e.svc.ScheduleHearing(ctx, clerk, b.ID, cases.HearingInput{Kind: "preliminary", StartsAt: at("14:59"), Room: " sala  1 "})
	kindIs(t, err, errs.Conflict) // same room
	if _, err := e.svc.ScheduleHearing(ctx, clerk, b.ID, cases.HearingInput{Kind: "preliminary", StartsAt: at("15:00"), Room: "Sala 1"}); err != nil {
		t.Errorf("back to back: %v", err)
	}
	if _, err := e.svc.ScheduleHearing(ctx, clerk, a2.ID, cases.HearingInput{Kind: "preliminary", StartsAt: at("13:00"), EndsAt: at("14:00"), Room: "Sala 2"}); err != nil {
		t.Errorf("before, same judge: %v", err)
	}
	_, err = e.svc.ScheduleHearing(ctx, clerk, a.ID, cases.HearingInput{Kind: "conciliation", StartsAt: at("18:00"), Room: "Sala 3"})
	invalidField(t, err, "kind", false)
	_, err = e.svc.ScheduleHearing(ctx, clerk, a.ID, cases.HearingInput{Kind: "instruction", StartsAt: "2025-06-01T10:00:00-03:00", Room: "Sala 3"})
	invalidField(t, err, "starts_at", false)
	cal, err := e.svc.Calendar(ctx, clerk, "2025-06-20", "2025-06-20")
	if err != nil || len(cal) != 3 || cal[0].StartsAt.After(cal[1].StartsAt) {
		t.Fatalf("calendar: %+v %v", cal, err)
	}
	if n := e.count(t, "hearings", ""); n != 3 {
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
			_, err := e.svc.ScheduleHearing(ctx, clerk, id, cases.HearingInput{Kind: "instruction", StartsAt: at("17:00"), Room: "Sala 9"})
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
	e := newEnv(t, t0, 1)
	ctx := context.Background()
	c := e.file(t, fixture(t, "R1"))
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
		_, err := e.svc.AddEvidence(ctx, e.pros, c.ID, tc.name, "", tc.data)
		var fe *errs.Error
		if !errors.As(err, &fe) || fe.Kind != errs.Invalid || fe.Fields[0].Field != "file" || fe.Fields[0].Rule != tc.rule {
			t.Errorf("%s: %v, want invalid file (%s)", tc.name, err, tc.rule)
		}
	}
	if n := e.count(t, "evidence", ""); n != 0 {
		t.Fatalf("%d refused files stored", n)
	}
	for name, data := range map[string][]byte{"BO.PDF": pdfBytes, "foto.png": pngBytes, "camera.jpeg": jpgBytes} {
		v, err := e.svc.AddEvidence(ctx, e.pros, c.ID, `C:\fotos\`+name, "câmera 3", data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if v.Filename != name || v.Size != len(data) || len(v.SHA256) != 64 {
			t.Errorf("%s stored as %+v", name, v)
		}
		got, body, err := e.svc.GetEvidence(ctx, e.pros, v.ID)
		if err != nil || string(body) != string(data) || got.ContentType != cases.SniffEvidence(data) {
			t.Errorf("%s read back: %+v %v", name, got, err)
		}
	}
	list, err := e.svc.ListEvidence(ctx, e.pros, c.ID)
	if err != nil || len(list) != 3 {
		t.Errorf("list: %d %v", len(list), err)
	}
}

// Search: names word by word without accents, judge, facts period, CNJ
// number; sorted by name in Portuguese order.
func TestSearch_UnaccentedWordsFiltersAndPortugueseOrder(t *testing.T) {
	t.Parallel()
	e := newEnv(t, t0, 2)
	ctx := context.Background()
	ids := map[string]*cases.Case{}
	for i, name := range []string{"Zeca Pagodinho Silva", "João Pedro da Conceição", "Álvaro Conceição Lima", "Ana Beatriz Souza", "Bruno Conceição"} {
		ids[name] = e.file(t, person(t, name, fmt.Sprintf("%09d", 123456780+i)))
	}
	old := fixture(t, "R7") // facts in 2018
	ids["R7"] = e.file(t, old)
	list := func(q cases.ListQuery) []int64 {
		t.Helper()
		vs, total, err := e.svc.List(ctx, e.pros, q)
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
	if got := list(cases.ListQuery{Q: "joao conceicao"}); len(got) != 1 || got[0] != ids["João Pedro da Conceição"].ID {
		t.Errorf(`"joao conceicao" found %v`, got)
	}
	if got := list(cases.ListQuery{Q: "CONCEICAO"}); len(got) != 3 {
		t.Errorf(`"CONCEICAO" found %d cases, want 3`, len(got))
	}
	got := list(cases.ListQuery{Sort: "name", From: "2025-01-01"})
	want := []string{"Álvaro Conceição Lima", "Ana Beatriz Souza", "Bruno Conceição", "João Pedro da Conceição", "Zeca Pagodinho Silva"}
	for i, name := range want {
		if i >= len(got) || got[i] != ids[name].ID {
			t.Fatalf("sorted by name: %v, want the order %v (Portuguese collation)", got, want)
		}
	}
	if got := list(cases.ListQuery{To: "2019-01-01"}); len(got) != 1 || got[0] != ids["R7"].ID {
		t.Errorf("facts until 2019: %v", got)
	}
	if got := list(cases.ListQuery{From: "2018-09-15", To: "2018-09-15"}); len(got) != 1 {
		t.Errorf("facts on 15/09/2018: %v", got)
	}
	n := ids["Ana Beatriz Souza"].Number
	for _, num := range []string{n, cases.FormatNumber(n)} {
		if got := list(cases.ListQuery{Number: num}); len(got) != 1 || got[0] != ids["Ana Beatriz Souza"].ID {
			t.Errorf("number %s: %v", num, got)
		}
	}
	j := *ids["Ana Beatriz Souza"].JudgeID
	byJudge := list(cases.ListQuery{JudgeID: j})
	if len(byJudge) != 3 {
		t.Errorf("judge %d: %d cases, want 3", j, len(byJudge))
	}
	_, _, err := e.svc.List(ctx, e.pros, cases.ListQuery{Number: "0058967-76.2016.8.19.0000"})
	invalidField(t, err, "number", false)
	_, _, err = e.svc.List(ctx, e.pros, cases.ListQuery{From: "2025-02-30"})
	invalidField(t, err, "from", false)
	_, _, err = e.svc.List(ctx, e.pros, cases.ListQuery{From: "2025-03-01", To: "2025-02-01"})
	invalidField(t, err, "to", false)
	_, _, err = e.svc.List(ctx, e.pros, cases.ListQuery{Sort: "cpf"})
	invalidField(t, err, "sort", false)
}

// A write that expects an older version is refused (If-Match, 412) and
// writes nothing; every write moves the version on.
func TestVersion_StaleWriteRefused(t *testing.T) {
	t.Parallel()
	e := newEnv(t, t0, 1)
	clerk := e.user(t, "Escrivão", "clerk")
	c := e.file(t, fixture(t, "R1"))
	v0, _ := e.svc.Get(context.Background(), clerk, c.ID)
	ctx := cases.ExpectVersion(context.Background(), v0.Version)
	v1, err := e.svc.Transition(ctx, clerk, c.ID, cases.TransitionInput{To: cases.StatusPreliminaryHearing})
	if err != nil || v1.Version != v0.Version+1 {
		t.Fatalf("transition with the current version: %v (version %d → %+v)", err, v0.Version, v1)
	}
	_, err = e.svc.AddMovement(ctx, clerk, c.ID, cases.MovementInput{Description: "Conclusos ao juiz.", TPUCode: ptr(51)})
	var stale *cases.StaleError
	if !errors.As(err, &stale) || stale.Current != v1.Version {
		t.Fatalf("stale write: %v", err)
	}
	if n := e.count(t, "movements", "case_id = ? AND tpu_code = 51", c.ID); n != 0 {
		t.Error("the stale write left a movement")
	}
	if _, err := e.svc.AddMovement(cases.ExpectVersion(context.Background(), v1.Version), clerk, c.ID, cases.MovementInput{Description: "Conclusos ao juiz.", TPUCode: ptr(51)}); err != nil {
		t.Fatal(err)
	}
}

// Idempotency-Key: the same filer and key return the first case; another
// body under the key is refused; another filer's key is theirs; ten
// concurrent repeats make one case.
func TestFileOnce_IdempotencyKey(t *testing.T) {
	t.Parallel()
	e := newEnv(t, t0, 1)
	ctx := context.Background()
	r := fixture(t, "R1")
	c1, replayed, err := e.svc.FileOnce(ctx, e.pros, r, "k-1")
	if err != nil || replayed {
		t.Fatal(err, replayed)
	}
	c2, replayed, err := e.svc.FileOnce(ctx, e.pros, r, "k-1")
	if err != nil || !replayed || c2.ID != c1.ID || c2.Number != c1.Number {
		t.Fatalf("replay: %+v %v %v", c2, replayed, err)
	}
	_, _, err = e.svc.FileOnce(ctx, e.pros, fixture(t, "R2"), "k-1")
	invalidField(t, err, "Idempotency-Key", false)
	police := e.user(t, "Delegado", "police")
	c3, replayed, err := e.svc.FileOnce(ctx, police, r, "k-1")
	if err != nil || replayed || c3.ID == c1.ID {
		t.Fatalf("another filer's key: %+v %v %v", c3, replayed, err)
	}
	var wg sync.WaitGroup
	got := make(chan int64, 10)
	for i := 0; i < 10; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, _, err := e.svc.FileOnce(ctx, e.pros, r, "k-concurrent")
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
	if n := e.count(t, "cases", ""); n != 3 {
		t.Errorf("%d cases, want 3", n)
	}
	_, _, err = e.svc.FileOnce(ctx, e.pros, r, "chave com espaço")
	invalidField(t, err, "Idempotency-Key", false)
}

// A plea offer, a homologation or a suspension asked for in a phase where
// the flow does not allow it is a 409 conflict about the case's phase with
// no field (it was 422 on "to", a field these requests do not have),
// naming the phase and where the step is taken; nothing is written.
func TestWorkflow_StepOutOfPhaseIsConflictWithoutField(t *testing.T) {
	t.Parallel()
	e := newEnv(t, t0, 1)
	ctx := context.Background()
	c, d, j := e.fileOne(t, "R1")
	if c.Status != cases.StatusDistributed {
		t.Fatalf("status %s, want distributed", c.Status)
	}
	moves := e.count(t, "movements", "case_id = ?", c.ID)
	for name, call := range map[string]func() error{
		"plea": func() error {
			_, err := e.svc.OfferPlea(ctx, e.pros, c.ID, cases.PleaInput{DefendantID: d.ID, Months: ptr(6)})
			return err
		},
		"homologate": func() error { _, err := e.svc.Homologate(ctx, j, c.ID, cases.HomologateInput{}); return err },
		"suspension": func() error {
			_, err := e.svc.Suspend(ctx, j, c.ID, lawConditions(cases.SuspensionInput{DefendantID: d.ID, Months: ptr(24)}))
			return err
		},
	} {
		err := call()
		kindIs(t, err, errs.Conflict)
		var fe *errs.Error
		if !errors.As(err, &fe) || len(fe.Fields) != 0 || !strings.Contains(fe.Message, "distribuído") || !strings.Contains(fe.Message, "cabe quando o processo está em") {
			t.Errorf("%s in distributed: %#v, want a conflict naming the phase, no field", name, err)
		}
	}
	if n := e.count(t, "movements", "case_id = ?", c.ID); n != moves {
		t.Errorf("refused steps wrote %d movements", n-moves)
	}
}
