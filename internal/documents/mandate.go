package documents

import (
	"context"
	"crypto/sha256"
	"strings"

	"github.com/juizado/juizado/cases/bnmp"
	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/pdf"
	"github.com/juizado/juizado/registry"
)

// MandateData is the wording's data of a BNMP mandate (templates/pdf/
// mandate.tmpl; Res. CNJ 417/2021, art. 19): every value escaped for the
// markup, dates written out.
type MandateData struct {
	Court                                  pdf.CourtData
	KindTitle                              string // "MEDIDA CAUTELAR", "EXECUÇÃO DO IMPEDIMENTO", ...
	CaseNumber, Name, CPF, BirthDate       string
	Measure, LegalBasis, FactsDate, Extent string
	MatchDays, Reporting, BanTerm          string
	ValidFrom, ValidUntil, ReviewOn        string
	Revocation, BNMPNumber, RegisteredOn   string
	Today                                  string
}

// Mandate issues the document of BNMP mandate id of the actor's court
// (bnmp.Service.Get: errs.NotFound for another court's) with its
// verification code; the same wording gives back the document already
// issued, so a copy is issued again only when the mandate changed (its
// CPF, its registration) or on another day (the date it bears).
func (s *Service) Mandate(ctx context.Context, a actor.Actor, id int64) (*Document, error) {
	var out *Document
	err := db.WithTx(ctx, s.DB, func(ctx context.Context) error {
		v, err := s.BNMP.Get(ctx, a, id)
		if err != nil {
			return err
		}
		court, err := s.CourtData(ctx, v.CourtCode)
		if err != nil {
			return err
		}
		data := mandateData(court, v, civil.Today(s.Clock.Now(), s.Loc))
		markup, err := s.Wording.Execute(pdf.KindMandate, data)
		if err != nil {
			return err
		}
		source := sha256.Sum256([]byte(markup))
		var ds []Document
		if err := db.Conn(ctx, s.DB).Where("mandate_id = ? AND source_sha256 = ?", id, source[:]).Order("id DESC").Limit(1).Find(&ds).Error; err != nil {
			return err
		}
		if len(ds) > 0 {
			out = &ds[0]
			return nil
		}
		caseID, number := v.CaseID, strings.NewReplacer("-", "", ".", "").Replace(v.CaseNumber)
		doc := Document{MandateID: &v.ID, CaseID: &caseID, BanID: &v.BanID, IssuedBy: userID(a)}
		if len(number) == 20 {
			doc.CaseNumber = &number
		}
		out, err = s.issue(ctx, pdf.KindMandate, court, data, doc)
		return err
	})
	return out, err
}

// mandateData fills the wording of mandate v issued by court on today.
func mandateData(court pdf.CourtData, v *bnmp.View, today civil.Date) *MandateData {
	c := v.Content
	d := &MandateData{Court: court, KindTitle: strings.ToUpper(bnmp.KindPT[v.Kind]), CaseNumber: pdf.Esc(c.CaseNumber),
		Name: pdf.Esc(c.Name), Measure: pdf.Esc(c.Measure), LegalBasis: pdf.Esc(c.LegalBasis), FactsDate: pdf.LongDate(c.FactsDate),
		Extent: pdf.Esc(c.Extent), Reporting: pdf.Esc(c.Reporting), ValidFrom: pdf.LongDate(v.ValidFrom),
		Revocation: pdf.Esc(c.Revocation), Today: pdf.LongDate(today)}
	if v.CPF != nil {
		if cpf, err := registry.ParseCPF(*v.CPF); err == nil {
			d.CPF = cpf.Formatted()
		}
	}
	if c.BirthDate != nil {
		d.BirthDate = pdf.LongDate(*c.BirthDate)
	}
	var days []string
	for _, m := range c.MatchDays {
		days = append(days, m.BR())
	}
	d.MatchDays = strings.Join(days, ", ")
	switch {
	case c.BanLastDay != nil:
		d.BanTerm = "de " + pdf.LongDate(c.BanFirstDay) + " a " + pdf.LongDate(*c.BanLastDay)
	default:
		d.BanTerm = "desde " + pdf.LongDate(c.BanFirstDay) + ", até revogação, com revisão periódica"
	}
	if v.ValidUntil != nil {
		d.ValidUntil = pdf.LongDate(*v.ValidUntil)
	}
	if v.ReviewOn != nil {
		d.ReviewOn = pdf.LongDate(*v.ReviewOn)
	}
	if v.BNMPNumber != nil && v.RegisteredOn != nil {
		d.BNMPNumber, d.RegisteredOn = pdf.Esc(*v.BNMPNumber), pdf.LongDate(*v.RegisteredOn)
	}
	return d
}
