package blocklist

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"

	"github.com/juizado/juizado/registry"
)

// blocklistCSV is the CSV of a snapshot's items (GET /api/v1/blocklist
// with format=csv): a header, then one line per entry; names guarded
// against spreadsheet formulas (registry.SafeCell).
func blocklistCSV(snap *Snapshot) ([]byte, error) {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	// scope: empty for anywhere, else the entry's scope as JSON
	// ({"venues":[...],"venue_ids":[...],"clubs":[...]}); match_days: empty,
	// or the JSON array of the match days of a term counted in matches.
	_ = w.Write([]string{"cpf", "name", "birth_date", "first_day", "last_day", "ban_id", "group_ban_id", "case_number", "court", "scope", "match_days"})
	for _, e := range snap.Items {
		bd, ld, gb, sc, md := "", "", "", "", ""
		if e.Scope != nil {
			b, err := json.Marshal(e.Scope)
			if err != nil {
				return nil, err
			}
			sc = string(b)
		}
		if e.MatchDays != nil {
			b, err := json.Marshal(e.MatchDays)
			if err != nil {
				return nil, err
			}
			md = string(b)
		}
		if e.BirthDate != nil {
			bd = e.BirthDate.String()
		}
		if e.LastDay != nil {
			ld = e.LastDay.String()
		}
		if e.GroupBanID != nil {
			gb = fmt.Sprint(*e.GroupBanID)
		}
		_ = w.Write([]string{e.CPF, registry.SafeCell(e.Name), bd, e.FirstDay.String(), ld, fmt.Sprint(e.BanID), gb, e.CaseNumber, e.Court, sc, md})
	}
	w.Flush()
	return buf.Bytes(), w.Error()
}
