package sanctions

import "testing"

// Every conduct word has its page label and its statute wording, and
// neither table names a word that does not exist.
func TestConductWordsHaveTheirPortuguese(t *testing.T) {
	for name, m := range map[string]map[string]string{"ConductLabelPT": ConductLabelPT, "ConductStatutePT": ConductStatutePT} {
		for _, w := range ConductWords {
			if m[w] == "" {
				t.Errorf("%s has no words for %q", name, w)
			}
		}
		for w := range m {
			if !IsConductWord(w) {
				t.Errorf("%s names %q, not a conduct word", name, w)
			}
		}
	}
}
