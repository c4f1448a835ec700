package bnmp_test

import (
	"context"
	"testing"
	"time"

	"github.com/juizado/juizado/cases/bnmp"
	"github.com/juizado/juizado/cases/decisions"
	"github.com/juizado/juizado/cases/execution"
	"github.com/juizado/juizado/cases/internal/casetest"
	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/testenv"
)

// at moves the clock to noon of day (AAAA-MM-DD) in the court's zone.
func at(t *testing.T, e *casetest.Env, day string) {
	t.Helper()
	d := casetest.CivilDay(t, day)
	e.Clk.Set(time.Date(d.Year(), d.Month(), d.Day(), 12, 0, 0, 0, testenv.SaoPaulo))
}

// list is the clerk's queue with status, failing the test on error.
func list(t *testing.T, e *casetest.Env, a actor.Actor, status string) []bnmp.View {
	t.Helper()
	vs, err := e.Svc.BNMP.List(context.Background(), a, status)
	if err != nil {
		t.Fatalf("list %q: %v", status, err)
	}
	return vs
}

func day(d interface{ String() string }) string {
	if d == nil {
		return ""
	}
	return d.String()
}

// ofBan returns the views of ban id, oldest first.
func ofBan(vs []bnmp.View, id int64) []bnmp.View {
	var out []bnmp.View
	for i := len(vs) - 1; i >= 0; i-- {
		if vs[i].BanID == id {
			out = append(out, vs[i])
		}
	}
	return out
}

// Res. CNJ 417/2021, arts. 18 and 19: a final ban is a mandate from its
// first day, by CPF, with its conditions and legal basis, for at most 12
// months with a review date; reading twice adds nothing.
func TestMandate_OfABan_Art19(t *testing.T) {
	t.Parallel()
	e := casetest.NewEnv(t, testenv.T0, 1)
	_, banID, _ := e.SentenceR1(t, "2025-06-10", 12, nil)
	k := e.Clerk(t)
	ms := ofBan(list(t, e, k, ""), banID)
	if len(ms) != 1 {
		t.Fatalf("mandates of the ban: %+v", ms)
	}
	m := ms[0]
	if m.Kind != bnmp.KindExecution || m.ValidFrom.String() != "2025-06-10" || day(m.ValidUntil) != "2026-06-09" || day(m.ReviewOn) != "2026-06-09" ||
		m.Status != bnmp.StatusPending || m.CPF == nil || *m.CPF != "66392332154" {
		t.Errorf("mandate %+v", m)
	}
	c := m.Content
	if c.LegalBasis == "" || c.Extent == "" || c.Reporting == "" || c.CaseNumber == "" || c.BanMonths == nil || *c.BanMonths != 12 {
		t.Errorf("art. 19 content %+v", c)
	}
	list(t, e, k, "")
	if n := e.Count(t, "bnmp_mandates", "ban_id = ?", banID); n != 1 {
		t.Errorf("%d mandates after a second read, want 1", n)
	}
	if got := list(t, e, k, bnmp.StatusRegistered); len(got) != 0 {
		t.Errorf("registered: %+v", got)
	}
	_, err := e.Svc.BNMP.List(context.Background(), k, "lapsed")
	casetest.InvalidField(t, err, "status", false)
}

// Res. CNJ 417/2021, art. 19 (as amended by Res. 577/2024): a 24-month
// ban is registered 12 months at a time; the second period's mandate
// ("prorrogacao") enters the queue 10 days before the period starts, when
// the first mandate's end is alerted (art. 25).
func TestMandate_24MonthBan_SecondPeriodAt12Months(t *testing.T) {
	t.Parallel()
	e := casetest.NewEnv(t, testenv.T0, 1)
	_, banID, _ := e.SentenceR1(t, "2025-06-10", 24, nil)
	k := e.Clerk(t)
	at(t, e, "2026-05-30")
	ms := ofBan(list(t, e, k, ""), banID)
	if len(ms) != 1 || day(ms[0].ValidUntil) != "2026-06-09" {
		t.Fatalf("before the window: %+v", ms)
	}
	if due := ofBan(list(t, e, k, bnmp.StatusDue), banID); len(due) != 1 || len(due[0].Alerts) != 1 {
		t.Errorf("end of the first mandate not alerted 10 days ahead: %+v", due)
	}
	at(t, e, "2026-05-31")
	ms = ofBan(list(t, e, k, ""), banID)
	if len(ms) != 2 {
		t.Fatalf("at 10 days from the second period: %+v", ms)
	}
	if m := ms[1]; m.Kind != bnmp.KindRenewal || m.Period != 1 || m.ValidFrom.String() != "2026-06-10" || day(m.ValidUntil) != "2027-06-09" || m.Status != bnmp.StatusPending {
		t.Errorf("second mandate %+v", m)
	}
	if ms[0].Status != bnmp.StatusPending {
		t.Errorf("the first period's mandate is still to register: %+v", ms[0])
	}
}

// precautionary orders a precautionary ban on R1 reviewed on review and
// returns its id and the judge.
func precautionary(t *testing.T, e *casetest.Env, review string) (int64, actor.Actor) {
	t.Helper()
	c, d, j := e.FileOne(t, "R1")
	res, err := e.Svc.Decisions.Sentence(context.Background(), j, c.ID,
		decisions.SentenceInput{Text: casetest.Reasoned(), DefendantID: d.ID, Precautionary: true, ReviewOn: review})
	if err != nil {
		t.Fatal(err)
	}
	return res.PrecautionaryBan.ID, j
}

// Res. CNJ 417/2021, art. 20: a precautionary measure's mandate runs to its
// review date; its renewal is a new mandate ("prorrogacao") to the new
// review date, and the registered first one stays registered.
func TestMandate_Renewal_NewMandate_Art20(t *testing.T) {
	t.Parallel()
	e := casetest.NewEnv(t, testenv.T0, 1)
	ctx := context.Background()
	banID, j := precautionary(t, e, "2025-09-01")
	k := e.Clerk(t)
	ms := ofBan(list(t, e, k, ""), banID)
	if len(ms) != 1 || ms[0].Kind != bnmp.KindPrecautionary || ms[0].ValidFrom.String() != "2025-06-10" || day(ms[0].ReviewOn) != "2025-09-01" || day(ms[0].ValidUntil) != "2025-09-01" {
		t.Fatalf("precautionary mandate %+v", ms)
	}
	if _, err := e.Svc.BNMP.Register(ctx, k, ms[0].ID, bnmp.RegisterInput{BNMPNumber: "0000123-45.2025.8.26.0100.01.0001-01", RegisteredOn: "2025-06-10"}); err != nil {
		t.Fatal(err)
	}
	at(t, e, "2025-08-25")
	if _, err := e.Svc.Execution.Renew(ctx, j, banID, execution.RenewInput{ReviewOn: "2025-12-01", Reason: "Persistem os motivos."}); err != nil {
		t.Fatal(err)
	}
	ms = ofBan(list(t, e, k, ""), banID)
	if len(ms) != 2 {
		t.Fatalf("after the renewal: %+v", ms)
	}
	if m := ms[1]; m.Kind != bnmp.KindRenewal || m.ValidFrom.String() != "2025-08-25" || day(m.ReviewOn) != "2025-12-01" || m.Status != bnmp.StatusPending {
		t.Errorf("renewal mandate %+v", m)
	}
	if ms[0].Status != bnmp.StatusRegistered {
		t.Errorf("first mandate %+v", ms[0])
	}
}

// Res. CNJ 417/2021, art. 2º, VIII: lifting the measure is a revocation in
// the queue, once.
func TestMandate_Lifting_Revocation(t *testing.T) {
	t.Parallel()
	e := casetest.NewEnv(t, testenv.T0, 1)
	ctx := context.Background()
	banID, j := precautionary(t, e, "2025-09-01")
	k := e.Clerk(t)
	list(t, e, k, "")
	at(t, e, "2025-07-01")
	if _, err := e.Svc.Execution.Lift(ctx, j, banID, execution.LiftInput{LiftedOn: "2025-06-30", Reason: "Cessaram os motivos."}); err != nil {
		t.Fatal(err)
	}
	ms := ofBan(list(t, e, k, bnmp.StatusPending), banID)
	if len(ms) != 2 || ms[1].Kind != bnmp.KindRevocation || ms[1].ValidFrom.String() != "2025-06-30" || ms[1].ValidUntil != nil || ms[1].Content.Revocation == "" {
		t.Fatalf("after the lifting: %+v", ms)
	}
	if len(ms[0].Alerts) != 0 || ms[0].Current {
		t.Errorf("the revoked mandate still alerts: %+v", ms[0])
	}
	list(t, e, k, "")
	if n := e.Count(t, "bnmp_mandates", "ban_id = ? AND kind = 'revogacao'", banID); n != 1 {
		t.Errorf("%d revocations, want 1", n)
	}
}

// Res. CNJ 417/2021, art. 19, I: a person without CPF has a mandate that
// waits (as on the blocklist) and cannot be registered; the CPF recorded
// later makes it pending.
func TestMandate_WithoutCPF_Waits(t *testing.T) {
	t.Parallel()
	e := casetest.NewEnv(t, testenv.T0, 1)
	ctx := context.Background()
	r := casetest.Fixture(t, "R1")
	r.Defendants[0].CPF = nil
	c := e.File(t, r)
	d := e.Defendants(t, c.ID)[0]
	j := e.JudgeOf(t, c)
	res, err := e.Svc.Decisions.Sentence(ctx, j, c.ID, decisions.SentenceInput{Text: casetest.Reasoned(), DefendantID: d.ID, Precautionary: true, ReviewOn: "2025-09-01"})
	if err != nil {
		t.Fatal(err)
	}
	banID := res.PrecautionaryBan.ID
	k := e.Clerk(t)
	ms := ofBan(list(t, e, k, bnmp.StatusAwaitingIdentification), banID)
	if len(ms) != 1 || ms[0].CPF != nil {
		t.Fatalf("awaiting identification: %+v", ms)
	}
	if got := ofBan(list(t, e, k, bnmp.StatusPending), banID); len(got) != 0 {
		t.Errorf("a mandate without CPF is pending: %+v", got)
	}
	_, err = e.Svc.BNMP.Register(ctx, k, ms[0].ID, bnmp.RegisterInput{BNMPNumber: "12345", RegisteredOn: "2025-06-10"})
	casetest.KindIs(t, err, errs.Conflict)
	if _, err := e.Svc.Execution.Identify(ctx, k, c.ID, d.ID, execution.IdentificationInput{CPF: "663.923.321-54"}); err != nil {
		t.Fatal(err)
	}
	ms = ofBan(list(t, e, k, bnmp.StatusPending), banID)
	if len(ms) != 1 || ms[0].CPF == nil || *ms[0].CPF != "66392332154" {
		t.Errorf("after the identification: %+v", ms)
	}
}

// Res. CNJ 417/2021, arts. 25 and 21: the review date is alerted from 10
// days ahead, not before; past it without renewal the measure is shown
// lapsed (never lifted: the ban stays active).
func TestMandate_Alerts10DaysAhead_AndLapse(t *testing.T) {
	t.Parallel()
	e := casetest.NewEnv(t, testenv.T0, 1)
	banID, _ := precautionary(t, e, "2025-09-01")
	k := e.Clerk(t)
	at(t, e, "2025-08-21")
	if due := ofBan(list(t, e, k, bnmp.StatusDue), banID); len(due) != 0 {
		t.Errorf("alerted 11 days ahead: %+v", due)
	}
	at(t, e, "2025-08-22")
	due := ofBan(list(t, e, k, bnmp.StatusDue), banID)
	if len(due) != 1 || len(due[0].Alerts) != 1 || due[0].Lapsed {
		t.Fatalf("10 days ahead: %+v", due)
	}
	at(t, e, "2025-09-02")
	due = ofBan(list(t, e, k, bnmp.StatusDue), banID)
	if len(due) != 1 || !due[0].Lapsed {
		t.Fatalf("past the review: %+v", due)
	}
	if e.Count(t, "bans", "id = ? AND status = 'active'", banID) != 1 {
		t.Errorf("the system lifted the ban by itself")
	}
}

// finalMandate is a world with R1's 12-month ban in force from 2025-06-10:
// the clerk and the ban's mandate.
func finalMandate(t *testing.T) (*casetest.Env, actor.Actor, bnmp.View) {
	t.Helper()
	e := casetest.NewEnv(t, testenv.T0, 1)
	_, banID, _ := e.SentenceR1(t, "2025-06-10", 12, nil)
	k := e.Clerk(t)
	return e, k, ofBan(list(t, e, k, ""), banID)[0]
}

// Res. CNJ 417/2021, art. 18: the clerk records the BNMP number and date;
// bad input names the field, a second registration is a conflict.
func TestMandate_Register(t *testing.T) {
	t.Parallel()
	e, k, m := finalMandate(t)
	ctx := context.Background()
	_, err := e.Svc.BNMP.Register(ctx, k, m.ID, bnmp.RegisterInput{BNMPNumber: "abc", RegisteredOn: "2025-06-11"})
	casetest.InvalidField(t, err, "bnmp_number", false)
	casetest.InvalidField(t, err, "registered_on", false)
	_, err = e.Svc.BNMP.Register(ctx, k, m.ID, bnmp.RegisterInput{})
	casetest.InvalidField(t, err, "bnmp_number", false)
	casetest.InvalidField(t, err, "registered_on", false)
	v, err := e.Svc.BNMP.Register(ctx, k, m.ID, bnmp.RegisterInput{BNMPNumber: "0000123-45.2025.8.26.0100.01.0001-01", RegisteredOn: "2025-06-10"})
	if err != nil {
		t.Fatal(err)
	}
	if v.Status != bnmp.StatusRegistered || v.BNMPNumber == nil || day(v.RegisteredOn) != "2025-06-10" {
		t.Errorf("registered %+v", v)
	}
	if e.Count(t, "bnmp_mandates", "id = ? AND bnmp_number = '0000123-45.2025.8.26.0100.01.0001-01' AND registered_on = '2025-06-10'", m.ID) != 1 {
		t.Errorf("registration not stored")
	}
	if e.Count(t, "movements", "case_id = ? AND kind = 'bnmp_registered' AND description LIKE '%0000123-45.2025.8.26.0100.01.0001-01%'", m.CaseID) != 1 {
		t.Errorf("no docket movement for the registration")
	}
	_, err = e.Svc.BNMP.Register(ctx, k, m.ID, bnmp.RegisterInput{BNMPNumber: "99999", RegisteredOn: "2025-06-10"})
	casetest.KindIs(t, err, errs.Conflict)
	if got := ofBan(list(t, e, k, bnmp.StatusRegistered), m.BanID); len(got) != 1 {
		t.Errorf("registered list %+v", got)
	}
}

// A mandate of another court is not found (never shown nor registered).
func TestMandate_OtherCourt_NotFound(t *testing.T) {
	t.Parallel()
	e, k, m := finalMandate(t)
	ctx := context.Background()
	other := k
	other.Court = "26.0200"
	_, err := e.Svc.BNMP.Get(ctx, other, m.ID)
	casetest.KindIs(t, err, errs.NotFound)
	_, err = e.Svc.BNMP.Register(ctx, other, m.ID, bnmp.RegisterInput{BNMPNumber: "12345", RegisteredOn: "2025-06-10"})
	casetest.KindIs(t, err, errs.NotFound)
	if got := list(t, e, other, ""); len(got) != 0 {
		t.Errorf("another court's queue shows %+v", got)
	}
}

// Res. CNJ 417/2021, arts. 18 and 2º, VIII: the precautionary ban that
// waits for the final judgment is replaced by the final ban when it
// starts: the measure's mandate is revoked and the final ban's mandate
// ("execucao") enters the queue.
func TestMandate_ReplacedByFinalBan(t *testing.T) {
	t.Parallel()
	e := casetest.NewEnv(t, testenv.T0, 1)
	ctx := context.Background()
	c, d, j := e.FileOne(t, "R1")
	e.Receive(t, c)
	in := casetest.SentenceIn(d.ID, "", 12)
	in.PrecautionaryUntilFinal = &decisions.PrecautionaryInput{ReviewOn: "2025-09-01"}
	res, err := e.Svc.Decisions.Sentence(ctx, j, c.ID, in)
	if err != nil {
		t.Fatal(err)
	}
	k := e.Clerk(t)
	pre := ofBan(list(t, e, k, ""), res.PrecautionaryBan.ID)
	if len(pre) != 1 || pre[0].Kind != bnmp.KindPrecautionary || len(ofBan(list(t, e, k, ""), res.Ban.ID)) != 0 {
		t.Fatalf("before the final judgment: %+v", pre)
	}
	at(t, e, "2025-06-20")
	e.MakeFinal(t, c.ID)
	pre = ofBan(list(t, e, k, ""), res.PrecautionaryBan.ID)
	if len(pre) != 2 || pre[1].Kind != bnmp.KindRevocation || pre[1].ValidFrom.String() != "2025-06-20" {
		t.Errorf("the replaced measure: %+v", pre)
	}
	fin := ofBan(list(t, e, k, ""), res.Ban.ID)
	if len(fin) != 1 || fin[0].Kind != bnmp.KindExecution || fin[0].ValidFrom.String() != "2025-06-20" || day(fin[0].ValidUntil) != "2026-06-19" {
		t.Errorf("the final ban's mandate: %+v", fin)
	}
}
