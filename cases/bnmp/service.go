package bnmp

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/decisions"
	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/sanctions"
	"gorm.io/gorm/clause"
)

// Service keeps the court's BNMP mandates (table bnmp_mandates): it
// derives them from the bans (Reconcile), lists the queue with its alerts
// (List), shows one (Get) and records its registration (Register). Built
// once by app.NewCases.
type Service struct {
	cases.Core
	// Decisions owns the bans the mandates follow (MandateBans).
	Decisions *decisions.Service
}

// New returns the mandates' service over core, following the bans of dec.
func New(core cases.Core, dec *decisions.Service) *Service {
	return &Service{Core: core, Decisions: dec}
}

// Reconcile brings court's mandates in step with its bans on the court's
// today (plan): the mandates a ban lacks are added, once (keyed by ban,
// period and content; a concurrent reconcile adds nothing twice), and an
// unregistered mandate that waited for the person's CPF takes the CPF the
// ban now has. The bans read are those that run or have yet to start and
// those with mandates and no revocation. It runs in the transaction of ctx
// when there is one, else in its own. It never changes a ban.
func (s *Service) Reconcile(ctx context.Context, court string) error {
	today := civil.Today(s.Now(), s.Loc)
	return db.WithTx(ctx, s.DB, func(ctx context.Context) error {
		tx := db.Conn(ctx, s.DB)
		var stored []Mandate
		if err := tx.Where("court_code = ? AND ban_id NOT IN (SELECT ban_id FROM bnmp_mandates WHERE kind = 'revogacao' AND court_code = ?)", court, court).
			Order("id").Find(&stored).Error; err != nil {
			return err
		}
		byBan := map[int64][]Mandate{}
		var listed []int64
		for _, m := range stored {
			if byBan[m.BanID] == nil {
				listed = append(listed, m.BanID)
			}
			byBan[m.BanID] = append(byBan[m.BanID], m)
		}
		bans, err := s.Decisions.MandateBans(ctx, court, today, listed)
		if err != nil {
			return err
		}
		for _, b := range bans {
			if b.CPF == nil {
				continue
			}
			for _, m := range byBan[b.ID] {
				if m.CPF == nil && m.BNMPNumber == nil {
					if err := tx.Model(&Mandate{}).Where("id = ?", m.ID).Update("cpf", *b.CPF).Error; err != nil {
						return err
					}
				}
			}
		}
		now := s.Now()
		for _, b := range bans {
			add, err := plan(b, byBan[b.ID], today)
			if err != nil {
				return fmt.Errorf("bnmp: ban %d: %w", b.ID, err)
			}
			for i := range add {
				add[i].CreatedAt = now
				if err := tx.Clauses(clause.OnConflict{DoNothing: true}).Create(&add[i]).Error; err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// View is a mandate as the queue shows it (GET /api/v1/bnmp/mandates): the
// stored mandate, its case's number, its status in the queue (Status*),
// the kind and status in Portuguese, and its alerts in Portuguese: AlertDays
// before its review date or end (Res. CNJ 417/2021, art. 25) and, for a
// precautionary measure whose review date passed without renewal, Lapsed
// (art. 21: shown to the judge, who decides; the ban is not lifted).
type View struct {
	Mandate
	CaseNumber string   `json:"case_number"`
	Status     string   `json:"status"`
	StatusPT   string   `json:"status_pt"`
	KindPT     string   `json:"kind_pt"`
	Alerts     []string `json:"alerts"`
	Lapsed     bool     `json:"lapsed"`
	// Current: the ban's latest mandate, which its alerts are about.
	Current bool `json:"current"`
}

// List reconciles the actor's court (Reconcile) and returns its mandates,
// newest first, with status one of "" (all), pending, registered, due (an
// alert or a lapsed measure) or awaiting_identification. Another status
// is errs.Invalid on "status".
func (s *Service) List(ctx context.Context, a actor.Actor, status string) ([]View, error) {
	switch status {
	case "", StatusPending, StatusRegistered, StatusDue, StatusAwaitingIdentification, StatusSuperseded:
	default:
		return nil, errs.InvalidField("status", "enum", "status deve ser pending, registered, due, awaiting_identification ou superseded.")
	}
	if err := s.Reconcile(ctx, a.Court); err != nil {
		return nil, err
	}
	var ms []Mandate
	if err := db.Conn(ctx, s.DB).Where("court_code = ?", a.Court).Order("id").Find(&ms).Error; err != nil {
		return nil, err
	}
	views, err := s.views(ctx, ms)
	if err != nil {
		return nil, err
	}
	out := []View{}
	for i := len(views) - 1; i >= 0; i-- {
		v := views[i]
		if status == "" || v.Status == status || (status == StatusDue && (len(v.Alerts) > 0 || v.Lapsed)) {
			out = append(out, v)
		}
	}
	return out, nil
}

// Get reconciles the actor's court and returns mandate id of it;
// errs.NotFound for a mandate of another court or none.
func (s *Service) Get(ctx context.Context, a actor.Actor, id int64) (*View, error) {
	if err := s.Reconcile(ctx, a.Court); err != nil {
		return nil, err
	}
	var m Mandate
	if err := db.Conn(ctx, s.DB).Where("id = ? AND court_code = ?", id, a.Court).Limit(1).Find(&m).Error; err != nil {
		return nil, err
	}
	if m.ID == 0 {
		return nil, NotFound(fmt.Sprint(id))
	}
	var all []Mandate
	if err := db.Conn(ctx, s.DB).Where("ban_id = ?", m.BanID).Order("id").Find(&all).Error; err != nil {
		return nil, err
	}
	views, err := s.views(ctx, all)
	if err != nil {
		return nil, err
	}
	for _, v := range views {
		if v.ID == id {
			return &v, nil
		}
	}
	return nil, NotFound(fmt.Sprint(id))
}

// views derives each mandate's status and alerts (ms ordered by id).
func (s *Service) views(ctx context.Context, ms []Mandate) ([]View, error) {
	today := civil.Today(s.Now(), s.Loc)
	latestOf := map[int64]int{}    // ban → index of its latest mandate
	periodLast := map[string]int{} // ban:period → index of the latest non-revocation
	revoked := map[int64]bool{}
	banIDs := []int64{}
	for i, m := range ms {
		if _, ok := latestOf[m.BanID]; !ok {
			banIDs = append(banIDs, m.BanID)
		}
		latestOf[m.BanID] = i
		if m.Kind == KindRevocation {
			revoked[m.BanID] = true
		} else {
			periodLast[fmt.Sprint(m.BanID, ":", m.Period)] = i
		}
	}
	bans := map[int64]sanctions.Ban{}
	if len(banIDs) > 0 {
		var rows []sanctions.Ban
		if err := db.Conn(ctx, s.DB).Where("id IN ?", banIDs).Find(&rows).Error; err != nil {
			return nil, err
		}
		for _, b := range rows {
			bans[b.ID] = b
		}
	}
	out := make([]View, len(ms))
	for i, m := range ms {
		v := View{Mandate: m, CaseNumber: m.Content.CaseNumber, KindPT: KindPT[m.Kind], Alerts: []string{}}
		switch {
		case m.BNMPNumber != nil:
			v.Status = StatusRegistered
		case m.Kind != KindRevocation && periodLast[fmt.Sprint(m.BanID, ":", m.Period)] != i:
			v.Status = StatusSuperseded
		case m.CPF == nil:
			v.Status = StatusAwaitingIdentification
		default:
			v.Status = StatusPending
		}
		v.StatusPT = StatusPT[v.Status]
		b := bans[m.BanID]
		v.Current = !revoked[m.BanID] && m.Kind != KindRevocation && latestOf[m.BanID] == i
		if v.Current && b.Status == sanctions.StatusActive {
			v.Alerts, v.Lapsed = alerts(m, b, today)
		}
		out[i] = v
	}
	return out, nil
}

// alerts are the alerts of the ban's current mandate m on today: AlertDays
// before its review date and its end (art. 25) and, for a precautionary
// ban b whose review date passed without renewal, the lapse (art. 21).
func alerts(m Mandate, b sanctions.Ban, today civil.Date) ([]string, bool) {
	out := []string{}
	if b.LastDay != nil && b.LastDay.Before(today) {
		return out, false // the ban ran its term
	}
	if b.Precautionary && b.ReviewOn != nil && b.ReviewOn.Before(today) {
		return append(out, fmt.Sprintf("Revisão vencida em %s sem prorrogação: a medida perde a eficácia (Res. CNJ 417/2021, art. 21) — decisão do(a) juiz(a) sobre renovar ou revogar.", b.ReviewOn.BR())), true
	}
	note := func(d *civil.Date, what string) {
		if d == nil || d.Before(today) || d.After(today.AddDays(AlertDays)) {
			return
		}
		left := 0
		for x := today; x.Before(*d); x = x.AddDays(1) {
			left++
		}
		out = append(out, fmt.Sprintf("%s em %s (faltam %d dia(s); Res. CNJ 417/2021, art. 25).", what, d.BR(), left))
	}
	if b.Precautionary {
		note(m.ReviewOn, "Revisão da medida cautelar")
	} else if b.LastDay != nil && m.ValidUntil != nil && m.ValidUntil.Before(*b.LastDay) {
		note(m.ValidUntil, "Fim do mandado: o impedimento continua; expeça o mandado do período seguinte")
	} else {
		note(m.ValidUntil, "Fim do impedimento e do mandado")
	}
	return out, false
}

// RegisterInput is the body of POST /api/v1/bnmp/mandates/{id}/registered:
// the number BNMP gave the mandate and the day it was registered
// (YYYY-MM-DD).
type RegisterInput struct {
	BNMPNumber   string `json:"bnmp_number"`
	RegisteredOn string `json:"registered_on"`
}

// bnmpNumber is the form of a BNMP number: digits with dots, hyphens or
// slashes, 5 to 60 characters (the number of the mandate in BNMP 3.0).
var bnmpNumber = regexp.MustCompile(`^[0-9][0-9./-]{3,58}[0-9]$`)

// Register records that mandate id of the actor's court was registered in
// BNMP under in.BNMPNumber on in.RegisteredOn (Res. CNJ 417/2021, art. 18),
// with a docket movement on its case (cases.MoveBnmpRegistered), in one
// transaction.
// Errors: errs.NotFound (another court's or none); errs.Conflict for a
// mandate already registered, superseded by a later one, or awaiting the
// person's CPF; errs.Invalid naming bnmp_number (required, digits with
// dots, hyphens or slashes) or registered_on (required, a date, not in the
// future, not before the mandate was issued).
func (s *Service) Register(ctx context.Context, a actor.Actor, id int64, in RegisterInput) (*View, error) {
	var out *View
	err := db.WithTx(ctx, s.DB, func(ctx context.Context) error {
		v, err := s.Get(ctx, a, id)
		if err != nil {
			return err
		}
		if err := db.Conn(ctx, s.DB).Exec("SELECT 1 FROM bnmp_mandates WHERE id = ? FOR UPDATE", id).Error; err != nil {
			return err
		}
		var cur Mandate
		if err := db.Conn(ctx, s.DB).Where("id = ?", id).Take(&cur).Error; err != nil {
			return err
		}
		switch {
		case cur.BNMPNumber != nil:
			return errs.New(errs.Conflict, fmt.Sprintf("O mandado %d já foi registrado no BNMP sob o nº %s em %s.", id, *cur.BNMPNumber, cur.RegisteredOn.BR()))
		case v.Status == StatusSuperseded:
			return errs.New(errs.Conflict, fmt.Sprintf("O mandado %d foi substituído por outro antes do registro: registre o mais recente.", id))
		case v.Status == StatusAwaitingIdentification:
			return errs.New(errs.Conflict, fmt.Sprintf("O mandado %d aguarda a identificação da pessoa pelo CPF (Res. CNJ 417/2021, art. 19).", id))
		}
		today := civil.Today(s.Now(), s.Loc)
		var f errs.Fields
		number := strings.TrimSpace(in.BNMPNumber)
		if number == "" {
			f.Add("bnmp_number", "required", "informe o número do mandado no BNMP.")
		} else if !bnmpNumber.MatchString(number) {
			f.Add("bnmp_number", "format", "o número do BNMP tem só algarismos, pontos, hifens ou barras (5 a 60 caracteres).")
		}
		var on civil.Date
		if in.RegisteredOn == "" {
			f.Add("registered_on", "required", "informe a data do registro no BNMP (AAAA-MM-DD).")
		} else if d, ok := cases.ParseDate(&f, "registered_on", in.RegisteredOn); ok {
			issued := civil.Today(cur.CreatedAt, s.Loc)
			switch {
			case d.After(today):
				f.Add("registered_on", "not_future", "a data do registro não pode ser futura.")
			case d.Before(issued):
				f.Add("registered_on", "after_issue", fmt.Sprintf("a data do registro não pode ser anterior à expedição do mandado (%s).", issued.BR()))
			default:
				on = d
			}
		}
		if err := f.Err(); err != nil {
			return err
		}
		now := s.Now()
		uid := a.UserID
		upd := map[string]any{"bnmp_number": number, "registered_on": on, "registered_at": now}
		if uid != 0 {
			upd["registered_by"] = uid
		}
		if err := db.Conn(ctx, s.DB).Model(&Mandate{}).Where("id = ?", id).Updates(upd).Error; err != nil {
			return err
		}
		var c cases.Case
		if err := db.Conn(ctx, s.DB).Where("id = ?", cur.CaseID).Take(&c).Error; err != nil {
			return err
		}
		text := fmt.Sprintf("Mandado de %s (impedimento %d; %s) registrado no BNMP sob o nº %s em %s (Res. CNJ 417/2021).",
			strings.ToLower(KindPT[cur.Kind]), cur.BanID, cur.Name, number, on.BR())
		if err := s.Move(ctx, &c, &a, now, cases.MoveBnmpRegistered, text); err != nil {
			return err
		}
		if err := s.Touch(ctx, &c, ""); err != nil {
			return err
		}
		v.BNMPNumber, v.RegisteredOn, v.RegisteredAt = &number, &on, &now
		v.Status, v.StatusPT = StatusRegistered, StatusPT[StatusRegistered]
		out = v
		return nil
	})
	return out, err
}

// ParseID reads a mandate id from a path ("12" or "12.pdf" with pdf
// set): errs.NotFound for anything else.
func ParseID(s string) (id int64, pdf bool, err error) {
	t, pdf := strings.CutSuffix(s, ".pdf")
	id, e := strconv.ParseInt(t, 10, 64)
	if e != nil || id <= 0 {
		return 0, false, NotFound(s)
	}
	return id, pdf, nil
}

// NotFound is the errs.NotFound of a mandate named by the path text s.
func NotFound(s string) error {
	return errs.New(errs.NotFound, fmt.Sprintf("Mandado %q não encontrado.", s))
}
