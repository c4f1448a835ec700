package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"math/big"
	"net/http"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	jsonv1 "github.com/go-json-experiment/json/v1"
	"github.com/juizado/juizado/internal/errs"
	"github.com/labstack/echo/v4"
)

// unsupportedJSON is the 415 of an endpoint that takes JSON only.
func unsupportedJSON(ct string) error {
	if ct == "" {
		return echo.NewHTTPError(http.StatusUnsupportedMediaType, "Cabeçalho Content-Type ausente: este recurso aceita somente application/json.")
	}
	return echo.NewHTTPError(http.StatusUnsupportedMediaType, fmt.Sprintf("Tipo de conteúdo %q não aceito: este recurso aceita somente application/json.", ct))
}

// Unsupported is the 415 of c's endpoint, naming what it accepts (accepted,
// in Portuguese with the media types).
func Unsupported(c echo.Context, accepted string) error {
	return echo.NewHTTPError(http.StatusUnsupportedMediaType, fmt.Sprintf("Tipo de conteúdo %q não aceito: envie %s.", c.Request().Header.Get(echo.HeaderContentType), accepted))
}

// BindJSON decodes a JSON body into dst (a pointer to a zero value): 415 for a missing Content-Type or
// another media type, 400 for an unreadable body (not JSON, not UTF-8, not
// an object, nested deeper than maxJSONDepth), 422 naming the field (with array indices) for a key named
// twice in one object, a key dst does not take (strict_json.go), a value of
// the wrong type or a string that holds a NUL character, which PostgreSQL
// cannot store.
func BindJSON(c echo.Context, dst any) error {
	ct := c.Request().Header.Get(echo.HeaderContentType)
	if !isJSONType(ct) {
		return unsupportedJSON(ct)
	}
	body, err := io.ReadAll(c.Request().Body)
	if err != nil {
		if BodyTooLarge(err) {
			return echo.NewHTTPError(http.StatusRequestEntityTooLarge)
		}
		return errs.New(errs.Unreadable, "Não foi possível ler o corpo da requisição.")
	}
	return decodeBody(body, dst)
}

// BodyTooLarge reports whether err, from reading a request body, is its
// size limit: a route's MaxBody (http.MaxBytesReader) or the global limit
// (Echo's BodyLimit, which a body without Content-Length, sent in chunks,
// reaches while it is read). The answer is 413 (RFC 9110, § 15.5.14),
// never 400.
func BodyTooLarge(err error) bool {
	var mbe *http.MaxBytesError
	return errors.As(err, &mbe) || errors.Is(err, echo.ErrStatusRequestEntityTooLarge)
}

// decodeBody is BindJSON on a body already read: the body's text checked
// (readableBody), then read in one pass (strictFast) or, when it may break
// a rule, by the passes that name the rule and the field (strictPasses).
func decodeBody(body []byte, dst any) error {
	if err := readableBody(body); err != nil {
		return err
	}
	if strictFast(body, dst) {
		return nil
	}
	// The body breaks a rule: the reading below finds which and names the
	// field, into dst as it was (a zero value).
	reflect.ValueOf(dst).Elem().SetZero()
	return strictPasses(body, dst)
}

// readableBody refuses (400) a body that is empty (or only white space) or
// not UTF-8 (RFC 8259, § 8.1), before any reading of it as JSON.
func readableBody(body []byte) error {
	if len(bytes.TrimSpace(body)) == 0 {
		return errs.New(errs.Unreadable, "O corpo da requisição está vazio: envie um objeto JSON.")
	}
	if !utf8.Valid(body) {
		return errs.New(errs.Unreadable, "O corpo da requisição não está em UTF-8 válido.")
	}
	return nil
}

// strictPasses reads a readable body into dst (a zero value) pass by pass,
// each naming what it refuses: 400 for a body that is not JSON or not an
// object, 422 naming the field for a NUL, a key named twice, a key dst
// does not take, or a value of the wrong type or format. It is BindJSON's
// reading before strictFast, and the judge of any body strictFast leaves.
func strictPasses(body []byte, dst any) error {
	if !json.Valid(body) {
		return unreadableJSON(body, json.Unmarshal(body, new(any)))
	}
	// Numbers stay text (json.Number): a well-formed number out of range
	// (1e400) is the field's problem (422), not unreadable JSON.
	var tree any
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if err := dec.Decode(&tree); err != nil {
		return unreadableJSON(body, err)
	}
	if _, ok := tree.(map[string]any); !ok {
		return errs.New(errs.Unreadable, "O corpo deve ser um objeto JSON.")
	}
	if path := findNUL(tree, ""); path != "" {
		return errs.InvalidField(path, "no_nul", "o texto contém um caractere nulo (U+0000), que não é aceito.")
	}
	if err := strictBody(body, tree, dst); err != nil {
		return err
	}
	if err := json.Unmarshal(body, dst); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			// te.Value is the JSON type ("string", "number", ...) or, for a
			// number the Go type cannot hold, "number 1e400".
			kind, num, overflow := strings.Cut(te.Value, " ")
			field, ok := locate(tree, strings.Split(te.Field, "."), kind, num, "")
			if !ok {
				field = te.Field
			}
			if overflow && kind == "number" {
				rule, msg := numberProblem(num, te.Type)
				return errs.InvalidField(field, rule, msg)
			}
			return errs.InvalidField(field, "type", fmt.Sprintf("tipo inválido: esperado %s.", typePT(te.Type.Kind().String())))
		}
		var pe *errs.Error
		if errors.As(err, &pe) {
			return pe
		}
		if field, t := badValue(tree, reflect.TypeOf(dst), ""); field != "" {
			if t == reflect.TypeOf(time.Time{}) {
				return errs.InvalidField(field, "instant", "instante inválido: use RFC 3339, por exemplo 2026-12-01T15:30:00-03:00.")
			}
			return errs.InvalidField(field, "format", "valor em formato inválido para este campo.")
		}
		return unreadableJSON(body, err)
	}
	return nil
}

// strictFast reads body into dst in one pass when it keeps every rule
// BindJSON checks: an object, no key named twice, no key dst does not take
// (names exact), every value of its field's type, no NUL. It is
// encoding/json's reading (jsonv1.DefaultOptionsV1: the engine behind
// encoding/json/v2, with v1's semantics) with duplicate names and unknown
// members refused and case-insensitive names off. False when any rule may
// be broken: dst may then hold part of the body, and the passes of
// BindJSON find the rule and the field (a 10,000-record upload of a gate
// agent was read five times, about 8 µs per record; in one pass, a third
// of that).
func strictFast(b []byte, dst any) bool {
	// A NUL can only be written \u0000 in valid JSON (control characters
	// are escaped): a body without that text holds none.
	if t := bytes.TrimLeft(b, " \t\r\n"); len(t) == 0 || t[0] != '{' || bytes.Contains(b, []byte(`\u0000`)) {
		return false
	}
	return jsonv2.Unmarshal(b, dst, strictFastOptions) == nil
}

// strictFastOptions are strictFast's: encoding/json's reading with
// duplicate names and unknown members refused and names exact, and the
// types the engine reads by its own rules instead of encoding/json's read
// by encoding/json's (strictFastLeaves).
var strictFastOptions = jsonv2.JoinOptions(jsonv1.DefaultOptionsV1(), jsontext.AllowDuplicateNames(false),
	jsonv2.RejectUnknownMembers(true), jsonv2.MatchCaseInsensitiveNames(false), strictFastLeaves)

// strictFastLeaves read the values of two types as encoding/json does, from
// the value's text as written in the body: time.Time by its own
// UnmarshalJSON (the engine's reading unescapes the string first, so that
// "2026-12-01T18:00:00\u005a" was an instant in one pass and refused by
// encoding/json), and encoding/json's Number (to the engine only a string
// type: it took "abc" and refused 12.5).
var strictFastLeaves = jsonv2.WithUnmarshalers(jsonv2.JoinUnmarshalers(
	jsonv2.UnmarshalFunc(func(b []byte, t *time.Time) error { return t.UnmarshalJSON(b) }),
	jsonv2.UnmarshalFunc(func(b []byte, n *json.Number) error { return json.Unmarshal(b, n) }),
))

// unreadableJSON says in Portuguese where body stopped being JSON, err
// being encoding/json's error on it; a body nested deeper than
// maxJSONDepth is told so, with the limit.
func unreadableJSON(body []byte, err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		if at := tooDeepAt(body); at >= 0 && se.Offset == int64(at)+1 {
			return errs.New(errs.Unreadable, fmt.Sprintf("JSON aninhado demais: objetos e listas um dentro do outro passam do limite de %s níveis no byte %d do corpo.", thousands(maxJSONDepth), at+1))
		}
		return errs.New(errs.Unreadable, fmt.Sprintf("JSON ilegível: erro de sintaxe perto do byte %d do corpo.", se.Offset))
	}
	return errs.New(errs.Unreadable, "JSON ilegível: o corpo termina antes de fechar o objeto ou não é JSON.")
}

// maxJSONDepth is how many objects and arrays, one inside the other, a
// body may nest: the limit of encoding/json's scanner and of jsontext
// (both 10,000), which refuse the next level as a syntax error.
const maxJSONDepth = 10_000

// tooDeepAt is the index in body of the '[' or '{' that opens level
// maxJSONDepth+1, or -1 when body never nests that deep. It counts
// brackets outside strings, byte by byte (no recursion), and stops there;
// its count is the JSON depth up to the first syntax error, which is all
// unreadableJSON asks of it.
func tooDeepAt(body []byte) int {
	depth, inString, escaped := 0, false, false
	for i, c := range body {
		switch {
		case inString && escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case inString && c == '"':
			inString = false
		case inString:
		case c == '"':
			inString = true
		case c == '[' || c == '{':
			if depth++; depth > maxJSONDepth {
				return i
			}
		case c == ']' || c == '}':
			depth--
		}
	}
	return -1
}

// jsonPath is the dotted path of key k inside path ("" for the top). The
// empty key is written "" (quoted), so that a path is never empty: the
// walks return "" for "nothing found".
func jsonPath(path, k string) string {
	if k == "" {
		k = `""`
	}
	if path == "" {
		return k
	}
	return path + "." + k
}

// findNUL returns the dotted path of the first string (or key) holding a
// NUL, inside path. The path is written once the NUL is found: written at
// every level on the way down, it had cost a body nested 10,000 levels
// deep some 50 MB of copies of ever longer paths.
func findNUL(v any, path string) string {
	steps, ok := nulSteps(v)
	if !ok {
		return ""
	}
	var b strings.Builder
	b.WriteString(path)
	for i := len(steps) - 1; i >= 0; i-- {
		switch st := steps[i]; {
		case st.inArray:
			fmt.Fprintf(&b, "[%d]", st.index)
		default:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(jsonPath("", st.key))
		}
	}
	return b.String()
}

// nulStep is one step of findNUL's path: a key of an object, or an index
// of an array (inArray).
type nulStep struct {
	key     string
	index   int
	inArray bool
}

// nulSteps finds the first string of v holding a NUL, or the first object
// with such a key, and returns the steps to it from v, the last step
// first.
func nulSteps(v any) ([]nulStep, bool) {
	switch t := v.(type) {
	case string:
		return nil, strings.ContainsRune(t, 0)
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(t)) {
			if strings.ContainsRune(k, 0) {
				return nil, true
			}
			if steps, ok := nulSteps(t[k]); ok {
				return append(steps, nulStep{key: k}), true
			}
		}
	case []any:
		for i, e := range t {
			if steps, ok := nulSteps(e); ok {
				return append(steps, nulStep{index: i, inArray: true}), true
			}
		}
	}
	return nil, false
}

// locate turns encoding/json's index-less field path ("defendants.cpf") into
// the path of the first value of JSON type kind ("number", "string", ...)
// found there, with array indices ("defendants[1].cpf"). num, when not
// empty, is the number as written that the Go type refused (1e400, 1.5):
// only a value of that text matches, so that records[1].version is named
// when records[0].version is a good number.
func locate(v any, segs []string, kind, num, path string) (string, bool) {
	if arr, ok := v.([]any); ok && (len(segs) > 0 || kind != "array") {
		for i, e := range arr {
			if p, ok := locate(e, segs, kind, num, fmt.Sprintf("%s[%d]", path, i)); ok {
				return p, true
			}
		}
		return "", false
	}
	if len(segs) == 0 {
		if n, ok := v.(json.Number); ok && num != "" {
			return path, string(n) == num
		}
		return path, jsonKind(v) == kind
	}
	m, ok := v.(map[string]any)
	if !ok {
		return "", false
	}
	child, ok := m[segs[0]]
	if !ok {
		return "", false
	}
	return locate(child, segs[1:], kind, num, jsonPath(path, segs[0]))
}

func jsonKind(v any) string {
	switch v.(type) {
	case string:
		return "string"
	case float64, json.Number:
		return "number"
	case bool:
		return "bool"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	case nil:
		return "null"
	}
	return ""
}

// numberProblem is the rule and the Portuguese message for num, a JSON
// number as written in the body, that encoding/json refused for a field of
// Go type t (a number kind). For an integer kind: "integer" for a number
// that is no integer (1.5), or an integer in range written otherwise than
// as an integer literal (1e3, 7.0; -0 for an unsigned field), which
// encoding/json does not read into an int; "range" for an integer beyond
// the type's limits (3000000000 for an int32, 1e30 for an int64), the
// limits named. For a float kind, "range" with the largest magnitude the
// type holds (1e400 for a float64).
func numberProblem(num string, t reflect.Type) (rule, msg string) {
	shown := shorten(num, 40)
	k := t.Kind()
	if k == reflect.Float32 || k == reflect.Float64 {
		return "range", fmt.Sprintf("o número %s está fora do intervalo aceito por este campo: magnitude de até %s.", shown, strconv.FormatFloat(maxFloat(t.Bits()), 'g', -1, t.Bits()))
	}
	lo, hi, ok := intLimits(t)
	if !ok {
		return "range", fmt.Sprintf("o número %s está fora do intervalo aceito por este campo.", shown)
	}
	outOfRange := fmt.Sprintf("o número %s está fora do intervalo aceito por este campo: inteiro de %s a %s.", shown, lo, hi)
	// 256 bits tell every integer of 64 bits (and the next ones) apart,
	// and a fraction of a few dozen digits from an integer; the decimal
	// exponent is applied at that precision, never digit by digit.
	x, _, err := big.ParseFloat(num, 10, 256, big.ToNearestEven)
	if err != nil {
		// An exponent beyond what big.Float takes (1e99999999999): huge
		// when positive, a fraction of nearly zero when negative.
		if _, exp, ok := strings.Cut(strings.ToLower(num), "e"); ok && strings.HasPrefix(exp, "-") {
			return "integer", fmt.Sprintf("o número %s não é inteiro: esperado um número inteiro.", shown)
		}
		return "range", outOfRange
	}
	switch {
	case x.IsInf():
		return "range", outOfRange
	case !x.IsInt() || (x.Sign() == 0 && !isZeroText(num)):
		return "integer", fmt.Sprintf("o número %s não é inteiro: esperado um número inteiro.", shown)
	case x.Cmp(new(big.Float).SetInt(lo)) < 0 || x.Cmp(new(big.Float).SetInt(hi)) > 0:
		return "range", outOfRange
	case x.Sign() == 0 && strings.HasPrefix(num, "-"):
		return "integer", fmt.Sprintf("escreva o zero sem sinal (0), não %s.", shown)
	}
	return "integer", fmt.Sprintf("escreva o número %s como inteiro, sem expoente nem ponto decimal.", shown)
}

// isZeroText reports whether the JSON number num is zero as written (every
// digit of its mantissa 0), and not a fraction that rounded to zero
// (1e-999999999).
func isZeroText(num string) bool {
	mant, _, _ := strings.Cut(strings.ToLower(num), "e")
	return strings.Trim(mant, "-+0.") == ""
}

// intLimits are the least and the greatest value of the integer type t;
// false for a type of another kind.
func intLimits(t reflect.Type) (lo, hi *big.Int, ok bool) {
	bits := uint(t.Bits())
	one := big.NewInt(1)
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		hi = new(big.Int).Sub(new(big.Int).Lsh(one, bits-1), one)
		return new(big.Int).Neg(new(big.Int).Add(hi, one)), hi, true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return new(big.Int), new(big.Int).Sub(new(big.Int).Lsh(one, bits), one), true
	}
	return nil, nil, false
}

// maxFloat is the largest finite float of the given size in bits (32 or 64).
func maxFloat(bits int) float64 {
	if bits == 32 {
		return math.MaxFloat32
	}
	return math.MaxFloat64
}

// shorten cuts s to at most n bytes, marking the cut with "…".
func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

func typePT(k string) string {
	switch k {
	case "string":
		return "texto"
	case "int", "int64", "int32", "uint", "uint64", "uint32":
		return "número inteiro"
	case "float64", "float32":
		return "número"
	case "bool":
		return "true ou false"
	case "slice":
		return "lista"
	case "struct", "map", "ptr":
		return "objeto"
	}
	return k
}

// thousands writes n ≥ 0 with a dot between thousands, as Portuguese
// writes it (10.000).
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "." + s[i:]
	}
	return s
}
