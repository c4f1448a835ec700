package casefile

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/calendar"
	"github.com/juizado/juizado/cases/decisions"
	"github.com/juizado/juizado/internal/accounts"
	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/registry"
	"github.com/juizado/juizado/sanctions"
	"gorm.io/gorm"
)

// View is a case as the API shows it (../shared/API.md "Cases and
// sentences"): number formatted, court code, judge, filer, event, facts,
// defendants, movements in order and bans.
type View struct {
	ID                   int64                 `json:"id"`
	Number               string                `json:"number"`
	Status               string                `json:"status"`
	Court                string                `json:"court"`
	Judge                *cases.JudgeView      `json:"judge"`
	Ref                  string                `json:"ref,omitempty"`
	FiledBy              FiledByView           `json:"filed_by"`
	FiledAt              time.Time             `json:"filed_at"`
	Event                *EventView            `json:"event"`
	Facts                FactsView             `json:"facts"`
	Defendants           []cases.DefendantView `json:"defendants"`
	cases.Classification                       // class and subjects (TPU; full view only)
	Movements            []cases.MovementView  `json:"movements,omitempty"`
	Bans                 []cases.BanView       `json:"bans"`
	// Warnings about the case as filed, in Portuguese (e.g. facts beyond
	// the 5,000 m of Lei 14.597/2023, art. 201, § 1º, I).
	Warnings []string `json:"warnings,omitempty"`
	// Version of the case (ETag "v{version}", If-Match); Flow criminal or
	// civil; Next the transitions allowed from its status.
	Version int                `json:"version"`
	Flow    string             `json:"flow"`
	Next    []cases.Transition `json:"next_transitions,omitempty"`
	// Sentenceable: the case may still be sentenced (before the decision;
	// criminal: some defendant's open track is before his decision).
	Sentenceable bool `json:"sentenceable"`
	// Deadlines: each notified defendant's appeal window with its last day.
	Deadlines   []calendar.DeadlineView `json:"deadlines,omitempty"`
	Hearings    []cases.HearingView     `json:"hearings,omitempty"`
	Pleas       []decisions.Plea        `json:"plea_agreements,omitempty"`
	Suspensions []decisions.Suspension  `json:"conditional_suspensions,omitempty"`
	// Sentences: each defendant's signed decision (outcome, article, prison,
	// fine, the judge's text).
	Sentences     []decisions.SentenceRecord `json:"sentences,omitempty"`
	AppealResults []decisions.AppealResult   `json:"appeal_results,omitempty"`
	// Embargos: the embargos de declaração, pending or ruled (Lei
	// 9.099/1995, art. 83).
	Embargos []calendar.Embargos `json:"embargos,omitempty"`
	// Rite: "jecrim", "ordinary" (rito ordinário: a maximum above 2 years,
	// Lei 9.099/1995, art. 61) or "civil" (group cases).
	Rite string `json:"rite,omitempty"`
	// FinalityMissing lists, in Portuguese, what keeps the judgment from
	// becoming final (notifications not recorded, appeal windows open).
	FinalityMissing []string `json:"finality_missing,omitempty"`
	// LinkedCase is the other case of a mixed representation (DOMAIN.md
	// §4): the civil case of the groups, or the criminal case of the
	// persons.
	LinkedCase *CaseRef `json:"linked_case,omitempty"`
}

// CaseRef names a case: its id and CNJ number (formatted).
type CaseRef struct {
	ID     int64  `json:"id"`
	Number string `json:"number"`
	Flow   string `json:"flow"`
}

// FiledByView is the filer as written, with the role of the filing account.
type FiledByView struct {
	Kind string `json:"kind"`
	Name string `json:"name"`
	Role string `json:"role"`
}

// EventView is the sporting event with the matched venue.
type EventView struct {
	Competition string     `json:"competition"`
	Home        string     `json:"home"`
	Away        string     `json:"away"`
	Venue       string     `json:"venue"`
	VenueID     int64      `json:"venue_id"`
	Kickoff     *time.Time `json:"kickoff"`
}

// FactsView is what happened: instant, date in the court's zone (which
// chooses the law), place, conduct words, police reports, description.
type FactsView struct {
	OccurredAt    time.Time  `json:"occurred_at"`
	Date          civil.Date `json:"date"`
	Latitude      *float64   `json:"latitude"`
	Longitude     *float64   `json:"longitude"`
	Conduct       []string   `json:"conduct"`
	PoliceReports []string   `json:"police_reports"`
	Description   string     `json:"description"`
	// DistanceToVenueM: great-circle distance in whole metres from the
	// facts to the venue; PlaceRelation: at_venue (≤ 500 m), within_5000m,
	// on_route or beyond_5000m (Lei 14.597/2023, art. 201, § 1º, I); both
	// null without coordinates or venue. OnRoute: as the filer said.
	DistanceToVenueM *int    `json:"distance_to_venue_m"`
	PlaceRelation    *string `json:"place_relation"`
	OnRoute          bool    `json:"on_route"`
}

// ListQuery filters List. Q matches defendant names word by word: every
// word of Q must begin a word of the same defendant's name (person or
// group), in any order, accents and case ignored ("joao conceicao" and
// "Conceição Jo" find "João da Conceição", "Magalh" finds "Magalhães"); a
// piece from the middle or the end of a word does not match ("alhães" does
// not find "Magalhães"; migration 00013). CPF a defendant's CPF, Status the
// case status, JudgeID the judge, From and To the date of the facts
// (YYYY-MM-DD, inclusive), Number the CNJ number (with or without
// punctuation) or a part of it (4 digits or more, punctuation ignored: the
// cases whose number contains them, migration 00281), Class the TPU class
// code (Res. CNJ 46/2007); Sort "filed" (newest first, the default) or "name" (first
// defendant's name, Portuguese collation); Page from 1.
type ListQuery struct {
	Q, CPF, Status string
	JudgeID        int64
	From, To       string
	Number         string
	Class          int
	Sort           string
	Page, PerPage  int
}

// numberPart returns the digits of a part of a case number typed with or
// without its punctuation ("1234-56", "2025.8.26.0100"): ok when it has 4
// to 19 digits and nothing but digits, dots, hyphens and spaces (all 20 are
// a whole number, which must be a valid one: Res. CNJ 65/2008).
func numberPart(s string) (string, bool) {
	var b strings.Builder
	for _, r := range strings.TrimSpace(s) {
		switch {
		case r >= '0' && r <= '9':
			b.WriteRune(r)
		case r == '.' || r == '-' || r == ' ':
		default:
			return "", false
		}
	}
	return b.String(), b.Len() >= 4 && b.Len() < 20
}

// cond is one SQL condition on cases with its arguments.
type cond struct {
	sql  string
	args []any
}

// where adds conds to tx.
func where(tx *gorm.DB, conds []cond) *gorm.DB {
	for _, c := range conds {
		tx = tx.Where(c.sql, c.args...)
	}
	return tx
}

// List returns the actor's court's cases that match and the total count,
// capped at listCap.
func (s *Service) List(ctx context.Context, actor actor.Actor, q ListQuery) ([]View, int64, error) {
	var f errs.Fields
	if q.Page == 0 {
		q.Page = 1
	}
	if q.PerPage == 0 {
		q.PerPage = 20
	}
	if q.Page < 1 {
		f.Add("page", "min", "a página começa em 1.")
	}
	if q.PerPage < 1 || q.PerPage > 100 {
		f.Add("per_page", "range", "per_page deve estar entre 1 e 100.")
	}
	conds := []cond{scopeCond(actor)}
	add := func(sql string, args ...any) { conds = append(conds, cond{sql, args}) }
	if q.CPF != "" {
		cpf, err := registry.ParseCPF(q.CPF)
		if err != nil {
			f.Add("cpf", "cpf", err.Error())
		} else {
			add("cases.id IN (SELECT case_id FROM defendants d WHERE d.cpf = ?"+defenceOnly(actor), append([]any{cpf.String()}, defenceArgs(actor)...)...)
		}
	}
	// Tabs and line breaks separate words like spaces; so do hyphens: a
	// stored "Ana-Maria" has the words ana-maria, ana and maria (the text
	// search parser), and a typed "an-ma" or "maria-ana" is looked for as
	// its parts.
	typed := q.Q
	q.Q = queryBlanks.Replace(q.Q)
	cases.CheckText(&f, "q", q.Q, cases.MaxName, false)
	var name string
	if words := strings.Fields(q.Q); len(words) > 20 {
		f.Add("q", "max_words", "no máximo 20 palavras.")
	} else {
		name = strings.Join(words, " ")
	}
	if name == "" && strings.TrimSpace(typed) != "" {
		name = "-" // only hyphens: a name without words, which matches nothing
	}
	if q.Status != "" {
		if !cases.Contains(cases.Statuses, q.Status) {
			f.Add("status", "oneof", "situação desconhecida; use: "+strings.Join(cases.Statuses, ", ")+".")
		}
		add("cases.status = ?", q.Status)
	}
	if q.JudgeID != 0 {
		add("cases.judge_id = ?", q.JudgeID)
	}
	var from, to civil.Date
	if q.From != "" {
		if d, ok := cases.ParseDate(&f, "from", q.From); ok {
			from = d
			add("cases.facts_date >= ?", d)
		}
	}
	if q.To != "" {
		if d, ok := cases.ParseDate(&f, "to", q.To); ok {
			to = d
			add("cases.facts_date <= ?", d)
		}
	}
	if !from.IsZero() && !to.IsZero() && to.Before(from) {
		f.Add("to", "after_from", "o fim do período não pode ser anterior ao início.")
	}
	if q.Number != "" {
		if n, err := cases.ParseCNJ(q.Number); err == nil {
			add("cases.number = ?", n.Digits())
		} else if digits, ok := numberPart(q.Number); ok {
			add("cases.number::text LIKE ?", "%"+digits+"%")
		} else {
			f.Add("number", "cnj", err.Error()+" Para buscar por parte do número, informe ao menos 4 dígitos.")
		}
	}
	if q.Class < 0 {
		f.Add("class", "min", "classe desconhecida.")
	} else if q.Class > 0 {
		add("cases.class_code = ?", q.Class)
	}
	order := "cases.filed_at DESC, cases.id DESC"
	switch q.Sort {
	case "", "filed":
	case "name":
		order = `(SELECT CASE WHEN d.kind = 'person' THEN d.full_name ELSE d.group_name END FROM defendants d
			WHERE d.case_id = cases.id ORDER BY d.position LIMIT 1) COLLATE juizado_pt, cases.id`
	default:
		f.Add("sort", "oneof", "ordem desconhecida; use filed ou name.")
	}
	if err := f.Err(); err != nil {
		return nil, 0, err
	}
	if name != "" && isDefence(actor) {
		add("cases.id IN (SELECT case_id FROM defendants d WHERE d.name_search @@ f_name_query(?)"+defenceOnly(actor),
			append([]any{name}, defenceArgs(actor)...)...)
	} else if name != "" {
		return s.listByName(ctx, actor.Court, conds, name, order, q)
	}
	tx := where(db.Conn(ctx, s.DB).Model(&cases.Case{}), conds)
	var total int64
	matches := tx.Session(&gorm.Session{}).Select("cases.id").Limit(listCap)
	if err := db.Conn(ctx, s.DB).Raw("SELECT count(*) FROM (?) AS m", matches).Scan(&total).Error; err != nil {
		return nil, 0, err
	}
	var cs []cases.Case
	if err := tx.Order(order).Offset((q.Page - 1) * q.PerPage).Limit(q.PerPage).Find(&cs).Error; err != nil {
		return nil, 0, err
	}
	out, err := s.views(db.Conn(ctx, s.DB), cs)
	if err != nil {
		return nil, 0, err
	}
	return out, total, s.forDefenceAll(ctx, actor, out)
}

// listByName is List with a name. A defendant matches when every word of
// the name begins a word of its name (migration 00013); a case matches
// when one of its defendants does.
//
// A name with a word of four letters or more walks name_heads (migration
// 00016) newest first, index only: the rows of one key (namePlan: the pair
// of the name's two rarest heads, or its one head), each checked against
// every word with words LIKE '% word%', until the page and the capped
// total are known (listCap cases) or the key's rows end. Its cost is
// bounded by one key's rows whatever the name; with the page's 20 newest
// and a total at the cap, usually far fewer. A name without a word of four
// letters ("jo", "ana") is listByIndex, over the GIN index of 00013.
func (s *Service) listByName(ctx context.Context, court string, conds []cond, name, order string, q ListQuery) ([]View, int64, error) {
	var out []View
	var total int64
	err := db.Conn(ctx, s.DB).Transaction(func(tx *gorm.DB) error {
		var words []string
		if err := tx.Raw("SELECT unnest(f_name_words(?))", name).Scan(&words).Error; err != nil {
			return err
		}
		head := s.namePlan(tx, words)
		if head == "" {
			var err error
			out, total, err = s.listByIndex(tx, conds, name, order, q)
			return err
		}
		walk := tx.Table("name_heads h").Where("h.head = ? AND h.court_code = ?", head, court)
		for _, w := range words {
			walk = walk.Where("h.words LIKE ?", "% "+likeEscaper.Replace(w)+"%")
		}
		if len(conds) > 1 { // more than the court: the filters on the case
			walk = where(walk.Joins("JOIN cases ON cases.id = h.case_id"), conds)
		}
		walk = walk.Select("DISTINCT h.filed_at, h.case_id").Order("h.filed_at DESC, h.case_id DESC")
		offset := (q.Page - 1) * q.PerPage
		var cs []cases.Case
		if q.Sort == "name" {
			// Every match, sorted by name in PostgreSQL.
			var ids []int64
			if err := tx.Raw("SELECT case_id FROM (?) AS m", walk).Scan(&ids).Error; err != nil {
				return err
			}
			total = int64(min(len(ids), listCap))
			if offset >= len(ids) {
				out = []View{}
				return nil
			}
			if err := tx.Model(&cases.Case{}).Where("cases.id = ANY(?::bigint[])", int64Array(ids)).
				Order(order).Offset(offset).Limit(q.PerPage).Find(&cs).Error; err != nil {
				return err
			}
		} else {
			// Newest first is the walk's own order: it reads as far as the
			// page or the cap, whichever is further, and PostgreSQL counts
			// and cuts the page (one row back when the page is empty).
			var rows []struct {
				Total  int64
				CaseID *int64
			}
			err := tx.Raw(`WITH m AS MATERIALIZED (?)
				SELECT t.total, p.case_id FROM (SELECT count(*) AS total FROM m) AS t
				LEFT JOIN LATERAL (SELECT case_id, filed_at FROM m ORDER BY filed_at DESC, case_id DESC OFFSET ? LIMIT ?) AS p ON true
				ORDER BY p.filed_at DESC, p.case_id DESC`,
				walk.Limit(max(listCap, offset+q.PerPage)), offset, q.PerPage).Scan(&rows).Error
			if err != nil {
				return err
			}
			var ids []int64
			for _, r := range rows {
				total = min(r.Total, listCap)
				if r.CaseID != nil {
					ids = append(ids, *r.CaseID)
				}
			}
			if len(ids) == 0 {
				out = []View{}
				return nil
			}
			if err := tx.Model(&cases.Case{}).Where("cases.id IN ?", ids).Order(order).Find(&cs).Error; err != nil {
				return err
			}
		}
		var err error
		out, err = s.views(tx, cs)
		return err
	}, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, 0, err
	}
	return out, total, nil
}

// queryBlanks turns the separators of a typed name (tab, line breaks,
// hyphens) into spaces.
var queryBlanks = strings.NewReplacer("\t", " ", "\n", " ", "\r", " ", "-", " ", "\u2010", " ", "\u2011", " ", "\u2013", " ")

// likeEscaper escapes the LIKE wildcards of a word (backslash is
// PostgreSQL's default LIKE escape).
var likeEscaper = strings.NewReplacer(`\`, `\\`, "%", `\%`, "_", `\_`)

// int64Array is ids as a PostgreSQL array literal ({1,2,3}), one
// parameter however many ids.
func int64Array(ids []int64) string {
	var b strings.Builder
	b.WriteByte('{')
	for i, id := range ids {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.FormatInt(id, 10))
	}
	b.WriteByte('}')
	return b.String()
}

// namePlan chooses the key of name_heads that listByName walks for words,
// the lower-case unaccented words of a name (f_name_words): "" for the GIN
// index (listByIndex) when no word has four letters or more; the head
// (first four letters) of such a word when they all share it; otherwise
// the pair of the two rarest of their distinct heads ("mari silv", in
// order), rarest by the table's statistics (headFreqs: a head not among
// the most common values is rarer than all of them; ties go to the longer
// word, then the first). The walk costs up to one key's rows and stops
// early when the name is common: a pair's rows are about as many as the
// defendants with both heads (a few thousand at a million cases for two
// common surnames), a head's as many as the defendants with it (up to
// about 66,000). Any key of the name gives the same answer; only its
// cost differs.
func (s *Service) namePlan(tx *gorm.DB, words []string) string {
	st := s.headFreqs(tx)
	type cand struct {
		head string
		n    int // letters of the longest word with this head
		freq float64
	}
	var cs []cand
	for _, w := range words {
		r := []rune(w)
		if len(r) < 4 {
			continue
		}
		h := string(r[:4])
		i := slices.IndexFunc(cs, func(c cand) bool { return c.head == h })
		if i < 0 {
			cs = append(cs, cand{h, len(r), st.freqs[h]})
		} else {
			cs[i].n = max(cs[i].n, len(r))
		}
	}
	switch len(cs) {
	case 0:
		return ""
	case 1:
		return cs[0].head
	}
	slices.SortStableFunc(cs, func(a, b cand) int {
		if a.freq != b.freq {
			return cmp.Compare(a.freq, b.freq)
		}
		return b.n - a.n
	})
	a, b := cs[0].head, cs[1].head
	if b < a {
		a, b = b, a
	}
	return a + " " + b
}

// headStatsTTL is how long headFreqs keeps what it read from pg_stats.
const headStatsTTL = 10 * time.Minute

// headStats caches what namePlan reads from PostgreSQL's statistics.
type headStats struct {
	mu sync.Mutex
	at time.Time
	nameStats
}

// nameStats are the statistics namePlan weighs: freqs, the share of
// name_heads rows of each of its most common keys (pg_stats; statistics
// target 1000, migration 00016).
type nameStats struct {
	freqs map[string]float64
}

// headFreqs is nameStats as of the last ANALYZE, read at most every
// headStatsTTL. Empty before the first ANALYZE or when the statistics
// cannot be read.
func (s *Service) headFreqs(tx *gorm.DB) nameStats {
	s.heads.mu.Lock()
	defer s.heads.mu.Unlock()
	now := time.Now()
	if s.heads.freqs != nil && now.Sub(s.heads.at) < headStatsTTL {
		return s.heads.nameStats
	}
	var rows []struct {
		Head string
		Freq float64
	}
	st := nameStats{freqs: map[string]float64{}}
	err := tx.Raw(`SELECT u.head, u.freq FROM pg_stats s,
		unnest(s.most_common_vals::text::text[], s.most_common_freqs) AS u(head, freq)
		WHERE s.schemaname = current_schema() AND s.tablename = 'name_heads' AND s.attname = 'head'`).Scan(&rows).Error
	if err == nil {
		for _, r := range rows {
			st.freqs[r.Head] = r.Freq
		}
	} else {
		st = nameStats{freqs: map[string]float64{}}
	}
	s.heads.nameStats, s.heads.at = st, now
	return st
}

// listByIndex is listByName over the GIN index of defendants.name_search
// (migration 00013), for names without a word of four letters:
// d.name_search @@ f_name_query(name) is one GIN posting list per word.
//
// First the matching cases, at most listCap of them, straight from the
// index: one row per case (the case's first matching defendant), in no
// particular order, so the scan stops at listCap however common the name.
// Below the cap these are all the matches: the total is exact and the page
// is sorted from them. At the cap the page is a query of its own with
// EXISTS, which PostgreSQL answers by walking the court's cases newest
// first (cases_court_filed) and checking each case's defendants until the
// page is full, or, when its statistics say the name is rare enough, from
// the index and a sort.
//
// Custom plans are forced: the driver prepares and caches statements, and
// after five executions PostgreSQL may switch to a generic plan, which
// cannot see the words (f_name_query(?) is then not a constant) and walks
// all the cases for a rare name (43 s at a million cases, measured).
func (s *Service) listByIndex(tx *gorm.DB, conds []cond, name, order string, q ListQuery) ([]View, int64, error) {
	if err := tx.Exec("SELECT set_config('plan_cache_mode', 'force_custom_plan', true)").Error; err != nil {
		return nil, 0, err
	}
	var ms []struct {
		ID      int64
		FiledAt time.Time
	}
	// A case counts once, by its first matching defendant: the earlier
	// defendants of a case are checked row by row (inside an OR, not as
	// an anti-join that could hash every match of the index a second
	// time), and a first defendant has none.
	err := where(tx.Model(&cases.Case{}), conds).Select("cases.id, cases.filed_at").
		Joins("JOIN defendants d ON d.case_id = cases.id").
		Where("d.name_search @@ f_name_query(?)", name).
		Where(`(d.position = 0 OR NOT EXISTS (SELECT 1 FROM defendants e WHERE e.case_id = d.case_id
			AND e.position < d.position AND e.name_search @@ f_name_query(?)))`, name).
		Limit(listCap).Scan(&ms).Error
	if err != nil {
		return nil, 0, err
	}
	total := int64(len(ms))
	offset := (q.Page - 1) * q.PerPage
	var cs []cases.Case
	switch {
	case total == listCap:
		err = where(tx.Model(&cases.Case{}), conds).
			Where("EXISTS (SELECT 1 FROM defendants d WHERE d.case_id = cases.id AND d.name_search @@ f_name_query(?))", name).
			Order(order).Offset(offset).Limit(q.PerPage).Find(&cs).Error
	case offset >= len(ms):
	case q.Sort == "name":
		ids := make([]int64, len(ms))
		for i, m := range ms {
			ids[i] = m.ID
		}
		err = tx.Model(&cases.Case{}).Where("cases.id IN ?", ids).Order(order).Offset(offset).Limit(q.PerPage).Find(&cs).Error
	default:
		sort.Slice(ms, func(i, j int) bool {
			if !ms[i].FiledAt.Equal(ms[j].FiledAt) {
				return ms[i].FiledAt.After(ms[j].FiledAt)
			}
			return ms[i].ID > ms[j].ID
		})
		ms = ms[offset:min(offset+q.PerPage, len(ms))]
		ids := make([]int64, len(ms))
		for i, m := range ms {
			ids[i] = m.ID
		}
		err = tx.Model(&cases.Case{}).Where("cases.id IN ?", ids).Order(order).Find(&cs).Error
	}
	if err != nil {
		return nil, 0, err
	}
	out, err := s.views(tx, cs)
	return out, total, err
}

// listCap bounds the total a search counts (../shared/API.md: "total may
// be capped"): counting every match of a common surname in a million cases
// costs more than the page itself.
const listCap = 1000

// views builds the summary views of cases (no docket) with four queries
// on tx for the whole page: judges, venues, defendants, bans (with their
// state today).
func (s *Service) views(tx *gorm.DB, cs []cases.Case) ([]View, error) {
	caseIDs := make([]int64, 0, len(cs))
	judgeIDs, venueIDs := []int64{}, []int64{}
	for _, c := range cs {
		caseIDs = append(caseIDs, c.ID)
		if c.JudgeID != nil {
			judgeIDs = append(judgeIDs, *c.JudgeID)
		}
		if c.VenueID != nil {
			venueIDs = append(venueIDs, *c.VenueID)
		}
	}
	judges, err := accounts.UsersByID(tx.Statement.Context, tx, judgeIDs)
	if err != nil {
		return nil, err
	}
	venues := map[int64]cases.Venue{}
	if len(venueIDs) > 0 {
		var vs []cases.Venue
		if err := tx.Where("id IN ?", venueIDs).Find(&vs).Error; err != nil {
			return nil, err
		}
		for _, v := range vs {
			venues[v.ID] = v
		}
	}
	defs := map[int64][]cases.Defendant{}
	if len(caseIDs) > 0 {
		var ds []cases.Defendant
		if err := tx.Where("case_id IN ?", caseIDs).Order("case_id, position").Find(&ds).Error; err != nil {
			return nil, err
		}
		for _, d := range ds {
			defs[d.CaseID] = append(defs[d.CaseID], d)
		}
	}
	bans := map[int64][]cases.BanView{}
	if len(caseIDs) > 0 {
		var rows []sanctions.Ban
		if err := tx.Where("case_id IN ?", caseIDs).Order("case_id, id").Find(&rows).Error; err != nil {
			return nil, err
		}
		today := civil.Today(s.Now(), s.Loc)
		precautionary := map[int64][]sanctions.Ban{} // by defendant
		for _, b := range rows {
			if b.Precautionary {
				precautionary[b.DefendantID] = append(precautionary[b.DefendantID], b)
			}
		}
		for _, b := range rows {
			bv := cases.NewBanView(b)
			bv.LiftedOn, bv.LiftReason = b.LiftedOn, b.LiftReason
			bv.SetState(today)
			if ps := precautionary[b.DefendantID]; !b.Precautionary && b.GroupBanID == nil && len(ps) > 0 {
				n := decisions.CountPrecautionary(ps, today)
				bv.PrecautionaryDays = &n
			}
			bans[b.CaseID] = append(bans[b.CaseID], bv)
		}
	}
	out := make([]View, 0, len(cs))
	for _, c := range cs {
		v := View{
			ID: c.ID, Number: cases.FormatNumber(c.Number), Status: c.Status, Court: c.CourtCode, Ref: c.Ref,
			FiledBy: FiledByView{Kind: c.FiledByKind, Name: c.FiledByName, Role: c.FilerRole}, FiledAt: c.FiledAt,
			Facts: FactsView{OccurredAt: c.OccurredAt, Date: c.FactsDate, Latitude: c.Latitude, Longitude: c.Longitude,
				Conduct: c.Conduct, PoliceReports: c.PoliceReports, Description: c.Description,
				DistanceToVenueM: c.DistanceToVenueM, PlaceRelation: c.PlaceRelation, OnRoute: c.OnRoute},
			Defendants: []cases.DefendantView{}, Bans: append([]cases.BanView{}, bans[c.ID]...), Version: c.Version, Flow: c.Flow,
			Sentenceable: c.Flow == cases.FlowCivil && cases.BeforeDecision(c.Flow, c.Status),
		}
		if c.JudgeID != nil {
			j := judges[*c.JudgeID]
			v.Judge = &cases.JudgeView{ID: *c.JudgeID, Name: j.DisplayName()}
			if j.Title != nil {
				v.Judge.Title = *j.Title
			}
		}
		if c.VenueID != nil {
			venue := venues[*c.VenueID]
			v.Event = &EventView{Competition: c.Competition, Home: c.HomeTeam, Away: c.AwayTeam, Venue: venue.Name, VenueID: venue.ID, Kickoff: c.Kickoff}
		}
		for _, d := range defs[c.ID] {
			v.Defendants = append(v.Defendants, cases.DefendantView{ID: d.ID, Kind: d.Kind, FullName: d.FullName, CPF: d.CPF, BirthDate: d.BirthDate,
				MotherName: d.MotherName, FatherName: d.FatherName, Name: d.GroupName, CNPJ: d.CNPJ, SupportedClub: d.SupportedClub, GroupID: d.GroupID,
				AwaitingIdentification: d.Kind == "person" && d.CPF == nil,
				Status:                 cases.TrackOf(&c, d), FinalOn: d.FinalOn, SeparatedOn: d.SeparatedOn})
			if c.Flow == cases.FlowCriminal {
				st := cases.TrackOf(&c, d)
				v.Sentenceable = v.Sentenceable || (cases.BeforeDecision(c.Flow, st) && !cases.Ended(st))
			}
		}
		if c.PlaceRelation != nil && *c.PlaceRelation == string(sanctions.Beyond5000m) {
			v.Warnings = append(v.Warnings, fmt.Sprintf("Fatos a %d m do local do evento, fora do raio de %d m e não declarados no trajeto: a conduta fica fora do art. 201, § 1º, I, da Lei 14.597/2023.", *c.DistanceToVenueM, sanctions.SurroundingsMeters))
		}
		out = append(out, v)
	}
	return out, nil
}

func (s *Service) view(ctx context.Context, c cases.Case, full bool) (*View, error) {
	tx := db.Conn(ctx, s.DB)
	vs, err := s.views(tx, []cases.Case{c})
	if err != nil {
		return nil, err
	}
	v := &vs[0]
	if !full {
		return v, nil
	}
	var ms []cases.Movement
	if err := tx.Where("case_id = ?", c.ID).Order("at, id").Find(&ms).Error; err != nil {
		return nil, err
	}
	authorIDs := []int64{}
	for _, m := range ms {
		if m.AuthorUserID != nil {
			authorIDs = append(authorIDs, *m.AuthorUserID)
		}
	}
	authors, err := accounts.UserNames(ctx, s.DB, authorIDs)
	if err != nil {
		return nil, err
	}
	if v.Movements, err = s.MovementViews(ctx, ms, authors); err != nil {
		return nil, err
	}
	if v.Classification, err = s.ClassificationOf(ctx, c); err != nil {
		return nil, err
	}
	v.Next = cases.Next(c.Flow, c.Status)
	var open []cases.Defendant // tracks whose judgment awaits finality
	for i, d := range v.Defendants {
		if c.Flow == cases.FlowCriminal {
			v.Defendants[i].Next = cases.Next(c.Flow, d.Status)
			if len(v.Defendants) > 1 && d.SeparatedOn == nil && cases.BeforeDecision(c.Flow, d.Status) {
				v.Defendants[i].Next = append(v.Defendants[i].Next, cases.Transition{From: d.Status, To: cases.Separated, Roles: []string{"judge"}})
			}
		}
		if d.Status == cases.StatusSentenced || d.Status == cases.StatusJudgment || d.Status == cases.StatusAppeal {
			open = append(open, cases.Defendant{ID: d.ID, Kind: d.Kind, FullName: d.FullName, GroupName: d.Name, Status: d.Status})
		}
	}
	ws, err := s.Cases.BirthDateWarnings(ctx, c.ID, 0, c.CourtCode)
	if err != nil {
		return nil, err
	}
	v.Warnings = append(v.Warnings, ws...)
	if cases.BeforeDecision(c.Flow, c.Status) {
		for _, d := range v.Defendants {
			if d.Kind == "fan_group" && d.GroupID != nil {
				// The register as evidence (issue 32, item 6).
				rs, err := registry.RegisterChanges(ctx, s.DB, d.ID, *d.GroupID, c.FactsDate, s.Loc)
				if err != nil {
					return nil, err
				}
				v.Warnings = append(v.Warnings, rs...)
			}
		}
		ps, err := s.Decisions.PrescriptionWarnings(ctx, c, 0)
		if err != nil {
			return nil, err
		}
		v.Warnings = append(v.Warnings, ps...)
	}
	if v.Deadlines, err = s.Calendar.Deadlines(ctx, &c); err != nil {
		return nil, err
	}
	var hs []cases.Hearing
	if err := tx.Where("case_id = ?", c.ID).Order("starts_at, id").Find(&hs).Error; err != nil {
		return nil, err
	}
	if v.Hearings, err = s.Cases.HearingViews(ctx, hs); err != nil {
		return nil, err
	}
	if err := tx.Where("case_id = ?", c.ID).Order("id").Find(&v.Pleas).Error; err != nil {
		return nil, err
	}
	if err := tx.Where("case_id = ?", c.ID).Order("id").Find(&v.Suspensions).Error; err != nil {
		return nil, err
	}
	if err := tx.Where("case_id = ? AND status <> 'draft'", c.ID).Order("id").Find(&v.Sentences).Error; err != nil {
		return nil, err
	}
	var results []decisions.AppealResult
	if err := tx.Where("case_id = ?", c.ID).Order("id").Find(&results).Error; err != nil {
		return nil, err
	}
	v.AppealResults = results
	if v.Embargos, err = s.Calendar.EmbargosOf(ctx, c.ID); err != nil {
		return nil, err
	}
	v.Rite = caseRite(c, v.Sentences)
	if len(open) > 0 {
		missing, _, err := s.Calendar.FinalityMissing(ctx, &c, open...)
		if err != nil {
			return nil, err
		}
		v.FinalityMissing = missing
	}
	if c.LinkedCaseID != nil {
		var l cases.Case
		if err := tx.Select("id", "number", "flow").Where("id = ?", *c.LinkedCaseID).Take(&l).Error; err != nil {
			return nil, err
		}
		v.LinkedCase = &CaseRef{ID: l.ID, Number: cases.FormatNumber(l.Number), Flow: l.Flow}
	}
	return v, nil
}
