package registry

import (
	"bytes"
	"context"
	"encoding/csv"
	"strings"

	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/db"
	"golang.org/x/text/encoding/charmap"
)

// exportHeader is the header of an exported register: the import's
// headers (so an export imports back), plus the membership dates.
var exportHeader = []string{"Nome completo", "Nome da mãe", "Nome do pai", "RG", "Órgão emissor", "CPF", "Data de nascimento",
	"Estado civil", "Profissão", "Endereço completo", "Escolaridade", "Foto", "Data de entrada", "Data de saída", "Situação"}

// ImportModelCSV is the model spreadsheet of the member import (issue 30,
// item 5): the import's headers (exportHeader without the membership
// dates, which the import does not read) and one example row to replace,
// in the form Excel in Brazil writes, like ../shared/fixtures'
// members-valid-excel-ptbr.csv: Windows-1252, `;`, CRLF, dates dd/mm/aaaa,
// the CPF formatted. LGE art. 178 (the register the group keeps).
func ImportModelCSV() ([]byte, error) {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	w.Comma, w.UseCRLF = ';', true
	head := exportHeader[:12]
	example := []string{"Nome Completo do Associado", "Nome da Mãe", "Nome do Pai", "12.345.678-9", "SSP/SP", "000.000.000-00", "31/12/1990",
		"solteiro", "profissão", "Rua Exemplo, 100, ap. 1, Bairro, São Paulo/SP, CEP 00000-000", "ensino médio completo", "foto-do-associado.jpg"}
	if err := w.WriteAll([][]string{head, example}); err != nil {
		return nil, err
	}
	return charmap.Windows1252.NewEncoder().Bytes(buf.Bytes())
}

// ExportCSV returns group groupID's register as a CSV that Excel in Brazil
// opens as it is: UTF-8 with BOM, `;`, CRLF, dates dd/mm/aaaa, the CPF
// formatted (so no leading zero is lost), and every cell safe from formula
// injection. Who may read the register only (the read is recorded for
// anyone but the managers); errs.NotFound otherwise. It returns the
// group's name too, for the file name.
func (s *Groups) ExportCSV(ctx context.Context, a actor.Actor, groupID int64) ([]byte, string, error) {
	var out []byte
	var name string
	err := db.WithTx(ctx, s.DB, func(ctx context.Context) error {
		g, err := s.readable(ctx, a, groupID, "export", nil)
		if err != nil {
			return err
		}
		name = g.Name
		ms, err := s.memberViews(ctx, groupID, nil)
		if err != nil {
			return err
		}
		var buf bytes.Buffer
		buf.WriteString("\uFEFF")
		w := csv.NewWriter(&buf)
		w.Comma = ';'
		w.UseCRLF = true
		_ = w.Write(exportHeader)
		for _, m := range ms {
			father, photo, left, status := "", "", "", "ativo"
			if m.FatherName != nil {
				father = *m.FatherName
			}
			if m.Photo != nil {
				photo = m.Photo.Name
			}
			if m.LeftOn != nil {
				left, status = m.LeftOn.BR(), "desligado"
			}
			joined := ""
			if !m.JoinedOn.IsZero() {
				joined = m.JoinedOn.BR()
			}
			row := []string{m.FullName, m.MotherName, father, m.RG, m.RGIssuer, CPF(m.CPF).Formatted(), m.BirthDate.BR(),
				m.CivilStatus, m.Profession, m.Address, m.Schooling, photo, joined, left, status}
			for i := range row {
				row[i] = SafeCell(row[i])
			}
			_ = w.Write(row)
		}
		w.Flush()
		if err := w.Error(); err != nil {
			return err
		}
		out = buf.Bytes()
		return nil
	})
	return out, name, err
}

// SafeCell keeps a CSV cell from running as a spreadsheet formula: a cell
// that begins with =, +, -, @, tab or carriage return gets a leading
// apostrophe (OWASP "CSV injection"). The register's export and the
// blocklist's CSV use it.
func SafeCell(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

// unprotectCell undoes SafeCell on import: exactly one leading apostrophe
// followed by =, +, -, @, tab or carriage return is dropped, so that an
// export (or the same file saved again by Excel, which keeps the
// apostrophe as text) imports back as it was. An apostrophe before
// anything else is part of the text and stays.
func unprotectCell(s string) string {
	if len(s) > 1 && s[0] == '\'' && strings.ContainsRune("=+-@\t\r", rune(s[1])) {
		return s[1:]
	}
	return s
}

// Extract returns group groupID and its register (members past and present,
// by name) for the register extract (the PDF "extrato do cadastro de
// associados", internal/pdf), to those who may read the register; the read
// is recorded as an export for anyone but the managers. errs.NotFound
// otherwise. Run it in the transaction that stores the document
// (db.WithTx) so that the read and the document go together.
func (s *Groups) Extract(ctx context.Context, a actor.Actor, groupID int64) (*GroupView, []MemberView, error) {
	var gv *GroupView
	var ms []MemberView
	err := db.WithTx(ctx, s.DB, func(ctx context.Context) error {
		g, err := s.readable(ctx, a, groupID, "export", nil)
		if err != nil {
			return err
		}
		if gv, err = s.view(ctx, *g); err != nil {
			return err
		}
		ms, err = s.memberViews(ctx, groupID, nil)
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	return gv, ms, nil
}
