package form_test

import (
	"errors"
	"net/url"
	"testing"
	"time"

	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/ui/form"
)

// fieldsOf returns the field → rule of a form's errors.
func fieldsOf(t *testing.T, err error) map[string]string {
	t.Helper()
	var e *errs.Error
	if !errors.As(err, &e) || e.Kind != errs.Invalid {
		t.Fatalf("want an Invalid error, got %v", err)
	}
	out := map[string]string{}
	for _, f := range e.Fields {
		out[f.Field] = f.Rule
	}
	return out
}

// A form's fields are read under its prefix; dates typed as dd/mm/aaaa
// become AAAA-MM-DD, and what cannot be read is an error under the
// service's field name.
func TestValuesReadPrefixedFieldsAndCollectErrors(t *testing.T) {
	vals := url.Values{"acordo.defendant_id": {"7"}, "acordo.months": {"seis"}, "acordo.first_day": {"31/02/2026"}}
	v := form.New(vals.Get, "acordo.", time.UTC)
	in := form.Plea(v)
	if in.DefendantID != 7 || in.Months != nil || in.FirstDay != "" {
		t.Fatalf("plea read as %+v", in)
	}
	got := fieldsOf(t, v.Err())
	if got["months"] != "integer" || got["first_day"] != "date" || len(got) != 2 {
		t.Fatalf("errors %v, want months integer and first_day date", got)
	}
	ok := form.New(url.Values{"acordo.months": {"6"}, "acordo.first_day": {"01/03/2026"}}.Get, "acordo.", time.UTC)
	if in := form.Plea(ok); ok.Err() != nil || *in.Months != 6 || in.FirstDay != "2026-03-01" {
		t.Fatalf("plea %+v, %v", in, ok.Err())
	}
}

// The hearing's start is two fields (aud.date, aud.starts): a date it
// cannot read shows next to aud.date, a missing or invalid time next to
// its own field (aud.starts, aud.ends); a start read is an instant in the court's zone (RFC 3339).
func TestHearingStartErrorsShowNextToTheirFields(t *testing.T) {
	v := form.New(url.Values{"aud.date": {"32/01/2026"}, "aud.starts": {"14:00"}}.Get, "aud.", time.UTC)
	form.Hearing(v)
	if got := fieldsOf(t, v.Err()); got["date"] != "date" || len(got) != 1 {
		t.Fatalf("errors %v, want date", got)
	}
	v = form.New(url.Values{"aud.date": {"20/01/2026"}}.Get, "aud.", time.UTC)
	form.Hearing(v)
	if got := fieldsOf(t, v.Err()); got["starts"] != "time" || len(got) != 1 {
		t.Fatalf("errors %v, want starts", got)
	}
	for _, tc := range []struct{ starts, ends, field string }{
		{"25:99", "", "starts"}, {"abc", "", "starts"}, {"24:00", "", "starts"}, {"14:00", "99:99", "ends"},
	} {
		v = form.New(url.Values{"aud.date": {"20/01/2026"}, "aud.starts": {tc.starts}, "aud.ends": {tc.ends}}.Get, "aud.", time.UTC)
		form.Hearing(v)
		if got := fieldsOf(t, v.Err()); got[tc.field] != "time" || len(got) != 1 {
			t.Errorf("starts=%q ends=%q: errors %v, want %s", tc.starts, tc.ends, got, tc.field)
		}
	}
	sp, err := time.LoadLocation("America/Sao_Paulo")
	if err != nil {
		t.Fatal(err)
	}
	v = form.New(url.Values{"aud.date": {"20/01/2026"}, "aud.starts": {"14:00"}, "aud.kind": {"preliminary"}}.Get, "aud.", sp)
	if in := form.Hearing(v); v.Err() != nil || in.StartsAt != "2026-01-20T14:00:00-03:00" || in.Kind != "preliminary" {
		t.Fatalf("hearing %+v, %v", in, v.Err())
	}
}

// Each ban's form has its own prefix, and its date and reason are
// required (CPP art. 282, § 5º: the lifting of a precautionary measure is
// a reasoned decision).
func TestLiftFormRequiresDateAndReason(t *testing.T) {
	if p := form.BanPrefix("rev", 12); p != "rev[12]." {
		t.Fatalf("prefix %q", p)
	}
	v := form.New(url.Values{"rev[12].reason": {"  "}}.Get, "rev[12].", time.UTC)
	form.Lift(v)
	if got := fieldsOf(t, v.Err()); got["lifted_on"] != "required" || got["reason"] != "required" || len(got) != 2 {
		t.Fatalf("errors %v", got)
	}
}

// The urgent order against a group names its members (CPC art. 300): the
// checked boxes caut.member_ids are read in the order posted; what is not
// an id is an error on member_ids; without WithAll none is read.
func TestPrecautionaryReadsTheMembersChecked_CPC300(t *testing.T) {
	vals := url.Values{"caut.defendant_id": {"3"}, "caut.review_on": {"10/09/2025"}, "caut.text.reasoning": {"Perigo de dano."}, "caut.member_ids": {"12", "7"}}
	v := form.New(vals.Get, "caut.", time.UTC).WithAll(func(name string) []string { return vals[name] })
	in := form.Precautionary(v)
	if v.Err() != nil || len(in.MemberIDs) != 2 || in.MemberIDs[0] != 12 || in.MemberIDs[1] != 7 || in.DefendantID != 3 || in.ReviewOn != "2025-09-10" {
		t.Fatalf("read %+v, %v", in, v.Err())
	}
	if in := form.Precautionary(form.New(vals.Get, "caut.", time.UTC)); in.MemberIDs != nil {
		t.Errorf("members read without WithAll: %v", in.MemberIDs)
	}
	vals["caut.member_ids"] = []string{"12", "doze"}
	v = form.New(vals.Get, "caut.", time.UTC).WithAll(func(name string) []string { return vals[name] })
	form.Precautionary(v)
	if got := fieldsOf(t, v.Err()); got["member_ids"] != "id" || len(got) != 1 {
		t.Fatalf("errors %v, want member_ids id", got)
	}
}
