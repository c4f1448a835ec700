package decisions

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/sanctions"
)

// Appellants: the parties whose appeal the Turma Recursal judges (Lei
// 9.099/1995, art. 82): the defence (the defendant or his counsel, CPP art.
// 577) and the prosecution.
const (
	AppellantDefence     = "defence"
	AppellantProsecution = "prosecution"
)

// AppellantPT names each appellant in Portuguese.
var AppellantPT = map[string]string{AppellantDefence: "defesa", AppellantProsecution: "Ministério Público"}

// Appeal is an appeal recorded on a defendant's track (table appeals):
// who appealed (AppellantDefence or AppellantProsecution); DefendantID nil
// in a group case, which has one status.
type Appeal struct {
	ID          int64     `json:"id"`
	CaseID      int64     `json:"case_id"`
	DefendantID *int64    `json:"defendant_id"`
	Party       string    `json:"party"`
	CreatedAt   time.Time `json:"created_at"`
	CreatedBy   *int64    `json:"-"`
}

// AppellantOf is the appellant a transition's party names: "defence" or
// "defendant" (his own appeal, CPP art. 577) are the defence,
// "prosecution" the prosecution; ok false for anything else.
func AppellantOf(party string) (string, bool) {
	switch strings.TrimSpace(party) {
	case AppellantDefence, "defendant":
		return AppellantDefence, true
	case AppellantProsecution:
		return AppellantProsecution, true
	}
	return "", false
}

// RecordAppeal records party's appeal as to defendant d of case c (d nil:
// the group case) with its docket movement when the track was already in
// appeal (again true: the other party's appeal, "também"); the same party
// twice since the last sentence is errs.Conflict (Lei 9.099/1995, art. 82).
func (s *Service) RecordAppeal(ctx context.Context, actor actor.Actor, c *cases.Case, d *cases.Defendant, party string, again bool) error {
	tx := db.Conn(ctx, s.DB)
	recorded, err := s.recordedAppellants(ctx, c, d)
	if err != nil {
		return err
	}
	if slices.Contains(recorded, party) {
		return errs.New(errs.Conflict, fmt.Sprintf("O recurso (%s) já foi registrado%s.", AppellantPT[party], quantoA(d)))
	}
	var did *int64
	if d != nil {
		did = &d.ID
	}
	uid := actor.UserID
	if err := tx.Create(&Appeal{CaseID: c.ID, DefendantID: did, Party: party, CreatedAt: s.Now(), CreatedBy: &uid}).Error; err != nil {
		return err
	}
	if !again {
		return nil
	}
	text := fmt.Sprintf("Interposto recurso também pelo(a) %s%s para a Turma Recursal (Lei 9.099/1995, art. 82).", AppellantPT[party], quantoA(d))
	if err := s.Move(ctx, c, &actor, s.Now(), cases.MoveAppealFiled, text); err != nil {
		return err
	}
	return s.Touch(ctx, c, "")
}

func quantoA(d *cases.Defendant) string {
	if d == nil {
		return ""
	}
	return " quanto a " + cases.NameOf(*d)
}

// recordedAppellants are the parties whose appeals are recorded on
// defendant d's track (d nil: the case's) since his last sentence was
// signed (an annulment sends the track back: the new sentence's appeals
// are new ones), in the order defence, prosecution.
func (s *Service) recordedAppellants(ctx context.Context, c *cases.Case, d *cases.Defendant) ([]string, error) {
	q := db.Conn(ctx, s.DB).Model(&Appeal{}).Where("case_id = ?", c.ID)
	if d != nil { // his own sentence: a co-defendant's later one does not count
		q = q.Where("(defendant_id IS NULL OR defendant_id = ?) AND created_at >= (SELECT coalesce(max(signed_at), '-infinity') FROM sentences WHERE defendant_id = ? AND status <> 'draft')", d.ID, d.ID)
	} else {
		q = q.Where("created_at >= (SELECT coalesce(max(signed_at), '-infinity') FROM sentences WHERE case_id = ? AND status <> 'draft')", c.ID)
	}
	var parties []string
	if err := q.Distinct("party").Pluck("party", &parties).Error; err != nil {
		return nil, err
	}
	var out []string
	for _, p := range []string{AppellantDefence, AppellantProsecution} {
		if slices.Contains(parties, p) {
			out = append(out, p)
		}
	}
	return out, nil
}

// appellantsOf checks the appellants given with a result (each defence or
// prosecution, errs.Invalid on appellants) and, when none is given,
// defaults them to the parties whose appeals are recorded on the track,
// the defence when none is (API.md "appeal-result").
func (s *Service) appellantsOf(ctx context.Context, c *cases.Case, d *cases.Defendant, given []string) ([]string, error) {
	if len(given) == 0 {
		rec, err := s.recordedAppellants(ctx, c, d)
		if err != nil || len(rec) > 0 {
			return rec, err
		}
		return []string{AppellantDefence}, nil
	}
	var out []string
	for _, g := range given {
		a, ok := AppellantOf(g)
		if !ok {
			return nil, errs.InvalidField("appellants", "oneof", fmt.Sprintf("%q não é parte que recorre: use defence (defesa) e/ou prosecution (Ministério Público).", g))
		}
		if !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	slices.Sort(out) // defence before prosecution
	rec, err := s.recordedAppellants(ctx, c, d)
	if err != nil {
		return nil, err
	}
	// The prosecution named where the track records only the defence's
	// appeal would open a harsher result no appeal asked for (CPP art. 617).
	if slices.Contains(out, AppellantProsecution) && len(rec) > 0 && !slices.Contains(rec, AppellantProsecution) {
		return nil, errs.InvalidField("appellants", "not_recorded", "o recurso do Ministério Público não está registrado no andamento deste réu (só a defesa recorreu): registre-o antes (andamento \"appeal\" com a parte prosecution); sem ele a reforma não pode agravar a situação do réu (CPP, art. 617).")
	}
	return out, nil
}

// severity is what a decision imposes, to compare the Turma Recursal's
// result with the sentence (CPP art. 617): the outcome's rank (acquittal,
// then the conversion into a ban, which spares the reclusão, then the
// reclusão itself), the ban's months, the reclusão's months and days (the
// quantum a breach converts back, Lei 14.597/2023, art. 201, § 3º) and the
// fine in dias-multa.
type severity struct {
	outcome                              string
	banMonths, prison, prisonDays, fines int
}

var outcomeRank = map[string]int{OutcomeAcquittal: 0, OutcomeBan: 1, OutcomePrison: 2}

// harsher names the field of n where n is harsher than o ("" when none):
// the outcome's rank; then, whatever the outcomes (a change of outcome,
// such as the conversion of the reclusão into the ban or the reform of a
// conviction, does not hide a heavier part), each penalty: ban.months,
// prison_months (months, then days), fine_days. The conversion of a
// reclusão into the ban of Lei 14.597/2023, art. 201, § 2º is favourable
// as such, but its term may not be longer than the reclusão it converts
// (a restrictive penalty lasts no longer than the one it replaces, CP art.
// 55): o without a ban compares n's ban with o's reclusão.
func (n severity) harsher(o severity) string {
	if outcomeRank[n.outcome] > outcomeRank[o.outcome] {
		return "outcome"
	}
	if n.outcome == OutcomeAcquittal {
		return ""
	}
	switch {
	case o.banMonths > 0 && n.banMonths > o.banMonths,
		o.banMonths == 0 && o.prison > 0 && n.banMonths > o.prison:
		return "ban.months"
	case n.prison > o.prison, n.prison == o.prison && n.prisonDays > o.prisonDays:
		return "prison_months"
	case n.fines > o.fines:
		return "fine_days"
	}
	return ""
}

// appealLimits checks the Turma Recursal's result after against the
// decision appealed, before, for the appellants: no harsher result
// without the prosecution's appeal (reformatioInPejus: CPP art. 617; CPC
// art. 1.013) and, in a group case, no milder one without the group's
// (beyondAppeal: CPC arts. 1.002 and 1.013); errs.Invalid naming the field.
func appealLimits(c *cases.Case, after, before severity, appellants []string) error {
	if err := reformatioInPejus(c, after.harsher(before), appellants); err != nil {
		return err
	}
	return beyondAppeal(c, before.harsher(after), appellants)
}

// reformatioInPejus is errs.Invalid on field (what is harsher) when the
// prosecution is not among appellants: a result harsher than the sentence
// on the defence's appeal alone is forbidden (CPP art. 617; in a group
// case, the appeal devolves only what was appealed, CPC art. 1.013).
func reformatioInPejus(c *cases.Case, field string, appellants []string) error {
	if field == "" || slices.Contains(appellants, AppellantProsecution) {
		return nil
	}
	rule, who := "CPP, art. 617", "só a defesa recorreu, e a Turma Recursal não pode agravar a situação do réu"
	if c.Flow == cases.FlowCivil {
		rule, who = "CPC, art. 1.013", "só a torcida ré recorreu, e a Turma Recursal não pode agravar a sua situação"
	}
	return &errs.Error{Kind: errs.Invalid,
		Message: fmt.Sprintf("Reformatio in pejus: %s (%s).", who, rule),
		Fields: []errs.FieldError{{Field: field, Rule: "reformatio_in_pejus",
			Message: fmt.Sprintf("o resultado é mais grave que a sentença e o Ministério Público não recorreu (appellants: %s): vedada a reformatio in pejus (%s).", strings.Join(appellants, ", "), rule)}}}
}

// beyondAppeal is errs.Invalid on field (where the result is milder than
// the judgment) when, in a group (civil) case, only the prosecution
// appealed: the appeal devolves to the Turma Recursal only what was
// appealed (tantum devolutum quantum appellatum, CPC arts. 1.002 and
// 1.013), so it may not reduce the group's ban nor dismiss the claim the
// group did not appeal against. In a criminal case the prosecution's
// appeal alone may benefit the defendant: nil.
func beyondAppeal(c *cases.Case, field string, appellants []string) error {
	if field == "" || c.Flow != cases.FlowCivil || slices.Contains(appellants, AppellantDefence) {
		return nil
	}
	const rule = "CPC, arts. 1.002 e 1.013"
	return &errs.Error{Kind: errs.Invalid,
		Message: fmt.Sprintf("Só o Ministério Público recorreu: a Turma Recursal julga só o que foi impugnado e não pode abrandar a sentença em favor da torcida, que não recorreu (%s).", rule),
		Fields: []errs.FieldError{{Field: field, Rule: "tantum_devolutum",
			Message: fmt.Sprintf("o resultado é mais brando que a sentença e a torcida ré não recorreu (appellants: %s): tantum devolutum quantum appellatum (%s).", strings.Join(appellants, ", "), rule)}}}
}

// indirectPejus is errs.Invalid on the field where next, the decision
// being signed for defendant d of criminal case c, is harsher than his
// sentence last annulled by the Turma Recursal on the defence's appeal
// alone (the appellants recorded with the annulment lack the
// prosecution): reformatio in pejus indireta, forbidden by CPP art. 617
// by extension (settled case law of the STF and the STJ). Nil when d has
// no annulled sentence, the prosecution appealed it, or next is not
// harsher (severity.harsher).
func (s *Service) indirectPejus(ctx context.Context, c cases.Case, d cases.Defendant, next severity) error {
	if c.Flow != cases.FlowCriminal {
		return nil
	}
	tx := db.Conn(ctx, s.DB)
	var prev SentenceRecord
	if err := tx.Where("case_id = ? AND defendant_id = ? AND status = 'annulled' AND signed_at IS NOT NULL", c.ID, d.ID).Order("signed_at DESC, id DESC").Limit(1).Find(&prev).Error; err != nil {
		return err
	}
	if prev.ID == 0 {
		return nil
	}
	var r AppealResult
	if err := tx.Where("case_id = ? AND result = 'annulled' AND (defendant_id = ? OR defendant_id IS NULL) AND created_at >= ?", c.ID, d.ID, *prev.SignedAt).Order("created_at, id").Limit(1).Find(&r).Error; err != nil {
		return err
	}
	if r.ID == 0 || slices.Contains(r.Appellants, AppellantProsecution) {
		return nil
	}
	var b *sanctions.Ban
	if prev.BanID != nil {
		var ob sanctions.Ban
		if err := tx.Where("id = ?", *prev.BanID).Limit(1).Find(&ob).Error; err != nil {
			return err
		}
		if ob.ID != 0 {
			b = &ob
		}
	}
	field := next.harsher(severityOf(prev, b))
	if field == "" {
		return nil
	}
	const rule = "CPP, art. 617 (reformatio in pejus indireta)"
	return &errs.Error{Kind: errs.Invalid,
		Message: fmt.Sprintf("Reformatio in pejus indireta: a sentença anterior de %s foi anulada pela Turma Recursal em recurso só da defesa, e a nova sentença não pode ser mais grave que a anulada (%s).", cases.NameOf(d), rule),
		Fields: []errs.FieldError{{Field: field, Rule: "reformatio_in_pejus_indireta",
			Message: fmt.Sprintf("mais grave que a sentença anulada em %s em recurso só da defesa (o Ministério Público não recorreu): vedada a reformatio in pejus indireta (%s).", r.DecidedOn.BR(), rule)}}}
}
