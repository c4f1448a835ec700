package registry

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/textcheck"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"
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
func (s *Groups) Import(ctx context.Context, a Actor, groupID int64, in ImportInput) (*ImportReport, error) {
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

func unreadable(msg string) error { return errs.New(errs.Unreadable, msg) }

func invalidBody(msg string) error { return errs.InvalidField("body", "spreadsheet", msg) }

// readSheet finds the CSV (and the photos, for a ZIP) and decodes its text.
func readSheet(body []byte, contentType string) (*sheet, error) {
	if len(bytes.TrimSpace(body)) == 0 {
		return nil, unreadable("O corpo da requisição está vazio: envie a planilha (text/csv) ou um ZIP com a planilha e as fotos.")
	}
	if len(body) > MaxImportBytes {
		return nil, &TooLargeError{Message: "O arquivo excede 64 MB."}
	}
	ct := strings.ToLower(strings.TrimSpace(strings.SplitN(contentType, ";", 2)[0]))
	isZip := bytes.HasPrefix(body, []byte("PK\x03\x04")) || bytes.HasPrefix(body, []byte("PK\x05\x06"))
	if (ct == "application/zip" || ct == "application/x-zip-compressed") && !isZip {
		return nil, invalidBody("o corpo enviado como application/zip não é um arquivo ZIP.")
	}
	sh := &sheet{photos: map[string][]byte{}, tooBig: map[string]bool{}}
	raw := body
	if isZip {
		sh.isZip = true
		var err error
		raw, err = readZip(body, sh)
		if err != nil {
			return nil, err
		}
	} else if len(raw) > MaxCSVBytes {
		return nil, &TooLargeError{Message: "A planilha excede 10 MB."}
	}
	text, enc, err := decodeText(raw)
	if err != nil {
		return nil, err
	}
	sh.text, sh.encoding = text, enc
	return sh, nil
}

// readZip reads the one CSV of a ZIP and the image files beside it, within
// MaxZipFiles and MaxZipTotal (sizes are checked while reading: a header
// may lie).
func readZip(body []byte, sh *sheet) ([]byte, error) {
	zr, err := zip.NewReader(bytes.NewReader(body), int64(len(body)))
	if err != nil {
		return nil, invalidBody("o arquivo ZIP está corrompido ou não pôde ser lido.")
	}
	if len(zr.File) > MaxZipFiles {
		return nil, &TooLargeError{Message: fmt.Sprintf("O ZIP tem %d arquivos; o máximo é %d.", len(zr.File), MaxZipFiles)}
	}
	var csvData []byte
	var csvName string
	var total int64
	for _, f := range zr.File {
		if f.FileInfo().IsDir() {
			continue
		}
		name := path.Base(strings.ReplaceAll(f.Name, "\\", "/"))
		if strings.HasPrefix(name, ".") || strings.Contains(f.Name, "__MACOSX") {
			continue
		}
		lower := strings.ToLower(name)
		isCSV := strings.HasSuffix(lower, ".csv") || strings.HasSuffix(lower, ".txt")
		limit := int64(MaxPhotoBytes)
		if isCSV {
			limit = MaxCSVBytes
		}
		rc, err := f.Open()
		if err != nil {
			return nil, invalidBody(fmt.Sprintf("o arquivo %q do ZIP não pôde ser lido.", name))
		}
		data, err := io.ReadAll(io.LimitReader(rc, limit+1))
		rc.Close()
		if err != nil {
			return nil, invalidBody(fmt.Sprintf("o arquivo %q do ZIP está corrompido.", name))
		}
		total += int64(len(data))
		if total > MaxZipTotal {
			return nil, &TooLargeError{Message: "O conteúdo do ZIP excede 256 MB."}
		}
		if isCSV {
			if csvData != nil {
				return nil, invalidBody(fmt.Sprintf("o ZIP tem mais de uma planilha (%s, %s): envie uma só.", csvName, name))
			}
			if int64(len(data)) > limit {
				return nil, &TooLargeError{Message: "A planilha excede 10 MB."}
			}
			csvData, csvName = data, name
			continue
		}
		if int64(len(data)) > limit {
			sh.tooBig[lower] = true
			continue
		}
		sh.photos[lower] = data
	}
	if csvData == nil {
		return nil, invalidBody("o ZIP não contém a planilha (.csv).")
	}
	return csvData, nil
}

// decodeText detects the encoding: a UTF-8 or UTF-16 BOM; else valid UTF-8;
// else Windows-1252 (Excel in Brazil).
func decodeText(raw []byte) (string, string, error) {
	var text, enc string
	switch {
	case bytes.HasPrefix(raw, []byte{0xEF, 0xBB, 0xBF}):
		raw, enc = raw[3:], "UTF-8 com BOM"
		if !utf8.Valid(raw) {
			return "", "", invalidBody("a planilha diz ser UTF-8 (BOM) mas contém bytes inválidos.")
		}
		text = string(raw)
	case bytes.HasPrefix(raw, []byte{0xFF, 0xFE}), bytes.HasPrefix(raw, []byte{0xFE, 0xFF}):
		e := unicode.UTF16(unicode.LittleEndian, unicode.ExpectBOM)
		enc = "UTF-16"
		b, err := e.NewDecoder().Bytes(raw)
		if err != nil {
			return "", "", invalidBody("a planilha em UTF-16 não pôde ser decodificada.")
		}
		text = string(b)
	case utf8.Valid(raw):
		text, enc = string(raw), "UTF-8"
	default:
		b, err := charmap.Windows1252.NewDecoder().Bytes(raw)
		if err != nil {
			return "", "", invalidBody("a planilha não está em UTF-8 nem em Windows-1252.")
		}
		text, enc = string(b), "Windows-1252"
	}
	if strings.ContainsRune(text, 0) {
		return "", "", invalidBody("o arquivo contém caracteres nulos: não é uma planilha CSV (envie text/csv ou um ZIP).")
	}
	if strings.TrimSpace(text) == "" {
		return "", "", unreadable("A planilha está vazia.")
	}
	return text, enc, nil
}

// detectSeparator picks `;`, `,` or tab, whichever appears most often
// outside quotes in the header line.
func detectSeparator(text string) rune {
	counts := map[rune]int{}
	inQuotes := false
	for _, r := range text {
		if r == '"' {
			inQuotes = !inQuotes
			continue
		}
		if !inQuotes && (r == '\n' || r == '\r') {
			break
		}
		if !inQuotes && (r == ';' || r == ',' || r == '\t') {
			counts[r]++
		}
	}
	best := ';'
	for _, r := range []rune{';', ',', '\t'} {
		if counts[r] > counts[best] {
			best = r
		}
	}
	return best
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
	cols := make([]string, len(header)) // key per column index
	headerLine := ImportLine{Line: 1, Status: LineError}
	seen := map[string]int{}
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
			cell := strings.TrimSpace(raw[colPhoto])
			name := strings.ToLower(path.Base(strings.ReplaceAll(cell, "\\", "/")))
			switch {
			case cell == "":
				il.Warnings = append(il.Warnings, photoWarning("Foto não informada", hasPhoto))
			case sh.tooBig[name]:
				il.Errors = append(il.Errors, CellError{Column: colName(colPhoto), Message: fmt.Sprintf("a foto %q excede 5 MB.", cell)})
			case sh.photos[name] != nil:
				ctype, clean, w, h, err := CleanPhoto(sh.photos[name])
				if err != nil {
					msg := err.Error()
					var ae *errs.Error
					if errors.As(err, &ae) && len(ae.Fields) > 0 {
						msg = ae.Fields[0].Message
					}
					il.Errors = append(il.Errors, CellError{Column: colName(colPhoto), Message: fmt.Sprintf("foto %q recusada: %s", cell, msg)})
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

// existingByCPF loads the group's members by CPF and their latest periods.
func (s *Groups) existingByCPF(ctx context.Context, groupID int64) (map[CPF]*Member, map[int64]*Period, error) {
	tx := db.Conn(ctx, s.DB)
	var ms []Member
	if err := tx.Where("group_id = ?", groupID).Find(&ms).Error; err != nil {
		return nil, nil, err
	}
	byCPF := map[CPF]*Member{}
	var pids []int64
	for i := range ms {
		byCPF[CPF(ms[i].CPF)] = &ms[i]
		if ms[i].PhotoID != nil {
			pids = append(pids, *ms[i].PhotoID)
		}
	}
	if len(pids) > 0 {
		var sums []struct {
			ID     int64
			SHA256 []byte `gorm:"column:sha256"`
		}
		if err := tx.Raw("SELECT id, sha256 FROM member_photos WHERE id IN ?", pids).Scan(&sums).Error; err != nil {
			return nil, nil, err
		}
		byID := map[int64][]byte{}
		for _, x := range sums {
			byID[x.ID] = x.SHA256
		}
		for i := range ms {
			if ms[i].PhotoID != nil {
				ms[i].photoSum = byID[*ms[i].PhotoID]
			}
		}
	}
	var ps []Period
	if err := tx.Where("group_id = ?", groupID).Order("member_id, joined_on, id").Find(&ps).Error; err != nil {
		return nil, nil, err
	}
	last := map[int64]*Period{}
	for i := range ps {
		last[ps[i].MemberID] = &ps[i]
	}
	return byCPF, last, nil
}

// apply writes the planned changes (the caller's transaction).
func (s *Groups) apply(ctx context.Context, a Actor, groupID int64, plans []planned, rep *ImportReport) error {
	tx := db.Conn(ctx, s.DB)
	today := s.today()
	changed := false
	ids := map[int]int64{}
	for _, p := range plans {
		switch p.status {
		case LineUnchanged:
			continue
		case LineCreate:
			joined := today
			if p.joined != nil {
				joined = *p.joined
			}
			m, err := s.createMember(ctx, a, groupID, p.data, joined, p.left, "")
			if err != nil {
				return err
			}
			ids[p.line] = m.ID
			if p.photo != nil {
				if err := s.storePhoto(ctx, a, m, p.photo.ctype, p.photo.data, p.photo.w, p.photo.h, p.photoName); err != nil {
					return err
				}
			}
		case LineUpdate:
			m := p.existing
			if !m.data().equal(p.data) {
				if err := s.history(ctx, a, m.ID, "update", snapshot(m.data())); err != nil {
					return err
				}
				m.set(p.data)
				m.UpdatedAt = s.now()
				if err := tx.Save(m).Error; err != nil {
					return err
				}
			}
			if p.photo != nil && !(m.PhotoID != nil && m.PhotoName == p.photoName && s.samePhoto(&p)) {
				if err := s.storePhoto(ctx, a, m, p.photo.ctype, p.photo.data, p.photo.w, p.photo.h, p.photoName); err != nil {
					return err
				}
			}
			if err := s.applyPeriod(ctx, a, m, p, today); err != nil {
				return err
			}
		}
		changed = true
	}
	for i := range rep.Lines {
		if id, ok := ids[rep.Lines[i].Line]; ok {
			rep.Lines[i].MemberID = &id
		}
	}
	if changed {
		return s.touch(ctx, groupID)
	}
	return nil
}

// applyPeriod brings the member's periods in line with the file: leaving,
// correcting dates, or rejoining.
func (s *Groups) applyPeriod(ctx context.Context, a Actor, m *Member, p planned, today civil.Date) error {
	per := p.period
	if per == nil {
		return nil
	}
	tx := db.Conn(ctx, s.DB)
	active := per.LeftOn == nil
	switch {
	case p.left == nil && !active: // rejoins
		joined := today
		if p.joined != nil {
			joined = *p.joined
		}
		if err := tx.Create(&Period{MemberID: m.ID, GroupID: m.GroupID, CPF: m.CPF, JoinedOn: joined}).Error; err != nil {
			return err
		}
		return s.history(ctx, a, m.ID, "rejoin", nil)
	case p.left != nil && (active || *per.LeftOn != *p.left):
		upd := map[string]any{"left_on": *p.left}
		if p.joined != nil && active {
			upd["joined_on"] = *p.joined
		}
		if err := tx.Model(&Period{}).Where("id = ?", per.ID).Updates(upd).Error; err != nil {
			return err
		}
		return s.history(ctx, a, m.ID, "leave", map[string]any{"joined_on": per.JoinedOn, "left_on": per.LeftOn})
	case p.joined != nil && active && per.JoinedOn != *p.joined:
		if err := tx.Model(&Period{}).Where("id = ?", per.ID).Update("joined_on", *p.joined).Error; err != nil {
			return err
		}
		return s.history(ctx, a, m.ID, "update", map[string]any{"joined_on": per.JoinedOn})
	}
	return nil
}
