package sanctions

import "strings"

// PorPT joins the preposition "por" to a Portuguese noun phrase, contracted
// with a leading definite article as the language requires (por + o, a,
// os, as → pelo, pela, pelos, pelas): "pelo Ministério Público", "pela
// defesa de Ana", "pelos próximos 3 jogos de Sport"; any other phrase
// (a name, "sentença condenatória") follows "por " unchanged. The article
// must be written in phrase, in lower case ("o Ministério Público"): a
// capital one is taken as part of a name ("por A Fúria Jovem").
func PorPT(phrase string) string {
	for _, c := range [...]struct{ art, pel string }{{"os ", "pelos "}, {"as ", "pelas "}, {"o ", "pelo "}, {"a ", "pela "}} {
		if strings.HasPrefix(phrase, c.art) {
			return c.pel + phrase[len(c.art):]
		}
	}
	return "por " + phrase
}
