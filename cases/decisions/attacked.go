package decisions

import (
	"context"
	"time"

	"github.com/juizado/juizado/cases/calendar"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/db"
)

// AttackedDecision is the decision that embargos de declaração as to
// defendant defendantID of case caseID attack, and its day (the court's
// zone): when his track is in appeal (inAppeal) and the Turma Recursal's
// result is recorded (confirmed or reformed, as to him or the whole case),
// that judgment (calendar.AgainstAppealResult, its decided_on); otherwise
// his sentence (calendar.AgainstSentence, the day the last one was signed;
// a zero day when none was). It is the calendar.Decisions that
// calendar.Service asks (Lei 9.099/1995, art. 83; CPC art. 1.022).
func (s *Service) AttackedDecision(ctx context.Context, caseID, defendantID int64, inAppeal bool) (string, civil.Date, error) {
	tx := db.Conn(ctx, s.DB)
	if inAppeal {
		var r struct{ Day *civil.Date }
		if err := tx.Model(&AppealResult{}).Select("max(decided_on) AS day").Where("case_id = ? AND result IN ('confirmed', 'reformed') AND (defendant_id IS NULL OR defendant_id = ?)", caseID, defendantID).Scan(&r).Error; err != nil {
			return "", civil.Date{}, err
		}
		if r.Day != nil {
			return calendar.AgainstAppealResult, *r.Day, nil
		}
	}
	var r struct{ At *time.Time }
	if err := tx.Model(&SentenceRecord{}).Select("max(signed_at) AS at").Where("case_id = ? AND defendant_id = ? AND status IN ('signed', 'reformed') AND outcome <> 'precautionary'", caseID, defendantID).Scan(&r).Error; err != nil {
		return "", civil.Date{}, err
	}
	if r.At == nil {
		return calendar.AgainstSentence, civil.Date{}, nil
	}
	return calendar.AgainstSentence, civil.Today(*r.At, s.Loc), nil
}
