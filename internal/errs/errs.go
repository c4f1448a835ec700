// Package errs holds the typed errors that domain packages return and that
// the HTTP layer maps, in one place, to RFC 9457 problem responses.
// Messages are for people, in Brazilian Portuguese.
package errs

import (
	"errors"
	"strings"
)

// Kind classifies an error; internal/server maps each to one HTTP status (problem.go).
type Kind int

// Kinds of errors.
const (
	Internal     Kind = iota // 500: a fault of ours, never caused by input
	Invalid                  // 422: readable but invalid input
	Unreadable               // 400: the body cannot be read
	NotFound                 // 404
	Forbidden                // 403
	Conflict                 // 409
	Gone                     // 410
	Unauthorized             // 401
)

// FieldError names the input field (a dotted path such as
// "defendants[0].cpf"), the rule it breaks and a message in Portuguese.
// For a file import (CSV), Line is the physical line (the header is line 1)
// and Field the column's header text as written ("line" when the error is
// the whole line's); Line is omitted elsewhere.
type FieldError struct {
	Line    int    `json:"line,omitempty"`
	Field   string `json:"field"`
	Rule    string `json:"rule"`
	Message string `json:"message"`
}

// Error is a typed error with a Portuguese message and, for Invalid, the
// fields at fault.
type Error struct {
	Kind    Kind
	Message string
	Fields  []FieldError
}

// Error returns the message followed by the field messages.
func (e *Error) Error() string {
	if len(e.Fields) == 0 {
		return e.Message
	}
	parts := make([]string, len(e.Fields))
	for i, f := range e.Fields {
		parts[i] = f.Field + ": " + f.Message
	}
	return e.Message + " (" + strings.Join(parts, "; ") + ")"
}

// KindOf returns the Kind of err, Internal when it is not an *Error.
func KindOf(err error) Kind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return Internal
}

// New returns an error of kind k with message msg.
func New(k Kind, msg string) *Error { return &Error{Kind: k, Message: msg} }

// Fields collects field errors for one request.
type Fields []FieldError

// Add records that field breaks rule, with message.
func (f *Fields) Add(field, rule, message string) {
	*f = append(*f, FieldError{Field: field, Rule: rule, Message: message})
}

// Err returns nil when no field error was added, else an Invalid *Error.
func (f Fields) Err() error {
	if len(f) == 0 {
		return nil
	}
	return &Error{Kind: Invalid, Message: "Os dados enviados são inválidos.", Fields: f}
}

// InvalidField returns an Invalid error for one field.
func InvalidField(field, rule, message string) *Error {
	return &Error{Kind: Invalid, Message: "Os dados enviados são inválidos.", Fields: []FieldError{{Field: field, Rule: rule, Message: message}}}
}
