package documents

import (
	"context"
	"fmt"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/pdf"
)

// PetitionReceipt issues the receipt of petition id's protocol (Lei
// 11.419/2006, art. 10: the electronic filing gives an electronic
// receipt), with its verification code, for the defence user who filed it
// or the staff of the case's court (cases.Service.PetitionFor:
// errs.NotFound otherwise). The same petition in the same state gives back
// the receipt already issued; an answer makes a new one that shows it.
func (s *Service) PetitionReceipt(ctx context.Context, a actor.Actor, id int64) (*Document, error) {
	p, code, err := s.Case.PetitionFor(ctx, a, id)
	if err != nil {
		return nil, err
	}
	court, err := s.CourtData(ctx, code)
	if err != nil {
		return nil, err
	}
	data := &pdf.ReceiptData{Court: court, ID: p.ID, CaseNumber: p.CaseNumber, Defendant: pdf.Esc(p.Defendant), Kind: pdf.Esc(p.KindPT()),
		Ground: pdf.Esc(p.GroundPT()), FiledBy: pdf.Esc(p.FiledBy), FiledAt: pdf.LongDateTime(p.FiledAt, s.Loc), Queue: "juiz(a)",
		Status: "aguarda resposta", Late: p.Late, EffectNote: pdf.Esc(p.EffectNote), Text: pdf.Esc(p.Text)}
	if p.Queue == cases.QueueClerk {
		data.Queue = "cartório"
	}
	if p.EvidenceID != nil {
		data.Attachment = fmt.Sprintf("PDF juntado aos autos como prova n.º %d", *p.EvidenceID)
	}
	if p.Decision != nil && p.AnsweredAt != nil {
		data.Status = fmt.Sprintf("%s em %s por %s", p.DecisionPT(), pdf.LongDateTime(*p.AnsweredAt, s.Loc), pdf.Esc(p.AnsweredBy))
		data.Answer = pdf.Esc(p.AnswerText)
	}
	n, err := cases.ParseCNJ(p.CaseNumber)
	if err != nil {
		return nil, err
	}
	number := n.Digits()
	return s.issueUnlessSame(ctx, pdf.KindReceipt, court, data, Document{CaseID: &p.CaseID, CaseNumber: &number, IssuedBy: userID(a)})
}
