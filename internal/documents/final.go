package documents

import (
	"context"

	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/pdf"
	"github.com/juizado/juizado/registry"
)

// FinalCertificate issues the certidão de trânsito em julgado of case
// caseID (issue 30, item 5): each defendant whose judgment is final, with
// the day it became final (CPC art. 502; CPP art. 593 a contrario, the
// appeal windows run out or waived; Lei 9.099/1995, art. 82), the bans the
// decision imposed, stored with its verification code like every document
// (Lei 11.419/2006, art. 1º, § 2º, III). defendantID, when not 0, limits it
// to that defendant. errs.NotFound for a case of another court or a
// defendant not of the case; errs.Conflict while no judgment of the case
// (or of the defendant) is final.
func (s *Service) FinalCertificate(ctx context.Context, actor actor.Actor, caseID, defendantID int64) (*Document, error) {
	v, court, data, doc, err := s.caseData(ctx, actor, caseID)
	if err != nil {
		return nil, err
	}
	known := false
	for _, d := range v.Defendants {
		if defendantID != 0 && d.ID != defendantID {
			continue
		}
		known = true
		if d.FinalOn == nil {
			continue
		}
		f := pdf.FinalData{Name: pdf.Esc(d.FullName), FinalOn: pdf.LongDate(*d.FinalOn)}
		if d.Kind != "person" {
			f.Name = pdf.Esc(d.Name)
		}
		if d.CPF != nil {
			if cpf, err := registry.ParseCPF(*d.CPF); err == nil {
				f.CPF = cpf.Formatted()
			}
		}
		data.Finals = append(data.Finals, f)
	}
	if !known {
		return nil, errs.New(errs.NotFound, "Parte não encontrada neste processo.")
	}
	if len(data.Finals) == 0 {
		return nil, errs.New(errs.Conflict, "A decisão deste processo ainda não transitou em julgado: a certidão é expedida depois do trânsito em julgado, registrado pelo cartório.")
	}
	if defendantID != 0 {
		bans := data.Bans[:0]
		for i, b := range v.Bans {
			if b.DefendantID == defendantID {
				bans = append(bans, data.Bans[i])
			}
		}
		data.Bans = bans
	}
	return s.issue(ctx, pdf.KindFinal, court, data, doc)
}
