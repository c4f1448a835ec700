package main

import (
	"context"
	"fmt"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/casefile"
	"github.com/juizado/juizado/cases/decisions"
	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/app"
	"github.com/juizado/juizado/internal/civil"
)

// demoReceive takes every defendant of demo case caseID to the accusation
// received (Lei 9.099/1995, arts. 77 and 81: no sentence without it): the
// preliminary phase and the receipt by the clerk ka, the oral accusation
// by the prosecutor pa.
func demoReceive(ctx context.Context, svc *app.Cases, ka, pa actor.Actor, caseID int64) error {
	for _, st := range []struct {
		a  actor.Actor
		to string
	}{{ka, cases.StatusPreliminaryHearing}, {pa, cases.StatusAccusation}, {ka, cases.StatusInstructionHearing}} {
		if _, err := svc.Casefile.Transition(ctx, st.a, caseID, casefile.TransitionInput{To: st.to}); err != nil {
			return fmt.Errorf("seed %s: %w", st.to, err)
		}
	}
	return nil
}

// seedCoDefendants files demo case 7: two fans of one riot on their own
// tracks (DOMAIN.md §4): the first takes the plea agreement (Lei
// 9.099/1995, art. 76), homologated, a ban in force; the second is
// accused, his accusation received and convicted to a ban awaiting his
// final judgment (arts. 77, 81).
func seedCoDefendants(ctx context.Context, svc *app.Cases, ja, ka, pa actor.Actor, today civil.Date) error {
	r := demoRepresentations()[0]
	r.Ref = "DEMO-7"
	r.Defendants = []cases.DefendantInput{
		{Kind: "person", FullName: "Bruno Demonstração Alves", CPF: ptrTo("482.915.730-50"), BirthDate: "1994-02-11", MotherName: "Vera Demonstração"},
		{Kind: "person", FullName: "Diego Exemplo Costa", CPF: ptrTo("639.207.418-03"), BirthDate: "1989-10-27", MotherName: "Sônia Exemplo"},
	}
	r.Facts.Description = "Demonstração: dois torcedores agridem torcedores adversários no setor Sul; um aceita a transação penal, o outro é processado."
	r.Facts.PoliceReports = []string{"BO 0007/2025 – 24º DP"}
	k, err := svc.Case.File(ctx, pa, r)
	if err != nil {
		return fmt.Errorf("seed case 7: %w", err)
	}
	v, err := svc.Casefile.Get(ctx, ka, k.ID)
	if err != nil {
		return err
	}
	plea, tried := v.Defendants[0], v.Defendants[1]
	if _, err := svc.Casefile.Transition(ctx, ka, k.ID, casefile.TransitionInput{To: cases.StatusPreliminaryHearing}); err != nil {
		return fmt.Errorf("seed case 7: %w", err)
	}
	six := 6
	if _, err := svc.Decisions.OfferPlea(ctx, pa, k.ID, decisions.PleaInput{DefendantID: plea.ID, Months: &six}); err != nil {
		return fmt.Errorf("seed plea: %w", err)
	}
	if _, err := svc.Casefile.Transition(ctx, ka, k.ID, casefile.TransitionInput{To: cases.StatusPleaAccepted, DefendantID: &plea.ID}); err != nil {
		return fmt.Errorf("seed plea: %w", err)
	}
	if _, err := svc.Decisions.Homologate(ctx, ja, k.ID, decisions.HomologateInput{DefendantID: plea.ID}); err != nil {
		return fmt.Errorf("seed homologation: %w", err)
	}
	// His track only (the other's is executing): the accusation and its receipt.
	if _, err := svc.Casefile.Transition(ctx, pa, k.ID, casefile.TransitionInput{To: cases.StatusAccusation}); err != nil {
		return fmt.Errorf("seed case 7: %w", err)
	}
	if _, err := svc.Casefile.Transition(ctx, ka, k.ID, casefile.TransitionInput{To: cases.StatusInstructionHearing, DefendantID: &tried.ID}); err != nil {
		return fmt.Errorf("seed case 7: %w", err)
	}
	months, quantum := 12, 12
	text := &decisions.SentenceText{Report: "Demonstração: relatório da sentença.", Reasoning: "Demonstração: autoria e materialidade provadas pelas imagens do setor Sul."}
	if _, err := svc.Decisions.Sentence(ctx, ja, k.ID, decisions.SentenceInput{DefendantID: tried.ID, Ban: decisions.BanInput{Months: &months}, Text: text, PrisonMonths: &quantum,
		ReportingDuty: &cases.ReportingDuty{Place: "24º Distrito Policial", Club: "Corinthians"}}); err != nil {
		return fmt.Errorf("seed sentence: %w", err)
	}
	fmt.Printf("Demo case %s: %s took the plea agreement (6-month ban in force from %s); %s was tried and sentenced to a 12-month ban awaiting his final judgment\n",
		v.Number, plea.FullName, today.BR(), tried.FullName)
	return nil
}

func ptrTo[T any](v T) *T { return &v }
