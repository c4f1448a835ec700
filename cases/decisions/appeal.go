package decisions

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/errs"
	"gorm.io/gorm"
)

// AppealResultInput is the body of POST /api/v1/cases/{id}/appeal-result:
// the Turma Recursal's result (confirmed, reformed, annulled), the day it
// was decided, the defendant it concerns (required for reformed), the
// appellants (defence, prosecution: default those recorded on the track,
// the defence when none is) and, for reformed, the new decision: outcome
// acquittal; ban with ban.months (a new term, the conversion of the
// reclusão into the ban of Lei 14.597/2023, art. 201, § 2º, or a
// conviction on the prosecution's appeal against an acquittal), with the
// reporting duty (default the sentence's); or prison with prison_months
// and fine_days (no conversion). Eligible, when set, is the Turma's
// finding on the conditions of § 2º (default: true for ban, false for
// prison).
type AppealResultInput struct {
	// PrisonMonths and FineDays: a reform to reclusão and fine with no
	// conversion (outcome prison), or the reclusão a conversion converts.
	PrisonMonths    *int                 `json:"prison_months"`
	FineDays        *int                 `json:"fine_days"`
	Result          string               `json:"result"`
	DefendantID     int64                `json:"defendant_id"`
	DecidedOn       string               `json:"decided_on"`
	Text            string               `json:"text"`
	Outcome         string               `json:"outcome"`
	Ban             BanInput             `json:"ban"`
	Appellants      []string             `json:"appellants"`
	ReportingDuty   *cases.ReportingDuty `json:"reporting_duty"`
	Eligible        *bool                `json:"eligible"`
	AcquittalGround string               `json:"acquittal_ground"`
}

// AppealResult is a recorded result of an appeal (table appeal_results):
// Appellants the parties whose appeal was judged; Outcome and BanID what
// a reform decided.
type AppealResult struct {
	ID             int64      `json:"id"`
	CaseID         int64      `json:"case_id"`
	DefendantID    *int64     `json:"defendant_id"`
	Result         string     `json:"result"`
	DecidedOn      civil.Date `json:"decided_on"`
	Text           string     `json:"text"`
	AppellantsList string     `json:"-" gorm:"column:appellants"`
	Appellants     []string   `json:"appellants" gorm:"-"`
	Outcome        string     `json:"outcome,omitempty"`
	BanID          *int64     `json:"ban_id,omitempty"`
	CreatedAt      time.Time  `json:"created_at"`
	CreatedBy      *int64     `json:"-"`
}

// AfterFind fills Appellants from the stored list.
func (r *AppealResult) AfterFind(*gorm.DB) error {
	r.Appellants = strings.Split(r.AppellantsList, ",")
	return nil
}

// SentenceDay is the day (in the court's zone) the last sentence of case
// caseID was signed, the decision an appeal attacks; ok is false when no
// sentence of the case was signed.
func (s *Service) SentenceDay(ctx context.Context, caseID int64) (day civil.Date, ok bool, err error) {
	var at *time.Time
	if err := db.Conn(ctx, s.DB).Model(&SentenceRecord{}).Where("case_id = ? AND signed_at IS NOT NULL", caseID).Select("max(signed_at)").Scan(&at).Error; err != nil {
		return civil.Date{}, false, err
	}
	if at == nil {
		return civil.Date{}, false, nil
	}
	return civil.Today(*at, s.Loc), true, nil
}

// ApplyAppealResult records the Turma Recursal's result of the appeal of
// case caseID and applies it, in the transaction of ctx, and returns the
// case (casefile.Service.RecordAppealResult answers with its view; the
// rules are written there). The result concerns the defendant named; an
// annulment without defendant_id in a criminal case reaches every track in
// appeal and no other (appealTracks), each with a result of its own and
// its own appellants.
func (s *Service) ApplyAppealResult(ctx context.Context, actor actor.Actor, caseID int64, in AppealResultInput) (*cases.Case, error) {
	c, d, decided, err := s.lockAppeal(ctx, actor, caseID, in)
	if err != nil {
		return nil, err
	}
	tracks, err := s.appealTracks(ctx, c, d, in.Result)
	if err != nil {
		return nil, err
	}
	appellants := make([][]string, len(tracks))
	for i, t := range tracks {
		if appellants[i], err = s.appellantsOf(ctx, c, t, in.Appellants); err != nil {
			return nil, err
		}
	}
	today := civil.Today(s.Now(), s.Loc)
	now := s.Now()
	uid := actor.UserID
	kind := cases.MoveAppealDenied
	text := fmt.Sprintf("Turma Recursal, em %s: negado provimento ao recurso; mantida a sentença.", decided.BR())
	row := AppealResult{CaseID: c.ID, Result: in.Result, DecidedOn: decided, Text: strings.TrimSpace(in.Text), CreatedAt: now, CreatedBy: &uid}
	var changed []int64
	switch in.Result {
	case "reformed":
		kind = cases.MoveAppealGranted
		r, err := s.reform(ctx, c, d, in, appellants[0], decided, today)
		if err != nil {
			return nil, err
		}
		text, changed, row.Outcome, row.BanID = r.text, r.changed, r.outcome, r.banID
	case "annulled":
		kind = cases.MoveAppealGranted
		if text, changed, err = s.annul(ctx, c, tracks, decided, today); err != nil {
			return nil, err
		}
	}
	text += " Recorrente(s): " + tracksAppellantsText(tracks, appellants) + "."
	if t := strings.TrimSpace(in.Text); t != "" {
		text += " " + t
	}
	for i, t := range tracks {
		r := row
		r.AppellantsList = strings.Join(appellants[i], ",")
		if t != nil {
			r.DefendantID = &t.ID
		}
		if err := db.Conn(ctx, s.DB).Create(&r).Error; err != nil {
			return nil, err
		}
	}
	if err := s.Move(ctx, c, &actor, now, kind, text); err != nil {
		return nil, err
	}
	if err := s.afterAppeal(ctx, c, tracks, in.Result); err != nil {
		return nil, err
	}
	if len(changed) > 0 {
		if err := s.RefreshBlocklist(ctx, changed...); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// tracksAppellantsText names the appellants of each track in Portuguese:
// once when every track has the same, else each with its defendant.
func tracksAppellantsText(tracks []*cases.Defendant, appellants [][]string) string {
	same := true
	for _, a := range appellants[1:] {
		same = same && slices.Equal(a, appellants[0])
	}
	if same {
		return appellantsText(appellants[0])
	}
	parts := make([]string, len(tracks))
	for i, t := range tracks {
		parts[i] = fmt.Sprintf("%s (%s)", appellantsText(appellants[i]), cases.NameOf(*t))
	}
	return strings.Join(parts, "; ")
}

// afterAppeal moves the tracks an annulment sends back for a new sentence
// (those it reached; a group case: the hearing); other results leave them
// in appeal until the final judgment.
func (s *Service) afterAppeal(ctx context.Context, c *cases.Case, tracks []*cases.Defendant, result string) error {
	if result != "annulled" {
		return s.Touch(ctx, c, "")
	}
	if c.Flow == cases.FlowCivil {
		return s.Touch(ctx, c, cases.StatusHearing)
	}
	return s.SetTrack(ctx, c, cases.StatusInstructionHearing, nil, trackIDs(tracks)...)
}

// lockAppeal locks case caseID for its appeal's result and checks in: the
// clerk records it (errs.Forbidden), the case is in appeal (errs.Conflict;
// an annulment without defendant_id of a criminal case with no track in
// appeal: errs.Invalid on defendant_id) and has no result yet since its
// last sentence (errs.Conflict), decided_on is not in
// the future nor before the sentence, a reform names its defendant and its
// new decision (errs.Invalid). It returns the case, the defendant (nil for
// the whole case) and the day the appeal was decided.
func (s *Service) lockAppeal(ctx context.Context, actor actor.Actor, caseID int64, in AppealResultInput) (*cases.Case, *cases.Defendant, civil.Date, error) {
	c, err := s.LockCase(ctx, actor, caseID)
	if err != nil {
		return nil, nil, civil.Date{}, err
	}
	if actor.Role != "clerk" {
		return nil, nil, civil.Date{}, errs.New(errs.Forbidden, "O resultado do recurso é registrado pelo cartório (clerk).")
	}
	if err := s.inAppeal(ctx, c, nil); err != nil { // some track in appeal
		if in.Result == "annulled" && in.DefendantID == 0 && c.Flow == cases.FlowCriminal {
			err = noTrackToAnnul(c) // it would reach no track: name the defendant
		}
		return nil, nil, civil.Date{}, err
	}
	var f errs.Fields
	today := civil.Today(s.Now(), s.Loc)
	var decided civil.Date
	if in.DecidedOn == "" {
		decided = today
	} else if d, ok := cases.ParseDate(&f, "decided_on", in.DecidedOn); ok {
		if d.After(today) {
			f.Add("decided_on", "not_future", "o julgamento do recurso não pode estar no futuro.")
		}
		decided = d
	}
	// The Turma Recursal judges the appeal of a signed sentence: not
	// before the day it was signed (Lei 9.099/1995, art. 82).
	if signed, ok, err := s.SentenceDay(ctx, c.ID); err != nil {
		return nil, nil, civil.Date{}, err
	} else if ok && !decided.IsZero() && decided.Before(signed) {
		f.Add("decided_on", "after_sentence", fmt.Sprintf("a sentença recorrida é de %s: o julgamento do recurso não lhe é anterior.", signed.BR()))
	}
	cases.CheckText(&f, "text", in.Text, cases.MaxLong, true)
	var d *cases.Defendant
	if in.DefendantID != 0 {
		if d, err = s.PersonOf(ctx, c, in.DefendantID, "defendant_id"); err != nil {
			return nil, nil, civil.Date{}, err
		}
	}
	if d != nil {
		if err := s.inAppeal(ctx, c, d); err != nil { // his own track
			return nil, nil, civil.Date{}, err
		}
	}
	switch in.Result {
	case "confirmed", "annulled":
	case "reformed":
		if d == nil {
			f.Add("defendant_id", "required", "informe o réu cuja sentença foi reformada.")
		}
		checkReformShape(&f, in)
	default:
		f.Add("result", "oneof", "use confirmed (negado provimento), reformed (reformada) ou annulled (anulada).")
	}
	if err := f.Err(); err != nil {
		return nil, nil, civil.Date{}, err
	}
	// One result per appeal (a criminal case's result without defendant_id:
	// per track, appealTracks).
	if d != nil || c.Flow == cases.FlowCivil {
		if done, err := s.hasAppealResult(ctx, c, d); err != nil || done {
			if err == nil {
				err = errAppealJudged
			}
			return nil, nil, civil.Date{}, err
		}
	}
	return c, d, decided, nil
}

// inAppeal is errs.Conflict unless defendant d's track (d nil: some
// defendant's; a group case's: the case's) is in appeal (DOMAIN.md §4).
func (s *Service) inAppeal(ctx context.Context, c *cases.Case, d *cases.Defendant) error {
	if c.Flow == cases.FlowCivil || d == nil {
		ds, err := s.Tracks(ctx, c)
		if err != nil {
			return err
		}
		for _, x := range ds {
			if x.Status == cases.StatusAppeal {
				return nil
			}
		}
		return errs.New(errs.Conflict, fmt.Sprintf("O processo não está em recurso (está em “%s”).", cases.OrStatus(c.Status)))
	}
	if st := cases.TrackOf(c, *d); st != cases.StatusAppeal {
		return errs.New(errs.Conflict, fmt.Sprintf("O réu %s não está em recurso (está em “%s”).", cases.NameOf(*d), cases.OrStatus(st)))
	}
	return nil
}
