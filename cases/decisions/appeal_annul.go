package decisions

import (
	"context"
	"fmt"
	"strings"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/calendar"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/sanctions"
)

// appealTracks are the tracks a result of the Turma Recursal reaches:
// defendant d's (nil: the case's, as a group case has one status); a
// result without defendant_id in a criminal case (a confirmation or an
// annulment) reaches each track in appeal with no final judgment and no
// result yet since its sentence, never a co-defendant who did not appeal
// nor one whose judgment is final (res judicata, CF art. 5º, XXXVI), and
// each reached track gets its own result, so a co-defendant's later appeal
// is judged on its own (DOMAIN.md §4). When no track is in appeal an
// annulment is errs.Invalid on defendant_id; when every track in appeal
// has its result, errs.Conflict; when more than one awaits it, errs.Invalid
// on defendant_id (the Turma may judge co-defendants' appeals apart: the
// result names its defendant).
func (s *Service) appealTracks(ctx context.Context, c *cases.Case, d *cases.Defendant, result string) ([]*cases.Defendant, error) {
	if d != nil || c.Flow == cases.FlowCivil || result == "reformed" {
		return []*cases.Defendant{d}, nil
	}
	ds, err := s.Tracks(ctx, c)
	if err != nil {
		return nil, err
	}
	var out []*cases.Defendant
	inAppeal := 0
	for i := range ds {
		if ds[i].Status != cases.StatusAppeal || ds[i].FinalOn != nil {
			continue
		}
		inAppeal++
		done, err := s.hasAppealResult(ctx, c, &ds[i])
		if err != nil {
			return nil, err
		}
		if !done {
			out = append(out, &ds[i])
		}
	}
	switch {
	case inAppeal == 0 && result == "annulled":
		return nil, noTrackToAnnul(c)
	case len(out) == 0:
		return nil, errAppealJudged
	case len(out) > 1:
		// The Turma Recursal may judge the appeals of co-defendants apart:
		// a result is recorded for the defendant it names, never guessed.
		names := make([]string, len(out))
		for i, d := range out {
			names[i] = cases.NameOf(*d)
		}
		return nil, errs.InvalidField("defendant_id", "required", fmt.Sprintf("mais de um réu está em recurso (%s): informe o réu (defendant_id) cujo recurso a Turma Recursal julgou.", strings.Join(names, ", ")))
	}
	return out, nil
}

// errAppealJudged is the errs.Conflict of a second result for one appeal.
var errAppealJudged = errs.New(errs.Conflict, "O resultado deste recurso já foi registrado: a Turma Recursal julga o recurso uma vez.")

// hasAppealResult tells whether the appeal of defendant d of case c (nil:
// of the group case) already has its result: one recorded for him, or for
// the whole case, since his last signed sentence (Lei 9.099/1995, art. 82:
// the Turma Recursal judges an appeal once).
func (s *Service) hasAppealResult(ctx context.Context, c *cases.Case, d *cases.Defendant) (bool, error) {
	var n int64
	q := db.Conn(ctx, s.DB).Model(&AppealResult{})
	if d == nil {
		q = q.Where("case_id = ? AND created_at >= (SELECT coalesce(max(signed_at), '-infinity') FROM sentences WHERE case_id = ?)", c.ID, c.ID)
	} else {
		q = q.Where("case_id = ? AND (defendant_id = ? OR defendant_id IS NULL) AND created_at >= (SELECT coalesce(max(signed_at), '-infinity') FROM sentences WHERE case_id = ? AND defendant_id = ?)", c.ID, d.ID, c.ID, d.ID)
	}
	err := q.Count(&n).Error
	return n > 0, err
}

// noTrackToAnnul is the errs.Invalid on defendant_id of an annulment
// without defendant_id when no track of criminal case c is in appeal.
func noTrackToAnnul(c *cases.Case) error {
	return errs.InvalidField("defendant_id", "in_appeal", fmt.Sprintf("nenhum réu deste processo está em recurso (está em “%s”): a anulação pela Turma Recursal alcança só os réus em recurso, e a sentença transitada em julgado não se anula (CF, art. 5º, XXXVI); informe o réu (defendant_id) cuja sentença foi anulada.", cases.OrStatus(c.Status)))
}

// trackIDs are the ids of the defendants of tracks (nil entries skipped).
func trackIDs(tracks []*cases.Defendant) []int64 {
	var ids []int64
	for _, t := range tracks {
		if t != nil {
			ids = append(ids, t.ID)
		}
	}
	return ids
}

// annul annuls the signed sentences of the tracks of case c (a nil track:
// the whole group case) and their bans awaiting the final judgment,
// supersedes their notifications and ends the precautionary bans they
// imposed; a sentence of another track stays (CF art. 5º, XXXVI). It
// returns the docket's text and the bans changed.
func (s *Service) annul(ctx context.Context, c *cases.Case, tracks []*cases.Defendant, decided, today civil.Date) (string, []int64, error) {
	tx := db.Conn(ctx, s.DB)
	ids := trackIDs(tracks)
	q := tx.Model(&SentenceRecord{}).Where("case_id = ? AND status = 'signed'", c.ID)
	bq := tx.Model(&sanctions.Ban{}).Where("case_id = ? AND status = ? ", c.ID, sanctions.StatusAwaitingFinal)
	nq := tx.Model(&calendar.Notification{}).Where("case_id = ?", c.ID)
	if ids != nil {
		q, bq, nq = q.Where("defendant_id IN ?", ids), bq.Where("defendant_id IN ?", ids), nq.Where("defendant_id IN ?", ids)
	}
	if err := q.Update("status", "annulled").Error; err != nil {
		return "", nil, err
	}
	if err := bq.Update("status", sanctions.StatusAnnulled).Error; err != nil {
		return "", nil, err
	}
	if err := nq.Update("superseded", true).Error; err != nil {
		return "", nil, err
	}
	const reason = "anulada a sentença que a impôs: cessa a medida cautelar; o(a) juiz(a) pode impô-la de novo"
	var changed []int64
	if ids == nil {
		ended, err := s.EndPrecautionary(ctx, c, 0, today, reason)
		if err != nil {
			return "", nil, err
		}
		changed = ended
	}
	var names []string
	for _, t := range tracks {
		if t == nil {
			continue
		}
		ended, err := s.EndPrecautionary(ctx, c, t.ID, today, reason)
		if err != nil {
			return "", nil, err
		}
		changed = append(changed, ended...)
		names = append(names, cases.NameOf(*t))
	}
	whom := ""
	if len(names) > 0 {
		whom = " quanto a " + strings.Join(names, ", ")
	}
	text := fmt.Sprintf("Turma Recursal, em %s: anulada a sentença%s; os autos voltam para nova sentença.", decided.BR(), whom)
	return text, changed, nil
}
