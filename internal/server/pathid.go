package server

import (
	"fmt"
	"strconv"

	"github.com/juizado/juizado/internal/errs"
	"github.com/labstack/echo/v4"
)

// MustBePositive ends the 404 message of an id that is not a positive
// integer, for the resources whose message explains it.
const MustBePositive = ": o identificador deve ser um número inteiro positivo."

// ParseID is the one reader of a record id in the path: path parameter
// param as a positive integer (int64 above 0), or errs.NotFound (404, as an
// unknown record) with the message notFound, whose one %q is the text as
// given ("Prova %q não encontrada.").
func ParseID(c echo.Context, param, notFound string) (int64, error) {
	raw := c.Param(param)
	id, err := strconv.ParseInt(raw, 10, 64)
	if err != nil || id <= 0 {
		return 0, errs.New(errs.NotFound, fmt.Sprintf(notFound, raw))
	}
	return id, nil
}

// PathID reads the case id in the path parameter name (ParseID):
// errs.NotFound ("Processo ... não encontrado: o identificador deve ser um
// número inteiro positivo.") when it is not a positive integer.
func PathID(c echo.Context, name string) (int64, error) {
	return ParseID(c, name, "Processo %q não encontrado"+MustBePositive)
}

// IDParam reads the path parameter id of a what ("Torcida", "Associado",
// "Token") (ParseID): errs.NotFound naming what ("Torcida ... não
// encontrado(a): ...") when it is not a positive integer.
func IDParam(c echo.Context, what string) (int64, error) {
	return ParseID(c, "id", what+" %q não encontrado(a)"+MustBePositive)
}
