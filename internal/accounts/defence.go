package accounts

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// RoleDefence is the role of the defence: a lawyer (OAB number and state)
// or a public defender (the Defensoria Pública of a state), who reads and
// acts only in the cases of the defendants it represents (issue 29;
// Lei 9.099/1995, art. 68; CPP arts. 261 and 263; LC 80/1994, art. 4º, V).
const RoleDefence = "defence"

// States are the 27 units of the federation (26 states and the Distrito
// Federal, CF art. 18), by their two-letter codes: the OAB's sections
// (Lei 8.906/1994, art. 45, § 2º) and the states' Defensorias Públicas
// (LC 80/1994, art. 97).
var States = []string{"AC", "AL", "AP", "AM", "BA", "CE", "DF", "ES", "GO", "MA", "MT", "MS", "MG", "PA",
	"PB", "PR", "PE", "PI", "RJ", "RN", "RS", "RO", "RR", "SC", "SP", "SE", "TO"}

// oabShape is an OAB registration as written: the state and the number
// (1 to 7 digits), e.g. "SP123456"; also read with a slash or a space
// ("123456/SP" is not accepted: the state comes first, as on the card's
// short form used in the courts' systems).
var oabShape = regexp.MustCompile(`^([A-Z]{2})[ /-]?([0-9]{1,7})$`)

// ParseOAB reads an OAB registration (Lei 8.906/1994, art. 8º: the lawyer's
// inscription in a state's section): the state's two letters and up to
// seven digits, "SP123456" (spaces, a slash or a hyphen between them and
// lower case are accepted), and returns it as stored ("SP123456"). The
// error, in Portuguese, says which part is wrong.
func ParseOAB(s string) (string, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	m := oabShape.FindStringSubmatch(t)
	if m == nil {
		return "", fmt.Errorf("inscrição na OAB %q inválida: use a UF seguida do número, como SP123456", s)
	}
	if !slices.Contains(States, m[1]) {
		return "", fmt.Errorf("inscrição na OAB %q: %q não é uma UF (use uma das 27: %s)", s, m[1], strings.Join(States, ", "))
	}
	num := strings.TrimLeft(m[2], "0")
	if num == "" {
		return "", fmt.Errorf("inscrição na OAB %q: o número não pode ser zero", s)
	}
	return m[1] + num, nil
}

// ParseUF reads the state of a Defensoria Pública (LC 80/1994, art. 97):
// one of the 27 units of the federation (States), case ignored; the error
// is in Portuguese.
func ParseUF(s string) (string, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	if !slices.Contains(States, t) {
		return "", fmt.Errorf("UF %q desconhecida: use uma das 27 (%s)", s, strings.Join(States, ", "))
	}
	return t, nil
}

// Defensoria reports whether u is a public defender (the Defensoria
// Pública of a state), whose windows are doubled (LC 80/1994, art. 128,
// I; CPC art. 186).
func (u User) Defensoria() bool { return u.DefensoriaUF != nil && *u.DefensoriaUF != "" }

// Credential names a defence user's standing as people read it: "OAB/SP
// 123456" for a lawyer, "Defensoria Pública/SP" for a public defender; ""
// for other roles.
func (u User) Credential() string {
	switch {
	case u.OAB != nil && len(*u.OAB) > 2:
		return "OAB/" + (*u.OAB)[:2] + " " + (*u.OAB)[2:]
	case u.Defensoria():
		return "Defensoria Pública/" + *u.DefensoriaUF
	}
	return ""
}
