package civil

import (
	"encoding/json"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	for s, ok := range map[string]bool{"2024-02-29": true, "2023-02-29": false, "2024-13-01": false, "2024-1-01": false, "24-01-01": false, "2024-01-01T00:00:00Z": false, "": false} {
		d, err := Parse(s)
		if (err == nil) != ok {
			t.Errorf("Parse(%q) = %v, %v; want ok=%v", s, d, err, ok)
		}
		if ok && d.String() != s {
			t.Errorf("Parse(%q).String() = %q", s, d)
		}
	}
}

// Brazil's daylight saving time began at 00:00 on 2018-11-04 in São Paulo:
// that day had no midnight, and a ban starting then is in force from 01:00.
func TestStartOnADayWithoutMidnight(t *testing.T) {
	sp, err := time.LoadLocation("America/Sao_Paulo")
	if err != nil {
		t.Fatal(err)
	}
	got := MustParse("2018-11-04").Start(sp)
	if Of(got) != MustParse("2018-11-04") || got.Hour() != 1 {
		t.Fatalf("Start = %v, want 2018-11-04 01:00 -02", got)
	}
	if got := MustParse("2025-03-30").Start(sp); got.Hour() != 0 || Of(got) != MustParse("2025-03-30") {
		t.Fatalf("Start = %v", got)
	}
	// Today takes the court's zone: 02:30 UTC on 31 March is still 30 March in São Paulo.
	if d := Today(time.Date(2025, 3, 31, 2, 30, 0, 0, time.UTC), sp); d != MustParse("2025-03-30") {
		t.Fatalf("Today = %v", d)
	}
}

func TestArithmeticAndJSON(t *testing.T) {
	if d := MustParse("2024-02-28").AddDays(1); d.String() != "2024-02-29" {
		t.Fatal(d)
	}
	if d := MustParse("2025-01-01").AddDays(-1); d.String() != "2024-12-31" {
		t.Fatal(d)
	}
	if DaysIn(2100, time.February) != 28 || DaysIn(2000, time.February) != 29 {
		t.Fatal("leap years")
	}
	if !MustParse("2024-01-01").Before(MustParse("2024-01-02")) || MustParse("2024-01-01").Compare(MustParse("2024-01-01")) != 0 {
		t.Fatal("compare")
	}
	b, _ := json.Marshal(struct{ D Date }{MustParse("2024-06-15")})
	if string(b) != `{"D":"2024-06-15"}` {
		t.Fatal(string(b))
	}
	var v struct{ D Date }
	if err := json.Unmarshal([]byte(`{"D":"2023-02-29"}`), &v); err == nil {
		t.Fatal("accepted 2023-02-29")
	}
	if MustParse("2024-06-15").BR() != "15/06/2024" {
		t.Fatal("BR")
	}
}
