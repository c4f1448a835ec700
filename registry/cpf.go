package registry

import (
	"strings"

	"github.com/juizado/juizado/registry/blocklist/wire"
)

// CPF is a Brazilian individual taxpayer number (Cadastro de Pessoas Físicas)
// held as exactly 11 ASCII digits, without punctuation: nine base digits
// followed by two check digits computed by the Receita Federal mod-11 rule
// (see CPFCheckDigits). A CPF obtained from ParseCPF or
// RestoreCPFLeadingZeros is always valid; a CPF built by conversion from an
// arbitrary string is not checked.
type CPF string

// CPFError reports why a text is not a valid CPF. Reason is a message for
// people, in Brazilian Portuguese, such as "CPF deve ter 11 dígitos".
type CPFError struct {
	Reason string
}

// Error returns the Portuguese reason.
func (e *CPFError) Error() string { return e.Reason }

func cpfErr(reason string) error { return &CPFError{Reason: reason} }

// The spellings ParseCPF accepts, named in its messages (the gate's check,
// ParseCPFAnySpelling, takes any dots, hyphens and spaces among the digits).
const (
	cpfSpellings   = "escreva 000.000.000-00 ou só os 11 dígitos, sem espaços no meio (espaços antes e depois são ignorados)"
	cpfPunctuation = "CPF com pontuação fora do padrão: " + cpfSpellings
	cpfDigitsOnly  = "CPF deve conter apenas dígitos: " + cpfSpellings
)

// ParseCPF reads a CPF written either formatted, "000.000.000-00" (a '.'
// after the 3rd and 6th digits and a '-' after the 9th), or as 11 digits
// with no punctuation; surrounding white space is ignored. Partial or
// misplaced punctuation, letters, a wrong number of digits, all-equal digits
// (such as 111.111.111-11, which pass the arithmetic but are not issued) and
// check digits that do not match the Receita Federal mod-11 rule are rejected
// with a *CPFError.
func ParseCPF(s string) (CPF, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", cpfErr("CPF não informado")
	}
	var digits string
	switch {
	case strings.ContainsAny(s, ".-"):
		if len(s) != 14 || s[3] != '.' || s[7] != '.' || s[11] != '-' {
			return "", cpfErr(cpfPunctuation)
		}
		digits = s[0:3] + s[4:7] + s[8:11] + s[12:14]
	default:
		digits = s
	}
	if !allDigits(digits) {
		return "", cpfErr(cpfDigitsOnly)
	}
	if len(digits) != 11 {
		return "", cpfErr("CPF deve ter 11 dígitos")
	}
	return checkCPF(digits)
}

// checkCPF validates 11 ASCII digits (wire.CPFProblem: the check the gate
// agent makes too).
func checkCPF(digits string) (CPF, error) {
	if reason := wire.CPFProblem(digits); reason != "" {
		return "", cpfErr(reason)
	}
	return CPF(digits), nil
}

// Formatted returns the CPF in the usual display form "000.000.000-00". For a
// value that is not 11 characters long it returns the value unchanged.
func (c CPF) Formatted() string {
	s := string(c)
	if len(s) != 11 {
		return s
	}
	return s[0:3] + "." + s[3:6] + "." + s[6:9] + "-" + s[9:11]
}

// String returns the CPF as 11 digits with no punctuation, the form to store.
func (c CPF) String() string { return string(c) }

// RestoreCPFLeadingZeros repairs a CPF that a spreadsheet (Excel) stored as a
// number and so lost its leading zeros, e.g. "830166190" for 008.301.661-90.
// The input (surrounding white space ignored) must be digits only. With fewer
// than 11 digits it is left-padded with zeros and returned with restored=true
// when the padded number passes the Receita Federal mod-11 check; with exactly
// 11 digits it is validated as is and returned with restored=false. Anything
// else (empty, non-digits, more than 11 digits, a padded or unpadded number
// that fails the check) yields a *CPFError.
func RestoreCPFLeadingZeros(s string) (c CPF, restored bool, err error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", false, cpfErr("CPF não informado")
	}
	if !allDigits(s) {
		return "", false, cpfErr("CPF para recompor zeros à esquerda deve conter apenas dígitos")
	}
	if len(s) > 11 {
		return "", false, cpfErr("CPF deve ter 11 dígitos")
	}
	padded := strings.Repeat("0", 11-len(s)) + s
	c, err = checkCPF(padded)
	if err != nil {
		if len(s) < 11 {
			return "", false, cpfErr("CPF completado com zeros à esquerda não é válido: " + err.Error())
		}
		return "", false, err
	}
	return c, len(s) < 11, nil
}

// CPFCheckDigits returns the two check digits (as a 2-digit string) for the 9
// base digits of a CPF, by the Receita Federal mod-11 rule
// (wire.CPFCheckDigits); "" when first9 is not exactly 9 ASCII digits.
func CPFCheckDigits(first9 string) string { return wire.CPFCheckDigits(first9) }

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
