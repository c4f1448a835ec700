package registry_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/calendar"
	"github.com/juizado/juizado/cases/casefile"
	"github.com/juizado/juizado/cases/decisions"
	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/registry"
)

// garraRegister registers the Garra do Tatuapé in 26.0100 with the
// fixture's register imported, and returns it, its manager and its
// members' ids by CPF.
func (e *regEnv) garraRegister(t *testing.T) (*registry.GroupView, actor.Actor, map[string]int64) {
	t.Helper()
	g, mgr := e.group(t, "Torcida Organizada Garra do Tatuapé")
	rep, err := e.svc.Import(context.Background(), mgr, g.ID, registry.ImportInput{Body: readFix(t, "fixtures", "members-valid-excel-ptbr.csv"), ContentType: "text/csv"})
	if err != nil || !rep.Applied {
		t.Fatalf("import: %+v %v", rep, err)
	}
	return g, mgr, e.memberIDs(t, mgr, g.ID)
}

// staffOf are a prosecutor and a judge of 26.0100, as actors.
func (e *regEnv) staffOf(t *testing.T) (pros, judge actor.Actor) {
	t.Helper()
	p := e.user(t, "promotora", "prosecutor", "26.0100", 0)
	j := e.user(t, "juiz", "judge", "26.0100", 0)
	return actor.Actor{UserID: p.UserID, Name: p.Name, Role: "prosecutor", Court: "26.0100"}, actor.Actor{UserID: j.UserID, Name: j.Name, Role: "judge", Court: "26.0100"}
}

// Issue 32, item 6 (the register as evidence; Lei 14.597/2023, art. 178,
// § 4º, and art. 183, § 2º): after R5 is filed against the Garra do
// Tatuapé, its manager records that João Pedro left the day before the
// facts and adds a person who "joined" before them. The group ban reaches
// the members of the register as it stood at the filing — João Pedro, not
// the person added later — with his data as the register has it now (his
// CPF corrected after the filing), and both changes are listed to the
// judge, on the case and in the sentence's warnings, for the judge to
// decide on each.
func TestGroupBan_RegisterAsFiled_ChangesListedToTheJudge(t *testing.T) {
	t.Parallel()
	e := newRegEnv(t)
	ctx := context.Background()
	g, mgr, byCPF := e.garraRegister(t)
	joao, ana := byCPF["06420642370"], byCPF["01720368872"]
	e.clk.Set(time.Date(2025, 6, 10, 12, 0, 0, 0, saoPaulo))
	prosA, judge := e.staffOf(t)
	c, err := e.casesS.Case.File(ctx, prosA, representation(t, "R5"))
	if err != nil {
		t.Fatal(err)
	}

	// After the filing, the group rewrites whom the facts reach.
	e.clk.Set(time.Date(2025, 6, 11, 12, 0, 0, 0, saoPaulo))
	if _, err := e.svc.Leave(ctx, mgr, joao, registry.DateInput{LeftOn: "2025-04-05"}); err != nil {
		t.Fatal(err)
	}
	newIn := memberIn("Entrou Depois Do Ajuizamento", "390.533.447-05", "1990-02-02")
	newIn.JoinedOn = str("2024-01-01")
	added, err := e.svc.AddMember(ctx, mgr, g.ID, newIn)
	if err != nil {
		t.Fatal(err)
	}
	// Ana's CPF is corrected (a typo in the register): the ban takes it.
	fixed := "529.982.247-25"
	if _, err := e.svc.UpdateMember(ctx, mgr, ana, registry.MemberInput{CPF: &fixed}); err != nil {
		t.Fatal(err)
	}

	v, err := e.casesS.Casefile.Get(ctx, prosA, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	page := strings.Join(v.Warnings, "\n")
	for _, want := range []string{"João Pedro da Silva Araújo", "deixou de constar", "Entrou Depois Do Ajuizamento", "passou a constar", "10/06/2025"} {
		if !strings.Contains(page, want) {
			t.Errorf("the case's warnings lack %q:\n%s", want, page)
		}
	}
	d := v.Defendants[0]
	months := 24
	res, err := e.casesS.Decisions.Sentence(ctx, judge, c.ID, decisions.SentenceInput{Text: &decisions.SentenceText{Reasoning: "Autoria e materialidade provadas."},
		DefendantID: d.ID, Ban: decisions.BanInput{Months: &months}})
	if err != nil {
		t.Fatal(err)
	}
	reached := map[int64]string{}
	for _, mb := range res.MemberBans {
		reached[*mb.MemberID] = *mb.CPF
	}
	if _, ok := reached[joao]; !ok {
		t.Error("the member the group marked as gone after the filing is not reached (the register as filed decides)")
	}
	if _, ok := reached[added.ID]; ok {
		t.Error("the person the group added after the filing is reached")
	}
	if reached[ana] != "52998224725" {
		t.Errorf("Ana's ban carries CPF %q, want the register's corrected 52998224725", reached[ana])
	}
	ws := strings.Join(res.Warnings, "\n")
	if !strings.Contains(ws, "João Pedro da Silva Araújo") || !strings.Contains(ws, "Entrou Depois Do Ajuizamento") {
		t.Errorf("the sentence's warnings lack the register's changes:\n%s", ws)
	}

	// A case filed after the changes keeps the register as it is then.
	c2, err := e.casesS.Case.File(ctx, prosA, representation(t, "R5"))
	if err != nil {
		t.Fatal(err)
	}
	v2, _ := e.casesS.Casefile.Get(ctx, prosA, c2.ID)
	if w := strings.Join(v2.Warnings, "\n"); strings.Contains(w, "depois do ajuizamento") {
		t.Errorf("a case filed after the changes warns of them: %s", w)
	}
}

// Issue 32, item 6: a CPF corrected in the register after a member's ban
// is listed to the court (both identifications), and the judge — a
// material error of the judgment is the judge's to correct (CPC art. 494,
// I) — carries it to the ban with a docket movement; the blocklist then
// blocks the corrected CPF and not the old one. The clerk does not carry
// it; a second carry is 404; a register that changed the name too is not
// the same person (409).
func TestMemberBan_RegisterCPFCorrectionCarriedByTheJudge(t *testing.T) {
	t.Parallel()
	e := newRegEnv(t)
	ctx := context.Background()
	_, mgr, byCPF := e.garraRegister(t)
	ana := byCPF["01720368872"]
	e.clk.Set(time.Date(2025, 6, 10, 12, 0, 0, 0, saoPaulo))
	prosA, judge := e.staffOf(t)
	c, err := e.casesS.Case.File(ctx, prosA, representation(t, "R5"))
	if err != nil {
		t.Fatal(err)
	}
	v, _ := e.casesS.Casefile.Get(ctx, prosA, c.ID)
	months := 24
	if _, err := e.casesS.Decisions.Sentence(ctx, judge, c.ID, decisions.SentenceInput{Text: &decisions.SentenceText{Reasoning: "Autoria e materialidade provadas."},
		DefendantID: v.Defendants[0].ID, Ban: decisions.BanInput{Months: &months}}); err != nil {
		t.Fatal(err)
	}
	clerk := actor.Actor{UserID: e.clerk.UserID, Name: e.clerk.Name, Role: "clerk", Court: "26.0100"}
	for _, n := range []calendar.NotificationInput{{Party: calendar.PartyProsecution}, {Party: calendar.PartyDefendant, DefendantID: v.Defendants[0].ID}} {
		n.NotifiedOn, n.WaivedAppeal = "2025-06-10", true
		if _, err := e.casesS.Calendar.Notify(ctx, clerk, c.ID, n); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := e.casesS.Casefile.Transition(ctx, clerk, c.ID, casefile.TransitionInput{To: cases.StatusFinal}); err != nil {
		t.Fatal(err)
	}
	if list, err := e.casesS.Execution.RegisterCPFCorrections(ctx, clerk); err != nil || len(list) != 0 {
		t.Fatalf("corrections before any change: %+v %v", list, err)
	}

	fixed := "529.982.247-25"
	if _, err := e.svc.UpdateMember(ctx, mgr, ana, registry.MemberInput{CPF: &fixed}); err != nil {
		t.Fatal(err)
	}
	list, err := e.casesS.Execution.RegisterCPFCorrections(ctx, clerk)
	if err != nil || len(list) != 1 || list[0].BanCPF != "017.203.688-72" || list[0].RegisterCPF != fixed || list[0].Name != "Ana Lúcia Gonçalves Simões" {
		t.Fatalf("corrections after the register's change: %+v %v", list, err)
	}
	if r, _ := e.lists.Check(ctx, registry.CPF("52998224725")); r.Blocked {
		t.Error("the corrected CPF is blocked before the clerk carries it")
	}
	if !list[0].SamePerson {
		t.Errorf("same name and birth date, not the same person: %+v", list[0])
	}
	if _, err := e.casesS.Execution.CarryRegisterCPF(ctx, clerk, list[0].BanID); errs.KindOf(err) != errs.Forbidden {
		t.Errorf("the clerk carries it: %v, want forbidden", err)
	}
	if _, err := e.casesS.Execution.CarryRegisterCPF(ctx, judge, list[0].BanID); err != nil {
		t.Fatal(err)
	}
	if r, _ := e.lists.Check(ctx, registry.CPF("52998224725")); !r.Blocked {
		t.Error("the corrected CPF is not blocked after the clerk carried it")
	}
	if r, _ := e.lists.Check(ctx, registry.CPF("01720368872")); r.Blocked {
		t.Error("the old CPF is still blocked")
	}
	v, _ = e.casesS.Casefile.Get(ctx, clerk, c.ID)
	moved := false
	for _, m := range v.Movements {
		moved = moved || strings.Contains(m.Description, "de 017.203.688-72 para 529.982.247-25") && strings.Contains(m.Description, "CPC, art. 494, I")
	}
	if !moved {
		t.Error("no docket movement of the correction")
	}
	if _, err := e.casesS.Execution.CarryRegisterCPF(ctx, judge, list[0].BanID); errs.KindOf(err) != errs.NotFound {
		t.Errorf("carrying twice: %v, want not found", err)
	}
	if list, _ := e.casesS.Execution.RegisterCPFCorrections(ctx, clerk); len(list) != 0 {
		t.Errorf("corrections after the carry: %+v", list)
	}

	// The group rewrites another member as someone else: not carried.
	joao := byCPF["06420642370"]
	other, name := "390.533.447-05", "Pedro Outra Pessoa"
	if _, err := e.svc.UpdateMember(ctx, mgr, joao, registry.MemberInput{CPF: &other, FullName: &name}); err != nil {
		t.Fatal(err)
	}
	list, _ = e.casesS.Execution.RegisterCPFCorrections(ctx, clerk)
	if len(list) != 1 || list[0].SamePerson || list[0].RegisterName != name {
		t.Fatalf("a member rewritten as another person: %+v", list)
	}
	if _, err := e.casesS.Execution.CarryRegisterCPF(ctx, judge, list[0].BanID); errs.KindOf(err) != errs.Conflict {
		t.Errorf("carrying another person's CPF: %v, want conflict", err)
	}
	if r, _ := e.lists.Check(ctx, registry.CPF("39053344705")); r.Blocked {
		t.Error("a person never judged is blocked")
	}
}

// The register is the group's own declaration (CPC art. 408, par. único):
// a leave recorded after the facts (06/04/2025) and dated before them,
// even before the case is filed, is listed to the judge on the case and in
// the sentence's warnings (the member is not reached unless named).
func TestGroupBan_LeaveRecordedAfterTheFactsListedToTheJudge(t *testing.T) {
	t.Parallel()
	e := newRegEnv(t)
	ctx := context.Background()
	_, mgr, byCPF := e.garraRegister(t)
	joao := byCPF["06420642370"]
	e.clk.Set(time.Date(2025, 4, 8, 12, 0, 0, 0, saoPaulo)) // two days after the facts
	if _, err := e.svc.Leave(ctx, mgr, joao, registry.DateInput{LeftOn: "2025-04-01"}); err != nil {
		t.Skipf("the register's join date does not allow a leave on 01/04/2025: %v", err)
	}
	e.clk.Set(time.Date(2025, 6, 10, 12, 0, 0, 0, saoPaulo))
	prosA, _ := e.staffOf(t)
	c, err := e.casesS.Case.File(ctx, prosA, representation(t, "R5"))
	if err != nil {
		t.Fatal(err)
	}
	v, err := e.casesS.Casefile.Get(ctx, prosA, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	w := strings.Join(v.Warnings, "\n")
	if !strings.Contains(w, "João Pedro da Silva Araújo") || !strings.Contains(w, "saída registrada pela torcida em 08/04/2025") || !strings.Contains(w, "com data de 01/04/2025") {
		t.Errorf("the leave recorded after the facts is not listed:\n%s", w)
	}
}
