package sanctions

import "testing"

// Portuguese grammar (contração da preposição "por" com o artigo
// definido): por + o/a/os/as is pelo/pela/pelos/pelas, never "por o"; a
// phrase without an article keeps "por".
func TestPorPT_ContractsWithTheArticle(t *testing.T) {
	for in, want := range map[string]string{
		"o Ministério Público":                  "pelo Ministério Público",
		"a defesa de Helena Teste":              "pela defesa de Helena Teste",
		"os próximos 3 jogos de Sport":          "pelos próximos 3 jogos de Sport",
		"as torcidas":                           "pelas torcidas",
		"o próximo jogo de Sport como mandante": "pelo próximo jogo de Sport como mandante",
		"A Fúria Jovem":                         "por A Fúria Jovem",
		"Helena Teste":                          "por Helena Teste",
		"sentença condenatória":                 "por sentença condenatória",
		"ambos":                                 "por ambos",
		"Ana":                                   "por Ana",
		"osmar":                                 "por osmar",
	} {
		if got := PorPT(in); got != want {
			t.Errorf("PorPT(%q) = %q, want %q", in, got, want)
		}
	}
}
