package cases

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/sanctions"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// banRow is a stored ban with the columns of migration 00002 (lifting).
type banRow struct {
	sanctions.Ban
	LiftedOn   *civil.Date
	LiftReason string
}

func (banRow) TableName() string { return "bans" }

// term returns the ban's term: first day to last day; a lifted ban ends the
// day before the lifting decision.
func (b banRow) term() sanctions.Term {
	t := sanctions.Term{First: b.FirstDay, Last: b.LastDay}
	if b.Status == "lifted" && b.LiftedOn != nil {
		end := b.LiftedOn.AddDays(-1)
		if t.Last == nil || end.Before(*t.Last) {
			t.Last = &end
		}
	}
	return t
}

func banNotFound(id int64) error {
	return errs.New(errs.NotFound, fmt.Sprintf("Impedimento %d não encontrado.", id))
}

// loadBan returns ban id of the actor's court with its case, locked for
// update when lock is set; errs.NotFound otherwise.
func (s *Service) loadBan(ctx context.Context, actor Actor, id int64, lock bool) (*banRow, *Case, error) {
	tx := db.Conn(ctx, s.DB)
	if lock {
		tx = tx.Clauses(clause.Locking{Strength: "UPDATE"})
	}
	var b banRow
	err := tx.Where("id = ?", id).Take(&b).Error
	if errors.Is(err, gorm.ErrRecordNotFound) || (err == nil && b.CourtCode != actor.Court) {
		return nil, nil, banNotFound(id)
	}
	if err != nil {
		return nil, nil, err
	}
	var c Case
	if err := db.Conn(ctx, s.DB).Where("id = ?", b.CaseID).Take(&c).Error; err != nil {
		return nil, nil, err
	}
	return &b, &c, nil
}

func judgeOfCase(actor Actor, c *Case, what string) error {
	if c.JudgeID == nil || *c.JudgeID != actor.UserID {
		return errs.New(errs.Forbidden, "Somente o(a) juiz(a) a quem o processo foi distribuído pode "+what+".")
	}
	return nil
}

// refreshBlocklist makes the blocklist version of a write that changed the
// bans banIDs, in the write's transaction (registry.Lists.RefreshBans).
func (s *Service) refreshBlocklist(ctx context.Context, banIDs ...int64) error {
	if s.Blocklist == nil {
		return nil
	}
	return s.Blocklist.RefreshBans(ctx, banIDs...)
}

// ---- Breach (Lei 14.597/2023, art. 201, § 3º) ----

// Breach sources.
var BreachSources = []string{"police_report", "gate_hit"}

// BreachInput is the body of POST /api/v1/bans/{id}/breaches: the day of
// the breach, where it is known from (a police report or a gate hit), the
// report's or the gate record's reference, and a description.
type BreachInput struct {
	OccurredOn  string `json:"occurred_on"`
	Source      string `json:"source"`
	Reference   string `json:"reference"`
	Description string `json:"description"`
}

// Breach is a recorded unjustified breach of a ban with the conversion
// figures computed when it was recorded.
type Breach struct {
	ID           int64      `json:"id"`
	BanID        int64      `json:"ban_id"`
	CaseID       int64      `json:"case_id"`
	OccurredOn   civil.Date `json:"occurred_on"`
	Source       string     `json:"source"`
	Reference    string     `json:"reference"`
	Description  string     `json:"description"`
	DaysServed   int        `json:"days_served"`
	PrisonMonths *int       `json:"prison_months"`
	QuantumDays  *int       `json:"quantum_days"`
	BalanceDays  *int       `json:"balance_days"`
	RecordedAt   time.Time  `json:"recorded_at"`
	RecordedBy   *int64     `json:"-"`
	RecorderRole string     `json:"recorder_role"`
}

// BreachResult is what RecordBreach answers: the breach and the conversion
// step it opens (nil when the ban is not convertible to prison: a
// precautionary or a group ban), with notes in Portuguese.
type BreachResult struct {
	Breach     Breach                `json:"breach"`
	Conversion *sanctions.Conversion `json:"conversion"`
	Warnings   []string              `json:"warnings"`
}

// RecordBreach records an unjustified breach of ban banID of the actor's
// court (a prosecutor or the police) and opens the conversion step in the
// case (Lei 14.597/2023, art. 201, § 3º; Lei 10.671/2003, art. 41-B, § 3º):
// the days served from the first day to the day before the breach and the
// balance of the custodial quantum (sanctions.BreachConversion; at least 30
// days). It writes the breach and a docket movement in one transaction.
//
// Errors: errs.NotFound (no such ban in the court); errs.Invalid naming
// occurred_on (form, future, outside the term), source, reference or
// description; errs.Conflict for the same breach recorded twice.
func (s *Service) RecordBreach(ctx context.Context, actor Actor, banID int64, in BreachInput) (*BreachResult, error) {
	var res *BreachResult
	err := db.WithTx(ctx, s.DB, func(ctx context.Context) error {
		b, c, err := s.loadBan(ctx, actor, banID, true)
		if err != nil {
			return err
		}
		var f errs.Fields
		now := s.now()
		today := civil.Today(now, s.Loc)
		var day civil.Date
		dayOK := false
		if in.OccurredOn == "" {
			f.Add("occurred_on", "required", "informe o dia do descumprimento (AAAA-MM-DD).")
		} else if d, ok := parseDate(&f, "occurred_on", in.OccurredOn); ok {
			if d.After(today) {
				f.Add("occurred_on", "not_future", "o descumprimento não pode estar no futuro.")
			} else {
				day, dayOK = d, true
			}
		}
		if !contains(BreachSources, in.Source) {
			f.Add("source", "oneof", "deve ser police_report (boletim de ocorrência) ou gate_hit (registro de catraca).")
		}
		if strings.TrimSpace(in.Reference) == "" {
			f.Add("reference", "required", "informe o número do boletim de ocorrência ou do registro da catraca.")
		}
		checkText(&f, "reference", in.Reference, maxListItemLen, false)
		checkText(&f, "description", in.Description, maxLong, true)
		var conv *sanctions.Conversion
		var warnings []string
		served := 0
		if dayOK {
			cv, err := sanctions.BreachConversion(b.term(), day, b.PrisonMonths)
			var de *sanctions.BreachDateError
			switch {
			case errors.As(err, &de):
				f.Add("occurred_on", "in_term", de.Reason+" Só se descumpre um impedimento em vigor (art. 201, § 3º, da Lei 14.597/2023).")
			case err != nil:
				return err
			default:
				served = cv.DaysServed
				switch {
				case b.Precautionary:
					warnings = append(warnings, fmt.Sprintf("Impedimento cautelar: não há conversão do art. 201, § 3º; o descumprimento é comunicado ao(à) juiz(a), que pode substituir a medida, impor outra em cumulação ou decretar a prisão preventiva (CPP, art. 282, § 4º). Cumpridos %d dias.", served))
				case b.Subject == sanctions.Group:
					warnings = append(warnings, "Impedimento de torcida (ação civil): não há conversão em pena privativa de liberdade; o descumprimento é comunicado ao(à) juiz(a) para as medidas cabíveis.")
				default:
					conv = &cv
				}
			}
		}
		if err := f.Err(); err != nil {
			return err
		}
		uid := actor.UserID
		br := Breach{BanID: b.ID, CaseID: b.CaseID, OccurredOn: day, Source: in.Source, Reference: strings.TrimSpace(in.Reference),
			Description: strings.TrimSpace(in.Description), DaysServed: served, RecordedAt: now, RecordedBy: &uid, RecorderRole: actor.Role}
		if conv != nil {
			br.PrisonMonths, br.QuantumDays, br.BalanceDays = conv.PrisonMonths, conv.QuantumDays, conv.BalanceDays
		}
		tx := db.Conn(ctx, s.DB)
		if err := tx.Create(&br).Error; err != nil {
			if db.IsUniqueViolation(err, "breaches_once") {
				return errs.New(errs.Conflict, "Este descumprimento (mesmo dia, mesma origem e mesma referência) já foi registrado.")
			}
			return err
		}
		src := "boletim de ocorrência"
		if br.Source == "gate_hit" {
			src = "registro de catraca"
		}
		text := fmt.Sprintf("Descumprimento do impedimento %d comunicado (%s %s) em %s.", b.ID, src, br.Reference, day.BR())
		if conv != nil {
			text += " Aberta a conversão em pena privativa de liberdade (art. 201, § 3º, da Lei 14.597/2023): " + conv.Note
		} else if len(warnings) > 0 {
			text += " " + warnings[0]
		}
		if err := tx.Create(&Movement{CaseID: c.ID, At: now, Description: text, AuthorUserID: &uid, AuthorRole: actor.Role}).Error; err != nil {
			return err
		}
		if warnings == nil {
			warnings = []string{}
		}
		res = &BreachResult{Breach: br, Conversion: conv, Warnings: warnings}
		return nil
	})
	return res, err
}

// ---- Lifting a precautionary ban (CPP art. 319, II; art. 282, § 5º) ----

// LiftInput is the body of POST /api/v1/bans/{id}/lift.
type LiftInput struct {
	LiftedOn string `json:"lifted_on"`
	Reason   string `json:"reason"`
}

// Lift lifts precautionary ban banID (a medida cautelar of CPP art. 319,
// II, in force until lifted; CPP art. 282, § 5º): status becomes "lifted"
// with the date and reason of the decision, a movement is written and the
// blocklist refreshed, in one transaction. Only the judge the case is
// distributed to may lift (errs.Forbidden).
//
// Errors: errs.NotFound; errs.Forbidden; errs.Conflict when the ban is not
// precautionary or is already lifted; errs.Invalid naming lifted_on (form,
// future, before the order) or reason (required).
func (s *Service) Lift(ctx context.Context, actor Actor, banID int64, in LiftInput) (*BanView, error) {
	var out *BanView
	err := db.WithTx(ctx, s.DB, func(ctx context.Context) error {
		b, c, err := s.loadBan(ctx, actor, banID, true)
		if err != nil {
			return err
		}
		if err := judgeOfCase(actor, c, "revogar a medida cautelar"); err != nil {
			return err
		}
		if !b.Precautionary {
			return errs.New(errs.Conflict, "Só o impedimento cautelar (CPP, art. 319, II) é revogado por esta via; o impedimento da sentença tem último dia.")
		}
		if b.Status != "active" {
			return errs.New(errs.Conflict, fmt.Sprintf("O impedimento cautelar %d já foi revogado.", b.ID))
		}
		var f errs.Fields
		now := s.now()
		today := civil.Today(now, s.Loc)
		ordered := civil.Today(b.CreatedAt, s.Loc)
		var on civil.Date
		if in.LiftedOn == "" {
			f.Add("lifted_on", "required", "informe a data da decisão que revoga a medida (AAAA-MM-DD).")
		} else if d, ok := parseDate(&f, "lifted_on", in.LiftedOn); ok {
			switch {
			case d.After(today):
				f.Add("lifted_on", "not_future", "a revogação não pode ter data futura: revogue no dia da decisão.")
			case d.Before(ordered):
				f.Add("lifted_on", "after_order", fmt.Sprintf("a revogação não pode ser anterior à decisão que impôs a medida (%s).", ordered.BR()))
			default:
				on = d
			}
		}
		if strings.TrimSpace(in.Reason) == "" {
			f.Add("reason", "required", "informe o motivo da revogação.")
		}
		checkText(&f, "reason", in.Reason, maxLong, true)
		if err := f.Err(); err != nil {
			return err
		}
		tx := db.Conn(ctx, s.DB)
		reason := strings.TrimSpace(in.Reason)
		if err := tx.Model(&banRow{}).Where("id = ?", b.ID).
			Updates(map[string]any{"status": "lifted", "lifted_on": on, "lift_reason": reason}).Error; err != nil {
			return err
		}
		uid := actor.UserID
		if err := tx.Create(&Movement{CaseID: c.ID, At: now, AuthorUserID: &uid, AuthorRole: actor.Role,
			Description: fmt.Sprintf("Revogada em %s a medida cautelar de proibição de acesso a eventos esportivos (impedimento %d; CPP, art. 282, § 5º): %s", on.BR(), b.ID, reason)}).Error; err != nil {
			return err
		}
		if err := s.refreshBlocklist(ctx, b.ID); err != nil {
			return err
		}
		b.Status, b.LiftedOn, b.LiftReason = "lifted", &on, reason
		v := NewBanView(b.Ban)
		v.LiftedOn, v.LiftReason = b.LiftedOn, b.LiftReason
		out = &v
		return nil
	})
	return out, err
}

// ---- Extensions (DOMAIN.md §3: from the original first day) ----

// ExtendInput is the body of POST /api/v1/bans/{id}/extend: the months
// added to the term and the reason.
type ExtendInput struct {
	Months *int   `json:"months"`
	Reason string `json:"reason"`
}

// Extension is one recorded extension of a ban.
type Extension struct {
	ID              int64      `json:"id"`
	BanID           int64      `json:"ban_id"`
	PreviousMonths  int        `json:"previous_months"`
	AddedMonths     int        `json:"added_months"`
	TotalMonths     int        `json:"total_months"`
	PreviousLastDay civil.Date `json:"previous_last_day"`
	NewLastDay      civil.Date `json:"new_last_day"`
	Reason          string     `json:"reason"`
	DecidedAt       time.Time  `json:"decided_at"`
	DecidedBy       *int64     `json:"-"`
}

// TableName is ban_extensions.
func (Extension) TableName() string { return "ban_extensions" }

// ExtendResult is what Extend answers.
type ExtendResult struct {
	Ban       BanView   `json:"ban"`
	Extension Extension `json:"extension"`
	Warnings  []string  `json:"warnings"`
}

// Extend adds months to the term of ban banID (the judge the case is
// distributed to): the new term counts from the ORIGINAL first day
// (sanctions.ExtendTerm: new last day = sanctions.LastDay(first day, total
// months), never chained from the previous last day), the total stays
// within the range recorded on the ban (Lei 14.597/2023, art. 201, § 2º, or
// the article the ban records), and the ban, the history row, a movement
// and the blocklist change are written in one transaction. A last day the
// judge had overridden is replaced by the computed one (a warning says so).
//
// Errors: errs.NotFound; errs.Forbidden; errs.Conflict for a precautionary,
// lifted or already ended ban; errs.Invalid naming months (required, at
// least 1, total outside the range, naming the article) or reason.
func (s *Service) Extend(ctx context.Context, actor Actor, banID int64, in ExtendInput) (*ExtendResult, error) {
	var res *ExtendResult
	err := db.WithTx(ctx, s.DB, func(ctx context.Context) error {
		b, c, err := s.loadBan(ctx, actor, banID, true)
		if err != nil {
			return err
		}
		if err := judgeOfCase(actor, c, "prorrogar o impedimento"); err != nil {
			return err
		}
		if b.Precautionary || b.Months == nil || b.LastDay == nil {
			return errs.New(errs.Conflict, "O impedimento cautelar não tem prazo: vigora até ser revogado e não se prorroga.")
		}
		if b.Status != "active" {
			return errs.New(errs.Conflict, fmt.Sprintf("O impedimento %d não está ativo (situação %s).", b.ID, b.Status))
		}
		now := s.now()
		if today := civil.Today(now, s.Loc); today.After(*b.LastDay) {
			return errs.New(errs.Conflict, fmt.Sprintf("O impedimento terminou em %s: um prazo cumprido não se prorroga.", b.LastDay.BR()))
		}
		var f errs.Fields
		if strings.TrimSpace(in.Reason) == "" {
			f.Add("reason", "required", "informe o fundamento da prorrogação.")
		}
		checkText(&f, "reason", in.Reason, maxLong, true)
		var total int
		var last civil.Date
		if in.Months == nil {
			f.Add("months", "required", "informe quantos meses acrescentar ao prazo.")
		} else {
			rg := sanctions.Range{Convertible: true, MinMonths: b.RangeMinMonths, MaxMonths: b.RangeMaxMonths, Law: b.Law, Article: b.Article}
			total, last, err = sanctions.ExtendTerm(b.FirstDay, *b.Months, *in.Months, rg)
			var oor *sanctions.OutOfRangeError
			switch {
			case errors.Is(err, sanctions.ErrExtensionMonths):
				f.Add("months", "min", "a prorrogação deve acrescentar ao menos 1 mês.")
			case errors.As(err, &oor):
				f.Add("months", "range", fmt.Sprintf("com a prorrogação o prazo total seria de %d meses, %s", *b.Months+*in.Months, err.Error()))
			case err != nil:
				f.Add("months", "range", err.Error())
			case !last.After(*b.LastDay):
				f.Add("months", "longer", fmt.Sprintf("contado do primeiro dia (%s), o novo prazo termina em %s, que não passa do último dia atual (%s, fixado pelo(a) juiz(a)).", b.FirstDay.BR(), last.BR(), b.LastDay.BR()))
			}
		}
		if err := f.Err(); err != nil {
			return err
		}
		var warnings []string
		if b.OverrideReason != "" {
			warnings = append(warnings, fmt.Sprintf("O último dia alterado anteriormente (%s) foi substituído pelo calculado do primeiro dia: %s.", b.LastDay.BR(), last.BR()))
		}
		if b.Subject == sanctions.Group {
			warnings = append(warnings, "Prorrogado o impedimento da torcida; os impedimentos dos associados seguem seus próprios prazos.")
		}
		tx := db.Conn(ctx, s.DB)
		uid := actor.UserID
		ext := Extension{BanID: b.ID, PreviousMonths: *b.Months, AddedMonths: *in.Months, TotalMonths: total,
			PreviousLastDay: *b.LastDay, NewLastDay: last, Reason: strings.TrimSpace(in.Reason), DecidedAt: now, DecidedBy: &uid}
		if err := tx.Create(&ext).Error; err != nil {
			return err
		}
		if err := tx.Model(&banRow{}).Where("id = ?", b.ID).
			Updates(map[string]any{"months": total, "computed_last_day": last, "last_day": last, "override_reason": ""}).Error; err != nil {
			return err
		}
		if err := tx.Create(&Movement{CaseID: c.ID, At: now, AuthorUserID: &uid, AuthorRole: actor.Role,
			Description: fmt.Sprintf("Prorrogado o impedimento %d em %s (total de %d meses, contado do primeiro dia, %s): término em %s (antes, %s). Fundamento: %s",
				b.ID, monthsText(*in.Months), total, b.FirstDay.BR(), last.BR(), b.LastDay.BR(), ext.Reason)}).Error; err != nil {
			return err
		}
		if err := s.refreshBlocklist(ctx, b.ID); err != nil {
			return err
		}
		b.Months, b.ComputedLastDay, b.LastDay, b.OverrideReason = &total, &last, &last, ""
		if warnings == nil {
			warnings = []string{}
		}
		res = &ExtendResult{Ban: NewBanView(b.Ban), Extension: ext, Warnings: warnings}
		return nil
	})
	return res, err
}

func monthsText(n int) string {
	if n == 1 {
		return "1 mês"
	}
	return fmt.Sprintf("%d meses", n)
}

// ---- Reporting windows (Lei 14.597/2023, art. 201, § 4º) ----

// WindowView is one window of the reporting duty as the API shows it:
// instants in the court's zone (RFC 3339), the match, and UID, the stable
// identifier of the window in the iCalendar feed.
type WindowView struct {
	UID         string    `json:"uid"`
	MatchID     int64     `json:"match_id"`
	Competition string    `json:"competition"`
	Round       string    `json:"round"`
	Home        string    `json:"home"`
	Away        string    `json:"away"`
	Venue       string    `json:"venue"`
	Kickoff     time.Time `json:"kickoff"`
	MatchEnd    time.Time `json:"match_end"`
	Start       time.Time `json:"start"`
	End         time.Time `json:"end"`
	Clipped     bool      `json:"clipped"`
}

// WindowsView is the reporting duty of a ban and its windows.
type WindowsView struct {
	BanID         int64          `json:"ban_id"`
	CaseNumber    string         `json:"case_number"`
	Name          string         `json:"name"`
	ReportingDuty *ReportingDuty `json:"reporting_duty"`
	FirstDay      civil.Date     `json:"first_day"`
	LastDay       *civil.Date    `json:"last_day"`
	TimeZone      string         `json:"time_zone"`
	Windows       []WindowView   `json:"windows"`
	Notes         []string       `json:"notes"`
}

// ReportingWindows returns the windows of ban banID's reporting duty (Lei
// 14.597/2023, art. 201, § 4º; Lei 10.671/2003, art. 41-B, § 4º): from 2
// hours before kick-off to 2 hours after the end of every match of the
// court's imported schedule that involves the named club (home or away) or
// belongs to the named competition, with kick-off within the ban's term in
// the court's zone (sanctions.ReportingWindows). A ban without a reporting
// duty has no windows (a note says so). errs.NotFound when the ban is not
// of the actor's court.
func (s *Service) ReportingWindows(ctx context.Context, actor Actor, banID int64) (*WindowsView, error) {
	b, _, err := s.loadBan(ctx, actor, banID, false)
	if err != nil {
		return nil, err
	}
	term := b.term()
	v := &WindowsView{BanID: b.ID, CaseNumber: FormatNumber(b.CaseNumber), Name: b.Name, FirstDay: term.First, LastDay: term.Last,
		TimeZone: s.Loc.String(), Windows: []WindowView{}, Notes: []string{}}
	if b.ReportingPlace == "" {
		v.Notes = append(v.Notes, "A sentença não fixou obrigação de permanência (art. 201, § 4º, da Lei 14.597/2023): não há janelas.")
		return v, nil
	}
	v.ReportingDuty = &ReportingDuty{Place: b.ReportingPlace, Club: b.ReportingClub, Competition: b.ReportingCompetition}
	if term.Last != nil && term.Last.Before(term.First) {
		return v, nil
	}
	start, end := term.Bounds(s.Loc)
	q := db.Conn(ctx, s.DB).Table("matches m").Select("m.*, v.name AS venue_name").
		Joins("JOIN venues v ON v.id = m.venue_id").
		Where("m.court_code = ? AND m.kickoff >= ?", b.CourtCode, start)
	if !end.IsZero() {
		q = q.Where("m.kickoff < ?", end)
	}
	var rows []struct {
		Match
		VenueName string
	}
	if err := q.Order("m.kickoff, m.id").Find(&rows).Error; err != nil {
		return nil, err
	}
	ms := make([]sanctions.Match, 0, len(rows))
	for _, r := range rows {
		ms = append(ms, sanctions.Match{ID: r.ID, Competition: r.Competition, Round: r.Round, Home: r.Home, Away: r.Away, Venue: r.VenueName,
			Kickoff: r.Kickoff, Duration: time.Duration(r.MatchMinutes) * time.Minute})
	}
	for _, w := range sanctions.ReportingWindows(ms, sanctions.Duty{Club: b.ReportingClub, Competition: b.ReportingCompetition}, term, s.Loc) {
		v.Windows = append(v.Windows, WindowView{
			UID:     fmt.Sprintf("ban-%d-match-%d@juizado-%s", b.ID, w.Match.ID, strings.ReplaceAll(b.CourtCode, ".", "-")),
			MatchID: w.Match.ID, Competition: w.Match.Competition, Round: w.Match.Round, Home: w.Match.Home, Away: w.Match.Away, Venue: w.Match.Venue,
			Kickoff: w.Match.Kickoff.In(s.Loc), MatchEnd: w.Match.End().In(s.Loc), Start: w.Start.In(s.Loc), End: w.End.In(s.Loc), Clipped: w.Clipped,
		})
	}
	if len(v.Windows) == 0 {
		v.Notes = append(v.Notes, "Nenhuma partida da tabela importada pelo juizado cai no prazo do impedimento.")
	}
	return v, nil
}

// ICS returns the windows as an iCalendar feed (RFC 5545): one VEVENT per
// window with UTC DTSTART/DTEND and the window's UID, for the person and
// the police station; stamp is the instant the feed is made.
func (v *WindowsView) ICS(stamp time.Time) []byte {
	cal := sanctions.Calendar{ProdID: "-//Juizado//Obrigação de permanência (art. 201, § 4º)//PT-BR",
		Name: fmt.Sprintf("Obrigação de permanência – processo %s", v.CaseNumber)}
	place := ""
	if v.ReportingDuty != nil {
		place = v.ReportingDuty.Place
	}
	for _, w := range v.Windows {
		desc := fmt.Sprintf("%s deve permanecer em %s das %s às %s (art. 201, § 4º, da Lei 14.597/2023): partida %s x %s (%s", v.Name, place,
			w.Start.Format("02/01/2006 15:04"), w.End.Format("02/01/2006 15:04"), w.Home, w.Away, w.Competition)
		if w.Round != "" {
			desc += ", " + w.Round
		}
		desc += fmt.Sprintf("), %s, início às %s. Processo %s, impedimento %d.", w.Venue, w.Kickoff.Format("02/01/2006 15:04"), v.CaseNumber, v.BanID)
		cal.Events = append(cal.Events, sanctions.Event{UID: w.UID, Start: w.Start, End: w.End, Stamp: stamp,
			Summary:  fmt.Sprintf("Obrigação de permanência: %s x %s", w.Home, w.Away),
			Location: place, Description: desc})
	}
	return sanctions.ICS(cal)
}
