package gate

import (
	"fmt"
	"math"
)

// entryIndex holds one court's entries for checks, by CPF, in a form the
// garbage collector does not scan: most entries (no scope, no match days,
// ban id below 2^32, dates well formed from 2000-01-01 to 2179-06-06, CPF
// well formed) are a 16-byte slot whose case number and court code live in
// one byte arena; the others are kept whole (full). Name and birth date are
// not held: a check does not answer them, and the stored bodies (as signed)
// have them. At 1,000,000 entries of 25-byte case numbers the index's live
// heap is about 82 bytes an entry (110 with the 24-byte slot it replaced):
// the map about 58, the arena 25 (issue 20). Not safe for concurrent use:
// Court guards it.
type entryIndex struct {
	court   string            // the court code an entry's Court is most often (not stored per slot)
	byCPF   map[uint64]slot   // the first entry of each CPF
	more    map[uint64][]slot // the further entries of a CPF (rare)
	full    map[int64]Entry   // by ban id: entries a slot cannot hold (flag slotFull)
	odd     map[int64]Entry   // by ban id: entries whose CPF is not 11 digits (no check finds them)
	arena   []byte
	garbage int // arena bytes no slot refers to
	n       int
}

// slot is one entry in 16 bytes. A slot that holds its entry has the ban
// id (ban, below 2^32), the first and last day as day counts since
// 2000-01-01 (0 is 2000-01-01, 65535 is 2179-06-06; flag slotOpen: no last
// day, last unused) and where its case number and court code are in the
// arena (off, caseLen, courtLen). A slot of flag slotFull has only the ban
// id, as two halves: ban the low 32 bits and off the high ones (id), and
// the entry is full[id].
type slot struct {
	ban         uint32
	first, last uint16
	off         uint32
	caseLen     uint8
	courtLen    uint8 // 0: the index's court
	flags       uint8
}

const (
	slotFull = 1 // the entry is in full[id]
	slotOpen = 2 // the entry has no last day
)

// id is s's ban id.
func (s *slot) id() int64 {
	if s.flags&slotFull != 0 {
		return int64(uint64(s.off)<<32 | uint64(s.ban))
	}
	return int64(s.ban)
}

func newEntryIndex(court string, n int) *entryIndex {
	return &entryIndex{court: court, byCPF: make(map[uint64]slot, n), more: map[uint64][]slot{},
		full: map[int64]Entry{}, odd: map[int64]Entry{}}
}

// cpfKey is the 11 digits of a CPF as an integer; false when s is not 11 digits.
func cpfKey(s string) (uint64, bool) {
	if len(s) != 11 {
		return 0, false
	}
	var k uint64
	for i := 0; i < 11; i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		k = k*10 + uint64(c-'0')
	}
	return k, true
}

// noDay is the day count of a check day that is not YYYY-MM-DD (a year
// outside 0–9999): before every slot's first day, so no slot is in force
// on it, as no text YYYY-MM-DD compares before it either.
const noDay = math.MinInt32

// checkDay is the day count (days since 2000-01-01) a check compares slots
// with on day (YYYY-MM-DD, as time.Format writes it): noDay when day has
// another form. Exact for every day of years 0–9999, in a slot's range or
// not.
func checkDay(day string) int32 {
	if n, ok := civilDays(day); ok {
		return n
	}
	return noDay
}

// civilDays reads YYYY-MM-DD (a year of four digits, proleptic Gregorian)
// as the number of days since 2000-01-01 (negative before it); false when
// s has another form or names no day (month 13, 30 February).
func civilDays(s string) (int32, bool) {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return 0, false
	}
	var v [3]int
	f := 0
	for i := 0; i < 10; i++ {
		if i == 4 || i == 7 {
			f++
			continue
		}
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		v[f] = v[f]*10 + int(c-'0')
	}
	y, m, d := v[0], v[1], v[2]
	if m < 1 || m > 12 || d < 1 || d > 31 {
		return 0, false
	}
	n := daysFromCivil(y, m, d)
	if yy, mm, dd := civilFromDays(n); yy != y || mm != m || dd != d {
		return 0, false // 31 April, 29 February of a common year
	}
	return int32(n), true
}

// slotDay is the day count of YYYY-MM-DD s as a slot holds it; false when
// s is not a day from 2000-01-01 to 2179-06-06.
func slotDay(s string) (uint16, bool) {
	n, ok := civilDays(s)
	if !ok || n < 0 || n > math.MaxUint16 {
		return 0, false
	}
	return uint16(n), true
}

// daysFromCivil is the number of days from 2000-01-01 to year y, month m
// (1–12), day d of the proleptic Gregorian calendar: the days-from-civil
// algorithm of H. Hinnant ("chrono-Compatible Low-Level Date Algorithms"),
// with years counted from March so that a leap day ends its year.
func daysFromCivil(y, m, d int) int {
	if m <= 2 {
		y--
	}
	era := y / 400
	if y < 0 && y%400 != 0 {
		era--
	}
	yoe := y - era*400 // [0, 399]
	mp := (m + 9) % 12 // March 0 … February 11
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy // [0, 146096]
	return era*146097 + doe - 730425       // 730425: 0000-03-01 to 2000-01-01
}

// civilFromDays is the year, month (1–12) and day of day count n (days
// since 2000-01-01), the inverse of daysFromCivil.
func civilFromDays(n int) (y, m, d int) {
	z := n + 730425
	era := z / 146097
	if z < 0 && z%146097 != 0 {
		era--
	}
	doe := z - era*146097                                  // [0, 146096]
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365 // [0, 399]
	doy := doe - (365*yoe + yoe/4 - yoe/100)               // [0, 365]
	mp := (5*doy + 2) / 153                                // March 0 … February 11
	d = doy - (153*mp+2)/5 + 1
	m = mp + 3
	if m > 12 {
		m -= 12
	}
	y = yoe + era*400
	if m <= 2 {
		y++
	}
	return y, m, d
}

// appendDay appends day count n (days since 2000-01-01, a year of four
// digits) as YYYY-MM-DD.
func appendDay(b []byte, n uint16) []byte {
	y, m, d := civilFromDays(int(n))
	return append(b, byte('0'+y/1000%10), byte('0'+y/100%10), byte('0'+y/10%10), byte('0'+y%10),
		'-', byte('0'+m/10), byte('0'+m%10), '-', byte('0'+d/10), byte('0'+d%10))
}

// put adds e (an entry of the same ban id must have been deleted first).
func (x *entryIndex) put(e *Entry) {
	k, ok := cpfKey(e.CPF)
	if !ok {
		x.odd[e.BanID] = *e
		x.n++
		return
	}
	var s slot
	first, ok1 := slotDay(e.FirstDay)
	last, ok2 := uint16(0), true
	if e.LastDay != nil {
		last, ok2 = slotDay(*e.LastDay)
	} else {
		s.flags = slotOpen
	}
	court := e.Court
	if court == x.court {
		court = ""
	}
	if !ok1 || !ok2 || e.BanID < 0 || e.BanID > math.MaxUint32 || e.Scope != nil || len(e.MatchDays) > 0 ||
		len(e.CaseNumber) > 255 || len(court) > 255 || len(x.arena) > 1<<31 {
		s = slot{ban: uint32(uint64(e.BanID)), off: uint32(uint64(e.BanID) >> 32), flags: slotFull}
		x.full[e.BanID] = *e
	} else {
		s.ban, s.first, s.last = uint32(e.BanID), first, last
		s.off, s.caseLen, s.courtLen = uint32(len(x.arena)), uint8(len(e.CaseNumber)), uint8(len(court))
		x.arena = append(append(x.arena, e.CaseNumber...), court...)
	}
	if _, taken := x.byCPF[k]; taken {
		x.more[k] = append(x.more[k], s)
	} else {
		x.byCPF[k] = s
	}
	x.n++
}

// del removes the entry of ban id ban whose CPF is cpf (a feed removal
// carries the entry as it was); it reports whether there was one.
func (x *entryIndex) del(cpf string, ban int64) bool {
	k, ok := cpfKey(cpf)
	if !ok {
		if _, had := x.odd[ban]; had {
			delete(x.odd, ban)
			x.n--
			return true
		}
		return false
	}
	first, had := x.byCPF[k]
	if !had {
		return false
	}
	rest := x.more[k]
	var gone slot
	switch {
	case first.id() == ban:
		gone = first
		if len(rest) == 0 {
			delete(x.byCPF, k)
		} else {
			x.byCPF[k] = rest[0]
			rest = rest[1:]
		}
	default:
		i := 0
		for i < len(rest) && rest[i].id() != ban {
			i++
		}
		if i == len(rest) {
			return false
		}
		gone = rest[i]
		rest = append(rest[:i:i], rest[i+1:]...)
	}
	if len(rest) == 0 {
		delete(x.more, k)
	} else {
		x.more[k] = rest
	}
	if gone.flags&slotFull != 0 {
		delete(x.full, ban)
	}
	x.garbage += int(gone.caseLen) + int(gone.courtLen)
	x.n--
	if x.garbage > 1<<20 && x.garbage > len(x.arena)/2 {
		x.compact()
	}
	return true
}

// delBan removes the entry of ban id ban whatever its CPF (a walk of the
// whole index: only for a removal whose CPF is not the one held).
func (x *entryIndex) delBan(ban int64) {
	if _, ok := x.odd[ban]; ok {
		x.del("", ban)
		return
	}
	var cpf uint64
	found := false
	for k, s := range x.byCPF {
		if s.id() == ban {
			cpf, found = k, true
			break
		}
	}
	for k, r := range x.more {
		for _, s := range r {
			if !found && s.id() == ban {
				cpf, found = k, true
			}
		}
	}
	if found {
		x.del(fmt.Sprintf("%011d", cpf), ban)
	}
}

// compact rewrites the arena with only the bytes slots refer to.
func (x *entryIndex) compact() {
	arena := make([]byte, 0, len(x.arena)-x.garbage)
	move := func(s *slot) {
		if s.flags&slotFull == 0 {
			o := len(arena)
			arena = append(arena, x.arena[s.off:s.off+uint32(s.caseLen)+uint32(s.courtLen)]...)
			s.off = uint32(o)
		}
	}
	for k, s := range x.byCPF {
		move(&s)
		x.byCPF[k] = s
	}
	for _, r := range x.more {
		for i := range r {
			move(&r[i])
		}
	}
	x.arena, x.garbage = arena, 0
}

// has reports whether the entries of cpf include ban id ban.
func (x *entryIndex) has(cpf uint64, ban int64) bool {
	s, ok := x.byCPF[cpf]
	if !ok {
		return false
	}
	if s.id() == ban {
		return true
	}
	for _, r := range x.more[cpf] {
		if r.id() == ban {
			return true
		}
	}
	return false
}

// banQuery is what a check asks of an index: the CPF k, the day (text and
// day count since 2000-01-01, as checkDay gives them), the gate's venues and clubs, the court's name for an entry
// that names none, and (skip) an index whose entries answer instead.
type banQuery struct {
	k             uint64
	day           string
	dayN          int32
	venues, clubs map[string]bool
	name          string
	skip          *entryIndex
	idOf          map[string]int64 // the court's venue ids by folded name (courtState.idOf)
}

// collect appends to out the lines of q.k's entries in x that block on q's
// day at q's gate.
func (x *entryIndex) collect(q *banQuery, out []CheckBan) []CheckBan {
	first, ok := x.byCPF[q.k]
	if !ok {
		return out
	}
	out = x.appendBan(q, &first, out)
	if more := x.more[q.k]; len(more) > 0 {
		for i := range more {
			out = x.appendBan(q, &more[i], out)
		}
	}
	return out
}

func (x *entryIndex) appendBan(q *banQuery, sl *slot, out []CheckBan) []CheckBan {
	if q.skip != nil && q.skip.has(q.k, sl.id()) {
		return out
	}
	var b CheckBan
	if sl.flags&slotFull != 0 {
		full := x.full[sl.id()]
		if !applies(&full, q.day, q.venues, q.clubs) && !appliesByID(&full, q.day, q.venues, q.idOf) {
			return out
		}
		b = CheckBan{BanID: full.BanID, FirstDay: full.FirstDay, LastDay: full.LastDay, CaseNumber: full.CaseNumber,
			Court: full.Court, Scope: full.Scope, MatchDays: full.MatchDays}
	} else {
		if int32(sl.first) > q.dayN || (sl.flags&slotOpen == 0 && int32(sl.last) < q.dayN) {
			return out
		}
		b = x.checkBan(sl)
	}
	if b.Court == "" {
		b.Court = q.name
	}
	return append(out, b)
}

// checkBan is the answer's line for slot s (not full). Its texts (first
// and last day, case number, court code when not the index's) are cut
// from one string: two allocations for the line (that string, and the last
// day's pointer) instead of four.
func (x *entryIndex) checkBan(s *slot) CheckBan {
	var buf [128]byte
	t := appendDay(buf[:0], s.first)
	nFirst := len(t)
	if s.flags&slotOpen == 0 {
		t = appendDay(t, s.last)
	}
	nLast := len(t)
	t = append(t, x.arena[s.off:s.off+uint32(s.caseLen)+uint32(s.courtLen)]...)
	all := string(t)
	b := CheckBan{BanID: int64(s.ban), FirstDay: all[:nFirst], CaseNumber: all[nLast : nLast+int(s.caseLen)], Court: x.court}
	if s.courtLen > 0 {
		b.Court = all[nLast+int(s.caseLen):]
	}
	if s.flags&slotOpen == 0 {
		l := all[nFirst:nLast]
		b.LastDay = &l
	}
	return b
}
