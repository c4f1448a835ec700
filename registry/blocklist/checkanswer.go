package blocklist

// CheckAnswer is the answer to a CPF check (GET /api/v1/blocklist/check/:cpf
// and the club page's check), with the blocklist version it read
// (../shared/API.md "Public list and blocklist").
type CheckAnswer struct {
	CPF     string     `json:"cpf"`     // the CPF checked, formatted
	Blocked bool       `json:"blocked"` // a ban in force names it
	Bans    []CheckBan `json:"bans"`    // the bans in force
	Version int64      `json:"version"` // the blocklist version read
}
