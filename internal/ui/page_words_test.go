package ui

import "testing"

// The services' messages reach a page in the words of its forms: no API
// field name, no hint in parentheses for a client (issue 30, item 4).
func TestPageWordsNameTheFormsFields(t *testing.T) {
	for in, want := range map[string]string{
		"O Ministério Público não declarou as circunstâncias (art. 76, § 2º, III): presumidos favoráveis; informe circumstances_favourable e circumstances_statement.": "O Ministério Público não declarou as circunstâncias (art. 76, § 2º, III): presumidos favoráveis; informe “circunstâncias do art. 76, § 2º, III, favoráveis” e “exposição das circunstâncias”.",
		"informe o réu (defendant_id).":                                                                             "informe o réu.",
		"informe a torcida cadastrada (group_id, número inteiro positivo).":                                         "informe a torcida cadastrada.",
		"member_ids e excluded_member_ids valem só para o impedimento de torcidas.":                                 "“associados alcançados” e “associados excluídos” valem só para o impedimento de torcidas.",
		"condição do art. 89, § 1º, III: imposta por lei (stay_in_district: true).":                                 "condição do art. 89, § 1º, III: imposta por lei.",
		"Para condenar sem conversão, informe outcome \"prison\" com prison_months e fine_days (ou \"acquittal\").": "Para condenar sem conversão, informe a condenação sem conversão, com a reclusão (meses) e os dias-multa (ou a absolvição).",
	} {
		if got := PageWords(in); got != want {
			t.Errorf("PageWords(%q)\n = %q\nwant %q", in, got, want)
		}
	}
}
