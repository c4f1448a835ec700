package registry

import (
	"errors"
	"strings"
)

// ParseCNPJ reads a CNPJ (Receita Federal, mod-11 check digits) written as
// 00.000.000/0000-00 or 14 digits and returns the 14 digits; the error
// message is in Portuguese.
func ParseCNPJ(s string) (string, error) {
	d := strings.Map(func(r rune) rune {
		switch {
		case r >= '0' && r <= '9':
			return r
		case r == '.' || r == '/' || r == '-' || r == ' ':
			return -1
		}
		return 'x'
	}, strings.TrimSpace(s))
	if len(d) != 14 || strings.ContainsRune(d, 'x') {
		return "", errors.New("CNPJ deve ter 14 dígitos.")
	}
	if strings.Count(d, d[:1]) == 14 {
		return "", errors.New("CNPJ com todos os dígitos iguais é inválido.")
	}
	check := func(n int) byte {
		weights := []int{6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2}[13-n:]
		sum := 0
		for i := 0; i < n; i++ {
			sum += int(d[i]-'0') * weights[i]
		}
		r := sum % 11
		if r < 2 {
			return '0'
		}
		return byte('0' + 11 - r)
	}
	if check(12) != d[12] || check(13) != d[13] {
		return "", errors.New("dígitos verificadores do CNPJ não conferem.")
	}
	return d, nil
}

// FormatCNPJ writes 14 digits as 00.000.000/0000-00; anything else is
// returned unchanged.
func FormatCNPJ(d string) string {
	if len(d) != 14 {
		return d
	}
	return d[0:2] + "." + d[2:5] + "." + d[5:8] + "/" + d[8:12] + "-" + d[12:14]
}
