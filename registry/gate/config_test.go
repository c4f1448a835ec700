package gate_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/juizado/juizado/registry/gate"
)

const testKey = "11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo="

// writeConfig writes body as a configuration file and loads it.
func loadConfig(t *testing.T, body string) (*gate.Config, error) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "gate.json")
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return gate.LoadConfig(path)
}

// API.md "Gate agent" (configuration): max_age absent is 24h; a max_age
// below one minute (0s, negative: stale reporting would be off or always
// on) is refused naming the field and the default.
func TestGateConfigMaxAgeMustBeAtLeastAMinute(t *testing.T) {
	court := `"courts": [{"url": "http://127.0.0.1:1", "token": "t", "keys": ["` + testKey + `"]}]`
	c, err := loadConfig(t, `{"data_dir": "d", "device": "p", `+court+`}`)
	if err != nil || time.Duration(c.MaxAge) != 24*time.Hour {
		t.Fatalf("max_age absent: %v %v", c, err)
	}
	c, err = loadConfig(t, `{"data_dir": "d", "device": "p", "max_age": "90m", `+court+`}`)
	if err != nil || time.Duration(c.MaxAge) != 90*time.Minute {
		t.Fatalf("max_age 90m: %v %v", c, err)
	}
	for _, v := range []string{"-1h", "0s", "0", "30s", "59s"} {
		_, err := loadConfig(t, `{"data_dir": "d", "device": "p", "max_age": "`+v+`", `+court+`}`)
		if err == nil || !strings.Contains(err.Error(), "max_age") || !strings.Contains(err.Error(), "24h") {
			t.Errorf("max_age %s: %v, want refused naming max_age and the default", v, err)
		}
	}
}

// API.md "Gate agent" (configuration): a file the agent cannot follow as
// meant is refused at start, the message naming the field: the same court
// twice (with or without a trailing "/"), a url that is not http(s) with a
// host, an empty token, an empty device, data after the JSON object, a key
// named twice or in another case, a device the courts would not store.
func TestGateConfigRefusesWhatCannotBeFollowed(t *testing.T) {
	court := func(u, token string) string {
		return `{"url": "` + u + `", "token": "` + token + `", "keys": ["` + testKey + `"]}`
	}
	cfg := func(device string, courts ...string) string {
		return `{"data_dir": "d", "device": "` + device + `", "courts": [` + strings.Join(courts, ",") + `]}`
	}
	if _, err := loadConfig(t, cfg("p", court("https://a.example", "t"), court("http://b.example:8080/x/", "t"))); err != nil {
		t.Fatalf("a good file refused: %v", err)
	}
	for _, tc := range []struct{ name, body, want string }{
		{"same url twice", cfg("p", court("https://a.example", "t"), court("https://a.example", "u")), "courts[1].url"},
		{"trailing slash", cfg("p", court("https://a.example/", "t"), court("https://A.example", "u")), "courts[1].url"},
		{"no scheme", cfg("p", court("a.example", "t")), "courts[0].url"},
		{"ftp", cfg("p", court("ftp://a.example", "t")), "courts[0].url"},
		{"no host", cfg("p", court("https://", "t")), "courts[0].url"},
		{"empty url", cfg("p", court("", "t")), "courts[0].url"},
		{"empty token", cfg("p", court("https://a.example", "t"), court("https://b.example", " ")), "courts[1].token"},
		{"empty device", cfg("", court("https://a.example", "t")), "device"},
		{"no device", `{"data_dir": "d", "courts": [` + court("https://a.example", "t") + `]}`, "device"},
		{"trailing data", cfg("p", court("https://a.example", "t")) + ` {"data_dir": "e"}`, "after the JSON object"},
		{"trailing garbage", cfg("p", court("https://a.example", "t")) + `x`, "after the JSON object"},
		// Strict reading: no key silently winning or taken in another case.
		{"a key twice", `{"data_dir": "d", "data_dir": "e", "device": "p", "courts": [` + court("https://a.example", "t") + `]}`, "data_dir"},
		{"a key twice, escaped", `{"data_dir": "d", "d\u0061ta_dir": "e", "device": "p", "courts": [` + court("https://a.example", "t") + `]}`, "data_dir"},
		{"a nested key twice", cfg("p", `{"url": "https://a.example", "url": "https://b.example", "token": "t", "keys": []}`), "url"},
		{"a key in another case", `{"Data_Dir": "d", "device": "p", "courts": [` + court("https://a.example", "t") + `]}`, "Data_Dir"},
		// A device the courts would not store: no batch would be taken.
		{"device with a NUL", cfg(`nu\u0000dev`, court("https://a.example", "t")), "device"},
		{"device with a bidi override", cfg("p\u202e1", court("https://a.example", "t")), "device"},
		{"device of 201 characters", cfg(strings.Repeat("ç", 201), court("https://a.example", "t")), "device"},
	} {
		if _, err := loadConfig(t, tc.body); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error naming %s", tc.name, err, tc.want)
		}
	}
}

// The same rule for an agent built in code (registry/gate imported by a
// vendor): MaxAge 0 is the default 24h, a negative one is refused.
func TestGateNewMaxAgeDefaultAndNegative(t *testing.T) {
	cc := []gate.CourtConfig{{URL: "http://127.0.0.1:1", Token: "t", Keys: []string{testKey}}}
	a, err := gate.New(gate.Config{DataDir: t.TempDir(), Device: "p", Courts: cc}, nil)
	if err != nil || time.Duration(a.Config.MaxAge) != 24*time.Hour {
		t.Fatalf("MaxAge 0: %v", err)
	}
	if _, err := gate.New(gate.Config{DataDir: t.TempDir(), Device: "p", MaxAge: gate.Duration(-time.Hour), Courts: cc}, nil); err == nil || !strings.Contains(err.Error(), "max_age") {
		t.Fatalf("MaxAge -1h: %v", err)
	}
}
