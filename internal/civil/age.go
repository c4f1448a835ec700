package civil

// AgeOfMajority is the age at which a person stops being a minor: 18 years
// (CF art. 228; CP art. 27; Lei 8.069/1990 (ECA), art. 2º).
const AgeOfMajority = 18

// MinorOn reports whether someone born on birth is under 18 on day
// (AgeOfMajority): the 18th birthday is the first day of age; someone born
// on 29 February comes of age on 1 March of a common year.
func MinorOn(birth, day Date) bool {
	return day.Before(New(birth.Year+AgeOfMajority, birth.Month, birth.Day))
}
