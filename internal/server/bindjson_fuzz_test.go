package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/calendar"
	"github.com/juizado/juizado/cases/casefile"
	"github.com/juizado/juizado/cases/decisions"
	"github.com/juizado/juizado/cases/execution"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/registry"
	"github.com/juizado/juizado/registry/blocklist"
)

// bindType is one Go type that BindJSON decodes a body into: name for the
// failure message, fresh a pointer to a new zero value of it.
type bindType struct {
	name  string
	fresh func() any
}

func bindTypeOf[T any](name string) bindType {
	return bindType{name, func() any { return new(T) }}
}

// bindTypes are the request bodies of the API (internal/api: every type it
// gives BindJSON, and signDraft's own) and fuzzShapes, the shapes the API
// does not use yet (embedded structs, maps, any, int and float sizes,
// types that read themselves).
var bindTypes = []bindType{
	bindTypeOf[cases.Representation]("cases.Representation"),
	bindTypeOf[decisions.SentenceInput]("decisions.SentenceInput"),
	bindTypeOf[execution.BreachInput]("execution.BreachInput"),
	bindTypeOf[execution.BreachDecisionInput]("execution.BreachDecisionInput"),
	bindTypeOf[execution.LiftInput]("execution.LiftInput"),
	bindTypeOf[execution.ExtendInput]("execution.ExtendInput"),
	bindTypeOf[execution.RenewInput]("execution.RenewInput"),
	bindTypeOf[execution.CorrectInput]("execution.CorrectInput"),
	bindTypeOf[execution.CreditInput]("execution.CreditInput"),
	bindTypeOf[calendar.HolidayInput]("calendar.HolidayInput"),
	bindTypeOf[casefile.TransitionInput]("casefile.TransitionInput"),
	bindTypeOf[cases.MovementInput]("cases.MovementInput"),
	bindTypeOf[decisions.PleaInput]("decisions.PleaInput"),
	bindTypeOf[decisions.HomologateInput]("decisions.HomologateInput"),
	bindTypeOf[decisions.AppealResultInput]("decisions.AppealResultInput"),
	bindTypeOf[decisions.SuspensionInput]("decisions.SuspensionInput"),
	bindTypeOf[decisions.SettlementInput]("decisions.SettlementInput"),
	bindTypeOf[casefile.LinkGroupInput]("casefile.LinkGroupInput"),
	bindTypeOf[calendar.NotificationInput]("calendar.NotificationInput"),
	bindTypeOf[execution.IdentificationInput]("execution.IdentificationInput"),
	bindTypeOf[cases.HearingInput]("cases.HearingInput"),
	bindTypeOf[blocklist.CheckBatch]("blocklist.CheckBatch"),
	bindTypeOf[registry.MemberInput]("registry.MemberInput"),
	bindTypeOf[registry.GroupInput]("registry.GroupInput"),
	bindTypeOf[registry.DateInput]("registry.DateInput"),
	bindTypeOf[struct {
		DefendantID int64 `json:"defendant_id"`
	}]("signDraft body"),
	bindTypeOf[fuzzShapes]("fuzzShapes"),
}

// fuzzShapes holds the shapes of Go type that encoding/json and the one-pass
// reading might read differently, none of them in a request body of the API
// today: embedded structs (a key the outer struct hides, a promoted
// pointer), ints and floats of several sizes, json.Number, any, maps
// (string and int keys), types with their own UnmarshalJSON (civil.Date,
// time.Time, upperText, json.RawMessage) or UnmarshalText (lowerText, as a
// value and as a map key), arrays, []byte, tags "-" and "-,", a field
// without a tag.
type fuzzShapes struct {
	fuzzEmbedded
	fuzzSecond
	*FuzzPromoted
	Shadowed  int                  `json:"shadowed"` // hides fuzzEmbedded.Shadowed
	I8        int8                 `json:"i8"`
	I16       int16                `json:"i16"`
	I32       int32                `json:"i32"`
	I64       int64                `json:"i64"`
	Int       int                  `json:"int"`
	IntPtr    *int                 `json:"int_ptr"`
	U         uint                 `json:"u"`
	U8        uint8                `json:"u8"`
	U64       uint64               `json:"u64"`
	F32       float32              `json:"f32"`
	F64       float64              `json:"f64"`
	F64Ptr    *float64             `json:"f64_ptr"`
	Num       json.Number          `json:"num"`
	Any       any                  `json:"any"`
	Map       map[string]int       `json:"map"`
	MapAny    map[string]any       `json:"map_any"`
	MapStruct map[string]fuzzInner `json:"map_struct"`
	IntKeys   map[int]string       `json:"int_keys"`
	Date      civil.Date           `json:"date"`
	DatePtr   *civil.Date          `json:"date_ptr"`
	At        time.Time            `json:"at"`
	AtPtr     *time.Time           `json:"at_ptr"`
	Items     []fuzzInner          `json:"items"`
	Ptrs      []*fuzzInner         `json:"ptrs"`
	Next      *fuzzInner           `json:"next"`
	Arr       [2]int               `json:"arr"`
	Bytes     []byte               `json:"bytes"`
	Raw       json.RawMessage      `json:"raw"`
	Upper     upperText            `json:"upper"`
	Lower     lowerText            `json:"lower"`
	LowerKeys map[lowerText]int    `json:"lower_keys"`
	Strs      []string             `json:"strs"`
	Bool      bool                 `json:"bool"`
	BoolPtr   *bool                `json:"bool_ptr"`
	NoTag     string
	Skipped   string `json:"-"`
	DashName  string `json:"-,"`
}

type fuzzEmbedded struct {
	Shadowed string `json:"shadowed"`
	Promoted int    `json:"promoted"`
}

// fuzzSecond is embedded beside fuzzEmbedded. (Two embedded structs naming
// one key at one depth, which encoding/json gives to neither, are refused
// by go vet's structtag check, so no request type can have them.)
type fuzzSecond struct {
	Second bool `json:"second"`
}

// FuzzPromoted is embedded by pointer (exported: encoding/json allocates it).
type FuzzPromoted struct {
	PtrPromoted string `json:"ptr_promoted"`
}

// lowerText reads a JSON string in lower case, as an
// encoding.TextUnmarshaler (also as a map key).
type lowerText string

func (l *lowerText) UnmarshalText(b []byte) error {
	if bytes.ContainsRune(b, '!') {
		return fmt.Errorf("lowerText: no '!'")
	}
	*l = lowerText(bytes.ToLower(b))
	return nil
}

type fuzzInner struct {
	Name string     `json:"name"`
	N    int8       `json:"n"`
	At   *time.Time `json:"at"`
}

// sameDecoding reports whether a and b (pointers to values of one type) hold
// the same value: reflect.DeepEqual, and the same encoding/json text (which
// tells -0 from 0).
func sameDecoding(a, b any) bool {
	if !reflect.DeepEqual(a, b) {
		return false
	}
	ja, erra := json.Marshal(a)
	jb, errb := json.Marshal(b)
	return bytes.Equal(ja, jb) && (erra == nil) == (errb == nil)
}

// show is a decoded value for a failure message.
func show(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%+v", v)
	}
	return string(b)
}

// checkFastAgrees fails t when strictFast reads body into some bindType
// and the passes that BindJSON ran before it (readableBody, strictPasses)
// refuse the body or read another value; and when decodeBody, BindJSON's
// whole reading, answers otherwise than those passes.
func checkFastAgrees(t *testing.T, body []byte) {
	t.Helper()
	if readableBody(body) != nil {
		return // refused before either reading
	}
	for _, bt := range bindTypes {
		fast, slow, whole := bt.fresh(), bt.fresh(), bt.fresh()
		fastOK := strictFast(body, fast)
		slowErr := strictPasses(body, slow)
		if fastOK && slowErr != nil {
			t.Errorf("%s: body %q: one pass read it (%s), the passes refuse it: %v", bt.name, body, show(fast), slowErr)
			continue
		}
		if fastOK && !sameDecoding(fast, slow) {
			t.Errorf("%s: body %q: both read it, into different values:\none pass %#v\npasses   %#v", bt.name, body, fast, slow)
			continue
		}
		wholeErr := decodeBody(body, whole)
		if !reflect.DeepEqual(wholeErr, slowErr) {
			t.Errorf("%s: body %q: decodeBody %v, the passes %v", bt.name, body, wholeErr, slowErr)
		} else if wholeErr == nil && !sameDecoding(whole, slow) {
			t.Errorf("%s: body %q: decodeBody read %s, the passes %s", bt.name, body, show(whole), show(slow))
		}
	}
}

// fuzzSeeds are bodies of the API's requests, and bodies that break one of
// BindJSON's rules in the ways a reader may miss.
var fuzzSeeds = []string{
	// Well-formed bodies of the API.
	`{"ref":"TC-2026/0001","filed_by":{"kind":"police","name":"2º BPM"},"defendants":[{"kind":"person","full_name":"João da Silva","cpf":"46881973659","birth_date":"1990-05-17","mother_name":"Maria","address":"Rua A, 1"},{"kind":"fan_group","name":"Torcida X","cnpj":null,"supported_club":"Clube A","group_id":7}],"event":{"competition":"Brasileirão","home":"A","away":"B","venue":"Arena","kickoff":"2026-12-01T16:00:00-03:00"},"facts":{"occurred_at":"2026-12-01T17:30:00-03:00","latitude":-23.5505,"longitude":-46.6333,"conduct":["art201_caput"],"police_reports":["BO-1"],"description":"briga","on_route":true}}`,
	`{"defendant_id":12,"outcome":"ban","eligible":true,"organiser":false,"sec7":null,"ban":{"first_day":"2027-01-10","months":6,"matches":null,"club":"","home_only":false},"prison_months":12,"fine_days":10,"scope":{"venues":["Arena"],"clubs":[]},"text":{"report":"r","reasoning":"f"},"dosimetry":{"base_months":12,"base_reasons":"x","intermediate_months":12,"intermediate_reasons":"y","final_months":14,"final_reasons":"z"},"reporting_duty":{"place":"DP","club":"A"},"publish":true,"member_ids":[1,2,3],"excluded_member_ids":[],"exclusion_reason":"","draft":false,"precautionary_until_final":{"first_day":"2026-12-02","review_on":"2027-03-02","scope":null}}`,
	`{"batch_id":"b-0001","device":"catraca-3","records":[{"cpf":"46881973659","checked_at":"2026-12-01T18:00:00.123456789Z","version":41,"blocked":true},{"cpf":"11144477735","checked_at":"2026-12-01T15:00:00-03:00","version":0,"blocked":false}]}`,
	`{"full_name":"Ana","mother_name":null,"father_name":"","rg":"12.345.678-9","rg_issuer":"SSP/SP","cpf":"46881973659","birth_date":"2001-02-03","civil_status":"solteira","profession":"x","address":"y","schooling":"z","joined_on":"2026-01-01"}`,
	`{"occurred_on":"2026-11-30","source":"gate","reference":"R1","description":"entrou"}`,
	`{"decision":"recognise","balance_days":30,"reason":"r"}`,
	`{"to":"closed","note":"n","defendant_id":3,"final_on":"2026-12-01"}`,
	`{"description":"Juntada","tpu_code":581,"at":"2026-12-01T10:00:00-03:00"}`,
	`{"defendant_id":1,"months":6,"first_day":"2026-12-05","circumstances_favourable":true,"circumstances_statement":"s","organiser":false,"sec7":false,"scope":null}`,
	`{"prison_months":null,"fine_days":null,"result":"reformed","defendant_id":2,"decided_on":"2026-12-01","text":"t","outcome":"ban","ban":{"months":4}}`,
	`{"defendant_id":1,"months":24,"first_day":"2026-12-10","repair_damage":"","forbidden_places":["Arena"],"sporting_venues":true,"stay_in_district":true,"monthly_appearance":null,"conditions":["c1"],"ban":{"matches":5,"club":"A","home_only":true}}`,
	`{"defendant_id":1,"terms":"t","stadium_ban":true,"months":3,"member_ids":[5],"excluded_member_ids":[6],"exclusion_reason":"saiu"}`,
	`{"group_id":null}`, `{"group_id":9}`,
	`{"party":"defense","defendant_id":1,"notified_on":"2026-12-01","waived_appeal":true}`,
	`{"cpf":"46881973659","birth_date":"1990-05-17"}`,
	`{"kind":"preliminary","starts_at":"2026-12-03T14:00:00-03:00","ends_at":"2026-12-03T15:00:00-03:00","room":"1"}`,
	`{"name":"Torcida X","cnpj":"11222333000181","supported_club":"A"}`,
	`{"left_on":"2026-12-01"}`, `{"date":"2026-11-20","name":"Consciência Negra"}`, `{"days":-3,"reason":"r"}`,
	`{"defendant_id":9}`, `{}`, " \t\r\n{}\n",
	// The shapes no request uses yet.
	`{"shadowed":1,"promoted":2,"clash":"c","second":true,"ptr_promoted":"p","i8":-128,"i16":32767,"i32":-2147483648,"i64":9223372036854775807,"int":-0,"int_ptr":0,"u":18446744073709551615,"u8":255,"u64":0,"f32":3.4028234e38,"f64":-0,"f64_ptr":1e-400,"num":"12.5","any":{"a":[1,"x",null,{"b":false}]},"map":{"a":1,"b":2},"map_any":{"x":{"y":null}},"map_struct":{"k":{"name":"n","n":1}},"int_keys":{"1":"a","-2":"b"},"date":"2026-12-01","date_ptr":null,"at":"2026-12-01T18:00:00Z","at_ptr":"2026-12-01T15:00:00.5-03:00","items":[{"name":"a"},null,{}],"ptrs":[null,{"n":3}],"next":{"name":"x","at":null},"arr":[1,2],"bytes":"aGVsbG8=","raw":{ "a" : [ 1 ] },"upper":"seg","strs":["a",""],"bool":true,"bool_ptr":false,"NoTag":"t","-":"d"}`,
	`{"num":12.50e+3}`, `{"num":"abc"}`, `{"num":""}`, `{"any":1e400}`, `{"f32":16777217}`, `{"f32":1.00000005960464477539}`,
	`{"f32":3.4028235677973366e38}`, `{"f32":1e39}`, `{"f64":1.7976931348623157e309}`, `{"f64_ptr":-0.0}`,
	`{"f32":1.00000005960464477539062500000001}`, `{"f32":-1e-46}`, `{"any":-0}`, `{"map_any":{"a":-0.0,"b":1E-400}}`, `{"int_keys":{"-0":"a"}}`, `{"int_keys":{"9223372036854775808":"a"}}`,
	`{"u64":18446744073709551616}`, `{"u":1e2}`, `{"i64":-9223372036854775808}`, `{"int_ptr":null,"f64_ptr":null,"bool_ptr":null,"next":null,"ptrs":null}`,
	`{"u":-0}`, `{"u8":256}`, `{"u":-1}`, `{"i8":-129}`, `{"i8":1.0}`, `{"i8":1e0}`, `{"i8":-0e0}`,
	`{"arr":[1,2,3]}`, `{"arr":[1]}`, `{"arr":null}`, `{"bytes":"aGVsbG8"}`, `{"bytes":"aGVs\nbG8="}`, `{"bytes":"aGVs\r\nbG8="}`, `{"bytes":"aGVsbG8_"}`, `{"bytes":null}`, `{"bytes":[104,105]}`,
	`{"raw":null}`, `{"raw":"\u00e9"}`, `{"raw":{"a":1,"a":2}}`, `{"raw": 1 }`,
	`{"int_keys":{"01":"a"}}`, `{"int_keys":{"+1":"a"}}`, `{"int_keys":{"1e0":"a"}}`, `{"int_keys":{"1":"a","01":"b"}}`, `{"int_keys":{" 1":"a"}}`,
	`{"map":{"a":1,"\u0061":2}}`, `{"map_any":{"x":{"y":1,"y":2}}}`, `{"any":{"k":1,"k":2}}`, `{"any":[{"k":1,"\u006b":2}]}`, `{"map_struct":{"k":{"name":"a","Name":"b"}}}`,
	`{"clash":"x"}`, `{"Clash":"x"}`, `{"shadowed":"text"}`, `{"Shadowed":1}`, `{"promoted":1,"Promoted":2}`, `{"ptr_promoted":null}`, `{"PtrPromoted":"x"}`,
	`{"Skipped":"x"}`, `{"-":"x"}`, `{"notag":"x"}`, `{"NoTag":"x","NOTAG":"y"}`, `{"noTag":"x"}`,
	`{"date":"2026-02-30"}`, `{"date":"2026\u002d12-01"}`, `{"date":null}`, `{"date":20261201}`, `{"date_ptr":"2026-12-01"}`,
	`{"at":"2026-12-01T18:00:00\u005a"}`, `{"at":"2026-12-01t18:00:00z"}`, `{"at":"2026-12-01T18:00:00,5Z"}`, `{"at":"2026-12-01T24:00:00Z"}`, `{"at":"2026-12-01T18:00:00+24:00"}`, `{"at":"2026-12-01 18:00:00Z"}`, `{"at":null}`, `{"at":""}`, `{"at":1764612000}`,
	`{"at_ptr":"2026-12-01T18:00:00\/00:00"}`, `{"next":{"at":"2026-12-01T18:00:00.000000000001Z"}}`, `{"at":"10000-01-01T00:00:00Z"}`, `{"at":"0000-01-01T00:00:00Z"}`,
	`{"lower":"AbC"}`, `{"lower":"a!"}`, `{"lower":1}`, `{"lower":null}`, `{"lower_keys":{"A":1,"a":2}}`, `{"lower_keys":{"A\u0042":1}}`, `{"lower_keys":{"!":1}}`,
	`{"upper":null}`, `{"upper":7}`, `{"upper":"\u00e9"}`, `{"items":[{"name":"a","name":"b"}]}`, `{"items":[{"Name":"a"}]}`, `{"ptrs":[{"n":128}]}`, `{"items":{}}`,
	// Duplicates, other cases, unknown keys, in the API's bodies.
	`{"batch_id":"b1","batch_id":"b2"}`, `{"batch_id":"b1","b\u0061tch_id":"b2"}`, `{"b\u0061tch_id":"b1"}`, `{"batch\u005fid":"b1"}`,
	`{"records":[{"cpf":"1","cpf":"2"}]}`, `{"records":[{"cpf":"1"},{"cpf":"1","c\u0070f":"2"}]}`, `{"Batch_ID":"b1"}`, `{"BATCH_ID":"b1"}`, `{"batch_id":"b1","BATCH_ID":"b2"}`,
	`{"records":[{"cpf":"1","Blocked":true}]}`, `{"records":[{"CheckedAt":"2026-12-01T18:00:00Z"}]}`, `{"batchid":"b1"}`, `{"batch-id":"b1"}`, `{"batch_id ":"b1"}`, `{"batch_\u017fd":"b1"}`, `{"batch_\u212aid":"b1"}`,
	`{"records":[{"checked_at":"2026-12-01T18:00:00\u005a"}]}`, `{"records":[{"checked_at":"01/12/2026"}]}`, `{"records":[{"version":1.0}]}`, `{"records":[{"version":1e2}]}`, `{"records":[{"version":-0}]}`, `{"records":[{"version":"1"}]}`,
	`{"records":[{"version":9223372036854775808}]}`, `{"records":[{"version":-9223372036854775809}]}`, `{"records":[{"version":123456789012345678901234567890}]}`,
	`{"records":[null]}`, `{"records":null}`, `{"records":[]}`, `{"records":[[]]}`, `{"records":{}}`, `{"records":[{"checked_at":null}]}`, `{"records":[{"blocked":null,"version":null,"cpf":null}]}`,
	`{"full_name":null}`, `{"full_name":"a","full_name":null}`, `{"cpf":1}`, `{"cpf":true}`, `{"cpf":{}}`, `{"cpf":[]}`,
	`{"facts":{"latitude":1e400}}`, `{"facts":{"latitude":-0}}`, `{"facts":{"latitude":"1"}}`, `{"facts":{"conduct":[1]}}`, `{"facts":{"conduct":"x"}}`, `{"facts":null}`, `{"event":null}`, `{"event":{}}`,
	`{"defendants":[{"kind":"person"},{"kind":"person","kind":"fan_group"}]}`, `{"defendants":[{"group_id":1.5}]}`, `{"defendants":[{"cpf":null,"cnpj":null,"group_id":null}]}`,
	`{"defendant_id":1e400}`, `{"defendant_id":1.5}`, `{"defendant_id":1.0}`, `{"defendant_id":1E3}`, `{"defendant_id":-0}`, `{"defendant_id":-0.0}`, `{"defendant_id":00}`, `{"defendant_id":+1}`, `{"defendant_id":0x10}`,
	`{"defendant_id":"1"}`, `{"defendant_id":true}`, `{"defendant_id":null}`, `{"defendant_id":[1]}`, `{"defendant_id":{}}`, `{"defendant_id":Infinity}`, `{"defendant_id":NaN}`,
	`{"i32":3000000000}`, `{"i32":-99999999999}`, `{"i32":2147483647}`, `{"i32":-2147483649}`, `{"i32":3e9}`, `{"i32":3000000000.5}`, `{"i16":40000}`, `{"int":1e30}`, `{"int":-1e30}`,
	`{"int":9.2e18}`, `{"int":9223372036854775807.0}`, `{"int":1e-999999999999}`, `{"int":1e999999999999}`, `{"int":1e-400}`, `{"u64":1e30}`, `{"u":-1e-400}`, `{"ptrs":[{"n":1},{"n":-3000000000}]}`,
	`{"months":2147483648}`, `{"ban":{"months":9223372036854775807}}`, `{"member_ids":[1,1.5]}`, `{"member_ids":[null]}`, `{"member_ids":{}}`,
	// NUL, escapes, surrogates, control characters.
	`{"reason":"a\u0000b"}`, `{"reason":"\\u0000"}`, `{"reason":"a\\\u0000"}`, `{"any":"\u0000"}`, `{"a\u0000":1}`, `{"reason":"\u0000","reason":"x"}`, "{\"reason\":\"a\x00b\"}", "{\"reason\":\"a\x01b\"}", "{\"reason\":\"a\tb\"}",
	`{"reason":"\ud800"}`, `{"reason":"\udfff\ud800"}`, `{"reason":"\ud83d\ude00"}`, `{"reason":"\ud83d"}`, `{"reason":"\ud800\u0041"}`, `{"reason":"\uDBFF\uDFFF"}`, `{"map":{"\ud800":1,"\udbff":2}}`, `{"map":{"\ud800":1,"\ufffd":2}}`,
	`{"reason":"\x"}`, `{"reason":"\u12"}`, `{"reason":"\u12G4"}`, `{"reason":"\/\b\f\n\r\t\"\\"}`, `{"reason":"\U0041"}`, `{"reason":"\'"}`, "{\"reason\":\"\xed\xa0\x80\"}", "{\"reason\":\"\xff\"}",
	"{\"reason\":\"\u2028\u2029\"}", `{"reason":"é\u00e9"}`, `{"re\u0061son":"x"}`, `{"reason":"x"}` + "\x00",
	// Not one object.
	`null`, `[]`, `[{"batch_id":"b1"}]`, `"x"`, `1`, `true`, `{"batch_id":"b1"} {"batch_id":"b2"}`, `{"batch_id":"b1"}{}`, `{"batch_id":"b1"} x`, `{"batch_id":"b1"`, `{"batch_id":"b1",}`, `{"batch_id":"b1",,"device":"d"}`,
	`{"records":[{"cpf":"1"},]}`, `{batch_id:"b1"}`, `{'batch_id':'b1'}`, `{"batch_id":"b1"}/*c*/`, `//c` + "\n{}", "\ufeff{}", "{}\ufeff", "\u00a0{}", "{}\u00a0", "\v{}", "{}\f", "{}\x00", "{\u00a0\"batch_id\":\"b1\"}", `{"a":1}`, `{"":1}`,
	`{"defendant_id":1}` + "\n\n\t ", "\r\n" + `{"defendant_id":1}`, `{"defendant_id" : 1 , "defendant_id" : 2}`, `{"defendant_id":1,"defendant_id":1}`,
}

// FuzzStrictFastAgreesWithThePasses: a body that strictFast reads in one pass
// is one that BindJSON's passes (strictPasses, which name the broken rule)
// take too, into the same value, for every request type of the API; and
// BindJSON's whole reading (decodeBody) answers what the passes answer. The
// seeds run with go test; go test -fuzz searches for a body where they part.
func FuzzStrictFastAgreesWithThePasses(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	// Nesting at the readers' limit (maxJSONDepth levels, the top object
	// one of them) and one past it.
	for _, n := range []int{maxJSONDepth - 1, maxJSONDepth} {
		f.Add([]byte(`{"any":` + strings.Repeat("[", n) + strings.Repeat("]", n) + `}`))
		f.Add([]byte(`{"map_any":{"x":` + strings.Repeat(`{"k":`, n-1) + "null" + strings.Repeat("}", n-1) + `}}`))
		f.Add([]byte(strings.Repeat("[", n+1) + strings.Repeat("]", n+1)))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		checkFastAgrees(t, body)
	})
}
