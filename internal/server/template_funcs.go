package server

// The template functions of people's pages: dates as dd/mm/aaaa, CPF
// formatted, labels in Portuguese (from their owners: sanctions, cases),
// form fields with their error next to them. The flash message and the
// mapping of a service's error to a page are in internal/ui
// (page_helpers.go); typed dates are read by internal/ui/form.

import (
	"fmt"
	"html/template"
	"slices"
	"strings"
	"time"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/calendar"
	"github.com/juizado/juizado/cases/decisions"
	"github.com/juizado/juizado/internal/accounts"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/registry"
	"github.com/juizado/juizado/sanctions"
)

// fieldView is one labelled form field with what was typed and its error.
type fieldView struct {
	ID, Name, Label, Type, Value, Err, Hint string
	Required                                bool
	Attrs                                   map[string]string
}

// fieldID is the HTML id of a field name: letters, digits and dashes.
func fieldID(name string) string {
	r := strings.NewReplacer("[", "-", "]", "", ".", "-", "_", "-")
	return "f-" + r.Replace(name)
}

// pageFuncs are the functions every page template may call.
func pageFuncs(loc *time.Location) template.FuncMap {
	if loc == nil {
		loc = time.UTC
	}
	return template.FuncMap{
		"papel": RoleLabel,
		// campo builds a field: campo $ "name" "Label" "text" ["obrigatorio"] ["dica=..."] ["attr=value"]...
		"campo": func(p Page, name, label, typ string, opts ...string) fieldView {
			fv := fieldView{ID: fieldID(name), Name: name, Label: label, Type: typ, Value: p.Form.Get(name), Err: p.Errs[name], Attrs: map[string]string{}}
			for _, o := range opts {
				switch k, v, _ := strings.Cut(o, "="); k {
				case "obrigatorio":
					fv.Required = true
				case "dica":
					fv.Hint = v
				case "valor":
					if fv.Value == "" {
						fv.Value = v
					}
				default:
					fv.Attrs[k] = v
				}
			}
			return fv
		},
		"erro": func(p Page, name string) string { return p.Errs[name] },
		// campoID is the id of a form field's input (the error summary's
		// links go to it).
		"campoID": fieldID,
		// temErros: the page carries errors of the form whose fields start
		// with prefix (the form is shown again with them).
		"temErros": func(p Page, prefix string) bool {
			for k := range p.Errs {
				if strings.HasPrefix(k, prefix) {
					return true
				}
			}
			return false
		},
		"valor": func(p Page, name string) string { return p.Form.Get(name) },
		"id":    fieldID,
		"marcado": func(p Page, name, value string) bool {
			for _, v := range p.Form[name] {
				if v == value {
					return true
				}
			}
			return false
		},
		"campoN": func(prefix string, i int, field string) string { return fmt.Sprintf("%s[%d].%s", prefix, i, field) },
		"seq": func(n int) []int {
			out := make([]int, n)
			for i := range out {
				out[i] = i
			}
			return out
		},
		"data":     DateBR,
		"dataHora": func(t any) string { return DateTimeBR(t, loc) },
		"hora": func(t time.Time) string {
			return t.In(loc).Format("15:04")
		},
		"cpf": func(v any) string {
			var s string
			switch x := v.(type) {
			case string:
				s = x
			case *string:
				if x == nil {
					return ""
				}
				s = *x
			}
			if c, err := registry.ParseCPF(s); err == nil {
				return c.Formatted()
			}
			return s
		},
		"situacao":   func(s string) string { return OrSelf(cases.StatusPT[s], s) },
		"conduta":    conductLabel,
		"condutas":   func() []string { return sanctions.ConductWords },
		"relacao":    PlaceLabel,
		"audiencia":  func(k string) string { return OrSelf(cases.HearingKindPT[k], k) },
		"estadoAud":  func(s string) string { return OrSelf(cases.HearingStatusPT[s], s) },
		"estadoBan":  func(s string) string { return OrSelf(sanctions.StatePT[s], s) },
		"resultado":  func(s string) string { return OrSelf(outcomeLabels[s], s) },
		"parte":      func(s string) string { return OrSelf(calendar.PartyPT[s], s) },
		"rito":       func(s string) string { return OrSelf(riteLabels[s], s) },
		"rotuloFlag": func(s string) string { return OrSelf(FlagLabels[s], s) },
		"list":       func(xs ...string) []string { return xs },
		// dias writes a count of days ("1 dia", "10 dias"); an int or *int.
		"dias": func(v any) string {
			n := 0
			switch x := v.(type) {
			case int:
				n = x
			case *int:
				if x != nil {
					n = *x
				}
			}
			if n == 1 {
				return "1 dia"
			}
			return fmt.Sprintf("%d dias", n)
		},
		"estadoSentenca": func(s string) string {
			return OrSelf(map[string]string{"signed": "assinada", "draft": "minuta", "reformed": "reformada em recurso", "annulled": "anulada em recurso"}[s], s)
		},
		"fundamentoAbsolvicao": func(item string) string {
			if t := decisions.AcquittalGrounds[item]; t != "" {
				return "CPP, art. 386, " + item + ": " + t
			}
			return item
		},
		"resultadoRecurso": func(s string) string {
			return OrSelf(map[string]string{"confirmed": "negado provimento, sentença mantida", "reformed": "dado provimento, sentença reformada", "annulled": "sentença anulada"}[s], s)
		},
		"estadoAcordo": func(s string) string { return OrSelf(pleaStatusLabels[s], s) },
		"papeis":       func() []string { return accounts.Roles },
		"contem":       func(list []string, s string) bool { return slices.Contains(list, s) },
		"mais":         func(a, b int) int { return a + b },
		"tpu":          tpuLabel,
		"simnao":       func(b bool) string { return map[bool]string{true: "sim", false: "não"}[b] },
		"linhaErros":   func(l registry.ImportLine) bool { return len(l.Errors) > 0 },
	}
}

// OrSelf is label, or s when s has no label.
func OrSelf(label, s string) string {
	if label == "" {
		return s
	}
	return label
}

// tpuLabel names a movement's national code by its TPU name (Res. CNJ
// 46/2007): "Trânsito em julgado (TPU 848)"; a code the table the database
// holds lacks (a movement recorded before a newer table) says so.
func tpuLabel(m cases.MovementView) string {
	switch {
	case m.TPUCode == nil:
		return ""
	case m.TPUName != "":
		return fmt.Sprintf("%s (TPU %d)", m.TPUName, *m.TPUCode)
	}
	return fmt.Sprintf("código %d, fora da tabela de movimentos da TPU", *m.TPUCode)
}

// DateBR writes a civil date (or instant) as dd/mm/aaaa; "" for none.
func DateBR(v any) string {
	switch x := v.(type) {
	case civil.Date:
		if x.IsZero() {
			return ""
		}
		return x.BR()
	case *civil.Date:
		if x == nil || x.IsZero() {
			return ""
		}
		return x.BR()
	case time.Time:
		if x.IsZero() {
			return ""
		}
		return x.Format("02/01/2006")
	case *time.Time:
		if x == nil {
			return ""
		}
		return DateBR(*x)
	}
	return ""
}

// DateTimeBR writes an instant as dd/mm/aaaa hh:mm in loc.
func DateTimeBR(v any, loc *time.Location) string {
	switch x := v.(type) {
	case time.Time:
		if x.IsZero() {
			return ""
		}
		return x.In(loc).Format("02/01/2006 15:04")
	case *time.Time:
		if x == nil {
			return ""
		}
		return DateTimeBR(*x, loc)
	}
	return ""
}

func conductLabel(w string) string { return OrSelf(sanctions.ConductLabelPT[w], w) }

var placeLabels = map[string]string{"at_venue": "no local do evento (até 500 m)", "within_5000m": "num raio de 5.000 m do local",
	"on_route": "no trajeto de ida ou volta", "beyond_5000m": "além de 5.000 m do local"}

// PlaceLabel names where a fact happened in Portuguese ("" when unknown).
func PlaceLabel(p *string) string {
	if p == nil {
		return ""
	}
	return OrSelf(placeLabels[*p], *p)
}

// outcomeLabels name the outcomes of a sentence (DOMAIN.md §2 "Outcomes").
var outcomeLabels = map[string]string{decisions.OutcomeBan: "condenação com conversão em impedimento",
	decisions.OutcomePrison: "condenação à reclusão e multa, sem conversão", decisions.OutcomeAcquittal: "absolvição",
	decisions.OutcomePrecautionary: "medida cautelar (CPP, art. 319, II)"}

// riteLabels name the rite of a case (Lei 9.099/1995, art. 61).
var riteLabels = map[string]string{sanctions.RiteJECRIM: "rito sumaríssimo (JECRIM)", sanctions.RiteOrdinary: "rito ordinário (pena máxima acima de 2 anos)",
	sanctions.RiteCivil: "rito cível (ação civil pública / TAC)"}

// pleaStatusLabels name the states of a plea agreement and of a
// conditional suspension.
var pleaStatusLabels = map[string]string{"offered": "proposta", "accepted": "aceita", "refused": "recusada", "homologated": "homologada",
	"active": "em curso", "revoked": "revogada", "extinguished": "extinta"}

// FlagLabels name the flags of a defendant in Portuguese (Lei 14.597/2023,
// art. 201).
var FlagLabels = map[string]string{"organiser": "organizou, preparou ou incitou (§ 6º)", "sec7": "racismo ou crime contra a mulher (§ 7º)",
	"weapons": "portava instrumento de violência (§ 1º, II)", "fan_fight": "participou de briga de torcidas (§ 1º, III)", "eligible": "condições do § 2º"}
