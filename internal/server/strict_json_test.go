package server

import (
	"encoding/json"
	"testing"
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
