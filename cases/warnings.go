package cases

import (
	"context"
	"fmt"
	"strings"

	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/registry"
)

// MaxWarnRows bounds how many other records a warning lists.
const MaxWarnRows = 5

// CPFPT formats a stored CPF (11 digits) as 000.000.000-00.
func CPFPT(cpf string) string { return registry.CPF(cpf).Formatted() }

// BirthDateWarnings warns, for each person defendant of case caseID with a
// CPF (only defendant defendantID when not 0), about other defendant records with the same CPF and another birth
// date (a namesake or a typing error: the blocklist carries CPF and birth
// date, DOMAIN.md §6). The other case is named when it is of court; of
// another court, only that it exists. One indexed query (defendants_cpf).
func (s *Service) BirthDateWarnings(ctx context.Context, caseID, defendantID int64, court string) ([]string, error) {
	var rows []struct {
		DefendantID int64
		FullName    string
		CPF         string `gorm:"column:cpf"`
		BirthDate   civil.Date
		OtherBirth  civil.Date
		Number      string
		CourtCode   string
	}
	err := db.Conn(ctx, s.DB).Raw(`SELECT d.id AS defendant_id, d.full_name, d.cpf, d.birth_date, o.birth_date AS other_birth, k.number, k.court_code
		FROM defendants d
		JOIN defendants o ON o.cpf = d.cpf AND o.id <> d.id AND o.birth_date <> d.birth_date
		JOIN cases k ON k.id = o.case_id
		WHERE d.case_id = ? AND (? = 0 OR d.id = ?) AND d.kind = 'person' AND d.cpf IS NOT NULL AND d.birth_date IS NOT NULL
		ORDER BY d.position, k.id LIMIT ?`, caseID, defendantID, defendantID, 4*MaxWarnRows).Scan(&rows).Error
	if err != nil {
		return nil, err
	}
	var out []string
	for i := 0; i < len(rows); {
		r := rows[i]
		var others []string
		for ; i < len(rows) && rows[i].DefendantID == r.DefendantID; i++ {
			if len(others) == MaxWarnRows {
				continue
			}
			if rows[i].CourtCode == court {
				others = append(others, fmt.Sprintf("%s no processo %s", rows[i].OtherBirth.BR(), FormatNumber(rows[i].Number)))
			} else {
				others = append(others, "outra data num processo de outro juizado")
			}
		}
		out = append(out, fmt.Sprintf("CPF %s (%s): nascimento em %s neste processo, mas %s. Confira a identificação (homônimo ou erro de digitação): a lista de bloqueio leva o CPF com a data de nascimento.",
			CPFPT(r.CPF), r.FullName, r.BirthDate.BR(), strings.Join(others, "; ")))
	}
	return out, nil
}
