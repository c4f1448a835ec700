package decisions_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/calendar"
	"github.com/juizado/juizado/cases/casefile"
	"github.com/juizado/juizado/cases/decisions"
	"github.com/juizado/juizado/cases/execution"
	"github.com/juizado/juizado/cases/internal/casetest"
	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/testenv"
	"github.com/juizado/juizado/sanctions"
)

// twoDefendants files R4 (riot and organiser) against its defendant and a
// second fan with another CPF: the conduct list describes the event, not
// each defendant.
func twoDefendants(t *testing.T, e *env, ref string) (*cases.Case, []cases.Defendant, actor.Actor) {
	t.Helper()
	r := casetest.Fixture(t, ref)
	second := r.Defendants[0]
	cpf := "390.996.030-88"
	second.CPF, second.FullName, second.MotherName = &cpf, "Márcia Exemplo Nogueira", "Lúcia Exemplo"
	r.Defendants = append(r.Defendants, second)
	c := e.File(t, r)
	e.Receive(t, c)
	return c, e.Defendants(t, c.ID), e.JudgeOf(t, c)
}

func tpuCodes(v *casefile.View) map[int]int {
	out := map[int]int{}
	for _, m := range v.Movements {
		if m.TPUCode != nil {
			out[*m.TPUCode]++
		}
	}
	return out
}

// LGE art. 201, § 2º not met (eligible=false) and § 6º (organiser): the
// defendant is convicted to reclusão and fine with no conversion (TPU 219),
// within the article's range after § 6º; outcome ban is refused naming the
// flag and pointing to prison; the fine is in dias-multa (CP art. 49: 10 to
// 360).
func TestSentence_PrisonWithoutConversion_LGE_art_201_sec2_sec6_CP_art_49(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	ctx := context.Background()
	c, d, j := e.FileOne(t, "R1")
	e.Receive(t, c)
	in := decisions.SentenceInput{Text: casetest.Reasoned(), DefendantID: d.ID, Outcome: decisions.OutcomePrison, Eligible: casetest.Ptr(true), PrisonMonths: casetest.Ptr(12), FineDays: casetest.Ptr(10)}
	_, err := e.Svc.Decisions.Sentence(ctx, j, c.ID, in)
	if msg := casetest.InvalidField(t, err, "outcome", false); !strings.Contains(msg, "deverá converter") {
		t.Errorf("prison for an eligible defendant: %q", msg)
	}
	in.Eligible = casetest.Ptr(false)
	for field, mod := range map[string]func(*decisions.SentenceInput){
		"prison_months": func(i *decisions.SentenceInput) { i.PrisonMonths = casetest.Ptr(25) },
		"fine_days":     func(i *decisions.SentenceInput) { i.FineDays = casetest.Ptr(361) },
	} {
		bad := in
		mod(&bad)
		_, err := e.Svc.Decisions.Sentence(ctx, j, c.ID, bad)
		casetest.InvalidField(t, err, field, false)
	}
	bad := in
	bad.FineDays = nil
	_, err = e.Svc.Decisions.Sentence(ctx, j, c.ID, bad)
	casetest.InvalidField(t, err, "fine_days", false)
	res, err := e.Svc.Decisions.Sentence(ctx, j, c.ID, in)
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != decisions.OutcomePrison || res.Ban != nil || res.Prison == nil || res.Prison.Months != 12 || *res.Prison.FineDays != 10 ||
		res.Sentence.Article != "art. 201" || !strings.Contains(res.Sentence.NoConversionReason, "§ 2º") {
		t.Fatalf("prison sentence: %+v", res)
	}
	v, err := e.Svc.Casefile.Get(ctx, j, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	if v.Status != cases.StatusSentenced || tpuCodes(v)[cases.TPUOf(cases.MoveConviction)] != 1 || len(v.Bans) != 0 || len(v.Sentences) != 1 {
		t.Errorf("case after a prison conviction: status %s codes %v bans %d sentences %d", v.Status, tpuCodes(v), len(v.Bans), len(v.Sentences))
	}

	// § 6º: the organiser is convicted, 16 to 36 months.
	c4, d4, j4 := e.FileOne(t, "R4")
	e.Receive(t, c4)
	_, err = e.Svc.Decisions.Sentence(ctx, j4, c4.ID, decisions.SentenceInput{Text: casetest.Reasoned(), DefendantID: d4.ID, Outcome: decisions.OutcomePrison, PrisonMonths: casetest.Ptr(15), FineDays: casetest.Ptr(30)})
	if msg := casetest.InvalidField(t, err, "prison_months", false); !strings.Contains(msg, "16 e 36") {
		t.Errorf("§ 6º range: %q", msg)
	}
	res, err = e.Svc.Decisions.Sentence(ctx, j4, c4.ID, decisions.SentenceInput{Text: casetest.Reasoned(), DefendantID: d4.ID, Outcome: decisions.OutcomePrison, PrisonMonths: casetest.Ptr(36), FineDays: casetest.Ptr(30)})
	if err != nil {
		t.Fatal(err)
	}
	if res.Sentence.Article != "art. 201, § 6º" || !res.Flags.Organiser || !strings.Contains(strings.Join(res.Flags.Derived, ","), "organiser") {
		t.Errorf("organiser conviction: article %q flags %+v", res.Sentence.Article, res.Flags)
	}
}

// Lei 10.671/2003, art. 39 (facts of 2008, R8) was a sanction imposed by
// sentence, with no prison: outcome prison is refused; art. 41-B (2018, R7)
// has reclusão of 1 to 2 years.
func TestSentence_PrisonByPeriod_Estatuto_art_39_and_41B(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	ctx := context.Background()
	c, d, j := e.FileOne(t, "R8")
	e.Receive(t, c)
	_, err := e.Svc.Decisions.Sentence(ctx, j, c.ID, decisions.SentenceInput{Text: casetest.Reasoned(), DefendantID: d.ID, Outcome: decisions.OutcomePrison, PrisonMonths: casetest.Ptr(12)})
	if msg := casetest.InvalidField(t, err, "outcome", false); !strings.Contains(msg, "art. 39") {
		t.Errorf("art. 39 prison: %q", msg)
	}
	c, d, j = e.FileOne(t, "R7")
	e.Receive(t, c)
	res, err := e.Svc.Decisions.Sentence(ctx, j, c.ID, decisions.SentenceInput{Text: casetest.Reasoned(), DefendantID: d.ID, Outcome: decisions.OutcomePrison, Eligible: casetest.Ptr(false), PrisonMonths: casetest.Ptr(24), FineDays: casetest.Ptr(50)})
	if err != nil {
		t.Fatal(err)
	}
	if res.Sentence.Article != "art. 41-B" || !strings.HasPrefix(res.Sentence.Law, "Lei 10.671/2003") {
		t.Errorf("41-B conviction: %q %q", res.Sentence.Article, res.Sentence.Law)
	}
}

// CPP art. 386: an acquittal names its item and writes TPU 220; a case with
// one defendant convicted and one acquitted also gets TPU 221; penalties are
// personal (CF art. 5º, XLV–XLVI): the co-defendant's organiser flag bars
// nobody else, and with two defendants the conduct list derives no flag.
func TestSentence_AcquittalPartialAndFlagsPerDefendant_CPP_art_386_CF_art_5_XLV(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	ctx := context.Background()
	c, ds, j := twoDefendants(t, e, "R4") // conduct: riot, organiser
	// Defendant 1 is the organiser: no conversion.
	_, err := e.Svc.Decisions.Sentence(ctx, j, c.ID, decisions.SentenceInput{Text: casetest.Reasoned(), DefendantID: ds[0].ID, Organiser: casetest.Ptr(true), Ban: decisions.BanInput{Months: casetest.Ptr(12)}})
	casetest.InvalidField(t, err, "organiser", false)
	// Defendant 2: no flag stated, none derived (two defendants): a ban.
	res, err := e.Svc.Decisions.Sentence(ctx, j, c.ID, decisions.SentenceInput{Text: casetest.Reasoned(), ReportingDuty: casetest.Reporting(), DefendantID: ds[1].ID, Ban: decisions.BanInput{Months: casetest.Ptr(12)}})
	if err != nil {
		t.Fatalf("co-defendant barred by the other's § 6º flag: %v", err)
	}
	if res.Flags.Organiser || len(res.Flags.Derived) != 0 || res.Ban.Article != "art. 201, § 2º" {
		t.Errorf("co-defendant: flags %+v article %q", res.Flags, res.Ban.Article)
	}
	_, err = e.Svc.Decisions.Sentence(ctx, j, c.ID, decisions.SentenceInput{Text: casetest.Reasoned(), DefendantID: ds[0].ID, Outcome: decisions.OutcomeAcquittal, AcquittalGround: "VIII"})
	casetest.InvalidField(t, err, "acquittal_ground", false)
	if _, err := e.Svc.Decisions.Sentence(ctx, j, c.ID, decisions.SentenceInput{Text: casetest.Reasoned(), DefendantID: ds[0].ID, Outcome: decisions.OutcomeAcquittal, AcquittalGround: "vii"}); err != nil {
		t.Fatal(err)
	}
	v, err := e.Svc.Casefile.Get(ctx, j, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	codes := tpuCodes(v)
	if v.Status != cases.StatusSentenced || codes[cases.TPUOf(cases.MoveConviction)] != 1 || codes[cases.TPUOf(cases.MoveAcquittal)] != 1 || codes[cases.TPUOf(cases.MovePartialJudgment)] != 1 {
		t.Errorf("status %s codes %v, want sentenced with 219, 220 and 221", v.Status, codes)
	}
	// The transition no longer decides: it names the sentence endpoint.
	c2, _, _ := e.FileOne(t, "R2")
	e.Receive(t, c2)
	_, err = e.Svc.Casefile.Transition(ctx, e.Clerk(t), c2.ID, casefile.TransitionInput{To: cases.StatusDistributed})
	if err == nil {
		t.Log("distributed")
	}
}

// LGE art. 201, § 7º with a caput conduct stays art. 201 (doubled) with a
// note that Lei 7.716/1989, art. 20, § 2º-A may also apply; racism alone
// (R3) is art. 20, § 2º-A: reclusão of 2 to 5 years and a fixed ban of 3
// years, cumulative (not a conversion); against_women alone is no offence
// of art. 201.
func TestSentence_RacismAlone_Lei_7716_art_20_sec2A_and_Sec7(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	ctx := context.Background()
	c, d, j := e.FileOne(t, "R3")
	e.Receive(t, c)
	_, err := e.Svc.Decisions.Sentence(ctx, j, c.ID, decisions.SentenceInput{Text: casetest.Reasoned(), DefendantID: d.ID, Ban: decisions.BanInput{Months: casetest.Ptr(12)}, PrisonMonths: casetest.Ptr(24)})
	if msg := casetest.InvalidField(t, err, "ban.months", false); !strings.Contains(msg, "36 meses") {
		t.Errorf("racism alone, 12 months: %q", msg)
	}
	_, err = e.Svc.Decisions.Sentence(ctx, j, c.ID, decisions.SentenceInput{Text: casetest.Reasoned(), DefendantID: d.ID})
	casetest.InvalidField(t, err, "prison_months", false)
	_, err = e.Svc.Decisions.Sentence(ctx, j, c.ID, decisions.SentenceInput{Text: casetest.Reasoned(), DefendantID: d.ID, Outcome: decisions.OutcomePrison, PrisonMonths: casetest.Ptr(24)})
	casetest.InvalidField(t, err, "outcome", false)
	res, err := e.Svc.Decisions.Sentence(ctx, j, c.ID, decisions.SentenceInput{Text: casetest.Reasoned(), DefendantID: d.ID, PrisonMonths: casetest.Ptr(30)})
	if err != nil {
		t.Fatal(err)
	}
	b := res.Ban
	if !b.Cumulative || *b.Months != 36 || b.Article != "art. 20, § 2º-A" || !strings.HasPrefix(b.Law, "Lei 7.716/1989") || b.Status != "awaiting_final" ||
		res.Sentence.Article != "art. 20, § 2º-A" || *res.Sentence.PrisonMonths != 30 {
		t.Errorf("racism-alone ban %+v sentence %+v", b, res.Sentence)
	}
	v, err := e.Svc.Casefile.Get(ctx, j, c.ID)
	if err != nil || v.Rite != "ordinary" {
		t.Errorf("rite %q (%v), want ordinary", v.Rite, err)
	}

	// Racism with violence (R1 + § 7º stated): art. 201 c/c § 7º and the note.
	c1, d1, j1 := e.FileOne(t, "R1")
	e.Receive(t, c1)
	res, err = e.Svc.Decisions.Sentence(ctx, j1, c1.ID, decisions.SentenceInput{Text: casetest.Reasoned(), ReportingDuty: casetest.Reporting(), DefendantID: d1.ID, Sec7: casetest.Ptr(true), Sec7Ground: "racism", Ban: decisions.BanInput{Months: casetest.Ptr(6)}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Ban.Article != "art. 201, § 2º c/c § 7º" || !strings.Contains(strings.Join(res.Warnings, " "), "art. 20, § 2º-A") {
		t.Errorf("§ 7º with violence: %q, warnings %q", res.Ban.Article, res.Warnings)
	}

	// against_women alone: 422 naming § 7º, at the filing already.
	r := casetest.Fixture(t, "R3")
	r.Facts.Conduct = []string{"against_women"}
	_, err = e.Svc.Case.File(ctx, e.Pros, r)
	if msg := casetest.InvalidField(t, err, "facts.conduct", false); !strings.Contains(msg, "§ 7º") {
		t.Errorf("against_women alone: %q", msg)
	}
}

// Súmula 643 STJ; CF art. 5º, LVII: a sentence's ban waits for the final
// judgment — in no blocklist and no public list — and starts on the day the
// judgment became final (here the day of the last waiver), its last day
// counted from it (CP art. 10). The final judgment is refused (409, naming
// what is missing) until the prosecution, the defendant and the defence
// were each notified and each window ended or was waived (Lei 9.099/1995,
// art. 82, § 1º).
func TestFinalJudgment_BanWaits_Sumula_643_STJ_Lei_9099_art_82(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	ctx := context.Background()
	k := e.Clerk(t)
	c, d, _, res := e.Sentenced(t, "R1", 12)
	if e.InBlocklist(t, "66392332154") || e.Published(t, "Marcelo Augusto Figueiredo") {
		t.Fatal("a ban awaiting the final judgment is on the blocklist or the public list")
	}
	if _, err := e.Svc.Calendar.Notify(ctx, k, c.ID, calendar.NotificationInput{DefendantID: d.ID, NotifiedOn: "2025-06-10"}); err != nil {
		t.Fatal(err)
	}
	_, err := e.Svc.Casefile.Transition(ctx, k, c.ID, casefile.TransitionInput{To: cases.StatusFinal})
	casetest.KindIs(t, err, errs.Conflict)
	for _, want := range []string{"Ministério Público", "defesa", "corre até 20/06/2025"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("refusal %q should name %q", err, want)
		}
	}
	if _, err := e.Svc.Calendar.Notify(ctx, k, c.ID, calendar.NotificationInput{Party: calendar.PartyDefence, DefendantID: d.ID, NotifiedOn: "2025-06-10", WaivedAppeal: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Svc.Calendar.Notify(ctx, k, c.ID, calendar.NotificationInput{Party: calendar.PartyProsecution, NotifiedOn: "2025-06-10"}); err != nil {
		t.Fatal(err)
	}
	_, err = e.Svc.Calendar.Notify(ctx, k, c.ID, calendar.NotificationInput{Party: calendar.PartyProsecution, NotifiedOn: "2025-06-10"})
	casetest.KindIs(t, err, errs.Conflict)
	// The prosecution's notice as to every defendant sentenced is his too
	// (API.md, each defendant's track): naming him again is the same notice.
	_, err = e.Svc.Calendar.Notify(ctx, k, c.ID, calendar.NotificationInput{Party: calendar.PartyProsecution, DefendantID: d.ID, NotifiedOn: "2025-06-10"})
	casetest.KindIs(t, err, errs.Conflict)
	v, _ := e.Svc.Casefile.Get(ctx, k, c.ID)
	if len(v.FinalityMissing) != 2 {
		t.Errorf("finality missing %q, want the defendant's and the prosecution's windows", v.FinalityMissing)
	}
	// The windows end on 20/06/2025: the judgment is final on 21/06.
	e.Clk.Set(testenv.T0.AddDate(0, 0, 11))
	v, err = e.Svc.Casefile.Transition(ctx, k, c.ID, casefile.TransitionInput{To: cases.StatusFinal})
	if err != nil {
		t.Fatal(err)
	}
	var b sanctions.Ban
	if err := e.G.Take(&b, res.Ban.ID).Error; err != nil {
		t.Fatal(err)
	}
	if b.Status != "active" || b.FirstDay.String() != "2025-06-21" || b.LastDay.String() != "2026-06-20" {
		t.Errorf("after the final judgment: %s %v..%v, want active 2025-06-21..2026-06-20", b.Status, b.FirstDay, b.LastDay)
	}
	if !e.InBlocklist(t, "66392332154") || !e.Published(t, "Marcelo Augusto Figueiredo") {
		t.Error("the final ban is not on the blocklist and the public list")
	}
	if tpuCodes(v)[cases.TPUOf(cases.MoveFinalJudgment)] != 1 {
		t.Errorf("no TPU 848: %v", tpuCodes(v))
	}
}

// A waiver by every party makes the judgment final on the day of the last
// waiver; a later first day the judge fixed is kept (Súmula 643 STJ).
func TestFinalJudgment_WaiverAndLaterFirstDay_Sumula_643_STJ(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	_, banID, _ := e.FinalBan(t, "R1", "", 3, nil)
	var b sanctions.Ban
	if err := e.G.Take(&b, banID).Error; err != nil {
		t.Fatal(err)
	}
	if b.FirstDay.String() != "2025-06-10" || b.LastDay.String() != "2025-09-09" {
		t.Errorf("waived on 10/06/2025: %v..%v", b.FirstDay, b.LastDay)
	}
	_, banID, _ = e.FinalBan(t, "R1", "", 3, func(in *decisions.SentenceInput) { in.Ban.FirstDay = "2025-08-01" })
	b = sanctions.Ban{}
	if err := e.G.Take(&b, banID).Error; err != nil {
		t.Fatal(err)
	}
	if b.FirstDay.String() != "2025-08-01" || b.LastDay.String() != "2025-10-31" || e.InBlocklist(t, "66392332154") != true {
		t.Errorf("later first day: %v..%v", b.FirstDay, b.LastDay)
	}
}

// Lei 9.099/1995, art. 82: the Turma Recursal's result. Confirmed: the ban
// starts at the final judgment; reformed: the new term replaces the ban
// before it starts; annulled: the sentence and its ban fall and the case
// returns for a new sentence.
func TestAppealResult_Lei_9099_art_82_ConfirmedReformedAnnulled(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	ctx := context.Background()
	k := e.Clerk(t)
	sentenced := func() (*cases.Case, cases.Defendant, actor.Actor, int64) {
		c, d, j, res := e.Sentenced(t, "R1", 12)
		e.Move(t, k, c, cases.StatusAppeal)
		return c, d, j, res.Ban.ID
	}
	c, _, _, banID := sentenced()
	_, err := e.Svc.Casefile.Transition(ctx, k, c.ID, casefile.TransitionInput{To: cases.StatusFinal})
	casetest.KindIs(t, err, errs.Conflict) // no result yet
	if _, err := e.Svc.Casefile.RecordAppealResult(ctx, k, c.ID, decisions.AppealResultInput{Result: "confirmed", DecidedOn: "2025-06-10"}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Svc.Casefile.Transition(ctx, k, c.ID, casefile.TransitionInput{To: cases.StatusFinal, FinalOn: "2025-06-10"}); err != nil {
		t.Fatal(err)
	}
	if e.Count(t, "bans", "id = ? AND status = 'active' AND first_day = '2025-06-10'", banID) != 1 || !e.InBlocklist(t, "66392332154") {
		t.Error("confirmed: the ban did not start at the final judgment")
	}

	c, d, _, banID := sentenced()
	_, err = e.Svc.Casefile.RecordAppealResult(ctx, k, c.ID, decisions.AppealResultInput{Result: "reformed", DefendantID: d.ID, Ban: decisions.BanInput{Months: casetest.Ptr(40)}})
	casetest.InvalidField(t, err, "ban.months", false)
	v, err := e.Svc.Casefile.RecordAppealResult(ctx, k, c.ID, decisions.AppealResultInput{Result: "reformed", DefendantID: d.ID, Ban: decisions.BanInput{Months: casetest.Ptr(6)}})
	if err != nil {
		t.Fatal(err)
	}
	if e.Count(t, "bans", "id = ? AND status = 'reformed'", banID) != 1 || e.Count(t, "bans", "case_id = ? AND status = 'awaiting_final' AND months = 6", c.ID) != 1 ||
		tpuCodes(v)[cases.TPUOf(cases.MoveAppealGranted)] != 1 {
		t.Error("reformed: the new term did not replace the ban")
	}

	c, d, j, banID := sentenced()
	v, err = e.Svc.Casefile.RecordAppealResult(ctx, k, c.ID, decisions.AppealResultInput{Result: "annulled"})
	if err != nil {
		t.Fatal(err)
	}
	if v.Status != cases.StatusInstructionHearing || e.Count(t, "bans", "id = ? AND status = 'annulled'", banID) != 1 {
		t.Errorf("annulled: status %s", v.Status)
	}
	if _, err := e.Svc.Decisions.Sentence(ctx, j, c.ID, casetest.SentenceIn(d.ID, "", 6)); err != nil {
		t.Fatalf("new sentence after the annulment: %v", err)
	}
}

// CPP art. 319, II: a precautionary ban has a review date (none: 422; Res.
// CNJ 417/2021, art. 19), is docketed as a precautionary decision (no TPU
// 219), is allowed whatever § 6º says, is in force at once, and is replaced
// by the final ban when it starts; the time under it is shown for the
// judge's decision on credit (CP art. 42), never deducted automatically.
func TestPrecautionary_CPP_art_319_II_ReviewReplacementAndCredit_CP_art_42(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	ctx := context.Background()
	c, d, j := e.FileOne(t, "R4") // organiser: no conversion, but a precautionary ban is allowed
	_, err := e.Svc.Decisions.Sentence(ctx, j, c.ID, decisions.SentenceInput{Text: casetest.Reasoned(), DefendantID: d.ID, Precautionary: true})
	if msg := casetest.InvalidField(t, err, "review_on", false); !strings.Contains(msg, "417/2021") {
		t.Errorf("no review date: %q", msg)
	}
	res, err := e.Svc.Decisions.Sentence(ctx, j, c.ID, decisions.SentenceInput{Text: casetest.Reasoned(), DefendantID: d.ID, Precautionary: true, ReviewOn: "2025-09-10"})
	if err != nil {
		t.Fatal(err)
	}
	if !e.InBlocklist(t, *d.CPF) {
		t.Error("a precautionary ban is not on the blocklist")
	}
	v, _ := e.Svc.Casefile.Get(ctx, j, c.ID)
	if tpuCodes(v)[cases.TPUOf(cases.MoveConviction)] != 0 || v.Status == cases.StatusSentenced {
		t.Errorf("a precautionary ban decided the case: %v %s", tpuCodes(v), v.Status)
	}
	_ = res

	// In the sentence, until final: replaced by the final ban when it starts.
	// Sentenced on 01/06/2025, final on 10/06/2025.
	e.Clk.Set(time.Date(2025, 6, 1, 12, 0, 0, 0, testenv.SaoPaulo))
	c1, d1, j1 := e.FileOne(t, "R1")
	e.Receive(t, c1)
	_, err = e.Svc.Decisions.Sentence(ctx, j1, c1.ID, decisions.SentenceInput{Text: casetest.Reasoned(), DefendantID: d1.ID, Ban: decisions.BanInput{Months: casetest.Ptr(12)}, PrecautionaryUntilFinal: &decisions.PrecautionaryInput{}})
	casetest.InvalidField(t, err, "precautionary_until_final.review_on", false)
	_, err = e.Svc.Decisions.Sentence(ctx, j1, c1.ID, decisions.SentenceInput{Text: casetest.Reasoned(), DefendantID: d1.ID, Ban: decisions.BanInput{Months: casetest.Ptr(12)}, PrecautionaryUntilFinal: &decisions.PrecautionaryInput{FirstDay: "2025-05-30", ReviewOn: "2025-08-01"}})
	casetest.InvalidField(t, err, "precautionary_until_final.first_day", false)
	res, err = e.Svc.Decisions.Sentence(ctx, j1, c1.ID, decisions.SentenceInput{Text: casetest.Reasoned(), ReportingDuty: casetest.Reporting(), DefendantID: d1.ID, Ban: decisions.BanInput{Months: casetest.Ptr(12)},
		PrecautionaryUntilFinal: &decisions.PrecautionaryInput{ReviewOn: "2025-08-01"}})
	if err != nil {
		t.Fatal(err)
	}
	e.Clk.Set(testenv.T0)
	if res.PrecautionaryBan == nil || !e.InBlocklist(t, "66392332154") || res.Ban.Status != "awaiting_final" {
		t.Fatal("precautionary until final not in force")
	}
	e.MakeFinal(t, c1.ID)
	if e.Count(t, "bans", "id = ? AND status = 'replaced' AND lifted_on = '2025-06-10'", res.PrecautionaryBan.ID) != 1 {
		t.Error("the precautionary ban was not replaced by the final ban")
	}
	v, _ = e.Svc.Casefile.Get(ctx, j1, c1.ID)
	var final cases.BanView
	for _, b := range v.Bans {
		if b.ID == res.Ban.ID {
			final = b
		}
	}
	if final.PrecautionaryDays == nil || *final.PrecautionaryDays != 9 || final.LastDay.String() != "2026-06-09" {
		t.Fatalf("final ban: precautionary days %v last %v, want 9 (01–09/06/2025), 2026-06-09 (no automatic credit)", final.PrecautionaryDays, final.LastDay)
	}
	_, err = e.Svc.Execution.Credit(ctx, j1, res.Ban.ID, execution.CreditInput{Days: casetest.Ptr(10), Reason: "x"})
	casetest.InvalidField(t, err, "days", false)
	b, err := e.Svc.Execution.Credit(ctx, j1, res.Ban.ID, execution.CreditInput{Days: casetest.Ptr(9), Reason: "Detração do tempo sob medida cautelar (CP, art. 42)."})
	if err != nil || b.LastDay.String() != "2026-05-31" || *b.CreditDays != 9 {
		t.Fatalf("credit: %+v %v", b, err)
	}
	_, err = e.Svc.Execution.Credit(ctx, j1, res.Ban.ID, execution.CreditInput{Days: casetest.Ptr(1), Reason: "de novo"})
	casetest.KindIs(t, err, errs.Conflict)
}

// CF art. 93, IX: the judge saves a minuta, which decides nothing, then
// signs it: the same checks, one signed sentence.
func TestSentence_DraftThenSign_CF_art_93_IX(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	ctx := context.Background()
	c, d, j := e.FileOne(t, "R1")
	e.Receive(t, c)
	in := casetest.SentenceIn(d.ID, "", 12)
	in.Draft = true
	in.Text = &decisions.SentenceText{Report: "Relatório.", Reasoning: "Fundamentação."}
	in.Dosimetry = &decisions.Dosimetry{BaseMonths: 12, IntermediateMonths: 12, FinalMonths: 40}
	_, err := e.Svc.Decisions.Sentence(ctx, j, c.ID, in)
	casetest.InvalidField(t, err, "dosimetry.final_months", false)
	in.Dosimetry.FinalMonths = 14
	res, err := e.Svc.Decisions.Sentence(ctx, j, c.ID, in)
	if err != nil {
		t.Fatal(err)
	}
	if res.Sentence.Status != "draft" || e.Count(t, "bans", "case_id = ?", c.ID) != 0 || e.Count(t, "sentences", "case_id = ? AND status = 'draft'", c.ID) != 1 {
		t.Fatalf("draft decided something: %+v", res.Sentence)
	}
	res, err = e.Svc.Decisions.SignDraft(ctx, j, c.ID, d.ID)
	if err != nil {
		t.Fatal(err)
	}
	if res.Sentence.Status != "signed" || res.Ban == nil || *res.Sentence.PrisonMonths != 14 || *res.Ban.PrisonMonths != 14 || res.Sentence.Reasoning != "Fundamentação." ||
		e.Count(t, "sentences", "case_id = ?", c.ID) != 1 {
		t.Errorf("signed: %+v", res.Sentence)
	}
	_, err = e.Svc.Decisions.SignDraft(ctx, j, c.ID, d.ID)
	casetest.KindIs(t, err, errs.NotFound)
}

// CPP art. 386, parágrafo único, II: an acquittal ends the precautionary
// measures; a final judgment with no final ban (prison conviction) ends
// them too; CPP art. 283, § 1º: no precautionary measure for art. 39 facts
// (a sanction without prison).
func TestPrecautionary_EndsOnAcquittalAndFinalWithoutBan_CPP_art_386_art_283(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	ctx := context.Background()
	c, d, j := e.FileOne(t, "R1")
	e.Receive(t, c)
	p, err := e.Svc.Decisions.Sentence(ctx, j, c.ID, decisions.SentenceInput{Text: casetest.Reasoned(), DefendantID: d.ID, Precautionary: true, ReviewOn: "2025-09-10"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Svc.Decisions.Sentence(ctx, j, c.ID, decisions.SentenceInput{Text: casetest.Reasoned(), DefendantID: d.ID, Outcome: decisions.OutcomeAcquittal, AcquittalGround: "V"}); err != nil {
		t.Fatal(err)
	}
	if e.Count(t, "bans", "id = ? AND status = 'lifted' AND lifted_on = '2025-06-10'", p.PrecautionaryBan.ID) != 1 || e.InBlocklist(t, "66392332154") {
		t.Error("the acquittal did not end the precautionary ban")
	}

	c, d, j = e.FileOne(t, "R1")
	e.Receive(t, c)
	res, err := e.Svc.Decisions.Sentence(ctx, j, c.ID, decisions.SentenceInput{Text: casetest.Reasoned(), DefendantID: d.ID, Outcome: decisions.OutcomePrison, Eligible: casetest.Ptr(false), PrisonMonths: casetest.Ptr(12), FineDays: casetest.Ptr(10),
		PrecautionaryUntilFinal: &decisions.PrecautionaryInput{ReviewOn: "2025-09-10"}})
	if err != nil {
		t.Fatal(err)
	}
	if !e.InBlocklist(t, "66392332154") {
		t.Fatal("the precautionary ban until final is not in force")
	}
	e.MakeFinal(t, c.ID)
	if e.Count(t, "bans", "id = ? AND status = 'lifted'", res.PrecautionaryBan.ID) != 1 || e.InBlocklist(t, "66392332154") {
		t.Error("the final judgment of a prison conviction did not end the precautionary ban")
	}

	c8, d8, j8 := e.FileOne(t, "R8")
	e.Receive(t, c8)
	_, err = e.Svc.Decisions.Sentence(ctx, j8, c8.ID, decisions.SentenceInput{Text: casetest.Reasoned(), DefendantID: d8.ID, Precautionary: true, ReviewOn: "2025-09-10"})
	if msg := casetest.InvalidField(t, err, "review_on", false); !strings.Contains(msg, "283") {
		t.Errorf("art. 39 precautionary: %q", msg)
	}
}

// TPU codes of decisions are written by the operations that make them: a
// free movement with 219, 220, 221, 237, 239, 848, 26 or 246 is 422 naming
// the operation (CNJ TPU; Res. CNJ 331/2020: DataJud reads the docket).
func TestMovement_ReservedTPUCodes_Res_CNJ_331(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	c, _, _ := e.FileOne(t, "R1")
	e.Receive(t, c)
	for _, code := range []int{219, 220, 221, 237, 239, 848, 26, 246} {
		_, err := e.Svc.Case.AddMovement(context.Background(), e.Clerk(t), c.ID, cases.MovementInput{Description: "Transitou em julgado", TPUCode: casetest.Ptr(code)})
		casetest.InvalidField(t, err, "tpu_code", false)
	}
	if _, err := e.Svc.Case.AddMovement(context.Background(), e.Clerk(t), c.ID, cases.MovementInput{Description: "Conclusos.", TPUCode: casetest.Ptr(51)}); err != nil {
		t.Fatal(err)
	}
}

// Lei 9.099/1995, art. 82: the Turma Recursal decides the appeal once; a
// second result for the same appeal is 409.
func TestAppealResult_Once_Lei_9099_art_82(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	ctx := context.Background()
	k := e.Clerk(t)
	c, d, j := e.FileOne(t, "R1")
	e.Receive(t, c)
	if _, err := e.Svc.Decisions.Sentence(ctx, j, c.ID, casetest.SentenceIn(d.ID, "", 12)); err != nil {
		t.Fatal(err)
	}
	e.Move(t, k, c, cases.StatusAppeal)
	if _, err := e.Svc.Casefile.RecordAppealResult(ctx, k, c.ID, decisions.AppealResultInput{Result: "confirmed"}); err != nil {
		t.Fatal(err)
	}
	_, err := e.Svc.Casefile.RecordAppealResult(ctx, k, c.ID, decisions.AppealResultInput{Result: "reformed", DefendantID: d.ID, Outcome: decisions.OutcomeAcquittal})
	casetest.KindIs(t, err, errs.Conflict)
}

// Lei 9.099/1995, art. 82: the Turma Recursal may reform a conversion into
// reclusão and fine with no conversion (§ 2º found not met): the ban falls
// before it starts, and the sentence records the reclusão.
func TestAppealResult_ReformedToPrison_Lei_9099_art_82_LGE_art_201_sec2(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	ctx := context.Background()
	k := e.Clerk(t)
	c, d, _, res := e.Sentenced(t, "R1", 12)
	e.Move(t, k, c, cases.StatusAppeal)
	// The reclusão is harsher than the conversion: the prosecution's appeal
	// (CPP art. 617; API.md turn 3).
	prosecution := []string{decisions.AppellantProsecution}
	_, err := e.Svc.Casefile.RecordAppealResult(ctx, k, c.ID, decisions.AppealResultInput{Result: "reformed", DefendantID: d.ID, Outcome: decisions.OutcomePrison, PrisonMonths: casetest.Ptr(30), FineDays: casetest.Ptr(10), Appellants: prosecution})
	casetest.InvalidField(t, err, "prison_months", false)
	if _, err := e.Svc.Casefile.RecordAppealResult(ctx, k, c.ID, decisions.AppealResultInput{Result: "reformed", DefendantID: d.ID, Outcome: decisions.OutcomePrison, PrisonMonths: casetest.Ptr(14), FineDays: casetest.Ptr(10), Appellants: prosecution}); err != nil {
		t.Fatal(err)
	}
	if e.Count(t, "bans", "id = ? AND status = 'reformed'", res.Ban.ID) != 1 || e.Count(t, "sentences", "defendant_id = ? AND outcome = 'prison' AND prison_months = 14 AND fine_days = 10", d.ID) != 1 {
		t.Error("the reform to prison was not recorded")
	}
}
