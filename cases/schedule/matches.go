package schedule

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/textcheck"
	"github.com/juizado/juizado/sanctions"
	"golang.org/x/text/encoding/charmap"
	"gorm.io/gorm"
)

// Match is one match of the schedule a court imports for reporting duties
// (Lei 14.597/2023, art. 201, § 4º): MatchDate and KickoffLocal as the
// schedule writes them (the venue's local time), Kickoff the instant they
// name in the venue's zone, MatchMinutes the match's duration.
type Match struct {
	ID           int64
	CourtCode    string
	Competition  string
	Round        string
	Home         string
	Away         string
	VenueID      int64
	MatchDate    civil.Date
	KickoffLocal string
	Kickoff      time.Time
	MatchMinutes int
	// Cancelled: the schedule marks the match cancelled (status column):
	// it no longer counts for terms counted in matches nor for reporting
	// windows.
	Cancelled  bool
	ImportedAt time.Time
	ImportedBy *int64
}

// Import line statuses (as the member import of ../shared/API.md).
const (
	LineCreate    = "create"
	LineUpdate    = "update"
	LineUnchanged = "unchanged"
	LineError     = "error"
)

// MaxMatchLines bounds the data lines of one schedule file.
const MaxMatchLines = 10000

// ImportError is a problem with one cell: Column is the header text as
// written in the file ("" for the whole line), Message in Portuguese.
type ImportError struct {
	Column  string `json:"column"`
	Message string `json:"message"`
}

// ImportLine is the outcome of one line: Line is the physical line, the
// header being line 1 (a record spanning lines is numbered by its first).
type ImportLine struct {
	Line    int           `json:"line"`
	Status  string        `json:"status"`
	Errors  []ImportError `json:"errors"`
	MatchID *int64        `json:"match_id,omitempty"`
}

// ImportReport is the answer to a schedule import: one entry per line and
// the counts. Applied is false for a dry run and whenever a line has an
// error (whole or nothing).
type ImportReport struct {
	Lines     []ImportLine `json:"lines"`
	Created   int          `json:"created"`
	Updated   int          `json:"updated"`
	Unchanged int          `json:"unchanged"`
	Applied   bool         `json:"applied"`
	// RecomputedBans are the bans counted in matches whose match days the
	// import changed (each with a docket movement and a blocklist version).
	RecomputedBans []int64 `json:"recomputed_bans,omitempty"`
}

// HasErrors reports whether any line has an error.
func (r *ImportReport) HasErrors() bool {
	for _, l := range r.Lines {
		if l.Status == LineError {
			return true
		}
	}
	return false
}

// matchColumns are the columns of matches-2025.csv, with Portuguese
// aliases, found by header text (case, accents and order ignored).
var matchColumns = []struct {
	key      string
	aliases  []string
	required bool
}{
	{"competition", []string{"competition", "competicao", "campeonato"}, true},
	{"round", []string{"round", "rodada", "fase"}, false},
	{"home", []string{"home", "mandante"}, true},
	{"away", []string{"away", "visitante"}, true},
	{"venue", []string{"venue", "local", "estadio"}, true},
	{"date", []string{"date", "data"}, true},
	{"kickoff_local", []string{"kickoff_local", "kickoff", "horario", "hora"}, true},
	{"duration_minutes", []string{"duration_minutes", "duracao_minutos", "duracao"}, false},
	{"status", []string{"status", "situacao"}, false},
}

// matchStatus reads the optional status column: "" (or scheduled,
// agendada, confirmada, adiada: a postponed match carries its new date)
// or cancelled (cancelada, cancelado).
func matchStatus(v string) (cancelled, ok bool) {
	switch textcheck.Fold(v) {
	case "", "scheduled", "agendada", "agendado", "confirmada", "confirmado", "adiada", "adiado", "postponed":
		return false, true
	case "cancelled", "canceled", "cancelada", "cancelado":
		return true, true
	}
	return false, false
}

var hhmm = regexp.MustCompile(`^([01]?[0-9]|2[0-3]):([0-5][0-9])$`)

var brDate = regexp.MustCompile(`^(\d{1,2})/(\d{1,2})/(\d{4})$`)

// ImportMatches imports a match schedule into the actor's court (CSV in the
// format of ../shared/fixtures/matches-2025.csv: competition, round, home,
// away, venue, date, kickoff_local, optional duration_minutes; UTF-8 with
// or without BOM, or Windows-1252; separated by "," or ";"). kickoff_local
// is the venue's local time (venues.time_zone); a match lasts
// duration_minutes, else its competition's setting, else 120 minutes. A
// match already in the schedule (same competition, round, home and away,
// accents and case ignored) is updated.
//
// The import is whole or nothing, in one transaction: when any line has an
// error, or when dryRun, nothing is written and the report says why, line
// by line. It returns errs.Unreadable for an empty body.
func (s *Service) ImportMatches(ctx context.Context, actor actor.Actor, body []byte, dryRun bool) (*ImportReport, error) {
	body = bytes.TrimPrefix(body, []byte("\xef\xbb\xbf"))
	if len(bytes.TrimSpace(body)) == 0 {
		return nil, errs.New(errs.Unreadable, "O arquivo está vazio: envie a tabela de partidas em CSV com a linha de cabeçalho.")
	}
	if !utf8.Valid(body) {
		dec, err := charmap.Windows1252.NewDecoder().Bytes(body)
		if err != nil {
			return nil, errs.New(errs.Unreadable, "Não foi possível ler o arquivo: use UTF-8 ou Windows-1252.")
		}
		body = dec
	}
	if bytes.IndexByte(body, 0) >= 0 {
		return nil, errs.New(errs.Unreadable, "O arquivo contém caracteres nulos: não é um CSV de texto.")
	}
	first, _, _ := bytes.Cut(body, []byte("\n"))
	r := csv.NewReader(bytes.NewReader(body))
	if bytes.Count(first, []byte(";")) > bytes.Count(first, []byte(",")) {
		r.Comma = ';'
	}
	r.FieldsPerRecord = -1
	report := &ImportReport{Lines: []ImportLine{}}
	err := db.WithTx(ctx, s.DB, func(ctx context.Context) error {
		tx := db.Conn(ctx, s.DB)
		// One import at a time per court: the lookups below stay true until commit.
		if err := tx.Exec("SELECT 1 FROM courts WHERE code = ? FOR UPDATE", actor.Court).Error; err != nil {
			return err
		}
		rows, err := s.parseMatches(ctx, actor, r, report)
		if err != nil {
			return err
		}
		if report.HasErrors() || dryRun {
			return nil
		}
		for i := range rows {
			m := rows[i]
			if m.match.ID == 0 {
				if err := tx.Create(&m.match).Error; err != nil {
					return err
				}
			} else if m.status == LineUpdate {
				if err := tx.Save(&m.match).Error; err != nil {
					return err
				}
			}
			id := m.match.ID
			report.Lines[m.index].MatchID = &id
		}
		report.Applied = true
		ids, err := s.recomputeMatchTerms(ctx, actor)
		if err != nil {
			return err
		}
		report.RecomputedBans = ids
		return nil
	})
	if err != nil {
		return nil, err
	}
	return report, nil
}

type parsedMatch struct {
	index  int // in report.Lines
	status string
	match  Match
}

// matchParser reads a schedule CSV: the columns of its header, and what
// the lines read so far found (venues, zones, the lines of each match).
type matchParser struct {
	s         *Service
	tx        *gorm.DB
	actor     actor.Actor
	now       time.Time
	col       map[string]int
	written   map[string]string // the header's name of each column
	durations map[string]int
	venues    map[string]*cases.Venue
	zones     map[string]*time.Location
	seen      map[string]int
}

func (s *Service) parseMatches(ctx context.Context, actor actor.Actor, r *csv.Reader, report *ImportReport) ([]parsedMatch, error) {
	tx := db.Conn(ctx, s.DB)
	header, err := r.Read()
	if err != nil {
		report.Lines = append(report.Lines, ImportLine{Line: 1, Status: LineError, Errors: []ImportError{{Message: "cabeçalho ilegível: " + csvReason(err)}}})
		return nil, nil
	}
	p := &matchParser{s: s, tx: tx, actor: actor, now: s.Now(), col: map[string]int{}, written: map[string]string{},
		venues: map[string]*cases.Venue{}, zones: map[string]*time.Location{}, seen: map[string]int{}}
	if !p.readHeader(header, report) {
		return nil, nil
	}
	if p.durations, err = competitionMinutes(ctx, tx); err != nil {
		return nil, err
	}
	var out []parsedMatch
	for n := 0; ; n++ {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		line, _ := r.FieldPos(0)
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				line = pe.StartLine
			}
			report.Lines = append(report.Lines, ImportLine{Line: line, Status: LineError, Errors: []ImportError{{Message: "linha ilegível: " + csvReason(err) + "; o restante do arquivo não foi lido."}}})
			break
		}
		if n >= MaxMatchLines {
			report.Lines = append(report.Lines, ImportLine{Line: line, Status: LineError, Errors: []ImportError{{Message: fmt.Sprintf("arquivo longo demais: no máximo %d partidas por importação.", MaxMatchLines)}}})
			break
		}
		ln := ImportLine{Line: line, Errors: []ImportError{}}
		bad := func(key, msg string) {
			c := p.written[key]
			if c == "" {
				c = key
			}
			ln.Errors = append(ln.Errors, ImportError{Column: c, Message: msg})
		}
		if len(rec) != len(header) {
			ln.Errors = append(ln.Errors, ImportError{Message: fmt.Sprintf("a linha tem %d colunas; o cabeçalho, %d.", len(rec), len(header))})
		}
		cell := func(key string) string {
			i, ok := p.col[key]
			if !ok || i >= len(rec) {
				return ""
			}
			return cases.Clean(rec[i])
		}
		m, err := p.match(ctx, cell, bad)
		if err != nil {
			return nil, err
		}
		key := strings.Join([]string{textcheck.Fold(m.Competition), textcheck.Fold(m.Round), textcheck.Fold(m.Home), textcheck.Fold(m.Away)}, "\x00")
		if prev, dup := p.seen[key]; dup && m.Home != "" && m.Competition != "" {
			bad("home", fmt.Sprintf("partida repetida: a mesma competição, rodada, mandante e visitante já estão na linha %d.", prev))
		} else {
			p.seen[key] = line
		}
		if len(ln.Errors) > 0 {
			ln.Status = LineError
			report.Lines = append(report.Lines, ln)
			continue
		}
		if err := p.classify(&m, &ln, report); err != nil {
			return nil, err
		}
		report.Lines = append(report.Lines, ln)
		out = append(out, parsedMatch{index: len(report.Lines) - 1, status: ln.Status, match: m})
	}
	if len(report.Lines) == 0 {
		report.Lines = append(report.Lines, ImportLine{Line: 1, Status: LineError, Errors: []ImportError{{Message: "o arquivo não tem partidas: só o cabeçalho."}}})
	}
	return out, nil
}

// readHeader reads the columns of header (matchColumns, by any of their
// names); a repeated or missing required column goes to report, false.
func (p *matchParser) readHeader(header []string, report *ImportReport) bool {
	var herrs []ImportError
	for i, h := range header {
		k := textcheck.Fold(strings.ReplaceAll(strings.TrimSpace(h), " ", "_"))
		for _, c := range matchColumns {
			for _, a := range c.aliases {
				if k == a {
					if _, dup := p.col[c.key]; dup {
						herrs = append(herrs, ImportError{Column: h, Message: fmt.Sprintf("coluna repetida: %q já aparece no cabeçalho.", p.written[c.key])})
					} else {
						p.col[c.key], p.written[c.key] = i, h
					}
				}
			}
		}
	}
	for _, c := range matchColumns {
		if _, ok := p.col[c.key]; !ok && c.required {
			herrs = append(herrs, ImportError{Column: c.key, Message: fmt.Sprintf("coluna obrigatória ausente: %s.", c.key)})
		}
	}
	if len(herrs) > 0 {
		report.Lines = append(report.Lines, ImportLine{Line: 1, Status: LineError, Errors: herrs})
		return false
	}
	return true
}

// match reads the match of the CSV record rec: each cell checked, the
// venue known to the court with its zone, the kickoff a time that exists
// there (summer time), the duration (the competition's, or the line's);
// what is wrong goes through bad.
func (p *matchParser) match(ctx context.Context, cell func(string) string, bad func(key, msg string)) (Match, error) {
	m := Match{CourtCode: p.actor.Court, Competition: cell("competition"), Round: cell("round"), Home: cell("home"), Away: cell("away"),
		ImportedAt: p.now, ImportedBy: &p.actor.UserID}
	for _, k := range []string{"competition", "round", "home", "away"} {
		v := cell(k)
		var f errs.Fields
		cases.CheckText(&f, k, v, cases.MaxName, false)
		if len(f) > 0 {
			bad(k, f[0].Message)
		} else if v == "" && k != "round" {
			bad(k, "campo obrigatório vazio.")
		}
	}
	if m.Home != "" && textcheck.Fold(m.Home) == textcheck.Fold(m.Away) {
		bad("away", "o visitante é o próprio mandante.")
	}
	var venue *cases.Venue
	if vn := cell("venue"); vn == "" {
		bad("venue", "campo obrigatório vazio.")
	} else if v, ok := p.venues[textcheck.Fold(vn)]; ok {
		venue = v
	} else if len(vn) > cases.MaxShort {
		bad("venue", "nome do local longo demais.")
	} else {
		v, err := cases.FindVenue(ctx, p.s.DB, vn)
		if err != nil {
			return Match{}, err
		}
		p.venues[textcheck.Fold(vn)] = v
		venue = v
	}
	if vn := cell("venue"); vn != "" && len(vn) <= cases.MaxShort && venue == nil {
		bad("venue", fmt.Sprintf("local desconhecido %q: não consta da tabela de locais do juizado.", vn))
	}
	var loc *time.Location
	if venue != nil {
		m.VenueID = venue.ID
		tz := venue.TimeZone
		if tz == "" {
			tz = "America/Sao_Paulo"
		}
		if l, ok := p.zones[tz]; ok {
			loc = l
		} else if l, err := time.LoadLocation(tz); err == nil {
			p.zones[tz], loc = l, l
		} else {
			bad("venue", fmt.Sprintf("o local tem um fuso horário desconhecido (%s): corrija a tabela de locais.", tz))
		}
	}
	date, dateOK := parseScheduleDate(cell("date"))
	if !dateOK {
		bad("date", fmt.Sprintf("data inválida %q: use AAAA-MM-DD (ou DD/MM/AAAA) e um dia que exista.", cell("date")))
	} else if date.Year < 2003 || date.Year > civil.Today(p.now, p.s.Loc).Year+5 {
		bad("date", "data fora do intervalo aceito (de 2003 até 5 anos à frente).")
	}
	ko := hhmm.FindStringSubmatch(cell("kickoff_local"))
	if ko == nil {
		bad("kickoff_local", fmt.Sprintf("horário inválido %q: use HH:MM (00:00 a 23:59), hora local do estádio.", cell("kickoff_local")))
	}
	m.MatchMinutes = int(sanctions.DefaultMatchDuration / time.Minute)
	if d, ok := p.durations[textcheck.Fold(m.Competition)]; ok {
		m.MatchMinutes = d
	}
	if ds := cell("duration_minutes"); ds != "" {
		d, err := strconv.Atoi(ds)
		if err != nil || d < 30 || d > 600 {
			bad("duration_minutes", "duração inválida: informe os minutos da partida, de 30 a 600.")
		} else {
			m.MatchMinutes = d
		}
	}
	if c, ok := matchStatus(cell("status")); ok {
		m.Cancelled = c
	} else {
		bad("status", fmt.Sprintf("situação inválida %q: deixe vazio (partida marcada) ou use cancelada.", cell("status")))
	}
	if dateOK && ko != nil && loc != nil {
		h, _ := strconv.Atoi(ko[1])
		mi, _ := strconv.Atoi(ko[2])
		t := time.Date(date.Year, date.Month, date.Day, h, mi, 0, 0, loc)
		if t.Hour() != h || t.Minute() != mi || civil.Of(t) != date {
			bad("kickoff_local", fmt.Sprintf("o horário %02d:%02d não existe em %s no fuso %s (mudança de horário de verão).", h, mi, date.BR(), loc))
		} else {
			m.MatchDate, m.KickoffLocal, m.Kickoff = date, fmt.Sprintf("%02d:%02d", h, mi), t
		}
	}
	return m, nil
}

// classify says whether m creates, updates or leaves unchanged the stored
// match of the same competition, round, home and away (accents aside),
// and counts it in report.
func (p *matchParser) classify(m *Match, ln *ImportLine, report *ImportReport) error {
	var old Match
	err := p.tx.Where(`court_code = ? AND f_unaccent(competition) = f_unaccent(?) AND f_unaccent(round) = f_unaccent(?)
		AND f_unaccent(home) = f_unaccent(?) AND f_unaccent(away) = f_unaccent(?)`, m.CourtCode, m.Competition, m.Round, m.Home, m.Away).
		Limit(1).Find(&old).Error
	if err != nil {
		return err
	}
	ln.Status = LineCreate
	if old.ID != 0 {
		m.ID = old.ID
		ln.Status = LineUpdate
		if old.VenueID == m.VenueID && old.Kickoff.Equal(m.Kickoff) && old.MatchMinutes == m.MatchMinutes && old.MatchDate == m.MatchDate && old.Cancelled == m.Cancelled &&
			old.Competition == m.Competition && old.Round == m.Round && old.Home == m.Home && old.Away == m.Away {
			ln.Status = LineUnchanged
		}
		id := old.ID
		ln.MatchID = &id
	}
	switch ln.Status {
	case LineCreate:
		report.Created++
	case LineUpdate:
		report.Updated++
	default:
		report.Unchanged++
	}
	return nil
}

// competitionMinutes returns the match duration of each competition with a
// setting, by folded name.
func competitionMinutes(ctx context.Context, tx *gorm.DB) (map[string]int, error) {
	var rows []struct {
		Name         string
		MatchMinutes int
	}
	if err := tx.Raw("SELECT name, match_minutes FROM competitions").Scan(&rows).Error; err != nil {
		return nil, err
	}
	out := map[string]int{}
	for _, r := range rows {
		out[textcheck.Fold(r.Name)] = r.MatchMinutes
	}
	return out, nil
}

func parseScheduleDate(s string) (civil.Date, bool) {
	if d, err := civil.Parse(s); err == nil {
		return d, true
	}
	if m := brDate.FindStringSubmatch(s); m != nil {
		day, _ := strconv.Atoi(m[1])
		mon, _ := strconv.Atoi(m[2])
		y, _ := strconv.Atoi(m[3])
		d := civil.Date{Year: y, Month: time.Month(mon), Day: day}
		return d, d.Valid()
	}
	return civil.Date{}, false
}

func csvReason(err error) string {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		switch {
		case errors.Is(pe.Err, csv.ErrQuote), errors.Is(pe.Err, csv.ErrBareQuote):
			return "aspas mal fechadas"
		}
	}
	if err == io.EOF {
		return "arquivo vazio"
	}
	return "formato CSV inválido"
}

// recomputeMatchTerms recounts, after a schedule import of the actor's
// court moved or cancelled matches, the bans of the court counted in
// matches that have not ended: their match days and last day follow the
// schedule (the same first N matches of the club from the ban's first
// day). Each ban that changed gets a docket movement, and the blocklist a
// version (the entry is removed and added with the new days). It returns
// the ids of the bans that changed.
func (s *Service) recomputeMatchTerms(ctx context.Context, actor actor.Actor) ([]int64, error) {
	tx := db.Conn(ctx, s.DB)
	today := civil.Today(s.Now(), s.Loc)
	var bans []sanctions.Ban
	notEnded := sanctions.InForceOrToStartCond("", today)
	if err := tx.Where("court_code = ? AND match_term IS NOT NULL", actor.Court).Where(notEnded.SQL, notEnded.Args...).
		Order("id").Find(&bans).Error; err != nil {
		return nil, err
	}
	var changed []int64
	for _, b := range bans {
		if b.FirstDay == nil || b.MatchTerm == nil {
			continue
		}
		days, count, err := MatchDays(ctx, tx, b.CourtCode, *b.MatchTerm, *b.FirstDay)
		if err != nil {
			return nil, err
		}
		if len(days) == len(b.MatchDays) && slices.Equal(days, b.MatchDays) {
			continue
		}
		term := sanctions.MatchTermPT(b.MatchTerm, nil)
		var text string
		if len(days) == 0 {
			text = fmt.Sprintf("Tabela de partidas alterada: não restam na tabela jogos para o impedimento %d (%s), a partir de %s; o último dia segue %s até nova decisão.",
				b.ID, term, b.FirstDay.BR(), b.LastDay.BR())
			if err := tx.Create(&cases.Movement{CaseID: b.CaseID, At: s.Now(), Kind: cases.MoveScheduleChanged, Description: text, AuthorUserID: &actor.UserID, AuthorRole: actor.Role}).Error; err != nil {
				return nil, err
			}
			continue
		}
		last := days[len(days)-1]
		prev := "sem último dia"
		if b.LastDay != nil {
			prev = b.LastDay.BR()
		}
		ds := make([]string, len(days))
		for i, d := range days {
			ds[i] = d.BR()
		}
		text = fmt.Sprintf("Tabela de partidas alterada: o impedimento %d (%s) passa a abranger os jogos de %s; último dia %s (antes %s).",
			b.ID, term, strings.Join(ds, ", "), last.BR(), prev)
		if count < b.MatchTerm.Matches {
			text += fmt.Sprintf(" A tabela importada tem só %d dos %d jogos do prazo: importe a tabela completa.", count, b.MatchTerm.Matches)
		}
		if err := tx.Model(&sanctions.Ban{}).Where("id = ?", b.ID).
			Updates(map[string]any{"match_days": days, "last_day": last, "computed_last_day": last}).Error; err != nil {
			return nil, err
		}
		if err := tx.Create(&cases.Movement{CaseID: b.CaseID, At: s.Now(), Kind: cases.MoveScheduleChanged, Description: text, AuthorUserID: &actor.UserID, AuthorRole: actor.Role}).Error; err != nil {
			return nil, err
		}
		changed = append(changed, b.ID)
	}
	if len(changed) > 0 {
		if err := s.RefreshBlocklist(ctx, changed...); err != nil {
			return nil, err
		}
	}
	return changed, nil
}

// MatchDays returns the days of the first mt.Matches matches of mt.Club
// (home matches only with mt.HomeOnly) on or after first in court's
// imported schedule, cancelled matches left out, in kickoff order, and how
// many matches it found (at most mt.Matches).
func MatchDays(ctx context.Context, g *gorm.DB, court string, mt sanctions.MatchTerm, first civil.Date) (sanctions.DayList, int, error) {
	var rows []civil.Date
	err := g.WithContext(ctx).Raw(`SELECT match_date FROM matches
		WHERE court_code = ? AND NOT cancelled AND match_date >= ?
		  AND (f_unaccent(home) = f_unaccent(?) OR (NOT ? AND f_unaccent(away) = f_unaccent(?)))
		ORDER BY kickoff, id LIMIT ?`, court, first, mt.Club, mt.HomeOnly, mt.Club, mt.Matches).Scan(&rows).Error
	if err != nil {
		return nil, 0, err
	}
	days := sanctions.DayList{}
	for _, d := range rows {
		if !days.Has(d) {
			days = append(days, d)
		}
	}
	return days, len(rows), nil
}
