package ui

import (
	"context"

	"github.com/juizado/juizado/cases/calendar"
	"github.com/juizado/juizado/internal/server"
	"github.com/juizado/juizado/internal/ui/form"
	"github.com/labstack/echo/v4"
)

// embargosPage: POST /processos/:id/embargos (clerk; form: emb.defendant_id,
// emb.party, emb.filed_on as dd/mm/aaaa, emb.text) records embargos de
// declaração through calendar.Service.FileEmbargos (Lei 9.099/1995, art.
// 83): every party's window as to the defendant is interrupted.
func (s *UI) embargosPage(c echo.Context) error {
	id, in, ok, resp := caseForm(s, c, "emb.", form.Embargos)
	if !ok {
		return resp
	}
	if _, ok, resp := pageWrite(s, c, "emb.", func(ctx context.Context) (*calendar.Embargos, error) {
		return s.Cases.Calendar.FileEmbargos(ctx, server.Actor(c), id, in)
	}); !ok {
		return resp
	}
	return s.doneOnCase(c, id, "#embargos", "Embargos de declaração registrados: os prazos de recurso quanto ao réu estão interrompidos até a intimação da decisão (Lei 9.099/1995, art. 83, § 2º).", nil)
}

// embargosRulingPage: POST /processos/:id/embargos/decisao (the judge of
// the case; form: dec.embargos_id, dec.granted, dec.decided_on, dec.text)
// rules on embargos of the case through calendar.Service.RuleEmbargos; the
// windows then run again from each party's notice of the ruling.
func (s *UI) embargosRulingPage(c echo.Context) error {
	id, in, ok, resp := caseForm(s, c, "dec.", form.EmbargosRuling)
	if !ok {
		return resp
	}
	in.In.CaseID = id // embargos of this case only
	if _, ok, resp := pageWrite(s, c, "dec.", func(ctx context.Context) (*calendar.Embargos, error) {
		return s.Cases.Calendar.RuleEmbargos(ctx, server.Actor(c), in.ID, in.In)
	}); !ok {
		return resp
	}
	return s.doneOnCase(c, id, "#embargos", "Embargos de declaração decididos: intime as partes da decisão; os prazos de recurso correm de novo, por inteiro, de cada intimação (Lei 9.099/1995, art. 83, § 2º).", nil)
}
