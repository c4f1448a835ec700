package server

import (
	"errors"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/juizado/juizado/internal/errs"
	"github.com/labstack/echo/v4"
)

// A number the field's Go type cannot hold (out of range, or not an
// integer) is named where it is written: records[1].version when
// records[0].version is a good number, not the first number found under
// records.version.
func TestBindJSONNamesTheBadNumberOfAnArray(t *testing.T) {
	type rec struct {
		Version *int64 `json:"version"`
	}
	type body struct {
		Records []rec `json:"records"`
	}
	for _, c := range []struct{ body, field, rule string }{
		{`{"records":[{"version":7},{"version":1e400}]}`, "records[1].version", "range"},
		{`{"records":[{"version":7},{"version":8},{"version":1.5}]}`, "records[2].version", "integer"},
		{`{"records":[{"version":7},{"version":1E+3}]}`, "records[1].version", "integer"},
		{`{"records":[{"version":7},{"version":"7"}]}`, "records[1].version", "type"},
	} {
		req := httptest.NewRequest("POST", "/", strings.NewReader(c.body))
		req.Header.Set("Content-Type", "application/json")
		var dst body
		err := BindJSON(echo.New().NewContext(req, httptest.NewRecorder()), &dst)
		var e *errs.Error
		if !errors.As(err, &e) || e.Kind != errs.Invalid || len(e.Fields) != 1 || e.Fields[0].Field != c.field || e.Fields[0].Rule != c.rule {
			t.Errorf("%s: %v, want %s (rule %s)", c.body, err, c.field, c.rule)
		}
	}
}
