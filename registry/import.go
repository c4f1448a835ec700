package registry

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"

	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/textcheck"
)

// Import statuses of a line (../shared/API.md "Fan groups and member
// registers").
const (
	LineCreate    = "create"
	LineUpdate    = "update"
	LineUnchanged = "unchanged"
	LineError     = "error"
)

// Bounds of an import.
const (
	MaxImportBytes   = 64 << 20 // the request body (CSV or ZIP)
	MaxCSVBytes      = 10 << 20 // the spreadsheet, decompressed
	MaxImportRecords = 20000    // data lines
	MaxZipFiles      = 2000     // entries in a ZIP
	MaxZipTotal      = 256 << 20
)

// CellError is a problem with one cell: the column's header text as
// written and the reason (Portuguese).
type CellError struct {
	Column  string `json:"column"`
	Message string `json:"message"`
}

// ImportLine is the report of one record: its physical line (header = 1; a
// record spanning lines is numbered by its first), its status (create,
// update, unchanged, error), errors by column and warnings.
type ImportLine struct {
	Line     int         `json:"line"`
	Status   string      `json:"status"`
	CPF      string      `json:"cpf,omitempty"`
	FullName string      `json:"full_name,omitempty"`
	MemberID *int64      `json:"member_id,omitempty"`
	Errors   []CellError `json:"errors"`
	Warnings []string    `json:"warnings"`
}

// ImportReport is the answer to an import, dry run or real. Created,
// Updated and Unchanged count the lines by status (API.md fixes the names):
// what the import did when Applied, what it would do otherwise (a dry run,
// or an import refused because Errors > 0).
type ImportReport struct {
	Lines     []ImportLine `json:"lines"`
	Created   int          `json:"created"`
	Updated   int          `json:"updated"`
	Unchanged int          `json:"unchanged"`
	Errors    int          `json:"errors"`
	Warnings  []string     `json:"warnings"`
	Encoding  string       `json:"encoding"`
	Separator string       `json:"separator"`
	DryRun    bool         `json:"dry_run"`
	Applied   bool         `json:"applied"`
}

// HasErrors reports whether any line has an error.
func (r *ImportReport) HasErrors() bool { return r.Errors > 0 }

// Column keys beyond the register's fields.
const (
	colPhoto  = "photo"
	colJoined = "joined_on"
	colLeft   = "left_on"
)

// headerAliases maps folded header texts to column keys: the headers of
// ../shared/fixtures/members-*.csv and the usual variants.
var headerAliases = map[string]string{
	"nome completo": "full_name", "nome": "full_name", "nome do associado": "full_name", "associado": "full_name",
	"nome da mae": "mother_name", "mae": "mother_name", "filiacao mae": "mother_name", "nome mae": "mother_name",
	"nome do pai": "father_name", "pai": "father_name", "filiacao pai": "father_name", "nome pai": "father_name",
	"rg": "rg", "numero do rg": "rg", "registro geral": "rg", "identidade": "rg", "carteira de identidade": "rg", "rg numero": "rg",
	"orgao emissor": "rg_issuer", "orgao expedidor": "rg_issuer", "emissor": "rg_issuer", "orgao emissor do rg": "rg_issuer", "rg orgao emissor": "rg_issuer", "rg emissor": "rg_issuer",
	"cpf": "cpf", "numero do cpf": "cpf",
	"data de nascimento": "birth_date", "nascimento": "birth_date", "data nascimento": "birth_date", "dt nascimento": "birth_date", "dt nasc": "birth_date",
	"estado civil": "civil_status",
	"profissao":    "profession", "ocupacao": "profession",
	"endereco completo": "address", "endereco": "address",
	"escolaridade": "schooling", "grau de instrucao": "schooling", "grau de escolaridade": "schooling",
	"foto": colPhoto, "fotografia": colPhoto, "arquivo da foto": colPhoto, "foto arquivo": colPhoto,
	"data de entrada": colJoined, "entrada": colJoined, "data de adesao": colJoined, "data de filiacao": colJoined, "associado desde": colJoined, "data de associacao": colJoined, "data de ingresso": colJoined,
	"data de saida": colLeft, "saida": colLeft, "data de desligamento": colLeft,
}

// requiredColumns must be in the header (the father may be unknown and the
// photo missing: those are optional).
var requiredColumns = []string{"full_name", "mother_name", "rg", "rg_issuer", "cpf", "birth_date", "civil_status", "profession", "address", "schooling"}

var columnPT = map[string]string{
	"full_name": "Nome completo", "mother_name": "Nome da mãe", "father_name": "Nome do pai", "rg": "RG", "rg_issuer": "Órgão emissor",
	"cpf": "CPF", "birth_date": "Data de nascimento", "civil_status": "Estado civil", "profession": "Profissão", "address": "Endereço completo",
	"schooling": "Escolaridade", colPhoto: "Foto", colJoined: "Data de entrada", colLeft: "Data de saída",
}

// foldHeader normalises a header text: accents, case, punctuation and
// spacing ignored.
func foldHeader(s string) string {
	s = textcheck.FoldAccents(strings.TrimSpace(s))
	s = strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r > 127:
			return r
		}
		return ' '
	}, s)
	return strings.Join(strings.Fields(s), " ")
}

// ImportInput is a spreadsheet as the group sends it.
type ImportInput struct {
	Body        []byte
	ContentType string // text/csv, application/zip, ... ("" or octet-stream: sniffed)
	DryRun      bool
}

// sheet is a decoded spreadsheet with the photos that came with it.
type sheet struct {
	text     string
	encoding string
	photos   map[string][]byte // lower-case base name → bytes
	tooBig   map[string]bool   // photos above MaxPhotoBytes
	isZip    bool
}

// Import reads a register spreadsheet (CSV in Windows-1252 or UTF-8 with or
// without BOM, or UTF-16 with BOM; `;`, `,` or tab; or a ZIP with the CSV
// and the photos it names) into group groupID's register, upserting by CPF
// (a member absent from the file stays). Its group's managers only
// (errs.NotFound for anyone else). It returns the report; the import is
// applied only when it is not a dry run and no line has an error, all in
// one transaction. errs.Unreadable / errs.Invalid for a body that is no
// spreadsheet at all, errs.Invalid on "body" (rule not_empty) for one with
// a header and no member line.
func (s *Groups) Import(ctx context.Context, a actor.Actor, groupID int64, in ImportInput) (*ImportReport, error) {
	var rep *ImportReport
	err := db.WithTx(ctx, s.DB, func(ctx context.Context) error {
		if _, err := s.writable(ctx, a, groupID); err != nil {
			return err
		}
		sh, err := readSheet(in.Body, in.ContentType)
		if err != nil {
			return err
		}
		plan, r, err := s.plan(ctx, groupID, sh)
		if err != nil {
			return err
		}
		if len(r.Lines) == 0 {
			return errs.InvalidField("body", "not_empty", "planilha sem associados: o arquivo tem só a linha de cabeçalho; inclua uma linha por associado.")
		}
		r.DryRun = in.DryRun
		rep = r
		if in.DryRun || r.HasErrors() {
			return nil
		}
		if err := s.apply(ctx, a, groupID, plan, r); err != nil {
			return err
		}
		r.Applied = true
		return nil
	})
	if db.IsUniqueViolation(err, "") {
		return nil, errs.New(errs.Conflict, "O cadastro mudou durante a importação (CPF em duplicidade); tente de novo.")
	}
	if err != nil {
		return nil, err
	}
	return rep, nil
}

// planned is what a valid line will do.
type planned struct {
	line      int
	status    string
	data      MemberData
	existing  *Member
	joined    *civil.Date // from the join column
	left      *civil.Date // from the leave column
	photo     *cleanPhoto
	photoName string
	period    *Period // the member's latest period, when existing
}

type cleanPhoto struct {
	ctype string
	data  []byte
	w, h  int
	sum   [32]byte
}

// plan reads the records and says, per line, what the import will do.
func (s *Groups) plan(ctx context.Context, groupID int64, sh *sheet) ([]planned, *ImportReport, error) {
	sep := detectSeparator(sh.text)
	rep := &ImportReport{Lines: []ImportLine{}, Warnings: []string{}, Encoding: sh.encoding, Separator: string(sep)}
	if sep == '\t' {
		rep.Separator = "tab"
	}
	r := csv.NewReader(strings.NewReader(sh.text))
	r.Comma = sep
	r.LazyQuotes = false
	r.FieldsPerRecord = -1
	header, err := r.Read()
	if err != nil {
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			rep.add(ImportLine{Line: pe.StartLine, Status: LineError, Errors: []CellError{{Column: "", Message: "cabeçalho ilegível: " + csvReason(pe)}}})
			return nil, rep, nil
		}
		return nil, nil, unreadable("A planilha está vazia.")
	}
	cols, seen, headerLine := headerColumns(header, rep)
	if len(headerLine.Errors) > 0 {
		rep.add(headerLine)
		return nil, rep, nil
	}
	colName := func(key string) string { return strings.TrimSpace(header[seen[key]]) }
	if _, ok := seen[colPhoto]; !ok {
		rep.Warnings = append(rep.Warnings, "A planilha não tem a coluna Foto: os associados ficam marcados como incompletos até que a foto seja enviada.")
	}

	existing, lastPeriods, err := s.existingByCPF(ctx, groupID)
	if err != nil {
		return nil, nil, err
	}
	today := s.today()
	cpfLine := map[CPF]int{}
	var plans []planned
	records := 0
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				rep.add(ImportLine{Line: pe.StartLine, Status: LineError, Errors: []CellError{{Column: "", Message: csvReason(pe)}}})
				records++
				if records > MaxImportRecords {
					break
				}
				continue
			}
			return nil, nil, err
		}
		line, _ := r.FieldPos(0)
		records++
		if records > MaxImportRecords {
			rep.add(ImportLine{Line: line, Status: LineError, Errors: []CellError{{Message: fmt.Sprintf("a planilha tem mais de %d linhas; divida-a.", MaxImportRecords)}}})
			break
		}
		if blank(rec) {
			continue
		}
		il := ImportLine{Line: line, Errors: []CellError{}, Warnings: []string{}}
		if len(rec) > len(header) && !blank(rec[len(header):]) {
			il.Errors = append(il.Errors, CellError{Message: fmt.Sprintf("a linha tem %d colunas e o cabeçalho %d (verifique o separador e as aspas).", len(rec), len(header))})
		} else if len(rec) < len(header) {
			il.Errors = append(il.Errors, CellError{Message: fmt.Sprintf("a linha tem %d colunas e o cabeçalho %d (verifique o separador e as aspas).", len(rec), len(header))})
		}
		raw := rawMember{}
		for i, key := range cols {
			if key != "" && i < len(rec) {
				raw[key] = unprotectCell(rec[i]) // an export's formula guard (SafeCell)
			}
		}
		d, probs, warns := validateMember(raw, today, true)
		for _, p := range probs {
			il.Errors = append(il.Errors, CellError{Column: colName(p.key), Message: p.msg})
		}
		il.Warnings = append(il.Warnings, warns...)
		il.FullName = d.FullName
		p := planned{line: line, data: d}
		if d.CPF != "" {
			il.CPF = string(d.CPF)
			if first, dup := cpfLine[d.CPF]; dup {
				il.Errors = append(il.Errors, CellError{Column: colName("cpf"), Message: fmt.Sprintf("CPF %s repetido: já aparece na linha %d.", d.CPF.Formatted(), first)})
			} else {
				cpfLine[d.CPF] = line
			}
		}
		for _, k := range []string{colJoined, colLeft} {
			v, ok := raw[k]
			if !ok || strings.TrimSpace(v) == "" {
				continue
			}
			dt, msg := periodDate(v, today)
			if msg != "" {
				il.Errors = append(il.Errors, CellError{Column: colName(k), Message: msg})
				continue
			}
			if k == colJoined {
				p.joined = &dt
			} else {
				p.left = &dt
			}
		}
		if p.joined != nil && p.left != nil && p.left.Before(*p.joined) {
			il.Errors = append(il.Errors, CellError{Column: colName(colLeft), Message: "a data de saída é anterior à de entrada."})
		}
		if p.joined != nil && !d.BirthDate.IsZero() && p.joined.Before(d.BirthDate) {
			il.Errors = append(il.Errors, CellError{Column: colName(colJoined), Message: "a data de entrada é anterior ao nascimento."})
		}
		if d.CPF != "" {
			if m, ok := existing[d.CPF]; ok {
				p.existing = m
				p.period = lastPeriods[m.ID]
				il.MemberID = &m.ID
			}
		}
		// The photo: a warning when missing (the member is incomplete), an
		// error when sent but not a valid JPEG/PNG up to 5 MB.
		hasPhoto := p.existing != nil && p.existing.PhotoID != nil
		if _, ok := seen[colPhoto]; ok {
			planPhoto(sh, strings.TrimSpace(raw[colPhoto]), colName(colPhoto), hasPhoto, &il, &p)
		}
		if len(il.Errors) > 0 {
			il.Status = LineError
			rep.add(il)
			continue
		}
		if msg := periodProblem(&p, today); msg != "" {
			col := colName(colLeft)
			if _, ok := seen[colJoined]; ok && p.left == nil {
				col = colName(colJoined)
			}
			il.Status = LineError
			il.Errors = append(il.Errors, CellError{Column: col, Message: msg})
			rep.add(il)
			continue
		}
		il.Status = s.statusOf(&p, today)
		p.status = il.Status
		rep.add(il)
		plans = append(plans, p)
	}
	return plans, rep, nil
}

// headerColumns maps a sheet's header to the register's fields: cols is
// the field of each column ("" for one ignored), seen the column of each
// field. An unknown column is a warning in rep; a repeated column or a
// required one missing (Lei 14.597/2023, art. 178, § 4º) is an error of
// headerLine (line 1).
func headerColumns(header []string, rep *ImportReport) (cols []string, seen map[string]int, headerLine ImportLine) {
	cols = make([]string, len(header)) // key per column index
	headerLine = ImportLine{Line: 1, Status: LineError}
	seen = map[string]int{}
	for i, h := range header {
		key := headerAliases[foldHeader(h)]
		if key == "" {
			if strings.TrimSpace(h) != "" {
				rep.Warnings = append(rep.Warnings, fmt.Sprintf("Coluna %q não reconhecida: ignorada.", strings.TrimSpace(h)))
			}
			continue
		}
		if j, dup := seen[key]; dup {
			headerLine.Errors = append(headerLine.Errors, CellError{Column: strings.TrimSpace(h), Message: fmt.Sprintf("coluna repetida: %q já é a coluna %d.", strings.TrimSpace(header[j]), j+1)})
			continue
		}
		seen[key] = i
		cols[i] = key
	}
	for _, k := range requiredColumns {
		if _, ok := seen[k]; !ok {
			headerLine.Errors = append(headerLine.Errors, CellError{Column: columnPT[k], Message: fmt.Sprintf("coluna obrigatória %q ausente do cabeçalho (Lei 14.597/2023, art. 178, § 4º).", columnPT[k])})
		}
	}
	return cols, seen, headerLine
}

// planPhoto reads a line's photo cell (cell, in column col) into p: a
// warning in il when it is empty or names a photo not sent (the member is
// incomplete; hasPhoto: the member has one already), an error when the
// photo is above 5 MB or not a valid JPEG/PNG.
func planPhoto(sh *sheet, cell, col string, hasPhoto bool, il *ImportLine, p *planned) {
	name := strings.ToLower(path.Base(strings.ReplaceAll(cell, "\\", "/")))
	switch {
	case cell == "":
		il.Warnings = append(il.Warnings, photoWarning("Foto não informada", hasPhoto))
	case sh.tooBig[name]:
		il.Errors = append(il.Errors, CellError{Column: col, Message: fmt.Sprintf("a foto %q excede 5 MB.", cell)})
	case sh.photos[name] != nil:
		ctype, clean, w, h, err := CleanPhoto(sh.photos[name])
		if err != nil {
			msg := err.Error()
			var ae *errs.Error
			if errors.As(err, &ae) && len(ae.Fields) > 0 {
				msg = ae.Fields[0].Message
			}
			il.Errors = append(il.Errors, CellError{Column: col, Message: fmt.Sprintf("foto %q recusada: %s", cell, msg)})
		} else {
			p.photo = &cleanPhoto{ctype: ctype, data: clean, w: w, h: h, sum: sha256.Sum256(clean)}
			p.photoName = cell
		}
	default:
		what := fmt.Sprintf("Foto %q indicada mas não enviada", cell)
		if !sh.isZip {
			what += " (para enviar fotos, importe um ZIP com a planilha e as fotos)"
		}
		il.Warnings = append(il.Warnings, photoWarning(what, hasPhoto))
	}
}

// periodProblem checks the join and leave dates of a line against the
// member's latest period; "" when they fit.
func periodProblem(p *planned, today civil.Date) string {
	per := p.period
	switch {
	case p.existing == nil || per == nil:
		joined := today
		if p.joined != nil {
			joined = *p.joined
		}
		if p.left != nil && p.left.Before(joined) {
			return "a data de saída é anterior à de entrada (sem a coluna de entrada, a entrada é a data da importação)."
		}
	case per.LeftOn == nil: // active
		joined := per.JoinedOn
		if p.joined != nil {
			joined = *p.joined
		}
		if p.left != nil && p.left.Before(joined) {
			return fmt.Sprintf("a data de saída é anterior à entrada (%s).", joined.BR())
		}
	case p.left == nil: // rejoins
		joined := today
		if p.joined != nil {
			joined = *p.joined
		}
		if joined.Before(*per.LeftOn) {
			return fmt.Sprintf("o associado saiu em %s: a nova entrada não pode ser anterior.", per.LeftOn.BR())
		}
	default: // stays out; the leave date may be corrected
		if p.left.Before(per.JoinedOn) {
			return fmt.Sprintf("a data de saída é anterior à entrada (%s).", per.JoinedOn.BR())
		}
	}
	return ""
}

func photoWarning(what string, hasPhoto bool) string {
	if hasPhoto {
		return what + ": mantida a foto já cadastrada."
	}
	return what + ": o associado fica marcado como incompleto até que a foto seja enviada."
}

// statusOf says whether a valid line creates, updates or leaves a member
// unchanged.
func (s *Groups) statusOf(p *planned, today civil.Date) string {
	if p.existing == nil {
		return LineCreate
	}
	if !p.existing.data().equal(p.data) {
		return LineUpdate
	}
	if p.photo != nil {
		if p.existing.PhotoID == nil || p.existing.PhotoName != p.photoName || !s.samePhoto(p) {
			return LineUpdate
		}
	}
	if per := p.period; per != nil {
		active := per.LeftOn == nil
		switch {
		case p.left != nil && active:
			return LineUpdate // leaves
		case p.left != nil && *per.LeftOn != *p.left:
			return LineUpdate // leave date corrected
		case p.left == nil && !active:
			return LineUpdate // rejoins
		case p.joined != nil && active && per.JoinedOn != *p.joined:
			return LineUpdate // join date corrected
		}
	}
	return LineUnchanged
}

// samePhoto compares the planned photo with the stored one by SHA-256.
func (s *Groups) samePhoto(p *planned) bool {
	return p.existing.photoSum != nil && bytes.Equal(p.existing.photoSum, p.photo.sum[:])
}

func (r *ImportReport) add(l ImportLine) {
	if l.Errors == nil {
		l.Errors = []CellError{}
	}
	if l.Warnings == nil {
		l.Warnings = []string{}
	}
	switch l.Status {
	case LineCreate:
		r.Created++
	case LineUpdate:
		r.Updated++
	case LineUnchanged:
		r.Unchanged++
	case LineError:
		r.Errors++
	}
	r.Lines = append(r.Lines, l)
}

func blank(rec []string) bool {
	for _, c := range rec {
		if strings.TrimSpace(c) != "" {
			return false
		}
	}
	return true
}

func csvReason(pe *csv.ParseError) string {
	switch {
	case errors.Is(pe.Err, csv.ErrBareQuote):
		return fmt.Sprintf("aspas (\") no meio de um campo sem aspas (linha %d, posição %d): coloque o campo entre aspas e duplique as aspas internas.", pe.Line, pe.Column)
	case errors.Is(pe.Err, csv.ErrQuote):
		return fmt.Sprintf("aspas (\") não fechadas ou seguidas de texto (linha %d, posição %d).", pe.Line, pe.Column)
	}
	return fmt.Sprintf("linha ilegível (linha %d, posição %d).", pe.Line, pe.Column)
}
