// Package schedule holds the match schedule of a court (tables matches and
// competitions): its import, the days of a ban counted in matches
// (MatchDays), and the reporting windows of a ban's reporting duty (Lei
// 14.597/2023, art. 201, § 4º; Lei 10.671/2003, art. 41-B, § 4º).
//
// It hangs from package cases only; decisions and execution read it.
package schedule
