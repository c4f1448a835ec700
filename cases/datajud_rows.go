package cases

import (
	"context"
	"time"

	"github.com/juizado/juizado/internal/db"
	"gorm.io/gorm"
)

// DataJudCase is a case as the DataJud export reads it (Res. CNJ
// 331/2020): the case, its defendants by position (only what the export
// may write: kind, name, CPF, group name, CNPJ) and its docket up to the
// end of the month, in docket order.
type DataJudCase struct {
	Case       Case
	Defendants []Defendant
	Movements  []Movement
}

// DataJudBatch returns up to limit cases of court with a movement at an
// instant in [start, end), after case id after, by id (keyset: the next
// batch starts after the last id), each with its defendants and its
// movements before end.
func DataJudBatch(ctx context.Context, g *gorm.DB, court string, start, end time.Time, after int64, limit int) ([]DataJudCase, error) {
	conn := db.Conn(ctx, g)
	var cs []Case
	if err := conn.Raw(`SELECT c.* FROM cases c WHERE c.court_code = ? AND c.id > ?
		AND EXISTS (SELECT 1 FROM movements m WHERE m.case_id = c.id AND m.at >= ? AND m.at < ?)
		ORDER BY c.id LIMIT ?`, court, after, start, end, limit).Scan(&cs).Error; err != nil {
		return nil, err
	}
	if len(cs) == 0 {
		return nil, nil
	}
	ids := make([]int64, len(cs))
	at := make(map[int64]int, len(cs))
	out := make([]DataJudCase, len(cs))
	for i, c := range cs {
		ids[i], at[c.ID], out[i].Case = c.ID, i, c
	}
	var ds []Defendant
	if err := conn.Select("id, case_id, position, kind, full_name, cpf, group_name, cnpj").
		Where("case_id IN ?", ids).Order("case_id, position").Find(&ds).Error; err != nil {
		return nil, err
	}
	for _, d := range ds {
		i := at[d.CaseID]
		out[i].Defendants = append(out[i].Defendants, d)
	}
	var ms []Movement
	if err := conn.Select("id, case_id, at, tpu_code, kind, complements").
		Where("case_id IN ? AND at < ?", ids, end).Order("case_id, at, id").Find(&ms).Error; err != nil {
		return nil, err
	}
	for _, m := range ms {
		i := at[m.CaseID]
		out[i].Movements = append(out[i].Movements, m)
	}
	return out, nil
}
