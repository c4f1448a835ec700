package registry

import "strings"

// ParseCPFAnySpelling reads a CPF as gates type or scan it: 11 digits with
// any dots, hyphens and spaces among them ("468.819.736-59",
// "468 819 736 59", "46881973659", "468.819.73659"). Letters, other
// characters, a wrong number of digits or wrong check digits are a
// *CPFError. ParseCPF is the strict form for stored data.
func ParseCPFAnySpelling(s string) (CPF, error) {
	digits := strings.Map(func(r rune) rune {
		switch r {
		case '.', '-', ' ', '\t', '\u00a0':
			return -1
		}
		return r
	}, s)
	if digits == "" {
		return "", cpfErr("CPF não informado")
	}
	if !allDigits(digits) {
		return "", cpfErr("CPF deve conter apenas dígitos, pontos, hífen e espaços")
	}
	if len(digits) != 11 {
		return "", cpfErr("CPF deve ter 11 dígitos")
	}
	return checkCPF(digits)
}
