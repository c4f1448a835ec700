package server

// Strict JSON: a body is read as JSON only when it says
// so (Content-Type application/json or a +json type), an object that names
// a key twice is refused (RFC 8259 §4 leaves the meaning of duplicate names
// to the reader; two readers may take different ones), and a key the
// endpoint does not know is refused naming it, instead of being dropped.

import (
	"bytes"
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"mime"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/juizado/juizado/internal/errs"
)

// isJSONType reports whether the Content-Type ct is application/json or a
// structured-syntax +json type (RFC 6839), parameters ignored.
func isJSONType(ct string) bool {
	mt, params, err := mime.ParseMediaType(ct)
	if err != nil {
		return false
	}
	// JSON is UTF-8 (RFC 8259, § 8.1): a body declared in another charset
	// is not read as if it were.
	if cs, ok := params["charset"]; ok && !strings.EqualFold(cs, "utf-8") && !strings.EqualFold(cs, "utf8") {
		return false
	}
	return mt == "application/json" || (strings.HasPrefix(mt, "application/") && strings.HasSuffix(mt, "+json"))
}

// duplicateKey returns the dotted path (with array indices) of the first
// key that an object of body (valid JSON, decoded into tree) names twice,
// or "". Keys are compared decoded ("a" and "\u0061" are one key). The scan
// is jsontext's (github.com/go-json-experiment/json, the reader behind
// encoding/json/v2), which refuses duplicate names by default and says
// where, as a JSON Pointer (RFC 6901): a tenth of a microsecond per record
// of a gate agent's upload, where encoding/json's token reader had been the
// largest part of reading it.
func duplicateKey(body []byte, tree any) string {
	dec := jsontext.NewDecoder(bytes.NewReader(body), jsontext.AllowInvalidUTF8(true))
	err := dec.SkipValue()
	var se *jsontext.SyntacticError
	if err == nil || !errors.As(err, &se) || !errors.Is(se.Err, jsontext.ErrDuplicateName) {
		return "" // json.Valid has passed: nothing else is wrong
	}
	return pointerPath(tree, se.JSONPointer)
}

// pointerPath is the dotted path with array indices ("defendants[0].kind")
// of the JSON Pointer ptr ("/defendants/0/kind") inside tree: a segment is
// an index where tree holds an array there, else a key (~1 is "/", ~0 is
// "~").
func pointerPath(tree any, ptr jsontext.Pointer) string {
	path := ""
	for tok := range ptr.Tokens() {
		switch node := tree.(type) {
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(node) {
				return jsonPath(path, tok)
			}
			path, tree = fmt.Sprintf("%s[%d]", path, i), node[i]
		case map[string]any:
			path, tree = jsonPath(path, tok), node[tok]
		default:
			return jsonPath(path, tok)
		}
	}
	return path
}

var (
	jsonUnmarshaler = reflect.TypeOf((*json.Unmarshaler)(nil)).Elem()
	textUnmarshaler = reflect.TypeOf((*encoding.TextUnmarshaler)(nil)).Elem()
)

// unknownField returns the dotted path of the first key of tree (the body
// decoded into any) that the Go type t does not take, or "". Types that
// decode themselves (json.Unmarshaler, encoding.TextUnmarshaler), maps and
// interfaces take any key.
func unknownField(tree any, t reflect.Type, path string) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if reflect.PointerTo(t).Implements(jsonUnmarshaler) || reflect.PointerTo(t).Implements(textUnmarshaler) {
		return ""
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		arr, ok := tree.([]any)
		if !ok {
			return ""
		}
		for i, e := range arr {
			if p := unknownField(e, t.Elem(), fmt.Sprintf("%s[%d]", path, i)); p != "" {
				return p
			}
		}
	case reflect.Struct:
		obj, ok := tree.(map[string]any)
		if !ok {
			return ""
		}
		fields := jsonFields(t)
		for _, k := range slices.Sorted(maps.Keys(obj)) {
			p := jsonPath(path, k)
			// Exact names only: encoding/json would also take "DATE" for
			// "date", and a body holding both would pass the duplicate
			// check with one silently winning.
			ft, ok := fields[k]
			if !ok {
				return p
			}
			if r := unknownField(obj[k], ft, p); r != "" {
				return r
			}
		}
	}
	return ""
}

// jsonFields maps the JSON names of struct t's fields (embedded structs
// flattened, as encoding/json does) to their types: made once per type
// (read only afterwards).
func jsonFields(t reflect.Type) map[string]reflect.Type {
	if m, ok := fieldsByType.Load(t); ok {
		return m.(map[string]reflect.Type)
	}
	m, _ := fieldsByType.LoadOrStore(t, structFields(t))
	return m.(map[string]reflect.Type)
}

var fieldsByType sync.Map // reflect.Type → map[string]reflect.Type

// structFields is jsonFields without the cache.
func structFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			et := f.Type
			if et.Kind() == reflect.Pointer {
				et = et.Elem()
			}
			if et.Kind() == reflect.Struct {
				for k, v := range jsonFields(et) {
					if _, dup := out[k]; !dup {
						out[k] = v
					}
				}
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out[name] = f.Type
	}
	return out
}

// strictBody refuses a duplicate key or a key dst's type does not take
// (errs.Invalid naming the key's path).
func strictBody(body []byte, tree any, dst any) error {
	if p := duplicateKey(body, tree); p != "" {
		return errs.InvalidField(p, "unique_key", "o campo aparece mais de uma vez no mesmo objeto JSON.")
	}
	if p := unknownField(tree, reflect.TypeOf(dst), ""); p != "" {
		return errs.InvalidField(p, "known_field", "campo desconhecido neste recurso (confira o nome do campo na documentação: GET /api/v1/openapi.json).")
	}
	return nil
}

// badValue returns the path of the first value in tree that the type t
// takes through its own UnmarshalJSON (time.Time, civil.Date...) and that
// it refuses, and that type; "" when every such value reads. encoding/json
// reports these errors without the field's name.
func badValue(tree any, t reflect.Type, path string) (string, reflect.Type) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if reflect.PointerTo(t).Implements(jsonUnmarshaler) {
		if tree == nil {
			return "", nil
		}
		raw, err := json.Marshal(tree)
		if err != nil {
			return path, t
		}
		if err := reflect.New(t).Interface().(json.Unmarshaler).UnmarshalJSON(raw); err != nil {
			return path, t
		}
		return "", nil
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		arr, _ := tree.([]any)
		for i, e := range arr {
			if p, bt := badValue(e, t.Elem(), fmt.Sprintf("%s[%d]", path, i)); p != "" {
				return p, bt
			}
		}
	case reflect.Struct:
		obj, _ := tree.(map[string]any)
		fields := jsonFields(t)
		for _, k := range slices.Sorted(maps.Keys(obj)) {
			if ft, ok := fields[k]; ok {
				if p, bt := badValue(obj[k], ft, jsonPath(path, k)); p != "" {
					return p, bt
				}
			}
		}
	}
	return "", nil
}
