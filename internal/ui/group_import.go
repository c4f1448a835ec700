package ui

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/juizado/juizado/internal/server"
	"github.com/juizado/juizado/registry"
	"github.com/labstack/echo/v4"
)

type importData struct {
	Report   *registry.ImportReport
	Body     string // base64 of the file previewed, posted back to apply
	Filename string
}

// importForm: GET /torcida/importar.
func (h *groupPagesH) importForm(c echo.Context) error {
	return h.s.Page(c, http.StatusOK, "importar", server.Page{Title: "Importar planilha", Data: importData{}})
}

// preview: POST /torcida/importar (multipart field planilha): a dry run,
// every line with its status and errors, and the button to apply when no
// line has an error.
func (h *groupPagesH) preview(c echo.Context) error {
	data, name, err := formFile(c, "planilha", registry.MaxImportBytes)
	if err == nil {
		return h.runImport(c, data, name, true)
	}
	fields, msg, status, ok := formErrors(err)
	if !ok {
		return err
	}
	return h.s.Page(c, status, "importar", server.Page{Title: "Importar planilha", Errs: fields, Error: msg, Data: importData{}})
}

// apply: POST /torcida/importar/aplicar (dados: the previewed file in base64).
func (h *groupPagesH) apply(c echo.Context) error {
	data, err := base64.StdEncoding.DecodeString(c.FormValue("dados"))
	if err != nil || len(data) == 0 {
		return h.s.Page(c, http.StatusUnprocessableEntity, "importar", server.Page{Title: "Importar planilha", Data: importData{},
			Error: "A planilha conferida não veio com o formulário: envie-a de novo."})
	}
	return h.runImport(c, data, c.FormValue("arquivo"), false)
}

func (h *groupPagesH) runImport(c echo.Context, data []byte, name string, dry bool) error {
	rep, err := h.svc.Import(c.Request().Context(), server.Actor(c), groupID(c), registry.ImportInput{Body: data, DryRun: dry})
	if err != nil {
		err = tooLargeField(err, "planilha")
		fields, msg, status, ok := formErrors(err)
		if !ok {
			return err
		}
		if len(fields) > 0 {
			fields["planilha"] = strings.TrimSpace(fields["planilha"] + " " + joinFields(fields))
		} else {
			fields["planilha"] = msg
		}
		return h.s.Page(c, status, "importar", server.Page{Title: "Importar planilha", Errs: fields, Error: msg, Data: importData{}})
	}
	d := importData{Report: rep, Filename: name}
	p := server.Page{Title: "Importar planilha"}
	status := http.StatusOK
	switch {
	case rep.Errors > 0:
		status = http.StatusUnprocessableEntity
		p.Error = fmt.Sprintf("A planilha %s tem %d linha(s) com erro; nada foi importado. Corrija as linhas indicadas e envie de novo.", name, rep.Errors)
	case dry:
		d.Body = base64.StdEncoding.EncodeToString(data)
		p.Notice = fmt.Sprintf("Planilha %s conferida sem erros: %d novo(s), %d atualizado(s), %d sem mudança. Confira e aplique.", name, rep.Created, rep.Updated, rep.Unchanged)
	default:
		h.s.flash(c, fmt.Sprintf("Importação aplicada: %d novo(s), %d atualizado(s), %d sem mudança.", rep.Created, rep.Updated, rep.Unchanged))
		return redirect(c, "/torcida")
	}
	p.Data = d
	return h.s.Page(c, status, "importar", p)
}

func joinFields(m map[string]string) string {
	var out []string
	for k, v := range m {
		if k != "planilha" {
			out = append(out, v)
		}
	}
	return strings.Join(out, " ")
}

// importModel: GET /torcida/modelo.csv — the model spreadsheet of the
// import (registry.ImportModelCSV: Windows-1252, `;`, as Excel in Brazil
// saves it), to fill and send back.
func (h *groupPagesH) importModel(c echo.Context) error {
	body, err := registry.ImportModelCSV()
	if err != nil {
		return err
	}
	c.Response().Header().Set("Content-Disposition", `attachment; filename="modelo-cadastro-de-associados.csv"`)
	return c.Blob(http.StatusOK, "text/csv; charset=windows-1252", body)
}

// export: GET /torcida/exportar.csv — the register as CSV for Excel.
func (h *groupPagesH) export(c echo.Context) error {
	body, _, err := h.svc.ExportCSV(c.Request().Context(), server.Actor(c), groupID(c))
	if err != nil {
		return h.s.pageFail(c, err)
	}
	server.NoStore(c)
	c.Response().Header().Set("Content-Disposition", `attachment; filename="cadastro-torcida-`+strconv.FormatInt(groupID(c), 10)+`.csv"`)
	return c.Blob(http.StatusOK, "text/csv; charset=utf-8", body)
}
