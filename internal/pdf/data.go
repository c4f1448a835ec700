package pdf

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/calendar"
	"github.com/juizado/juizado/cases/casefile"
	"github.com/juizado/juizado/cases/schedule"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/textcheck"
	"github.com/juizado/juizado/registry"
	"github.com/juizado/juizado/registry/blocklist"
	"github.com/juizado/juizado/sanctions"
)

// The data the wording templates read. Every free-text value (names,
// places, descriptions) is already escaped for the markup (Esc); dates are
// written out ("15 de junho de 2023"), CNJ numbers and CPFs formatted.

// CourtData names the court that issues a document.
type CourtData struct {
	Code     string // TR.OOOO
	Name     string
	Tribunal string // "Tribunal de Justiça do Estado de São Paulo"
}

// CaseData is a case for the case documents (summary, sentence, notice,
// letter).
type CaseData struct {
	Court       CourtData
	Number      string // NNNNNNN-DD.AAAA.J.TR.OOOO
	Status      string // in Portuguese
	FiledAt     string // long date
	FiledBy     string
	FiledByKind string // in Portuguese
	FiledByRole string
	Ref         string
	Judge       string
	JudgeTitle  string // the judge's office as signed; "" for "Juiz(a) de Direito"
	Event       *EventData
	Facts       FactsData
	Defendants  []DefendantData
	Movements   []MovementData
	Bans        []BanData
	// Ban and Defendant are the ban a sentence, notice or letter is about
	// and its defendant.
	Ban       *BanData
	Defendant *DefendantData
	// Deadlines are the parties' appeal windows recorded on the case.
	Deadlines []DeadlineData
	// Clubs are the clubs a letter goes to: those of the event and the
	// club of the reporting duty, each once.
	Clubs []string
	Today string // long date of issue
	// Civil is set for a group ban and a member's ban: a civil decision
	// (the group is the requerida; no pena, no réu). Group is the group
	// defendant; GroupBan, for a member's ban, the group ban it extends.
	Civil    bool
	Group    *DefendantData
	GroupBan *BanData
	// GroupLabel names the group in running text: "torcida organizada
	// NAME", or NAME alone when it already begins with "Torcida".
	GroupLabel string
	// Reached are the members a group ban was extended to, each with a ban
	// of their own, by name; Excluded those the judge excluded, for
	// ExclusionReason ("" when none was recorded). ReachInvolved: the rule
	// reaches only the members the judge names (art. 39-C; LGE art. 184),
	// not every member at the date of the facts (art. 39-A; LGE art. 183, §
	// 2º).
	Reached         []MemberBanData
	Excluded        []MemberBanData
	ExclusionReason string
	ReachInvolved   bool
	// Title heads a decision: "SENTENÇA", or "DECISÃO" for a precautionary
	// order alone (CPP art. 319, II), which decides no merits.
	Title string
	// Sentence is the defendant's decision as the judge signed it (table
	// sentences); nil for a ban no recorded sentence decided (a plea
	// agreement, a precautionary order alone, a member's ban). Prec is the
	// precautionary ban the sentence ordered until it is final.
	Sentence *SentenceData
	Prec     *BanData
	// Finals are the defendants whose judgment is final, with the day, for
	// the certidão de trânsito em julgado (KindFinal).
	Finals []FinalData
	// Draft: a preview of the judge's minuta, "MINUTA — sem valor de
	// documento": nothing decided, no verification code.
	Draft bool
}

// MemberBanData is a member of a group's register named by a group ban's
// sentence: reached (with their own ban) or excluded by the judge.
type MemberBanData struct {
	BanID    int64 // the member's own ban; 0 for an excluded member
	MemberID int64
	Name     string
	CPF      string // formatted
	Status   string // of the member's ban, in sanctions.StatePT's words ("em cumprimento", "a iniciar", ...)
}

// EventData is the sporting event of the facts.
type EventData struct {
	Competition, Home, Away, Venue string
	Kickoff                        string // "15 de junho de 2023, às 16h00" or ""
}

// FactsData is what happened.
type FactsData struct {
	Date          string // long date
	DateShort     string // dd/mm/aaaa
	At            string // "15 de junho de 2023, às 16h00"
	Conduct       []string
	PoliceReports []string
	Description   string
}

// DefendantData is a party.
type DefendantData struct {
	ID         int64
	Person     bool
	Name       string
	CPF        string // formatted, or ""
	BirthDate  string // long date, or ""
	MotherName string
	FatherName string
	CNPJ       string
	Club       string // a group's supported club
}

// FinalData is a defendant whose judgment became final on a day (long
// date; CPC art. 502 and CPP art. 593 a contrario: no appeal pending).
type FinalData struct {
	Name    string
	CPF     string // formatted, or ""
	FinalOn string // long date
}

// MovementData is a docket entry.
type MovementData struct {
	At   string // dd/mm/aaaa hh:mm
	TPU  string
	Text string
}

// ReportingData is the duty to stay at a place around matches (art. 201, §
// 4º).
type ReportingData struct {
	Place, Club, Competition string
	Windows                  []WindowData // empty when no schedule is known
}

// WindowData is one period of the reporting duty.
type WindowData struct {
	Match string // "Clube A x Clube B (Competição)"
	Start string // dd/mm/aaaa hh:mm
	End   string
}

// BanData is a stadium ban.
type BanData struct {
	ID              int64
	Person          bool
	Name            string
	CPF             string
	BirthDate       string
	Source          string // in Portuguese
	Law, Article    string
	Rule            string // "art. 201, § 2º, da Lei 14.597/2023"
	RangeMin        string // "3 (três) meses"
	RangeMax        string
	Months          string // "6 (seis) meses"; "" for a precautionary ban
	Precautionary   bool
	FirstDay        string // long date
	LastDay         string // long date; "" for a precautionary ban
	FirstDayShort   string
	LastDayShort    string
	Overridden      bool
	ComputedLastDay string
	OverrideReason  string
	PrisonMonths    string
	Sec7            bool
	Organiser       bool
	FactsDate       string
	CaseNumber      string
	Court           string
	Status          string // sanctions.StatePT: "aguardando trânsito em julgado", "em cumprimento", "a iniciar", "cumprido", "revogado", ...
	// State is sanctions.Ban.State; AwaitingFinal: the ban waits for the
	// final judgment (no first or last day yet: Súmula 643 STJ).
	State         string
	AwaitingFinal bool
	// Cumulative: the fixed ban of Lei 7.716/1989, art. 20, § 2º-A.
	Cumulative bool
	// ReviewOn: a precautionary ban's review date (dd/mm/aaaa), and
	// ReviewOnLong the same written out.
	ReviewOn, ReviewOnLong string
	// Scope says where a ban that names places applies (sanctions.ScopePT:
	// "Arena Corinthians e Allianz Parque; jogos em casa de Sport"), ""
	// for a ban that applies anywhere; Matches a term counted in matches
	// in words (sanctions.MatchTermPT), "" otherwise.
	Scope, Matches string
	// Where is where the ban applies, for a table cell: Scope, or, for a
	// ban with no scope, the statute's places ("às proximidades dos
	// estádios e a qualquer local em que se realize evento esportivo").
	Where string
	// MatchDays are the days of a ban counted in matches (dd/mm/aaaa,
	// "08/12/2026, 15/12/2026 e 22/12/2026"), the only days it applies
	// (sanctions.MatchTerm); "" for a ban with a continuous term.
	MatchDays string
	// StartNotBefore: the later first day the judge fixed for a ban that
	// waits for the final judgment (long date), "" when none.
	StartNotBefore string
	// CreditDays: the days under precautionary bans the judge credited (CP
	// art. 42), with the reason; "" when none.
	CreditDays, CreditReason string
	Publish                  bool
	Reporting                *ReportingData
	// DutyRule and BreachRule cite the reporting duty (§ 4º) and the
	// conversion on breach (§ 3º) of the law applied; "" when that law has
	// none (art. 39 of 2003, group bans).
	DutyRule, BreachRule string
	// GroupBanID and MemberID: a member's ban, extending group ban
	// GroupBanID to member MemberID of the group's register; 0 otherwise.
	GroupBanID, MemberID int64
}

var statusPT = cases.StatusPT

var filerPT = cases.FilerKindPT

var conductPT = sanctions.ConductStatutePT

var sourcePT = sanctions.SourcePT

func or(m map[string]string, k string) string {
	if v, ok := m[k]; ok {
		return v
	}
	return k
}

func dateOf(d *civil.Date) string {
	if d == nil {
		return ""
	}
	return LongDate(*d)
}

// NewCaseData prepares a case view for the wording. loc is the court's zone,
// now the instant of issue.
func NewCaseData(v *casefile.View, court CourtData, loc *time.Location, now time.Time) *CaseData {
	c := &CaseData{
		Court: court, Number: FormatCNJ(v.Number), Status: or(statusPT, v.Status),
		FiledAt: LongDate(civil.Of(v.FiledAt.In(loc))), FiledBy: Esc(v.FiledBy.Name), FiledByKind: or(filerPT, v.FiledBy.Kind),
		FiledByRole: or(filerPT, v.FiledBy.Role), Ref: Esc(v.Ref),
		Today: LongDate(civil.Today(now, loc)),
		Facts: FactsData{Date: LongDate(v.Facts.Date), DateShort: v.Facts.Date.BR(), At: LongDateTime(v.Facts.OccurredAt, loc),
			Description: Esc(v.Facts.Description)},
	}
	if v.Judge != nil {
		c.Judge, c.JudgeTitle = Esc(v.Judge.Name), Esc(v.Judge.Title)
	}
	if e := v.Event; e != nil {
		c.Event = &EventData{Competition: Esc(e.Competition), Home: Esc(e.Home), Away: Esc(e.Away), Venue: Esc(e.Venue)}
		c.addClub(c.Event.Home)
		c.addClub(c.Event.Away)
		if e.Kickoff != nil {
			c.Event.Kickoff = LongDateTime(*e.Kickoff, loc)
		}
	}
	for _, w := range v.Facts.Conduct {
		c.Facts.Conduct = append(c.Facts.Conduct, Esc(or(conductPT, w)))
	}
	for _, r := range v.Facts.PoliceReports {
		c.Facts.PoliceReports = append(c.Facts.PoliceReports, Esc(r))
	}
	for _, d := range v.Defendants {
		dd := DefendantData{ID: d.ID, Person: d.Kind == "person", Name: Esc(d.FullName), MotherName: Esc(d.MotherName),
			FatherName: Esc(d.FatherName), Club: Esc(d.SupportedClub)}
		if !dd.Person {
			dd.Name = Esc(d.Name)
		}
		if d.CPF != nil {
			dd.CPF = FormatCPF(*d.CPF)
		}
		if d.CNPJ != nil {
			dd.CNPJ = formatCNPJ(*d.CNPJ)
		}
		dd.BirthDate = dateOf(d.BirthDate)
		c.Defendants = append(c.Defendants, dd)
	}
	for _, m := range v.Movements {
		md := MovementData{At: ShortDateTime(m.At, loc), Text: Esc(m.Description)}
		if m.TPUCode != nil {
			md.TPU = fmt.Sprint(*m.TPUCode)
		}
		c.Movements = append(c.Movements, md)
	}
	today := civil.Today(now, loc)
	for _, b := range v.Bans {
		c.Bans = append(c.Bans, NewBanData(b.Ban, today))
	}
	for _, d := range v.Deadlines {
		dd := DeadlineData{Party: or(partyPT, d.Party), NotifiedOn: d.NotifiedOn.BR(), CountedFrom: d.CountedFrom.BR(), FirstDay: d.FirstDay.BR(),
			LastDay: d.LastDay.BR(), Days: d.Days, WorkingDays: d.WorkingDays, Waived: d.WaivedAppeal, Rule: Esc(d.Rule)}
		if d.DefendantID != nil {
			dd.DefendantID = *d.DefendantID
		}
		c.Deadlines = append(c.Deadlines, dd)
	}
	return c
}

// DeadlineData is a party's appeal window as the notice prints it (DOMAIN.md
// §4: sanctions.CountPeriod): the day of the notice and the day it counts as
// made, the first and last day, the days (running or working, doubled
// where the law doubles them), the rule (recess and doublings named),
// or the express waiver. DefendantID is 0 for the prosecution.
type DeadlineData struct {
	DefendantID                                      int64
	Party                                            string
	NotifiedOn, CountedFrom, FirstDay, LastDay, Rule string
	Days                                             int
	WorkingDays, Waived                              bool
}

var partyPT = calendar.PartyPT

// WithBan picks the ban id of the case (and its defendant) for a sentence,
// notice or letter; false when the case has no such ban. For a group ban
// it also gathers the members the ban was extended to (the member bans
// linked to it); for a member's ban, the group ban it extends: both are
// civil decisions (Civil), the group defendant in Group (a member's ban has
// no Defendant of its own: it shares the group's).
func (c *CaseData) WithBan(id int64, defendantID int64) bool {
	for i := range c.Bans {
		if c.Bans[i].ID != id {
			continue
		}
		c.Ban = &c.Bans[i]
		if r := c.Ban.Reporting; r != nil && r.Club != "" {
			c.addClub(r.Club)
		}
		for j := range c.Defendants {
			if c.Defendants[j].ID == defendantID {
				c.Defendant = &c.Defendants[j]
			}
		}
		switch {
		case c.Ban.GroupBanID != 0:
			c.Civil, c.Group, c.Defendant = true, c.Defendant, nil
			for k := range c.Bans {
				if c.Bans[k].ID == c.Ban.GroupBanID {
					c.GroupBan = &c.Bans[k]
				}
			}
			c.ReachInvolved = reachInvolved(c.Ban.Article)
		case !c.Ban.Person:
			c.Civil, c.Group = true, c.Defendant
			c.ReachInvolved = reachInvolved(c.Ban.Article)
			for _, b := range c.Bans {
				if b.GroupBanID == id {
					c.Reached = append(c.Reached, MemberBanData{BanID: b.ID, MemberID: b.MemberID, Name: b.Name, CPF: b.CPF, Status: b.Status})
				}
			}
			SortMembers(c.Reached)
		}
		if c.Civil {
			name := c.Ban.Name
			if c.GroupBan != nil {
				name = c.GroupBan.Name
			}
			c.GroupLabel = name
			if !strings.HasPrefix(textcheck.Fold(name), "torcida") {
				c.GroupLabel = "torcida organizada " + name
			}
		}
		return true
	}
	return false
}

// reachInvolved: the group rule reaches only the members the judge names
// (Lei 10.671/2003, art. 39-C; Lei 14.597/2023, art. 184).
func reachInvolved(article string) bool {
	return strings.HasPrefix(article, "art. 39-C") || strings.HasPrefix(article, "art. 184")
}

// SortMembers orders members by name (case and accents ignored), then id.
func SortMembers(ms []MemberBanData) {
	sort.SliceStable(ms, func(i, j int) bool {
		a, b := textcheck.Fold(ms[i].Name), textcheck.Fold(ms[j].Name)
		if a != b {
			return a < b
		}
		return ms[i].MemberID < ms[j].MemberID
	})
}

// exclusionNote matches the docket entry of a group sentence that records
// the members the judge excluded (decisions.Service.Sentence): "… Excluídos
// pelo(a) juiz(a): associados 3, 4, por este motivo: REASON."
var exclusionNote = regexp.MustCompile(`(?s)Excluídos pelo\(a\) juiz\(a\): associados ([0-9]+(?:, [0-9]+)*)(?:, por este motivo: (.*?))?\.?$`)

// Exclusions reads, from the docket entries of a case, the members that
// the sentence of a group ban under article and law (as stored on the ban)
// excluded, and the reason recorded with them ("" when none): the sentence
// records them in the docket only (decisions.Service.Sentence).
func Exclusions(movements []cases.MovementView, article, law string) (ids []int64, reason string) {
	tag := "(" + article + ", " + law + ")"
	for _, m := range movements {
		d := m.Description
		if !strings.HasPrefix(d, "Impedimento estendido a ") || !strings.Contains(d, tag) {
			continue
		}
		i := strings.LastIndex(d, "Excluídos pelo(a) juiz(a):")
		if i < 0 {
			continue
		}
		p := exclusionNote.FindStringSubmatch(d[i:])
		if p == nil {
			continue
		}
		ids = ids[:0]
		for _, f := range strings.Split(p[1], ", ") {
			if id, err := strconv.ParseInt(f, 10, 64); err == nil {
				ids = append(ids, id)
			}
		}
		reason = strings.TrimRight(strings.TrimSpace(p[2]), ".")
	}
	return ids, reason
}

// NewBanData prepares a ban for the wording; today (the court's date) says
// whether it is in force.
func NewBanData(b sanctions.Ban, today civil.Date) BanData {
	d := BanData{
		ID: b.ID, Person: b.Subject == sanctions.Person, Name: Esc(b.Name), Source: string(b.Source),
		Law: Esc(b.Law), Article: Esc(b.Article), RangeMin: Months(b.RangeMinMonths), RangeMax: Months(b.RangeMaxMonths),
		Precautionary: b.Precautionary, FirstDay: dateOf(b.FirstDay),
		LastDay: dateOf(b.LastDay), OverrideReason: Esc(b.OverrideReason), Sec7: b.Sec7Applied, Organiser: b.Organiser,
		FactsDate: LongDate(b.FactsDate), CaseNumber: FormatCNJ(b.CaseNumber), Court: b.CourtCode, Publish: b.Publish,
	}
	d.Rule = Esc(sanctions.Cite(b.Article, b.Law))
	switch {
	case strings.HasPrefix(b.Article, "art. 201"):
		d.DutyRule, d.BreachRule = "Lei 14.597/2023, art. 201, § 4º", "Lei 14.597/2023, art. 201, § 3º"
	case strings.HasPrefix(b.Article, "art. 41-B"):
		d.DutyRule, d.BreachRule = "Lei 10.671/2003, art. 41-B, § 4º", "Lei 10.671/2003, art. 41-B, § 3º"
	}
	if s, ok := sourcePT[b.Source]; ok {
		d.Source = s
	}
	if b.RangeMinMonths == 0 {
		d.RangeMin = ""
	}
	if b.CPF != nil {
		d.CPF = FormatCPF(*b.CPF)
	}
	d.BirthDate = dateOf(b.BirthDate)
	if b.Months != nil {
		d.Months = Months(*b.Months)
	}
	if b.LastDay != nil {
		d.LastDayShort = b.LastDay.BR()
	}
	if b.ComputedLastDay != nil && b.LastDay != nil && *b.ComputedLastDay != *b.LastDay {
		d.Overridden, d.ComputedLastDay = true, LongDate(*b.ComputedLastDay)
	}
	if b.PrisonMonths != nil {
		d.PrisonMonths = Months(*b.PrisonMonths)
	}
	if b.FirstDay != nil {
		d.FirstDayShort = b.FirstDay.BR()
	}
	d.State = b.State(today)
	d.Status = sanctions.StatePT[d.State]
	d.AwaitingFinal = d.State == sanctions.StateAwaitingFinal
	d.Cumulative = b.Cumulative
	if b.ReviewOn != nil {
		d.ReviewOn, d.ReviewOnLong = b.ReviewOn.BR(), LongDate(*b.ReviewOn)
	}
	if b.Scope != nil {
		d.Scope = Esc(sanctions.ScopePT(b.Scope))
	}
	d.Where = Esc(sanctions.ScopePT(b.Scope))
	if b.Scope == nil { // a ban with no scope: the statute's places (Lei 14.597/2023, art. 201)
		d.Where = "às proximidades dos estádios e a " + sanctions.AnywherePT
	}
	d.Matches = Esc(sanctions.MatchTermPT(b.MatchTerm, b.MatchDays))
	if b.MatchTerm != nil && len(b.MatchDays) > 0 {
		days := make([]string, len(b.MatchDays))
		for i, day := range b.MatchDays {
			days[i] = day.BR()
		}
		d.MatchDays = listPT(days)
	}
	if b.StartNotBefore != nil {
		d.StartNotBefore = LongDate(*b.StartNotBefore)
	}
	if b.CreditDays != nil && *b.CreditDays > 0 {
		d.CreditDays, d.CreditReason = Count(*b.CreditDays, "dia", "dias"), Esc(b.CreditReason)
	}
	if b.GroupBanID != nil {
		d.GroupBanID = *b.GroupBanID
	}
	if b.MemberID != nil {
		d.MemberID = *b.MemberID
	}
	if b.Precautionary && (b.Subject == sanctions.Group || b.GroupBanID != nil) {
		d.Source = "tutela de urgência (Código de Processo Civil, art. 300)"
	}
	if b.ReportingPlace != "" {
		d.Reporting = &ReportingData{Place: Esc(b.ReportingPlace), Club: Esc(b.ReportingClub), Competition: Esc(b.ReportingCompetition)}
	}
	return d
}

// SetWindows adds the reporting windows of the ban (from the court's match
// schedule: schedule.Service.ReportingWindows) to its reporting duty.
func (d *BanData) SetWindows(ws []schedule.WindowView, loc *time.Location) {
	if d.Reporting == nil {
		return
	}
	for _, w := range ws {
		m := w.Home + " x " + w.Away
		if w.Competition != "" {
			m += " (" + w.Competition + ")"
		}
		d.Reporting.Windows = append(d.Reporting.Windows, WindowData{Match: Esc(m), Start: ShortDateTime(w.Start, loc), End: ShortDateTime(w.End, loc)})
	}
}

func formatCNPJ(s string) string {
	if len(s) != 14 || strings.Trim(s, "0123456789") != "" {
		return s
	}
	return s[0:2] + "." + s[2:5] + "." + s[5:8] + "/" + s[8:12] + "-" + s[12:14]
}

// CertificateData is a certificate of a person's ban status (certidão).
type CertificateData struct {
	Court CourtData
	CPF   string // formatted
	Name  string // from the court's records; "" when none
	// Bans are those in force or yet to start; Awaiting those decided that
	// wait for the final judgment, not in force (Súmula 643 STJ).
	Bans     []BanData
	Awaiting []BanData
	Today    string
	Time     string // "15 de junho de 2023, às 14h05"
}

// Scoped reports whether any ban of the certificate names its places
// (BanData.Scope) or is counted in matches (BanData.MatchDays): the
// certificate then says, per ban, where and on which days it applies
// ("Onde vale"), as the decision does (CPP art. 319, II), instead of
// "qualquer local em que se realize evento esportivo" for all.
func (c *CertificateData) Scoped() bool {
	for _, b := range c.Bans {
		if b.Scope != "" || b.MatchDays != "" {
			return true
		}
	}
	return false
}

// PosterData is the public list poster.
type PosterData struct {
	Court   CourtData
	Entries []PosterEntry
	Today   string
}

// PosterEntry is a name on the public list.
type PosterEntry struct {
	Name, FirstDay, LastDay, CaseNumber, Court string
}

// NewPosterData prepares the public list (blocklist.Lists.Public) for the
// poster.
func NewPosterData(court CourtData, items []blocklist.PublicEntry, today civil.Date) *PosterData {
	p := &PosterData{Court: court, Today: LongDate(today)}
	for _, e := range items {
		pe := PosterEntry{Name: Esc(e.Name), FirstDay: e.FirstDay.BR(), CaseNumber: Esc(e.CaseNumber), Court: Esc(e.Court)}
		if e.LastDay != nil {
			pe.LastDay = e.LastDay.BR()
		}
		p.Entries = append(p.Entries, pe)
	}
	return p
}

// addClub adds a club to Clubs unless it is there (case and accents
// ignored).
func (c *CaseData) addClub(name string) {
	if strings.TrimSpace(name) == "" {
		return
	}
	for _, have := range c.Clubs {
		if textcheck.Fold(have) == textcheck.Fold(name) {
			return
		}
	}
	c.Clubs = append(c.Clubs, name)
}

// RegisterData is the extract of a group's register of members
// ("extrato do cadastro de associados", LGE art. 178 § 4º): the group and,
// per member, the name, CPF, birth date, membership and whether the record
// is complete. Never the photo, nor the other personal fields (filiação,
// RG, address...), which stay in the register.
type RegisterData struct {
	Court   CourtData
	Group   RegisterGroup
	Members []RegisterRow
	Active  int // members today
	Former  int // members who left
	// Returning counts the members with earlier memberships (Earlier).
	Returning int
	Today     string
	Time      string // "15 de junho de 2023, às 14h05"
}

// RegisterGroup is the group an extract is about.
type RegisterGroup struct {
	ID        int64
	Name      string
	CNPJ      string // formatted; "" for a de facto group
	Club      string
	Status    string // in Portuguese
	Managers  []string
	UpdatedAt string // long date of the register's last change; "" never
	Stale     bool   // not updated for 12 months (registry.StaleAfterMonths)
}

// RegisterRow is one member of an extract.
type RegisterRow struct {
	Name       string
	CPF        string // formatted
	BirthDate  string // dd/mm/aaaa
	JoinedOn   string // dd/mm/aaaa, the latest membership
	LeftOn     string // dd/mm/aaaa, or "" while a member
	Status     string // "ativo" or "desligado"
	Incomplete bool
	Missing    []string // in Portuguese ("foto")
	Earlier    []string // earlier memberships: "dd/mm/aaaa a dd/mm/aaaa"
}

var groupStatusPT = map[string]string{"active": "ativa", "inactive": "inativa", "dissolved": "dissolvida", "suspended": "suspensa"}

var missingPT = map[string]string{"photo": "foto"}

// NewRegisterData prepares a group's register (registry.Groups.Extract) for
// the extract; now is the instant of issue in the court's zone loc.
func NewRegisterData(court CourtData, g *registry.GroupView, ms []registry.MemberView, loc *time.Location, now time.Time) *RegisterData {
	d := &RegisterData{Court: court, Today: LongDate(civil.Today(now, loc)), Time: LongDateTime(now, loc),
		Group: RegisterGroup{ID: g.ID, Name: Esc(g.Name), Club: Esc(g.SupportedClub), Status: or(groupStatusPT, g.Status), Stale: g.RegisterStale}}
	if g.CNPJ != nil {
		d.Group.CNPJ = formatCNPJ(*g.CNPJ)
	}
	if g.RegisterUpdatedAt != nil {
		d.Group.UpdatedAt = LongDate(civil.Of(g.RegisterUpdatedAt.In(loc)))
	}
	for _, m := range g.Managers {
		d.Group.Managers = append(d.Group.Managers, Esc(m.Name))
	}
	for _, m := range ms {
		r := RegisterRow{Name: Esc(m.FullName), CPF: FormatCPF(m.CPF), BirthDate: m.BirthDate.BR(), Status: "ativo", Incomplete: m.Incomplete}
		if !m.JoinedOn.IsZero() {
			r.JoinedOn = m.JoinedOn.BR()
		}
		if m.LeftOn != nil {
			r.LeftOn, r.Status = m.LeftOn.BR(), "desligado"
			d.Former++
		} else {
			d.Active++
		}
		for _, k := range m.Missing {
			r.Missing = append(r.Missing, Esc(or(missingPT, k)))
		}
		for i, p := range m.Periods {
			if i == len(m.Periods)-1 {
				break
			}
			e := p.JoinedOn.BR() + " a "
			if p.LeftOn != nil {
				e += p.LeftOn.BR()
			}
			r.Earlier = append(r.Earlier, e)
		}
		if len(r.Earlier) > 0 {
			d.Returning++
		}
		d.Members = append(d.Members, r)
	}
	return d
}
