package pdf

import (
	"crypto/rand"
	"encoding/base32"
	"errors"
	"strings"
)

// codeLen is the length of a verification code: 12 base-32 characters, 60
// random bits.
const codeLen = 12

// NewCode returns a random verification code: 12 characters of the RFC 4648
// base-32 alphabet (A–Z, 2–7), from crypto/rand.
func NewCode() (string, error) {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return base32.StdEncoding.EncodeToString(b[:])[:codeLen], nil
}

// GroupCode writes a code in groups of four: ABCD-EFGH-IJKL.
func GroupCode(code string) string {
	if len(code) != codeLen {
		return code
	}
	return code[0:4] + "-" + code[4:8] + "-" + code[8:12]
}

// ErrBadCode is returned by ParseCode for text that cannot be a code.
var ErrBadCode = errors.New("código de verificação inválido: são 12 caracteres (letras A–Z e algarismos 2–7), como ABCD-EFGH-IJKL")

// ParseCode reads a code as people type it: any case, with or without
// hyphens or spaces; the digits 0, 1 and 8, absent from the alphabet, are
// read as the letters O, I and B they resemble.
func ParseCode(s string) (string, error) {
	var b strings.Builder
	for _, r := range strings.ToUpper(s) {
		switch {
		case r == '-' || r == ' ' || r == '.':
		case r >= 'A' && r <= 'Z', r >= '2' && r <= '7':
			b.WriteRune(r)
		case r == '0':
			b.WriteRune('O')
		case r == '1':
			b.WriteRune('I')
		case r == '8':
			b.WriteRune('B')
		default:
			return "", ErrBadCode
		}
	}
	if b.Len() != codeLen {
		return "", ErrBadCode
	}
	return b.String(), nil
}
