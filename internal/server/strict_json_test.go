package server

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"
)

// duplicateKey names the first key written twice, by its path with array
// indices, keys compared as decoded; a key that looks like a number is a
// key where the body holds an object, and "/" or "~" in a key stay as
// written.
func TestDuplicateKeyPath(t *testing.T) {
	for _, c := range []struct{ body, want string }{
		{`{"a":1,"b":2}`, ""},
		{`{"a":1,"a":2}`, "a"},
		{`{"ref":"R1","r\u0065f":"R9"}`, "ref"},
		{`{"defendants":[{"kind":"person"},{"kind":"person","kind":"fan_group"}]}`, "defendants[1].kind"},
		{`{"records":{"0":{"cpf":1,"cpf":2}}}`, "records.0.cpf"},
		{`{"a/b~c":[[{"x":1}],[{"y":1,"y":2}]]}`, "a/b~c[1][0].y"},
		{`{"same":{"x":1},"other":{"x":1}}`, ""},
		{`{"s":"\ud800","t":1}`, ""}, // a lone surrogate: encoding/json reads it, and so does the check
	} {
		var tree any
		if err := json.Unmarshal([]byte(c.body), &tree); err != nil {
			t.Fatalf("%s: %v", c.body, err)
		}
		if got := duplicateKey([]byte(c.body), tree); got != c.want {
			t.Errorf("%s: %q, want %q", c.body, got, c.want)
		}
	}
}

// fastIn is a body type for TestStrictFastReadsAsEncodingJSON: nested
// structs and slices, a pointer, an instant, a type that reads itself.
type fastIn struct {
	ID      string      `json:"batch_id"`
	Count   int         `json:"count"`
	Note    *string     `json:"note"`
	Records []fastRec   `json:"records"`
	Day     upperText   `json:"day"`
	Extra   any         `json:"extra"`
	When    *time.Time  `json:"when"`
	Num     json.Number `json:"num"`
}

type fastRec struct {
	CPF       string    `json:"cpf"`
	CheckedAt time.Time `json:"checked_at"`
	Blocked   bool      `json:"blocked"`
}

// upperText reads a JSON string in upper case.
type upperText string

func (u *upperText) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	*u = upperText(strings.ToUpper(s))
	return nil
}

// The one-pass reading takes a body only when it keeps every rule of
// BindJSON, and then reads what encoding/json reads; any body that breaks
// one (or might) is left to the passes that name the field.
func TestStrictFastReadsAsEncodingJSON(t *testing.T) {
	for _, c := range []struct {
		body string
		fast bool
	}{
		{`{"batch_id":"b1","count":3,"note":"n","records":[{"cpf":"46881973659","checked_at":"2026-12-01T18:00:00.123456789Z","blocked":true}],"day":"seg","extra":{"a":[1,"x",null]},"when":"2026-12-01T15:00:00-03:00"}`, true},
		{`  {"batch_id":"b1","records":[],"note":null,"when":null}`, true},
		{`{}`, true},
		{`{"batch_id":"b1","batch_id":"b2"}`, false},         // a key twice
		{`{"batch_id":"b1","b\u0061tch_id":"b2"}`, false},    // the same key, escaped
		{`{"records":[{"cpf":"1","cpf":"2"}]}`, false},       // nested
		{`{"batch_id":"b1","nickname":"x"}`, false},          // unknown
		{`{"BATCH_ID":"b1"}`, false},                         // another case
		{`{"records":[{"cpf":"1","Blocked":true}]}`, false},  // nested, another case
		{`{"count":"3"}`, false},                             // wrong type
		{`{"count":1.5}`, false},                             // not an integer
		{`{"count":1e400}`, false},                           // out of range
		{`{"records":[{"checked_at":"01/12/2026"}]}`, false}, // not RFC 3339
		{`{"day":7}`, false},                                 // the type refuses it
		{`{"note":"a\u0000b"}`, false},                       // NUL
		{`{"extra":"\u0000"}`, false},                        // NUL in any
		{`null`, false},                                      // not an object
		{`[{"batch_id":"b1"}]`, false},                       // not an object
		{`{"batch_id":"b1"} {"count":2}`, false},             // two values
		{`{"batch_id":"b1"`, false},                          // cut
		// encoding/json reads an instant as written: with an escape it is
		// no RFC 3339 text (the engine's own reading unescapes it first).
		{`{"records":[{"checked_at":"2026-12-01T18:00:00\u005a"}]}`, false},
		{`{"when":"2026-12-01T15:00:00\u002d03:00"}`, false},
		{`{"when":"2026-12-01T15:00:00-03:00","records":[{"checked_at":null}]}`, true},
		// encoding/json's Number takes a number or a string holding one.
		{`{"num":12.5e3}`, true},
		{`{"num":"-0.5"}`, true},
		{`{"num":"abc"}`, false},
		{`{"num":""}`, false},
	} {
		var got fastIn
		fast := strictFast([]byte(c.body), &got)
		if fast != c.fast {
			t.Errorf("%s: read in one pass %v, want %v", c.body, fast, c.fast)
			continue
		}
		if !fast {
			continue
		}
		var want fastIn
		if err := json.Unmarshal([]byte(c.body), &want); err != nil {
			t.Fatalf("%s: encoding/json: %v", c.body, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n one pass %#v\nencoding/json %#v", c.body, got, want)
		}
	}
}

// The empty key is a key like any other: unknown to every request type,
// named "" in the error (it had been taken for "nothing found").
func TestEmptyKeyIsRefusedAndNamed(t *testing.T) {
	for body, want := range map[string]string{
		`{"":1}`:                         `""`,
		`{"batch_id":"b","":{"x":[1]}}`:  `""`,
		`{"records":[{"cpf":"1","":2}]}`: `records[0].""`,
	} {
		var tree any
		if err := json.Unmarshal([]byte(body), &tree); err != nil {
			t.Fatal(err)
		}
		if got := unknownField(tree, reflect.TypeOf(&fastIn{}), ""); got != want {
			t.Errorf("%s: unknown field %q, want %q", body, got, want)
		}
	}
	var tree any
	_ = json.Unmarshal([]byte(`{"":1,"":2}`), &tree)
	if got := duplicateKey([]byte(`{"":1,"":2}`), tree); got != `""` {
		t.Errorf(`{"":1,"":2}: duplicate %q, want ""`, got)
	}
}
