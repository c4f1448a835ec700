package cases

import (
	"fmt"
	"strings"
)

// CNJNumber is a CNJ unique case number (numeração única, Res. CNJ 65/2008),
// written NNNNNNN-DD.AAAA.J.TR.OOOO. The check digits DD follow ISO 7064
// mod 97-10: the number is valid when the 20-digit string N AAAA J TR OOOO DD
// (DD moved to the end) is congruent to 1 mod 97. A CNJNumber obtained from
// ParseCNJ or NewCNJ is always valid.
type CNJNumber struct {
	Sequence    int // NNNNNNN: sequence of the case in the unit and year, 0..9999999
	CheckDigits int // DD: check digits, 0..99
	Year        int // AAAA: year the case was filed, 0..9999
	Segment     int // J: judiciary segment, 1..9 (8 = state courts); 0 is invalid
	Court       int // TR: court within the segment, 0..99 (26 = TJSP, 19 = TJRJ ...)
	Unit        int // OOOO: originating unit, 0..9999
}

// CNJError reports why a text or a set of parts is not a valid CNJ number.
// Reason is a message for people, in Brazilian Portuguese.
type CNJError struct {
	Reason string
}

// Error returns the Portuguese reason.
func (e *CNJError) Error() string { return e.Reason }

func cnjErr(format string, a ...any) error {
	return &CNJError{Reason: fmt.Sprintf(format, a...)}
}

// ParseCNJ reads a CNJ number written "NNNNNNN-DD.AAAA.J.TR.OOOO" or as its 20
// digits with no punctuation (NNNNNNNDDAAAAJTROOOO); surrounding white space
// is ignored. Every segment J from 1 to 9 is accepted. It returns a *CNJError
// for any other shape, a non-digit, segment 0, or check digits that fail
// ISO 7064 mod 97-10 (Res. CNJ 65/2008): N AAAA J TR OOOO DD mod 97 must be 1
// and DD must be in 02..98, the only values the rule issues (so 01 and 99,
// congruent to 98 and 02, are rejected and every number has one spelling). The check is computed digit by digit
// on the string, so it never overflows.
func ParseCNJ(s string) (CNJNumber, error) {
	s = strings.TrimSpace(s)
	var d string
	switch len(s) {
	case 25:
		if s[7] != '-' || s[10] != '.' || s[15] != '.' || s[17] != '.' || s[20] != '.' {
			return CNJNumber{}, cnjErr("número CNJ fora do padrão NNNNNNN-DD.AAAA.J.TR.OOOO")
		}
		d = s[0:7] + s[8:10] + s[11:15] + s[16:17] + s[18:20] + s[21:25]
	case 20:
		d = s
	default:
		return CNJNumber{}, cnjErr("número CNJ deve ter 20 dígitos no padrão NNNNNNN-DD.AAAA.J.TR.OOOO")
	}
	for i := 0; i < len(d); i++ {
		if d[i] < '0' || d[i] > '9' {
			return CNJNumber{}, cnjErr("número CNJ deve conter apenas dígitos (e, se formatado, a pontuação NNNNNNN-DD.AAAA.J.TR.OOOO)")
		}
	}
	n := CNJNumber{
		Sequence:    atoi(d[0:7]),
		CheckDigits: atoi(d[7:9]),
		Year:        atoi(d[9:13]),
		Segment:     atoi(d[13:14]),
		Court:       atoi(d[14:16]),
		Unit:        atoi(d[16:20]),
	}
	if n.Segment == 0 {
		return CNJNumber{}, cnjErr("segmento do Judiciário (J) do número CNJ deve estar entre 1 e 9")
	}
	// ISO 7064 mod 97-10 issues 02..98 only: 00, 01 and 99 can satisfy the
	// congruence (01 ≡ 98, 99 ≡ 02) but are never the real check digits.
	if mod97(d[0:7]+d[9:20]+d[7:9]) != 1 || n.CheckDigits < 2 || n.CheckDigits > 98 {
		return CNJNumber{}, cnjErr("dígitos verificadores do número CNJ não conferem")
	}
	return n, nil
}

// NewCNJ builds a CNJ number from its parts and computes the check digits
// DD = 98 - ((N AAAA J TR OOOO × 100) mod 97) (Res. CNJ 65/2008, ISO 7064
// mod 97-10). It returns a *CNJError when a part is out of range: sequence
// 0..9999999, year 0..9999, segment 1..9, court 0..99, unit 0..9999.
func NewCNJ(sequence, year, segment, court, unit int) (CNJNumber, error) {
	if err := checkParts(sequence, year, segment, court, unit); err != nil {
		return CNJNumber{}, err
	}
	return CNJNumber{
		Sequence:    sequence,
		CheckDigits: CNJCheckDigits(sequence, year, segment, court, unit),
		Year:        year,
		Segment:     segment,
		Court:       court,
		Unit:        unit,
	}, nil
}

func checkParts(sequence, year, segment, court, unit int) error {
	switch {
	case sequence < 0 || sequence > 9999999:
		return cnjErr("sequencial do número CNJ deve estar entre 0 e 9999999 (recebido %d)", sequence)
	case year < 0 || year > 9999:
		return cnjErr("ano do número CNJ deve estar entre 0 e 9999 (recebido %d)", year)
	case segment < 1 || segment > 9:
		return cnjErr("segmento do Judiciário (J) do número CNJ deve estar entre 1 e 9 (recebido %d)", segment)
	case court < 0 || court > 99:
		return cnjErr("tribunal (TR) do número CNJ deve estar entre 0 e 99 (recebido %d)", court)
	case unit < 0 || unit > 9999:
		return cnjErr("unidade de origem (OOOO) do número CNJ deve estar entre 0 e 9999 (recebido %d)", unit)
	}
	return nil
}

// String returns the number formatted as NNNNNNN-DD.AAAA.J.TR.OOOO, e.g.
// "0000001-39.2024.8.26.0100". Parts are zero-padded, not checked.
func (n CNJNumber) String() string {
	return fmt.Sprintf("%07d-%02d.%04d.%d.%02d.%04d",
		n.Sequence, n.CheckDigits, n.Year, n.Segment, n.Court, n.Unit)
}

// Digits returns the 20 digits of the number with no punctuation, in display
// order NNNNNNNDDAAAAJTROOOO. Parts are zero-padded, not checked.
func (n CNJNumber) Digits() string {
	return fmt.Sprintf("%07d%02d%04d%d%02d%04d",
		n.Sequence, n.CheckDigits, n.Year, n.Segment, n.Court, n.Unit)
}

// CNJCheckDigits returns the check digits DD (0..99; in practice 2..98) for
// the given parts: DD = 98 - ((N AAAA J TR OOOO × 100) mod 97), per Res. CNJ
// 65/2008 (ISO 7064 mod 97-10), computed without overflow. It returns -1 when
// a part is out of the ranges NewCNJ accepts.
func CNJCheckDigits(sequence, year, segment, court, unit int) int {
	if checkParts(sequence, year, segment, court, unit) != nil {
		return -1
	}
	s := fmt.Sprintf("%07d%04d%d%02d%04d00", sequence, year, segment, court, unit)
	return 98 - mod97(s)
}

// mod97 returns the value of a decimal digit string mod 97, one digit at a time.
func mod97(digits string) int {
	r := 0
	for i := 0; i < len(digits); i++ {
		r = (r*10 + int(digits[i]-'0')) % 97
	}
	return r
}

func atoi(digits string) int {
	v := 0
	for i := 0; i < len(digits); i++ {
		v = v*10 + int(digits[i]-'0')
	}
	return v
}
