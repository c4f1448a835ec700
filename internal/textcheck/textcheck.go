// Package textcheck is the one check every name and free text goes through
// where it enters the system (filing, groups, the member register, users):
// valid UTF-8, a bounded length, and none of the characters that make a text
// look other than it is (bidi overrides, zero-width and other format
// characters, controls, the replacement character U+FFFD that an invalid
// JSON escape such as "\ud800" decodes to). Accepted text is normalised to
// NFC, so that "José" typed with a combining accent is the same name as the
// precomposed one.
package textcheck

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Rules returned by Problem (the "rule" of an errs field error).
const (
	RuleUTF8      = "utf8"       // not valid UTF-8
	RuleMaxLength = "max_length" // longer than the limit, in characters
	RuleControl   = "no_control" // a C0/C1 control (tab and line breaks allowed only in multiline text), or U+2028/U+2029
	RuleInvisible = "no_invisible"
	RuleInvalid   = "no_replacement" // U+FFFD, the trace of an invalid byte sequence or escape
)

// Problem says what is wrong with s as a text of at most max characters
// (runes): the rule (one of the Rule constants) and a
// message in Portuguese naming the offending character by code point, or
// ("", "") when s is acceptable. multiline allows tab, CR and LF.
// Refused: invalid UTF-8; U+FFFD; Unicode category Cc (controls) and
// U+2028/U+2029; category Cf (format: bidi controls U+202A–U+202E,
// U+2066–U+2069, U+200E/U+200F, U+061C, zero-width U+200B–U+200D, U+2060,
// U+FEFF, soft hyphen U+00AD, …); category Co (private use) and
// noncharacters.
func Problem(s string, max int, multiline bool) (rule, msg string) {
	if !utf8.ValidString(s) {
		return RuleUTF8, "o texto não está em UTF-8 válido."
	}
	if n := utf8.RuneCountInString(s); n > max {
		return RuleMaxLength, fmt.Sprintf("texto longo demais: %d caracteres, o máximo é %d.", n, max)
	}
	for _, r := range s {
		switch {
		case r == utf8.RuneError:
			return RuleInvalid, "o texto contém o caractere de substituição U+FFFD (�), sinal de bytes ou escape \\u inválidos (por exemplo um \\ud800 sem par), que não é aceito."
		case unicode.Is(unicode.Cc, r) || r == '\u2028' || r == '\u2029':
			if multiline && (r == '\n' || r == '\r' || r == '\t') {
				continue
			}
			return RuleControl, fmt.Sprintf("o texto contém o caractere de controle U+%04X, que não é aceito.", r)
		case isBidi(r):
			return RuleInvisible, fmt.Sprintf("o texto contém o caractere invisível U+%04X, de controle da direção da escrita, que não é aceito.", r)
		case unicode.Is(unicode.Cf, r):
			return RuleInvisible, fmt.Sprintf("o texto contém o caractere invisível U+%04X (de formatação, como o espaço de largura zero), que não é aceito.", r)
		case unicode.Is(unicode.Co, r) || isNonchar(r):
			return RuleInvisible, fmt.Sprintf("o texto contém o caractere U+%04X, de uso privado ou não atribuído, que não é aceito.", r)
		}
	}
	return "", ""
}

// isBidi reports the bidirectional formatting characters (all in Cf).
func isBidi(r rune) bool {
	return r >= 0x202A && r <= 0x202E || r >= 0x2066 && r <= 0x2069 || r == 0x200E || r == 0x200F || r == 0x061C
}

// isNonchar reports the Unicode noncharacters (U+FDD0–U+FDEF and the last
// two code points of every plane).
func isNonchar(r rune) bool {
	return r >= 0xFDD0 && r <= 0xFDEF || r&0xFFFE == 0xFFFE
}

// Line returns s in NFC with its runs of white space made single spaces and
// trimmed: the form a one-line name is stored and compared in.
func Line(s string) string { return strings.Join(strings.Fields(norm.NFC.String(s)), " ") }
