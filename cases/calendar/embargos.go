package calendar

import (
	"cmp"
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/errs"
)

// Embargos are embargos de declaração (table embargos; Lei 9.099/1995,
// art. 83) of a party (defendant, defence, prosecution) as to one
// defendant (DefendantID; a group case's defendant in a civil case):
// pending until the judge rules (Granted, DecidedOn, RulingText). They
// interrupt every party's appeal window as to that defendant, which runs
// again in full from each party's notice of the ruling (art. 83, § 2º, as
// amended by Lei 13.105/2015, art. 1.066).
type Embargos struct {
	ID          int64       `json:"id"`
	CaseID      int64       `json:"case_id"`
	DefendantID *int64      `json:"defendant_id"`
	Party       string      `json:"party"`
	FiledOn     civil.Date  `json:"filed_on"`
	Text        string      `json:"text"`
	Status      string      `json:"status"` // pending, ruled
	Granted     *bool       `json:"granted"`
	DecidedOn   *civil.Date `json:"decided_on"`
	RulingText  string      `json:"ruling_text"`
	CreatedAt   time.Time   `json:"created_at"`
	CreatedBy   *int64      `json:"-"`
	RuledAt     *time.Time  `json:"ruled_at"`
	RuledBy     *int64      `json:"-"`
}

// PartyPT names the party that filed e, in Portuguese.
func (e Embargos) PartyPT() string { return PartyPT[e.Party] }

// VerdictPT is the ruling on e in Portuguese ("acolhidos", "rejeitados";
// "" while pending).
func (e Embargos) VerdictPT() string {
	switch {
	case e.Granted == nil:
		return ""
	case *e.Granted:
		return "acolhidos"
	}
	return "rejeitados"
}

// TableName is embargos.
func (Embargos) TableName() string { return "embargos" }

// EmbargosInput is the body of POST /api/v1/cases/{id}/embargos: the
// defendant they concern, the party filing them (defendant, defence,
// prosecution), the day they were filed and their text (art. 83: the
// obscurity, contradiction, omission or doubt pointed out).
type EmbargosInput struct {
	DefendantID int64  `json:"defendant_id"`
	Party       string `json:"party"`
	FiledOn     string `json:"filed_on"`
	Text        string `json:"text"`
}

// RulingInput is the body of POST /api/v1/embargos/{id}/ruling: the day
// of the ruling, whether the embargos were granted, and its reasoning (CF
// art. 93, IX).
type RulingInput struct {
	// CaseID, when set (the case page's form), is the case the embargos
	// must be of (errs.NotFound otherwise).
	CaseID    int64  `json:"-"`
	DecidedOn string `json:"decided_on"`
	Granted   *bool  `json:"granted"`
	Text      string `json:"text"`
}

// FileEmbargos records embargos de declaração against the decision as to
// defendant in.DefendantID of case caseID (the clerk records them, written
// or oral: Lei 9.099/1995, art. 83, § 1º; errs.Forbidden for others) and
// interrupts every party's appeal window as to him (§ 2º): the notices of
// the decision stop counting (superseded), and each party's window runs
// again in full from its notice of the ruling. His track must be sentenced
// (the sentence) or in appeal (the Turma's judgment), else errs.Conflict;
// pending embargos of the same party as to him are errs.Conflict;
// defendant_id, party, filed_on (not in the future nor before the
// filing of the case) and text are errs.Invalid naming the field. Docketed
// without a TPU code (none in use here fits).
func (s *Service) FileEmbargos(ctx context.Context, actor actor.Actor, caseID int64, in EmbargosInput) (*Embargos, error) {
	var out *Embargos
	err := db.WithTx(ctx, s.DB, func(ctx context.Context) error {
		tx := db.Conn(ctx, s.DB)
		c, err := s.LockCase(ctx, actor, caseID)
		if err != nil {
			return err
		}
		if actor.Role != "clerk" {
			return errs.New(errs.Forbidden, "Os embargos de declaração são registrados pelo cartório (clerk).")
		}
		var f errs.Fields
		party := strings.TrimSpace(in.Party)
		if _, ok := PartyPT[party]; !ok {
			f.Add("party", "oneof", "use defendant (réu), defence (defesa) ou prosecution (Ministério Público).")
		}
		filed := s.dayOf(&f, "filed_on", in.FiledOn, civil.Today(c.FiledAt, s.Loc), "à autuação")
		if strings.TrimSpace(in.Text) == "" {
			f.Add("text", "required", "informe os embargos: a obscuridade, contradição, omissão ou dúvida apontada (Lei 9.099/1995, art. 83).")
		}
		cases.CheckText(&f, "text", in.Text, cases.MaxLong, true)
		d, err := s.PersonOf(ctx, c, in.DefendantID, "defendant_id")
		if err != nil {
			return err
		}
		if err := f.Err(); err != nil {
			return err
		}
		if st := cases.TrackOf(c, *d); st != cases.StatusSentenced && st != cases.StatusJudgment && st != cases.StatusAppeal {
			return errs.New(errs.Conflict, fmt.Sprintf("Os embargos de declaração cabem contra a sentença ou o acórdão ainda não transitados em julgado; %s está em “%s”.", cases.NameOf(*d), cases.OrStatus(st)))
		}
		var n int64
		if err := tx.Model(&Embargos{}).Where("case_id = ? AND defendant_id = ? AND party = ? AND status = 'pending'", c.ID, d.ID, party).Count(&n).Error; err != nil {
			return err
		}
		if n > 0 {
			return errs.New(errs.Conflict, fmt.Sprintf("Há embargos de declaração pendentes desta parte (%s) quanto a %s: aguardam decisão.", PartyPT[party], cases.NameOf(*d)))
		}
		uid := actor.UserID
		e := Embargos{CaseID: c.ID, DefendantID: &d.ID, Party: party, FiledOn: filed, Text: strings.TrimSpace(in.Text), Status: "pending", CreatedAt: s.Now(), CreatedBy: &uid}
		if err := tx.Create(&e).Error; err != nil {
			return err
		}
		if err := s.interrupt(ctx, c, d.ID); err != nil {
			return err
		}
		text := fmt.Sprintf("Opostos embargos de declaração %s em %s quanto a %s (Lei 9.099/1995, art. 83): interrompido o prazo de recurso de todas as partes quanto a ele(a), que corre de novo, por inteiro, da intimação da decisão dos embargos (art. 83, § 2º).",
			byParty(party, d), filed.BR(), cases.NameOf(*d))
		if err := s.Move(ctx, c, &actor, s.Now(), cases.MoveEmbargosFiled, text); err != nil {
			return err
		}
		out = &e
		return s.Touch(ctx, c, "")
	})
	return out, err
}

// RuleEmbargos records the ruling on embargos id (the judge of the case:
// errs.Forbidden for others; errs.NotFound when not of the actor's
// court): granted or not, the day (default today; not in the future nor
// before the filing) and the reasoning (required: CF art. 93, IX). Already
// ruled is errs.Conflict. The windows then run again in full from each
// party's notice of the ruling (Lei 9.099/1995, art. 83, § 2º).
func (s *Service) RuleEmbargos(ctx context.Context, actor actor.Actor, id int64, in RulingInput) (*Embargos, error) {
	var out *Embargos
	err := db.WithTx(ctx, s.DB, func(ctx context.Context) error {
		tx := db.Conn(ctx, s.DB)
		var e Embargos
		if err := tx.Joins("JOIN cases k ON k.id = embargos.case_id").Where("embargos.id = ? AND k.court_code = ?", id, actor.Court).Limit(1).Find(&e).Error; err != nil {
			return err
		}
		if e.ID == 0 || (in.CaseID != 0 && e.CaseID != in.CaseID) {
			return errs.New(errs.NotFound, fmt.Sprintf("Embargos de declaração %d não encontrados.", id))
		}
		c, err := s.LockCase(ctx, actor, e.CaseID)
		if err != nil {
			return err
		}
		if err := cases.JudgeOfCase(actor, c, "decidir os embargos de declaração"); err != nil {
			return err
		}
		if e.Status != "pending" {
			return errs.New(errs.Conflict, fmt.Sprintf("Os embargos de declaração %d já foram decididos em %s.", e.ID, e.DecidedOn.BR()))
		}
		var f errs.Fields
		today := civil.Today(s.Now(), s.Loc)
		day := today
		if in.DecidedOn != "" {
			day = s.dayOf(&f, "decided_on", in.DecidedOn, e.FiledOn, "à oposição dos embargos")
		}
		if in.Granted == nil {
			f.Add("granted", "required", "informe se os embargos foram acolhidos (granted: true) ou rejeitados (false).")
		}
		if strings.TrimSpace(in.Text) == "" {
			f.Add("text", "required", "fundamente a decisão dos embargos (CF, art. 93, IX).")
		}
		cases.CheckText(&f, "text", in.Text, cases.MaxLong, true)
		if err := f.Err(); err != nil {
			return err
		}
		now, uid := s.Now(), actor.UserID
		if err := tx.Model(&Embargos{}).Where("id = ?", e.ID).Updates(map[string]any{"status": "ruled", "granted": *in.Granted, "decided_on": day,
			"ruling_text": strings.TrimSpace(in.Text), "ruled_at": now, "ruled_by": uid}).Error; err != nil {
			return err
		}
		if err := tx.Take(&e, e.ID).Error; err != nil {
			return err
		}
		verdict := "rejeitados"
		if *in.Granted {
			verdict = "acolhidos"
		}
		var d cases.Defendant
		if err := tx.Where("id = ?", *e.DefendantID).Take(&d).Error; err != nil {
			return err
		}
		text := fmt.Sprintf("Embargos de declaração %s (opostos %s em %s) %s em %s: %s Os prazos de recurso quanto a %s correm de novo, por inteiro, da intimação desta decisão a cada parte (Lei 9.099/1995, art. 83, § 2º).",
			fmt.Sprint(e.ID), byParty(e.Party, &d), e.FiledOn.BR(), verdict, day.BR(), e.RulingText, cases.NameOf(d))
		if err := s.Move(ctx, c, &actor, now, cases.MoveEmbargosRuled, text); err != nil {
			return err
		}
		out = &e
		return s.Touch(ctx, c, "")
	})
	return out, err
}

// dayOf parses the day s of field (required), not in the future nor before
// floor (named by what); errors go to f.
func (s *Service) dayOf(f *errs.Fields, field, v string, floor civil.Date, what string) civil.Date {
	if v == "" {
		f.Add(field, "required", "informe o dia (AAAA-MM-DD).")
		return civil.Date{}
	}
	d, ok := cases.ParseDate(f, field, v)
	switch {
	case !ok:
	case d.After(civil.Today(s.Now(), s.Loc)):
		f.Add(field, "not_future", "o dia não pode estar no futuro.")
	case d.Before(floor):
		f.Add(field, "after", fmt.Sprintf("o dia não pode ser anterior %s (%s).", what, floor.BR()))
	}
	return d
}

// interrupt supersedes the appeal notices as to defendant id of case c
// (every party's, a group case's prosecution notice included): his
// windows stop and run again from the notices of the ruling on the
// embargos (Lei 9.099/1995, art. 83, § 2º).
func (s *Service) interrupt(ctx context.Context, c *cases.Case, id int64) error {
	q := db.Conn(ctx, s.DB).Model(&Notification{}).Where("case_id = ? AND kind = 'appeal' AND NOT superseded", c.ID)
	if c.Flow == cases.FlowCivil {
		q = q.Where("defendant_id = ? OR defendant_id IS NULL", id)
	} else {
		q = q.Where("defendant_id = ?", id)
	}
	return q.Update("superseded", true).Error
}

// byParty is "pelo Ministério Público", "pela defesa de Ana", "por Ana".
func byParty(party string, d *cases.Defendant) string {
	switch party {
	case PartyProsecution:
		return "pelo Ministério Público"
	case PartyDefence:
		return "pela defesa de " + cases.NameOf(*d)
	}
	return "por " + cases.NameOf(*d)
}

// EmbargosMissing lists, in Portuguese, what the embargos as to defendant
// d of case c keep from the final judgment (Lei 9.099/1995, art. 83, § 2º):
// the embargos pending decision (FinalityMissing then checks the notices
// after the ruling, from which every window runs again). ruled is the day
// of the last ruling (zero when none).
func (s *Service) EmbargosMissing(ctx context.Context, c *cases.Case, d cases.Defendant) (missing []string, ruled civil.Date, err error) {
	var es []Embargos
	if err := db.Conn(ctx, s.DB).Where("case_id = ? AND defendant_id = ?", c.ID, d.ID).Order("id").Find(&es).Error; err != nil {
		return nil, ruled, err
	}
	for _, e := range es {
		if e.Status == "pending" {
			missing = append(missing, fmt.Sprintf("os embargos de declaração %d, opostos %s em %s, aguardam decisão (Lei 9.099/1995, art. 83, § 2º)", e.ID, byParty(e.Party, &d), e.FiledOn.BR()))
		} else if e.DecidedOn != nil && e.DecidedOn.After(ruled) {
			ruled = *e.DecidedOn
		}
	}
	return missing, ruled, nil
}

// PendingEmbargos is errs.Conflict when embargos as to one of ds are
// pending (a notice of the decision waits for their ruling: Lei
// 9.099/1995, art. 83, § 2º).
func (s *Service) PendingEmbargos(ctx context.Context, c *cases.Case, ds ...cases.Defendant) error {
	for _, d := range ds {
		missing, _, err := s.EmbargosMissing(ctx, c, d)
		if err != nil {
			return err
		}
		if len(missing) > 0 {
			return errs.New(errs.Conflict, "Intimação prematura: "+missing[0]+"; a intimação é da decisão dos embargos.")
		}
	}
	return nil
}

// withoutPendingEmbargos are the defendants of ds without embargos
// pending (the prosecution's notice as to every defendant sentenced
// leaves them out); errs.Conflict, naming the embargos, when none is left.
func (s *Service) withoutPendingEmbargos(ctx context.Context, c *cases.Case, ds []cases.Defendant) ([]cases.Defendant, error) {
	var out []cases.Defendant
	var first error
	for _, d := range ds {
		if err := s.PendingEmbargos(ctx, c, d); err != nil {
			first = cmp.Or(first, err)
			continue
		}
		out = append(out, d)
	}
	if len(out) == 0 {
		return nil, first
	}
	return out, nil
}

// EmbargosOf lists the embargos de declaração of case caseID in the order
// they were filed.
func (s *Service) EmbargosOf(ctx context.Context, caseID int64) ([]Embargos, error) {
	var out []Embargos
	return out, db.Conn(ctx, s.DB).Where("case_id = ?", caseID).Order("id").Find(&out).Error
}
