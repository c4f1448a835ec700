package form

import (
	"strings"
	"time"

	"github.com/juizado/juizado/internal/errs"
)

// Values is one form posted on a page whose fields are named Prefix+name
// ("acordo.months", "rev[12].reason"): its readers collect what cannot be
// read (a date that is not dd/mm/aaaa, a number that is not one, a field
// left empty) under the service's field name, and Err returns them as one
// Invalid error for the page to show next to each field.
type Values struct {
	prefix string
	get    func(string) string
	all    func(string) []string
	loc    *time.Location
	fields errs.Fields
	rename map[string]string
}

// New reads the form of prefix from get (echo.Context.FormValue), dates
// and times in loc (the court's zone).
func New(get func(string) string, prefix string, loc *time.Location) *Values {
	return &Values{prefix: prefix, get: get, loc: loc}
}

// WithAll lets v read the fields posted more than once (checkboxes of one
// name, Refs) from all (the form's url.Values lookup); it returns v.
func (v *Values) WithAll(all func(string) []string) *Values {
	v.all = all
	return v
}

// Refs reads the ids checked in the checkboxes name (Ref each; empty ones
// skipped), in the order posted; nil when none is checked or v has no
// WithAll.
func (v *Values) Refs(name string) []int64 {
	if v.all == nil {
		return nil
	}
	var out []int64
	for _, s := range v.all(v.prefix + name) {
		if id := Ref(&v.fields, name, s); id != 0 {
			out = append(out, id)
		}
	}
	return out
}

// Text is the field name as posted.
func (v *Values) Text(name string) string { return v.get(v.prefix + name) }

// Trim is the field name without surrounding spaces.
func (v *Values) Trim(name string) string { return strings.TrimSpace(v.Text(name)) }

// Empty reports whether the field name was left empty (spaces only).
func (v *Values) Empty(name string) bool { return v.Trim(name) == "" }

// Add adds an error of rule on field.
func (v *Values) Add(field, rule, msg string) { v.fields.Add(field, rule, msg) }

// Require adds msg as a "required" error on name when it was left empty.
func (v *Values) Require(name, msg string) {
	if v.Empty(name) {
		v.Add(name, "required", msg)
	}
}

// Int reads the whole number name (Int); nil when empty.
func (v *Values) Int(name string) *int { return Int(&v.fields, name, v.Text(name)) }

// ID reads the id chosen in name (ID); 0 when empty or not one.
func (v *Values) ID(name string) int64 { return ID(v.Text(name)) }

// Ref reads the id chosen in name (Ref); what is not one is an error.
func (v *Values) Ref(name string) int64 { return Ref(&v.fields, name, v.Text(name)) }

// Date reads the date name typed as dd/mm/aaaa into AAAA-MM-DD (ISODate);
// "" when empty.
func (v *Values) Date(name string) string { return ISODate(&v.fields, name, v.Text(name)) }

// Instant joins the date of field date and the time of field clock into
// RFC 3339 in the court's zone (Instant), its errors under field.
func (v *Values) Instant(field, date, clock string, required bool) string {
	return Instant(&v.fields, field, v.Text(date), v.Text(clock), v.loc, required)
}

// Lines is the non-empty lines of the textarea name (Lines).
func (v *Values) Lines(name string) []string { return Lines(v.Text(name)) }

// Tri reads "true"/"false" in name (Tri); nil when empty.
func (v *Values) Tri(name string) *bool { return Tri(v.Text(name)) }

// Checked reports whether the checkbox name was posted as "true".
func (v *Values) Checked(name string) bool { return v.Text(name) == "true" }

// Rename shows the errors of field under name instead (a service's field
// that the form spells differently).
func (v *Values) Rename(field, name string) {
	if v.rename == nil {
		v.rename = map[string]string{}
	}
	v.rename[field] = name
}

// Err returns the errors collected, nil when the form could be read.
func (v *Values) Err() error {
	err := v.fields.Err()
	if err == nil || len(v.rename) == 0 {
		return err
	}
	e, ok := err.(*errs.Error)
	if !ok {
		return err
	}
	out := &errs.Error{Kind: e.Kind, Message: e.Message}
	for _, f := range e.Fields {
		if n, ok := v.rename[f.Field]; ok {
			f.Field = n
		}
		out.Fields = append(out.Fields, f)
	}
	return out
}
