package decisions_test

import (
	"context"
	"strings"
	"testing"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/casefile"
	"github.com/juizado/juizado/cases/decisions"
	"github.com/juizado/juizado/cases/internal/casetest"
	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/testenv"
	"github.com/juizado/juizado/registry"
	"github.com/juizado/juizado/sanctions"
)

// accused files rep and takes it to the accusation (Lei 9.099/1995, art.
// 77), where the conditional suspension may be proposed (art. 89).
func accused(t *testing.T, e *env, rep cases.Representation) (*cases.Case, cases.Defendant, actor.Actor) {
	t.Helper()
	clerk := e.User(t, "Cartório", "clerk")
	c := e.File(t, rep)
	e.Move(t, clerk, c, cases.StatusPreliminaryHearing)
	e.Move(t, e.Pros, c, cases.StatusAccusation)
	return c, e.Defendants(t, c.ID)[0], e.JudgeOf(t, c)
}

// Lei 9.099/1995, art. 89, caput: the prosecutor proposes the suspension
// "ao oferecer a denúncia": never at the preliminary hearing, before it.
func TestSuspension_Lei9099_art89_caput_OnlyWithTheAccusation(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	ctx := context.Background()
	clerk := e.User(t, "Escrivã", "clerk")
	c, d, j := e.FileOne(t, "R1")
	e.Move(t, clerk, c, cases.StatusPreliminaryHearing)
	_, err := e.Svc.Decisions.Suspend(ctx, j, c.ID, casetest.LawConditions(decisions.SuspensionInput{DefendantID: d.ID, Months: casetest.Ptr(24)}))
	casetest.KindIs(t, err, errs.Conflict)
	if !strings.Contains(err.Error(), "denúncia oferecida") {
		t.Errorf("refusal %q does not name the accusation", err)
	}
	e.Move(t, e.Pros, c, cases.StatusAccusation)
	if _, err := e.Svc.Decisions.Suspend(ctx, j, c.ID, casetest.LawConditions(decisions.SuspensionInput{DefendantID: d.ID, Months: casetest.Ptr(24)})); err != nil {
		t.Fatalf("with the accusation: %v", err)
	}
}

// Lei 9.099/1995, art. 89, § 1º: each condition recorded (I reparação do
// dano, or its impossibility; II places; III district; IV monthly); § 2º:
// the judge's others.
func TestSuspension_Lei9099_art89_sec1_EachConditionRecorded(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	ctx := context.Background()
	c, d, j := accused(t, e, casetest.Fixture(t, "R1"))
	_, err := e.Svc.Decisions.Suspend(ctx, j, c.ID, decisions.SuspensionInput{DefendantID: d.ID, Months: casetest.Ptr(24), Conditions: []string{"prestar serviços"}})
	for _, field := range []string{"repair_damage", "forbidden_places", "stay_in_district", "monthly_appearance"} {
		if m := casetest.InvalidField(t, err, field, false); !strings.Contains(m, "art. 89, § 1º") {
			t.Errorf("%s: %q does not cite art. 89, § 1º", field, m)
		}
	}
	in := casetest.LawConditions(decisions.SuspensionInput{DefendantID: d.ID, Months: casetest.Ptr(24)})
	in.RepairImpossible = "réu desempregado"
	_, err = e.Svc.Decisions.Suspend(ctx, j, c.ID, in)
	casetest.InvalidField(t, err, "repair_impossible", false)
	in.StayInDistrict = casetest.Ptr(false)
	in.RepairImpossible = ""
	_, err = e.Svc.Decisions.Suspend(ctx, j, c.ID, in)
	casetest.InvalidField(t, err, "stay_in_district", false)

	in = casetest.LawConditions(decisions.SuspensionInput{DefendantID: d.ID, Months: casetest.Ptr(36), Conditions: []string{"prestar serviços à comunidade"}})
	in.RepairDamage, in.RepairImpossible = "", "dano não apurado"
	sp, err := e.Svc.Decisions.Suspend(ctx, j, c.ID, in)
	if err != nil {
		t.Fatal(err)
	}
	if sp.RepairImpossible != "dano não apurado" || len(sp.ForbiddenPlaces) != 1 || !sp.StayInDistrict || !sp.MonthlyAppearance || sp.SportingVenues || sp.BanID != nil ||
		len(sp.Conditions) != 1 {
		t.Errorf("recorded %+v", sp)
	}
	v, _ := e.Svc.Casefile.Get(ctx, j, c.ID)
	if len(v.Suspensions) != 1 || !v.Suspensions[0].StayInDistrict || v.Suspensions[0].RepairImpossible == "" {
		t.Errorf("on the case: %+v", v.Suspensions)
	}
	text := strings.Join(sp.ConditionsPT(), "; ")
	for _, item := range []string{"§ 1º, I", "§ 1º, II", "§ 1º, III", "§ 1º, IV", "§ 2º"} {
		if !strings.Contains(text, item) {
			t.Errorf("conditions %q lack %s", text, item)
		}
	}
	if e.Count(t, "bans", "case_id = ?", c.ID) != 0 {
		t.Error("a suspension without sporting venues made a ban")
	}
}

// Lei 9.099/1995, art. 89, § 1º, II, naming sporting venues: the
// suspension makes a ban (source conditional_suspension) for its period,
// which reaches the blocklist and leaves it on revocation (§§ 3º and 4º,
// with a reason); extinction only after the period ends (§ 5º), and the
// ban leaves then too.
func TestSuspension_Lei9099_art89_sec1_II_sec3_sec5_StadiumBanOnBlocklist(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	ctx := context.Background()
	c, d, j := accused(t, e, casetest.Person(t, "Carlos Alberto Nunes", "123456789"))
	in := casetest.LawConditions(decisions.SuspensionInput{DefendantID: d.ID, Months: casetest.Ptr(24)})
	in.ForbiddenPlaces, in.SportingVenues = []string{"estádios de futebol e seus arredores"}, true
	sp, err := e.Svc.Decisions.Suspend(ctx, j, c.ID, in)
	if err != nil {
		t.Fatal(err)
	}
	if sp.BanID == nil {
		t.Fatal("no ban for a stadium condition")
	}
	var b sanctions.Ban
	e.G.Where("id = ?", *sp.BanID).Take(&b)
	if b.Source != sanctions.FromConditionalSuspension || b.Status != "active" || b.FirstDay == nil || *b.FirstDay != sp.FirstDay || b.LastDay == nil || *b.LastDay != sp.LastDay ||
		b.FirstDay.String() != "2025-06-10" || b.LastDay.String() != "2027-06-09" || !strings.Contains(b.Article, "art. 89") {
		t.Errorf("ban %+v", b)
	}
	cpf, _ := registry.ParseCPF(*d.CPF)
	chk, err := e.Lists.Check(ctx, cpf)
	if err != nil || !chk.Blocked {
		t.Fatalf("blocklist during the suspension: %+v %v", chk, err)
	}
	// Revocation needs a reason (§§ 3º and 4º).
	_, err = e.Svc.Casefile.Transition(ctx, j, c.ID, casefile.TransitionInput{To: cases.StatusAccusation})
	casetest.InvalidField(t, err, "note", false)
	e.Clk.Set(testenv.T0.AddDate(0, 3, 0))
	if _, err := e.Svc.Casefile.Transition(ctx, j, c.ID, casefile.TransitionInput{To: cases.StatusAccusation, Note: "processado por outro crime (art. 89, § 3º)"}); err != nil {
		t.Fatal(err)
	}
	var st struct {
		Status  string
		EndedOn string
	}
	e.G.Raw("SELECT status, ended_on::text AS ended_on FROM conditional_suspensions WHERE id = ?", sp.ID).Scan(&st)
	e.G.Where("id = ?", *sp.BanID).Take(&b)
	if st.Status != "revoked" || st.EndedOn != "2025-09-10" || b.Status != "lifted" {
		t.Errorf("after revocation: suspension %+v ban %s", st, b.Status)
	}
	if chk, _ := e.Lists.Check(ctx, cpf); chk.Blocked {
		t.Error("still blocked after the revocation")
	}

	// Another defendant: extinction only after the period (§ 5º).
	e.Clk.Set(testenv.T0)
	c2, d2, j2 := accused(t, e, casetest.Person(t, "Paulo Roberto Dias", "987654321"))
	in = casetest.LawConditions(decisions.SuspensionInput{DefendantID: d2.ID, Months: casetest.Ptr(24)})
	in.SportingVenues = true
	sp2, err := e.Svc.Decisions.Suspend(ctx, j2, c2.ID, in)
	if err != nil {
		t.Fatal(err)
	}
	e.Clk.Set(testenv.T0.AddDate(2, 0, -1)) // 09/06/2027, the last day
	_, err = e.Svc.Casefile.Transition(ctx, j2, c2.ID, casefile.TransitionInput{To: cases.StatusArchived})
	casetest.KindIs(t, err, errs.Conflict)
	if !strings.Contains(err.Error(), "§ 5º") {
		t.Errorf("early extinction: %v", err)
	}
	e.Clk.Set(testenv.T0.AddDate(2, 0, 0))
	if _, err := e.Svc.Casefile.Transition(ctx, j2, c2.ID, casefile.TransitionInput{To: cases.StatusArchived}); err != nil {
		t.Fatal(err)
	}
	e.G.Raw("SELECT status, ended_on::text AS ended_on FROM conditional_suspensions WHERE id = ?", sp2.ID).Scan(&st)
	e.G.Where("id = ?", *sp2.BanID).Take(&b)
	if st.Status != "extinguished" || b.Status != "lifted" {
		t.Errorf("after extinction: %+v ban %s", st, b.Status)
	}
	cpf2, _ := registry.ParseCPF(*d2.CPF)
	if chk, _ := e.Lists.Check(ctx, cpf2); chk.Blocked {
		t.Error("blocked after the extinction")
	}
}
