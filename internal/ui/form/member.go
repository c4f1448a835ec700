package form

import (
	"strings"

	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/registry"
)

// Member reads the fan group register's fields of a form (value is
// echo.Context.FormValue): dates as dd/mm/aaaa, errors to f; empty fields
// are not sent (nil).
func Member(value func(string) string, f *errs.Fields) registry.MemberInput {
	get := func(k string) *string {
		v := strings.TrimSpace(value(k))
		if v == "" {
			return nil
		}
		return &v
	}
	in := registry.MemberInput{FullName: get("full_name"), MotherName: get("mother_name"), FatherName: get("father_name"), RG: get("rg"),
		RGIssuer: get("rg_issuer"), CPF: get("cpf"), CivilStatus: get("civil_status"), Profession: get("profession"), Address: get("address"), Schooling: get("schooling")}
	if v := get("birth_date"); v != nil {
		iso := ISODate(f, "birth_date", *v)
		in.BirthDate = &iso
	}
	if v := get("joined_on"); v != nil {
		iso := ISODate(f, "joined_on", *v)
		in.JoinedOn = &iso
	}
	return in
}
