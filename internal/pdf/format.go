package pdf

import (
	"fmt"
	"github.com/juizado/juizado/registry"
	"strings"
	"time"

	"github.com/juizado/juizado/internal/civil"
)

var monthsPT = [...]string{"", "janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho",
	"agosto", "setembro", "outubro", "novembro", "dezembro"}

// LongDate writes a civil date as people write it in court papers:
// "15 de junho de 2023" (the first of the month as "1º de junho de 2023").
func LongDate(d civil.Date) string {
	if d.IsZero() || !d.Valid() {
		return ""
	}
	day := fmt.Sprint(d.Day)
	if d.Day == 1 {
		day = "1º"
	}
	return fmt.Sprintf("%s de %s de %d", day, monthsPT[d.Month], d.Year)
}

// LongDateTime writes an instant in loc as "15 de junho de 2023, às 16h00".
func LongDateTime(t time.Time, loc *time.Location) string {
	t = t.In(loc)
	return fmt.Sprintf("%s, às %02dh%02d", LongDate(civil.Of(t)), t.Hour(), t.Minute())
}

// ShortDateTime writes an instant in loc as "15/06/2023 16:00".
func ShortDateTime(t time.Time, loc *time.Location) string {
	return t.In(loc).Format("02/01/2006 15:04")
}

// FormatCPF writes 11 digits as 000.000.000-00 (registry.CPF.Formatted);
// anything else unchanged.
func FormatCPF(digits string) string {
	if strings.Trim(digits, "0123456789") != "" {
		return digits
	}
	return registry.CPF(digits).Formatted()
}

// FormatCNJ writes a 20-digit CNJ number as NNNNNNN-DD.AAAA.J.TR.OOOO (Res.
// CNJ 65/2008); anything else unchanged.
func FormatCNJ(n string) string {
	if len(n) != 20 || strings.Trim(n, "0123456789") != "" {
		return n
	}
	return n[0:7] + "-" + n[7:9] + "." + n[9:13] + "." + n[13:14] + "." + n[14:16] + "." + n[16:20]
}

// tribunals names the state courts by the TR segment of CNJ numbers with
// J = 8 (Res. CNJ 65/2008, annex).
var tribunals = map[string]struct{ Name, UF string }{
	"01": {"Tribunal de Justiça do Estado do Acre", "AC"},
	"02": {"Tribunal de Justiça do Estado de Alagoas", "AL"},
	"03": {"Tribunal de Justiça do Estado do Amapá", "AP"},
	"04": {"Tribunal de Justiça do Estado do Amazonas", "AM"},
	"05": {"Tribunal de Justiça do Estado da Bahia", "BA"},
	"06": {"Tribunal de Justiça do Estado do Ceará", "CE"},
	"07": {"Tribunal de Justiça do Distrito Federal e dos Territórios", "DF"},
	"08": {"Tribunal de Justiça do Estado do Espírito Santo", "ES"},
	"09": {"Tribunal de Justiça do Estado de Goiás", "GO"},
	"10": {"Tribunal de Justiça do Estado do Maranhão", "MA"},
	"11": {"Tribunal de Justiça do Estado de Mato Grosso", "MT"},
	"12": {"Tribunal de Justiça do Estado de Mato Grosso do Sul", "MS"},
	"13": {"Tribunal de Justiça do Estado de Minas Gerais", "MG"},
	"14": {"Tribunal de Justiça do Estado do Pará", "PA"},
	"15": {"Tribunal de Justiça do Estado da Paraíba", "PB"},
	"16": {"Tribunal de Justiça do Estado do Paraná", "PR"},
	"17": {"Tribunal de Justiça do Estado de Pernambuco", "PE"},
	"18": {"Tribunal de Justiça do Estado do Piauí", "PI"},
	"19": {"Tribunal de Justiça do Estado do Rio de Janeiro", "RJ"},
	"20": {"Tribunal de Justiça do Estado do Rio Grande do Norte", "RN"},
	"21": {"Tribunal de Justiça do Estado do Rio Grande do Sul", "RS"},
	"22": {"Tribunal de Justiça do Estado de Rondônia", "RO"},
	"23": {"Tribunal de Justiça do Estado de Roraima", "RR"},
	"24": {"Tribunal de Justiça do Estado de Santa Catarina", "SC"},
	"25": {"Tribunal de Justiça do Estado de Sergipe", "SE"},
	"26": {"Tribunal de Justiça do Estado de São Paulo", "SP"},
	"27": {"Tribunal de Justiça do Estado do Tocantins", "TO"},
}

// Tribunal names the state court of a court code TR.OOOO ("" when unknown).
func Tribunal(courtCode string) string {
	tr, _, _ := strings.Cut(courtCode, ".")
	return tribunals[tr].Name
}

// TribunalUF returns the state (UF, e.g. "SP") of the state court of a
// court code TR.OOOO ("" when unknown; Res. CNJ 65/2008, annex).
func TribunalUF(courtCode string) string {
	tr, _, _ := strings.Cut(courtCode, ".")
	return tribunals[tr].UF
}

var units = [...]string{"zero", "um", "dois", "três", "quatro", "cinco", "seis", "sete", "oito", "nove", "dez",
	"onze", "doze", "treze", "quatorze", "quinze", "dezesseis", "dezessete", "dezoito", "dezenove"}
var tens = [...]string{"", "", "vinte", "trinta", "quarenta", "cinquenta", "sessenta", "setenta", "oitenta", "noventa"}
var hundreds = [...]string{"", "cento", "duzentos", "trezentos", "quatrocentos", "quinhentos", "seiscentos",
	"setecentos", "oitocentos", "novecentos"}

// Words writes 0 ≤ n ≤ 999 in Portuguese words, masculine ("dois", "vinte
// e um"); other numbers as digits.
func Words(n int) string {
	switch {
	case n < 0 || n > 999:
		return fmt.Sprint(n)
	case n < 20:
		return units[n]
	case n < 100:
		if n%10 == 0 {
			return tens[n/10]
		}
		return tens[n/10] + " e " + units[n%10]
	case n == 100:
		return "cem"
	}
	if n%100 == 0 {
		return hundreds[n/100]
	}
	return hundreds[n/100] + " e " + Words(n%100)
}

// Count writes n with its unit as court papers do: "30 (trinta) dias-multa",
// "1 (um) dia" (singular for 1, plural otherwise).
func Count(n int, singular, plural string) string {
	unit := plural
	if n == 1 {
		unit = singular
	}
	return fmt.Sprintf("%d (%s) %s", n, Words(n), unit)
}

// Months writes a term as "6 (seis) meses", "1 (um) mês".
func Months(n int) string {
	unit := "meses"
	if n == 1 {
		unit = "mês"
	}
	return fmt.Sprintf("%d (%s) %s", n, Words(n), unit)
}

// Esc makes free text safe to place in document markup: markup characters
// are escaped and line breaks become spaces, so that a name or a
// description can never start a heading, a table or change the type.
func Esc(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == '\\' || r == '*' || r == '|':
			b.WriteByte('\\')
		case i == 0 && (r == '#' || r == ':' || r == '-'):
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
