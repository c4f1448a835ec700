package decisions

import (
	"context"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/db"
)

// priorCase is another case of the court that bars a benefit of Lei
// 9.099/1995 for a defendant: its number (20 digits), the defendant's
// track status in it and what was found there, in Portuguese.
type priorCase struct {
	Number string
	Status string
	What   string
}

// receivedStatuses are the track statuses of a defendant whose accusation
// was received and whose judgment is not final: "being prosecuted" (Lei
// 9.099/1995, art. 89, caput, "não esteja sendo processado"): the
// instruction after the receipt (art. 81), the sentence and the appeal
// awaiting the final judgment, and the conditional suspension, which the
// judge grants "recebendo a denúncia" (art. 89, § 1º). A case merely filed,
// at the preliminary hearing, or with an accusation offered and not
// received is no prosecution yet.
var receivedStatuses = []string{cases.StatusInstructionHearing, cases.StatusConditionalSuspension, cases.StatusSentenced, cases.StatusAppeal}

// finalConvictionSQL selects the final convictions of a CPF for a crime in
// other criminal cases of a court (arguments: cpf, court code, this case's
// id), each as (number, what, at): a signed sentence that stands (not
// reformed to acquittal nor annulled: status 'signed') convicting the
// defendant (outcome ban or prison: the conversion, reclusão alone, or
// the cumulative ban of Lei 7.716/1989, art. 20, § 2º-A), whose judgment
// is final for him (defendants.final_on; for rows before each defendant's
// own track, his track final or executing), never the art. 39 of Lei
// 10.671/2003, a sanction imposed by sentence and no crime. custodial
// keeps the convictions to a custodial penalty only (reclusão without
// conversion, or the cumulative reclusão of art. 20, § 2º-A: Lei
// 9.099/1995, art. 76, § 2º, I).
func finalConvictionSQL(custodial bool) string {
	q := `SELECT k.number, CASE WHEN s.prison_months IS NOT NULL AND (s.outcome = 'prison' OR s.article = 'art. 20, § 2º-A')
			THEN 'reclusão de ' || s.prison_months || ' meses' ELSE 'impedimento de comparecimento (' || s.article || ')' END AS what,
			s.signed_at AS at
		  FROM sentences s JOIN defendants o ON o.id = s.defendant_id JOIN cases k ON k.id = s.case_id
		 WHERE o.cpf = ? AND k.court_code = ? AND k.id <> ? AND k.flow = 'criminal' AND o.kind = 'person'
		   AND s.status = 'signed' AND s.outcome IN ('ban', 'prison') AND s.article <> 'art. 39'
		   AND (o.final_on IS NOT NULL OR coalesce(o.status, k.status) IN ('final', 'executing'))`
	if custodial {
		q += ` AND s.prison_months IS NOT NULL AND (s.outcome = 'prison' OR s.article = 'art. 20, § 2º-A')`
	}
	return q
}

// priorConviction finds the latest final conviction for a crime of
// defendant d's CPF in another case of c's court (finalConvictionSQL;
// custodial: to a custodial penalty only, where a ban converted to prison
// after a breach counts too: Lei 14.597/2023, art. 201, § 3º); nil when
// there is none or d has no CPF.
func (s *Service) priorConviction(ctx context.Context, c *cases.Case, d *cases.Defendant, custodial bool) (*priorCase, error) {
	if d.CPF == nil {
		return nil, nil
	}
	q := finalConvictionSQL(custodial)
	args := []any{*d.CPF, c.CourtCode, c.ID}
	if custodial {
		q += ` UNION ALL
		SELECT k.number, 'impedimento convertido em reclusão pelo descumprimento', b.created_at
		  FROM bans b JOIN cases k ON k.id = b.case_id
		 WHERE b.cpf = ? AND b.court_code = ? AND b.case_id <> ? AND b.status = 'converted'`
		args = append(args, *d.CPF, c.CourtCode, c.ID)
	}
	var hits []priorCase
	if err := db.Conn(ctx, s.DB).Raw(`SELECT number, what FROM (`+q+`) x ORDER BY at DESC NULLS LAST LIMIT 1`, args...).Scan(&hits).Error; err != nil {
		return nil, err
	}
	if len(hits) == 0 {
		return nil, nil
	}
	return &hits[0], nil
}

// prosecutedElsewhere finds another criminal case of c's court where
// defendant d's CPF has the accusation received and no final judgment
// (receivedStatuses; Lei 9.099/1995, art. 89, caput); nil when there is
// none or d has no CPF.
func (s *Service) prosecutedElsewhere(ctx context.Context, c *cases.Case, d *cases.Defendant) (*priorCase, error) {
	if d.CPF == nil {
		return nil, nil
	}
	var hits []priorCase
	err := db.Conn(ctx, s.DB).Raw(`SELECT k.number, coalesce(o.status, k.status) AS status FROM defendants o JOIN cases k ON k.id = o.case_id
		 WHERE o.cpf = ? AND k.court_code = ? AND k.id <> ? AND k.flow = 'criminal' AND coalesce(o.status, k.status) IN ?
		 ORDER BY k.id LIMIT 1`, *d.CPF, c.CourtCode, c.ID, receivedStatuses).Scan(&hits).Error
	if err != nil || len(hits) == 0 {
		return nil, err
	}
	return &hits[0], nil
}
