package cases

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/errs"
)

// trackOrder is the order of a criminal track, least advanced first: the
// case's status (Summary) is the least advanced open track. The side
// steps of the plea (art. 76) and of the suspension (art. 89) sit where
// they happen on the main path (DOMAIN.md §4).
var trackOrder = []string{StatusFiled, StatusDistributed, StatusPreliminaryHearing, StatusPleaOffered, StatusPleaRefused,
	StatusPleaAccepted, StatusAccusation, StatusConditionalSuspension, StatusInstructionHearing, StatusSentenced, StatusAppeal,
	StatusFinal, StatusExecuting, StatusArchived, StatusRejected, StatusExtinct}

// Ended reports whether a defendant's track in status st has ended: the
// archive (TPU 246; CPP art. 28), the rejection of the accusation (Lei
// 9.099/1995, art. 81; CPP art. 395) or the extinction of punishability
// (CP art. 107).
func Ended(st string) bool {
	return st == StatusArchived || st == StatusRejected || st == StatusExtinct
}

// Summary is the status of a criminal case from its defendants' tracks
// statuses (API.md, "each defendant's track"): the least advanced of the
// open tracks (trackOrder), so that a case stays in the lists of the step
// one of its defendants still waits for; "archived" when every track has
// ended (archived, rejected, extinct). Group (civil) cases have one status
// for the case (the law gives their defendants no track of their own) and
// are not summarised.
func Summary(statuses []string) string {
	best := -1
	for _, st := range statuses {
		if Ended(st) {
			continue
		}
		i := slices.Index(trackOrder, st)
		if i >= 0 && (best < 0 || i < best) {
			best = i
		}
	}
	if best < 0 {
		return StatusArchived
	}
	return trackOrder[best]
}

// TrackOf is defendant d's own status in case c: his track's, or the
// case's while his track never split from it (NULL).
func TrackOf(c *Case, d Defendant) string {
	if d.Status == "" || c.Flow == FlowCivil {
		return c.Status
	}
	return d.Status
}

// Tracks loads the defendants of c in their order, each with his own
// status (TrackOf) in Status.
func (s *Core) Tracks(ctx context.Context, c *Case) ([]Defendant, error) {
	var ds []Defendant
	if err := db.Conn(ctx, s.DB).Where("case_id = ?", c.ID).Order("position, id").Find(&ds).Error; err != nil {
		return nil, err
	}
	for i := range ds {
		ds[i].Status = TrackOf(c, ds[i])
	}
	return ds, nil
}

// SetTrack moves the defendants ids of criminal case c to status (each
// his own track), then the case's status to the Summary of every track,
// and increments the version. A group (civil) case has one status: the
// whole case moves (Touch). finalOn, when not nil, is the day their
// judgment became final.
func (s *Core) SetTrack(ctx context.Context, c *Case, status string, finalOn *civil.Date, ids ...int64) error {
	if c.Flow == FlowCivil {
		return s.Touch(ctx, c, status)
	}
	tx := db.Conn(ctx, s.DB)
	if err := tx.Exec("UPDATE defendants SET status = ? WHERE case_id = ? AND status IS NULL", c.Status, c.ID).Error; err != nil {
		return err
	}
	if len(ids) > 0 {
		set := map[string]any{"status": status}
		if finalOn != nil {
			set["final_on"] = *finalOn
		}
		if err := tx.Table("defendants").Where("case_id = ? AND id IN ?", c.ID, ids).Updates(set).Error; err != nil {
			return err
		}
	}
	var sts []string
	if err := tx.Raw("SELECT status FROM defendants WHERE case_id = ?", c.ID).Scan(&sts).Error; err != nil {
		return err
	}
	return s.Touch(ctx, c, Summary(sts))
}

// TrackStep finds the transition of defendant d of case c, whose track is
// in status from, to status to (the flow of c): ok false when his track
// does not allow it.
func TrackStep(c *Case, from, to string) (Transition, bool) {
	for _, t := range Next(c.Flow, from) {
		if t.To == to {
			return t, true
		}
	}
	return Transition{}, false
}

// NameOf is how the docket names defendant d: the person's name, or the
// group's.
func NameOf(d Defendant) string {
	if d.Kind == "fan_group" && d.GroupName != "" {
		return d.GroupName
	}
	return d.FullName
}

// TrackError is the errs.Invalid of a transition to to that no track of
// ds allows (API.md: 422 when none does), on field (defendant_id when one
// was named, else to), naming each defendant's status and what it allows.
func TrackError(c *Case, ds []Defendant, to, field string) error {
	var parts []string
	for _, d := range ds {
		var names []string
		for _, t := range Next(c.Flow, d.Status) {
			names = append(names, t.To)
		}
		allowed := "nenhuma (situação final)"
		if len(names) > 0 {
			allowed = strings.Join(names, ", ")
		}
		parts = append(parts, fmt.Sprintf("%s está em “%s” (%s); permitidas: %s", NameOf(d), OrStatus(d.Status), d.Status, allowed))
	}
	what := fmt.Sprintf("%q", to)
	if _, ok := StatusPT[to]; !ok || !validIn(c.Flow, to) {
		what = fmt.Sprintf("%q (situação desconhecida no rito %s)", to, flowPT(c.Flow))
	}
	return &errs.Error{Kind: errs.Invalid,
		Message: fmt.Sprintf("Transição não permitida: nenhum réu está em fase de passar a %s.", what),
		Fields: []errs.FieldError{{Field: field, Rule: "transition",
			Message: fmt.Sprintf("a passagem a %s não cabe: %s.", what, strings.Join(parts, "; "))}}}
}
