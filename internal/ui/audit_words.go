package ui

import (
	"encoding/json"
	"sort"

	"github.com/juizado/juizado/internal/audit"
)

// The audit trail in words (issue 30, item 4): a row reads "Alteração do
// cadastro de associado de João da Silva", never "update member_history
// 10". The table names stay in the data (and in the API); people read the
// record's kind and, when the row carries one, its name or number.

// auditActions are the trail's operations in Portuguese.
var auditActions = map[string]string{"insert": "Inclusão", "update": "Alteração", "delete": "Exclusão"}

// auditTables name each audited table's records, with the preposition a
// noun takes after "Inclusão".
var auditTables = map[string]string{
	"courts": "do juizado", "fan_groups": "da torcida organizada", "users": "do usuário", "api_tokens": "de token de acesso",
	"user_passwords": "da senha de usuário", "casbin_rule": "de regra de acesso", "casbin_rule_removed": "de regra de acesso removida",
	"venues": "de local de evento", "cases": "do processo", "defendants": "do réu", "movements": "de movimentação processual",
	"bans": "do impedimento", "blocklist_versions": "de versão da lista de bloqueio", "competitions": "de competição", "matches": "de partida",
	"breaches": "de descumprimento", "ban_extensions": "de prorrogação de impedimento", "blocklist_entries": "da lista de bloqueio",
	"members": "do cadastro de associado", "member_periods": "do período de associação", "member_photos": "da foto de associado",
	"member_history": "do cadastro de associado", "member_reads": "de consulta ao cadastro de associado", "documents": "de documento",
	"filing_keys": "de protocolo de petição", "evidence": "de prova", "hearings": "de audiência", "plea_agreements": "de transação penal",
	"conditional_suspensions": "de suspensão condicional do processo", "court_holidays": "de feriado do juizado", "notifications": "de intimação",
	"sentences": "de sentença", "ban_renewals": "de renovação de impedimento", "appeal_results": "de resultado de recurso", "appeals": "de recurso",
	"embargos": "de embargos de declaração", "representations": "de representação da defesa", "case_registers": "de cadastro do processo",
	"case_register_members": "de associado no cadastro do processo", "notice_openings": "de abertura de intimação eletrônica",
}

// auditNameKeys are the fields of a row, in order, that name its record to a
// person: a name, a case number, a title.
var auditNameKeys = []string{"full_name", "name", "number", "title", "club"}

// AuditWords describes e in Portuguese: the operation, the kind of record
// and, when the row (after, or before for a deletion) carries one, its
// name ("Alteração do cadastro de associado de João da Silva").
func AuditWords(e audit.Entry) string {
	act, ok := auditActions[e.Action]
	if !ok {
		act = "Registro"
	}
	what, ok := auditTables[e.Table]
	if !ok {
		what = "de registro do sistema"
	}
	s := act + " " + what
	if name := auditName(e.After); name != "" {
		return s + ": " + name
	}
	if name := auditName(e.Before); name != "" {
		return s + ": " + name
	}
	return s
}

// auditName returns the first of auditNameKeys a row's JSON has as text.
func auditName(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var row map[string]any
	if json.Unmarshal(raw, &row) != nil {
		return ""
	}
	for _, k := range auditNameKeys {
		if v, ok := row[k].(string); ok && v != "" {
			if len([]rune(v)) > 120 {
				v = string([]rune(v)[:120]) + "…"
			}
			return v
		}
	}
	return ""
}

// auditTableChoice is a kind of record the trail's filter offers.
type auditTableChoice struct{ Table, Label string }

// auditTableChoices are the filter's kinds of record, by label.
func auditTableChoices() []auditTableChoice {
	out := make([]auditTableChoice, 0, len(auditTables))
	for t, l := range auditTables {
		out = append(out, auditTableChoice{t, l[3:]})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Label < out[j].Label })
	return out
}
