package audit

import (
	"encoding/json"
	"strings"
)

// RedactMemberData empties before and after of the rows of the member
// registers (domain "group:ID": a member's personal data, or what a read
// returned) for an admin, who has no member data (DOMAIN.md §7); the row
// (who, when, action, table, record) stays.
//
// Defendants' personal data is kept from an admin too:
// in every other row, the keys of personalKeys are removed from before and
// after (a defendant's CPF, birth date, parents' names, address, and the
// same in a read's detail), the rest of the row stays.
func RedactMemberData(role string, items []Entry) {
	if role != "admin" {
		return
	}
	for i := range items {
		if strings.HasPrefix(items[i].Domain, "group:") {
			items[i].Before, items[i].After = nil, nil
			continue
		}
		items[i].Before = stripPersonal(items[i].Before)
		items[i].After = stripPersonal(items[i].After)
	}
}

// personalKeys are the fields of a person's data that an admin never reads
// (DOMAIN.md §7: the admin manages accounts, not cases).
var personalKeys = []string{"cpf", "birth_date", "mother_name", "father_name", "address", "photo", "phone", "email", "rg", "full_name_folded"}

// stripPersonal removes personalKeys from a JSON object, at any depth.
func stripPersonal(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 || string(raw) == "null" {
		return raw
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil
	}
	var walk func(any) any
	walk = func(x any) any {
		switch t := x.(type) {
		case map[string]any:
			for _, k := range personalKeys {
				delete(t, k)
			}
			for k, e := range t {
				t[k] = walk(e)
			}
		case []any:
			for i, e := range t {
				t[i] = walk(e)
			}
		}
		return x
	}
	out, err := json.Marshal(walk(v))
	if err != nil {
		return nil
	}
	return out
}
