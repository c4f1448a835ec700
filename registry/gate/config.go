package gate

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	jsonv1 "github.com/go-json-experiment/json/v1"
	"github.com/juizado/juizado/internal/textcheck"
)

// Duration is a time.Duration written in JSON as Go's duration text ("24h").
type Duration time.Duration

// UnmarshalJSON reads "24h", "90m" and the like.
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("max_age: %w", err)
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return fmt.Errorf("max_age: %w", err)
	}
	*d = Duration(v)
	return nil
}

// Config is the agent's configuration file (../shared/API.md "Gate agent").
type Config struct {
	DataDir string   `json:"data_dir"`
	Addr    string   `json:"addr"`   // default 127.0.0.1:8090
	Device  string   `json:"device"` // names the agent in the check records
	MaxAge  Duration `json:"max_age"`
	// Venues are the venues this gate guards (names as in the court's venue
	// table; case, accents and the popular name in parentheses ignored). A
	// name no court's venue list knows is reported (StatusReport.UnknownVenues).
	Venues []string `json:"venues"`
	// Clubs, optional, are the clubs whose home matches these venues host:
	// a ban scoped to a club's home matches blocks here when listed.
	Clubs  []string      `json:"clubs"`
	Courts []CourtConfig `json:"courts"`
	// Logger, not in the file, receives each court's errors when they
	// change, its recovery and damage found in the store (nil:
	// slog.Default()).
	Logger *slog.Logger `json:"-"`
}

// CourtConfig is one court the agent follows: its base URL, the club token
// and the pinned public keys (base64 of 32 bytes).
type CourtConfig struct {
	URL   string   `json:"url"`
	Token string   `json:"token"`
	Keys  []string `json:"keys"`
}

// MaxDevice is the most characters of device: the court stores at most
// that many (POST /api/v1/blocklist/checks).
const MaxDevice = 200

// DefaultMaxAge is max_age when the file has none.
const DefaultMaxAge = 24 * time.Hour

// MinMaxAge is the least max_age accepted: the long-poll waits up to about
// 30 s for the court's answer, so a shorter max_age would report a healthy
// copy stale between two answers.
const MinMaxAge = time.Minute

// LoadConfig reads and checks a configuration file: one JSON object (no
// trailing data, no unknown field, no key twice, names exact), data_dir,
// device (at most MaxDevice characters, no control or format characters:
// internal/textcheck) and at least one court required; max_age at least MinMaxAge (DefaultMaxAge when absent);
// each court's url absolute http(s) with a host and not listed twice
// (a trailing "/" ignored), its token not empty. The error names the field.
func LoadConfig(path string) (*Config, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var c Config
	var obj json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&obj); err != nil {
		return nil, fmt.Errorf("gate: %s: %w", path, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("gate: %s: data after the JSON object", path)
	}
	// Read as encoding/json reads it, but strictly: a key named twice (also
	// spelled with escapes), a key in another case or an unknown key is an
	// error naming it, rather than a value silently winning.
	if err := jsonv2.Unmarshal(obj, &c, jsonv1.DefaultOptionsV1(), jsontext.AllowDuplicateNames(false),
		jsonv2.RejectUnknownMembers(true), jsonv2.MatchCaseInsensitiveNames(false), jsonv1.ReportErrorsWithLegacySemantics(false)); err != nil {
		if field := errField(err); field != "" {
			return nil, fmt.Errorf("gate: %s: %s: %w", path, field, err)
		}
		return nil, fmt.Errorf("gate: %s: %w", path, err)
	}
	var present struct {
		MaxAge *json.RawMessage `json:"max_age"`
	}
	_ = json.Unmarshal(b, &present)
	if c.DataDir == "" {
		return nil, errors.New("gate: data_dir is required")
	}
	if strings.TrimSpace(c.Device) == "" {
		return nil, errors.New("gate: device is required (names this gate in the check records sent to the courts)")
	}
	// The courts refuse a batch whose device they would not store: refused
	// here, the agent does not start to collect records no court takes.
	if rule, msg := textcheck.Problem(c.Device, MaxDevice, false); rule != "" {
		return nil, fmt.Errorf("gate: device %q: %s (%s)", c.Device, msg, rule)
	}
	if len(c.Courts) == 0 {
		return nil, errors.New("gate: courts is required (at least one)")
	}
	seen := map[string]int{}
	for i, cc := range c.Courts {
		u, err := url.Parse(cc.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Hostname() == "" {
			return nil, fmt.Errorf("gate: courts[%d].url %q: must be an absolute http:// or https:// URL with a host", i, cc.URL)
		}
		key := strings.ToLower(u.Scheme+"://"+u.Host) + strings.TrimRight(u.EscapedPath(), "/")
		if j, ok := seen[key]; ok {
			return nil, fmt.Errorf("gate: courts[%d].url %q: the same court as courts[%d]", i, cc.URL, j)
		}
		seen[key] = i
		if strings.TrimSpace(cc.Token) == "" {
			return nil, fmt.Errorf("gate: courts[%d].token is required (the club token of %s)", i, cc.URL)
		}
	}
	if c.Addr == "" {
		c.Addr = "127.0.0.1:8090"
	}
	switch {
	case present.MaxAge == nil:
		c.MaxAge = Duration(DefaultMaxAge)
	case time.Duration(c.MaxAge) < MinMaxAge:
		return nil, fmt.Errorf("gate: max_age %s: must be at least %s (default %s when absent)", time.Duration(c.MaxAge), MinMaxAge, DefaultMaxAge)
	}
	return &c, nil
}

// errField is the field a strict reading error of the configuration is
// about, as courts[0].url ("" when the error does not say): the JSON
// Pointer of jsontext's and jsonv2's errors with indices in brackets.
func errField(err error) string {
	var ptr jsontext.Pointer
	var se *jsontext.SyntacticError
	var me *jsonv2.SemanticError
	switch {
	case errors.As(err, &se):
		ptr = se.JSONPointer
	case errors.As(err, &me):
		ptr = me.JSONPointer
	}
	field := ""
	for tok := range ptr.Tokens() {
		if _, err := strconv.Atoi(tok); err == nil && field != "" {
			field += "[" + tok + "]"
		} else if field == "" {
			field = tok
		} else {
			field += "." + tok
		}
	}
	return field
}
