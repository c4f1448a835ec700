package wire

// CPFCheckDigits returns the two check digits (as a 2-digit string) of the
// 9 base digits of a CPF, by the Receita Federal mod-11 rule: the first
// digit is the weighted sum of the base digits with weights 10..2, the
// second the weighted sum of the base digits plus the first check digit
// with weights 11..2; in each case a remainder r = sum mod 11 below 2 gives
// 0, otherwise 11 - r. It returns "" when first9 is not exactly 9 ASCII
// digits. The court (registry.ParseCPF) and the gate agent (gate.ParseCPF)
// both check a CPF with it.
func CPFCheckDigits(first9 string) string {
	if len(first9) != 9 || !allDigits(first9) {
		return ""
	}
	d1 := mod11(first9)
	d2 := mod11(first9 + string(rune('0'+d1)))
	return string([]byte{byte('0' + d1), byte('0' + d2)})
}

// CPFProblem tells what is wrong with a CPF written as 11 ASCII digits, in
// Portuguese for people: "" when it is valid; all digits equal (such as
// 111.111.111-11, which pass the arithmetic but are not issued), or check
// digits that do not match CPFCheckDigits. digits must be 11 ASCII digits
// (the caller reads them out of the text).
func CPFProblem(digits string) string {
	if len(digits) != 11 || !allDigits(digits) {
		return "CPF deve ter 11 dígitos"
	}
	same := true
	for i := 1; i < len(digits); i++ {
		if digits[i] != digits[0] {
			same = false
			break
		}
	}
	if same {
		return "CPF com todos os dígitos iguais é inválido"
	}
	if CPFCheckDigits(digits[:9]) != digits[9:] {
		return "dígitos verificadores do CPF não conferem"
	}
	return ""
}

// mod11 computes one CPF check digit over digits with weights len+1 .. 2.
func mod11(digits string) int {
	sum := 0
	w := len(digits) + 1
	for i := 0; i < len(digits); i++ {
		sum += int(digits[i]-'0') * w
		w--
	}
	r := sum % 11
	if r < 2 {
		return 0
	}
	return 11 - r
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
