package sanctions

// CheckMonths checks a ban term of months calendar months against r: it
// returns a *NotConvertibleError when r.Convertible is false (e.g. Lei
// 14.597/2023, art. 201, § 6º, or the conditions of art. 201, § 2º / art.
// 41-B, § 2º not met), a *OutOfRangeError when months lies outside
// [max(1, r.MinMonths), r.MaxMonths] (e.g. 3 to 36 months under art. 201,
// § 2º; 6 to 72 under § 2º c/c § 7º; 1 to 60 under art. 183, § 2º), and nil
// otherwise.
func CheckMonths(r Range, months int) error {
	if !r.Convertible {
		return &NotConvertibleError{Reason: r.Reason, Law: r.Law, Article: r.Article}
	}
	lo := max(1, r.MinMonths)
	if months < lo || months > r.MaxMonths {
		return &OutOfRangeError{Months: months, Min: lo, Max: r.MaxMonths, Law: r.Law, Article: r.Article, NoStatutoryMin: r.MinMonths < 1}
	}
	return nil
}
