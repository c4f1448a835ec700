package blocklist

import (
	"bytes"
	"encoding/csv"
	"encoding/json"

	"github.com/juizado/juizado/registry"
	"github.com/juizado/juizado/sanctions"
)

// Entries is the number of entries of the version: one per ban in force
// with a CPF (a person with two bans has two), the rows of its CSV files.
func (p *Prepared) Entries() int { return p.entries }

// PeopleCSVHeader is the header row of PeopleCSV, in the words of the gate
// staff.
var PeopleCSVHeader = []string{"CPF", "Nome", "Data de nascimento", "Início", "Fim", "Onde vale", "Dias", "Processo", "Juizado"}

// PeopleCSV is the version as a spreadsheet for people at a gate, in the
// form Excel opens in Brazil (issue 30, item 3): UTF-8 with a byte-order
// mark, ";" between fields, CRLF lines, Portuguese headers
// (PeopleCSVHeader), dates as dd/mm/aaaa, the CPF formatted
// (000.000.000-00), where and on which days each ban applies in words
// (sanctions.ScopePT, sanctions.DaysOfBanPT), the court by its name
// (courtName of its code; the code when it has none), and one row per ban,
// never twice, so that the rows are Entries. Names are guarded against
// spreadsheet formulas (registry.SafeCell). The machine CSV (GET
// /api/v1/blocklist?format=csv) is unchanged; this one is not signed.
func (p *Prepared) PeopleCSV(courtName func(code string) string) ([]byte, error) {
	var snap Snapshot
	if err := json.Unmarshal(p.JSON.Body, &snap); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	buf.WriteString("\uFEFF")
	w := csv.NewWriter(&buf)
	w.Comma, w.UseCRLF = ';', true
	_ = w.Write(PeopleCSVHeader)
	seen := make(map[int64]bool, len(snap.Items))
	for _, e := range snap.Items {
		if seen[e.BanID] {
			continue
		}
		seen[e.BanID] = true
		birth, last := "", "até a revogação"
		if e.BirthDate != nil {
			birth = e.BirthDate.BR()
		}
		if e.LastDay != nil {
			last = e.LastDay.BR()
		}
		cpf := e.CPF
		if c, err := registry.ParseCPF(e.CPF); err == nil {
			cpf = c.Formatted()
		}
		court := e.Court
		if courtName != nil {
			if n := courtName(e.Court); n != "" {
				court = n
			}
		}
		_ = w.Write([]string{cpf, registry.SafeCell(e.Name), birth, e.FirstDay.BR(), last,
			sanctions.ScopePT(e.Scope), sanctions.DaysOfBanPT(e.MatchDays), e.CaseNumber, registry.SafeCell(court)})
	}
	w.Flush()
	return buf.Bytes(), w.Error()
}
