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
	"github.com/juizado/juizado/sanctions"
)

// Embargos are embargos de declaração (table embargos; Lei 9.099/1995,
// art. 83; in a group case, which is civil, CPC arts. 1.022 to 1.026) of a
// party (defendant, defence, prosecution) as to one defendant
// (DefendantID; a group case's defendant in a civil case) against a
// decision (Against: sentence or appeal_result, the Turma Recursal's
// judgment): pending until the judge rules (Granted, DecidedOn,
// RulingText). Filed in time they interrupt every party's window against
// that decision as to the defendant, which runs again in full from each
// party's notice of the ruling (art. 83, § 2º, as amended by Lei
// 13.105/2015, art. 1.066; CPC art. 1.026). Late is set when they were
// filed after the party's window (WindowLastDay, counted by Rule from its
// notice of the decision: 5 running days, art. 83, § 1º; 5 working days,
// CPC art. 1.023, doubled by CPC arts. 180 and 186): recorded, never
// refused, but they interrupt nothing (the judge decides them).
// WindowLastDay is nil when the party had no notice recorded (the window
// not begun: an act before it is timely, CPC art. 218, § 4º).
type Embargos struct {
	ID            int64       `json:"id"`
	CaseID        int64       `json:"case_id"`
	DefendantID   *int64      `json:"defendant_id"`
	Party         string      `json:"party"`
	FiledOn       civil.Date  `json:"filed_on"`
	Text          string      `json:"text"`
	Status        string      `json:"status"` // pending, ruled
	Granted       *bool       `json:"granted"`
	DecidedOn     *civil.Date `json:"decided_on"`
	RulingText    string      `json:"ruling_text"`
	CreatedAt     time.Time   `json:"created_at"`
	CreatedBy     *int64      `json:"-"`
	RuledAt       *time.Time  `json:"ruled_at"`
	RuledBy       *int64      `json:"-"`
	Against       string      `json:"against"`
	Late          bool        `json:"late"`
	WindowLastDay *civil.Date `json:"window_last_day"`
	Rule          string      `json:"rule"`
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
// or oral: Lei 9.099/1995, art. 83, § 1º; errs.Forbidden for others): his
// sentence, or the Turma's judgment once recorded on his track in appeal
// (attacked). Filed within the party's window from its notice of that
// decision (5 running days, art. 83, § 1º; in a group case 5 working
// days, CPC art. 1.023, doubled by CPC arts. 180 and 186; counted by
// sanctions.CountPeriod as the appeal is), or before any notice of it
// (CPC art. 218, § 4º), they interrupt every party's window against it as
// to him (art. 83, § 2º; CPC art. 1.026): the notices of the decision stop
// counting (superseded), and each party's window runs again in full from
// its notice of the ruling. Filed after it they are recorded with Late
// set and interrupt nothing (issue #29: no filing is refused; the judge,
// not the clerk, decides them), the docket saying "intempestivos". His
// track must be sentenced (a group case: judgment) or in appeal, else
// errs.Conflict; pending embargos of the same party as to him are
// errs.Conflict; defendant_id, party, filed_on (not in the future, nor
// before the filing of the case or the decision attacked) and text are
// errs.Invalid naming the field. Docketed without a TPU code (none in use
// here fits).
func (s *Service) FileEmbargos(ctx context.Context, actor actor.Actor, caseID int64, in EmbargosInput) (*Embargos, error) {
	var out *Embargos
	err := db.WithTx(ctx, s.DB, func(ctx context.Context) error {
		c, err := s.LockCase(ctx, actor, caseID)
		if err != nil {
			return err
		}
		if actor.Role != "clerk" {
			return errs.New(errs.Forbidden, "Os embargos de declaração são registrados pelo cartório (clerk).")
		}
		out, err = s.FileEmbargosOn(ctx, actor, c, in)
		return err
	})
	return out, err
}

// FileEmbargosOn records embargos de declaração on case c, locked by the
// caller's transaction, as FileEmbargos does once the case is locked and
// the role checked: the defence's own embargos filed in the system go
// here (Lei 11.419/2006, art. 10: the lawyer's filing is joined without
// the clerk). The errors and the effects are FileEmbargos'.
func (s *Service) FileEmbargosOn(ctx context.Context, actor actor.Actor, c *cases.Case, in EmbargosInput) (*Embargos, error) {
	var out *Embargos
	err := db.WithTx(ctx, s.DB, func(ctx context.Context) error {
		tx := db.Conn(ctx, s.DB)
		var f errs.Fields
		party := strings.TrimSpace(in.Party)
		if _, ok := PartyPT[party]; !ok {
			f.Add("party", "oneof", "use defendant (réu), defence (defesa) ou prosecution (Ministério Público).")
		}
		law := lawOf(c)
		filed := s.dayOf(&f, "filed_on", in.FiledOn, civil.Today(c.FiledAt, s.Loc), "à autuação")
		if strings.TrimSpace(in.Text) == "" {
			f.Add("text", "required", "informe os embargos: "+law.Grounds+".")
		}
		cases.CheckText(&f, "text", in.Text, cases.MaxLong, true)
		d, err := s.PersonOf(ctx, c, in.DefendantID, "defendant_id")
		if err != nil {
			return err
		}
		if err := f.Err(); err != nil {
			return err
		}
		st := cases.TrackOf(c, *d)
		if st != cases.StatusSentenced && st != cases.StatusJudgment && st != cases.StatusAppeal {
			return errs.New(errs.Conflict, fmt.Sprintf("Os embargos de declaração cabem contra a sentença ou o acórdão ainda não transitados em julgado; %s está em “%s”.", cases.NameOf(*d), cases.OrStatus(st)))
		}
		against, decided, err := s.attacked(ctx, c, *d, st)
		if err != nil {
			return err
		}
		if filed.Before(decided) {
			return errs.InvalidField("filed_on", "after_decision", fmt.Sprintf("os embargos não podem ser anteriores à decisão que atacam (%s de %s).", againstPT[against], decided.BR()))
		}
		var n int64
		if err := tx.Model(&Embargos{}).Where("case_id = ? AND defendant_id = ? AND party = ? AND status = 'pending'", c.ID, d.ID, party).Count(&n).Error; err != nil {
			return err
		}
		if n > 0 {
			return errs.New(errs.Conflict, fmt.Sprintf("Há embargos de declaração pendentes desta parte (%s) quanto a %s: aguardam decisão.", PartyPT[party], cases.NameOf(*d)))
		}
		uid := actor.UserID
		e := Embargos{CaseID: c.ID, DefendantID: &d.ID, Party: party, FiledOn: filed, Text: strings.TrimSpace(in.Text), Status: "pending", CreatedAt: s.Now(), CreatedBy: &uid,
			Against: against, Rule: law.Window + "; sem intimação desta parte registrada, o prazo não começou (CPC, art. 218, § 4º)"}
		w, err := s.embargosWindow(ctx, c, *d, party, noticeKindOf(against))
		if err != nil {
			return err
		}
		if w != nil {
			e.WindowLastDay, e.Rule, e.Late = &w.LastDay, w.Rule, filed.After(w.LastDay)
		}
		if err := tx.Create(&e).Error; err != nil {
			return err
		}
		text := fmt.Sprintf("Opostos embargos de declaração %s em %s quanto a %s, contra %s (%s): interrompido o prazo de recurso de todas as partes quanto a ele(a), que corre de novo, por inteiro, da intimação da decisão dos embargos (%s).",
			byParty(party, d), filed.BR(), cases.NameOf(*d), againstPT[against], law.Base, law.Interrupt)
		if e.Late {
			text = fmt.Sprintf("Opostos embargos de declaração %s em %s quanto a %s, contra %s (%s), intempestivos: fora do %s, contado da ciência de %s. Registrados sem interromper prazo algum (%s); a decisão cabe ao(à) juiz(a).",
				byParty(party, d), filed.BR(), cases.NameOf(*d), againstPT[against], law.Base, w.Text(), w.NotifiedOn.BR(), law.Interrupt)
		} else if err := s.interrupt(ctx, c, d.ID, noticeKindOf(against)); err != nil {
			return err
		}
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
// party's notice of the ruling (Lei 9.099/1995, art. 83, § 2º; CPC art.
// 1.026), unless the embargos were late: those interrupted nothing.
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
		law := lawOf(c)
		text := fmt.Sprintf("Embargos de declaração %s (opostos %s em %s) %s em %s: %s Os prazos de recurso quanto a %s correm de novo, por inteiro, da intimação desta decisão a cada parte (%s).",
			fmt.Sprint(e.ID), byParty(e.Party, &d), e.FiledOn.BR(), verdict, day.BR(), e.RulingText, cases.NameOf(d), law.Interrupt)
		if e.Late {
			text = fmt.Sprintf("Embargos de declaração %s (opostos %s em %s, intempestivos) %s em %s: %s Não interromperam os prazos de recurso quanto a %s (%s).",
				fmt.Sprint(e.ID), byParty(e.Party, &d), e.FiledOn.BR(), verdict, day.BR(), e.RulingText, cases.NameOf(d), law.Interrupt)
		}
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

// interrupt supersedes the notices of kind (the decision the embargos
// attack) as to defendant id of case c (every party's, a group case's
// prosecution notice included): his windows stop and run again from the
// notices of the ruling on the embargos (Lei 9.099/1995, art. 83, § 2º;
// CPC art. 1.026).
func (s *Service) interrupt(ctx context.Context, c *cases.Case, id int64, kind string) error {
	q := db.Conn(ctx, s.DB).Model(&Notification{}).Where("case_id = ? AND kind = ? AND NOT superseded", c.ID, kind)
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
// d of case c keep from the final judgment (Lei 9.099/1995, art. 83, § 2º;
// CPC art. 1.026): the embargos pending decision (FinalityMissing then
// checks the notices after the ruling, from which every window runs
// again). ruled is the day of the last ruling (zero when none). Late
// embargos interrupt nothing and hold nothing.
func (s *Service) EmbargosMissing(ctx context.Context, c *cases.Case, d cases.Defendant) (missing []string, ruled civil.Date, err error) {
	var es []Embargos
	if err := db.Conn(ctx, s.DB).Where("case_id = ? AND defendant_id = ? AND NOT late", c.ID, d.ID).Order("id").Find(&es).Error; err != nil {
		return nil, ruled, err
	}
	for _, e := range es {
		if e.Status == "pending" {
			missing = append(missing, fmt.Sprintf("os embargos de declaração %d, opostos %s em %s, aguardam decisão (%s)", e.ID, byParty(e.Party, &d), e.FiledOn.BR(), lawOf(c).Interrupt))
		} else if e.DecidedOn != nil && e.DecidedOn.After(ruled) {
			ruled = *e.DecidedOn
		}
	}
	return missing, ruled, nil
}

// PendingEmbargos is errs.Conflict when embargos filed in time as to one
// of ds are pending (a notice of the decision waits for their ruling: Lei
// 9.099/1995, art. 83, § 2º; CPC art. 1.026).
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

// againstPT names the decision embargos attack, in Portuguese.
var againstPT = map[string]string{AgainstSentence: "a sentença", AgainstAppealResult: "o acórdão da Turma Recursal"}

// embargosWindow is party's window for embargos as to d against the
// decision whose notices are of kind, counted by sanctions.CountPeriod
// (the embargos' kind by the case's flow: lawOf) from the party's notice
// still counting (the prosecution's naming d or as to every defendant)
// with the court's calendar; nil when the party has none (not notified,
// or its window interrupted by other embargos: it runs again from the
// notice of their ruling).
func (s *Service) embargosWindow(ctx context.Context, c *cases.Case, d cases.Defendant, party, kind string) (*sanctions.Period, error) {
	var ns []Notification
	if err := db.Conn(ctx, s.DB).Where("case_id = ? AND party = ? AND kind = ? AND NOT superseded AND (defendant_id = ? OR defendant_id IS NULL)", c.ID, party, kind, d.ID).
		Order("defendant_id NULLS LAST, id DESC").Limit(1).Find(&ns).Error; err != nil || len(ns) == 0 {
		return nil, err
	}
	cal, k, err := s.courtOf(ctx, c.CourtCode)
	if err != nil {
		return nil, err
	}
	cal.resolve(&ns[0], civil.Today(s.Now(), s.Loc))
	in := periodInput(c.Flow, ns[0], k)
	in.Kind = lawOf(c).Kind
	p, _, err := cal.periodOf(in, ns[0].CreatedAt, s.Loc)
	return &p, err
}
