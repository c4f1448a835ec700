package gate

import (
	"fmt"
)

// entryIndex holds one court's entries for checks, by CPF, in a form the
// garbage collector does not scan: most entries (no scope, no match days,
// dates and CPF well formed) are a 24-byte slot whose case number and court
// code live in one byte arena; the others are kept whole (full). Name and
// birth date are not held: a check does not answer them, and the stored
// bodies (as signed) have them. About 75 bytes an entry at 1,000,000
// entries (BenchmarkGate). Not safe for concurrent use: Court guards it.
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

// slot is one entry: ban id, first and last day as YYYYMMDD (last 0: no
// end), and where its case number and court code are in the arena.
type slot struct {
	ban         int64
	first, last uint32
	off         uint32
	caseLen     uint8
	courtLen    uint8 // 0: the index's court
	flags       uint8
}

const slotFull = 1 // the entry is in full[ban]

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

// dayNum reads YYYY-MM-DD as YYYYMMDD (comparable as integers); false
// when s has another form.
func dayNum(s string) (uint32, bool) {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return 0, false
	}
	var v uint32
	for i := 0; i < 10; i++ {
		if i == 4 || i == 7 {
			continue
		}
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + uint32(c-'0')
	}
	return v, true
}

// appendDay appends YYYYMMDD v (as dayNum reads it: a year of four
// digits) as YYYY-MM-DD.
func appendDay(b []byte, v uint32) []byte {
	y, m, d := v/10000, v/100%100, v%100
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
	s := slot{ban: e.BanID}
	first, ok1 := dayNum(e.FirstDay)
	last, ok2 := uint32(0), true
	if e.LastDay != nil {
		last, ok2 = dayNum(*e.LastDay)
	}
	court := e.Court
	if court == x.court {
		court = ""
	}
	if !ok1 || !ok2 || e.Scope != nil || len(e.MatchDays) > 0 || len(e.CaseNumber) > 255 || len(court) > 255 || len(x.arena) > 1<<31 {
		s.flags = slotFull
		x.full[e.BanID] = *e
	} else {
		s.first, s.last = first, last
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
	case first.ban == ban:
		gone = first
		if len(rest) == 0 {
			delete(x.byCPF, k)
		} else {
			x.byCPF[k] = rest[0]
			rest = rest[1:]
		}
	default:
		i := 0
		for i < len(rest) && rest[i].ban != ban {
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
		if s.ban == ban {
			cpf, found = k, true
			break
		}
	}
	for k, r := range x.more {
		for _, s := range r {
			if !found && s.ban == ban {
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
	if s.ban == ban {
		return true
	}
	for _, r := range x.more[cpf] {
		if r.ban == ban {
			return true
		}
	}
	return false
}

// banQuery is what a check asks of an index: the CPF k, the day (text and
// YYYYMMDD), the gate's venues and clubs, the court's name for an entry
// that names none, and (skip) an index whose entries answer instead.
type banQuery struct {
	k             uint64
	day           string
	dayN          uint32
	venues, clubs map[string]bool
	name          string
	skip          *entryIndex
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
	if q.skip != nil && q.skip.has(q.k, sl.ban) {
		return out
	}
	var b CheckBan
	if sl.flags&slotFull != 0 {
		full := x.full[sl.ban]
		if !applies(&full, q.day, q.venues, q.clubs) {
			return out
		}
		b = CheckBan{BanID: full.BanID, FirstDay: full.FirstDay, LastDay: full.LastDay, CaseNumber: full.CaseNumber,
			Court: full.Court, Scope: full.Scope, MatchDays: full.MatchDays}
	} else {
		if sl.first > q.dayN || (sl.last != 0 && sl.last < q.dayN) {
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
	if s.last != 0 {
		t = appendDay(t, s.last)
	}
	nLast := len(t)
	t = append(t, x.arena[s.off:s.off+uint32(s.caseLen)+uint32(s.courtLen)]...)
	all := string(t)
	b := CheckBan{BanID: s.ban, FirstDay: all[:nFirst], CaseNumber: all[nLast : nLast+int(s.caseLen)], Court: x.court}
	if s.courtLen > 0 {
		b.Court = all[nLast+int(s.caseLen):]
	}
	if s.last != 0 {
		l := all[nFirst:nLast]
		b.LastDay = &l
	}
	return b
}
