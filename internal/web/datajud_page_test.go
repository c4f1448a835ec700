package web_test

import (
	"encoding/json"
	"encoding/xml"
	"net/url"
	"strings"
	"testing"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/testenv"
)

// The admin's DataJud page (Res. CNJ 331/2020): without the court's unit
// the month is refused naming what is missing; the admin sets the unit on
// the courts page (each field checked, 422 with its message); then the
// month's check counts the cases and lists a case without class with its
// reason, and the downloads are the JSON and the XML of the other cases,
// sent as attachments. The clerk cannot open it.
func TestDataJudPage_SettingsCheckAndDownloads_ResCNJ331(t *testing.T) {
	f := newFixture(t)
	adm := f.browser(t, "admin")
	ok := f.fileCase(t, "R1")
	bad := f.fileCase(t, "R3")
	if err := f.g.Exec("UPDATE cases SET class_code = NULL WHERE id = ?", bad["id"]).Error; err != nil {
		t.Fatal(err)
	}
	month := f.clk.Now().In(testenv.SaoPaulo).Format("2006-01")

	if rec := adm.do("GET", "/admin/datajud?mes="+month, nil); rec.Code != 422 || !strings.Contains(rec.Body.String(), "código do órgão julgador") {
		t.Fatalf("without the unit: %d\n%s", rec.Code, rec.Body.String())
	}
	adm.do("GET", "/admin/juizados", nil)
	rec := adm.do("POST", "/admin/juizados/configuracao", url.Values{"code": {"26.0100"}, "unit_code": {"abc"}, "unit_name": {"Juizado do Torcedor"}, "ibge_municipality": {"355030"}})
	if body := rec.Body.String(); rec.Code != 422 || !strings.Contains(body, "Informe o código do órgão julgador no CNJ") || !strings.Contains(body, "Informe o código IBGE do município, com 7 dígitos") {
		t.Fatalf("bad unit: %d\n%s", rec.Code, body)
	}
	if rec := adm.do("POST", "/admin/juizados/configuracao", url.Values{"code": {"26.0100"}, "unit_code": {"4321"},
		"unit_name": {"Juizado Especial Criminal do Torcedor"}, "ibge_municipality": {"3550308"}}); rec.Code != 303 {
		t.Fatalf("unit: %d\n%s", rec.Code, rec.Body.String())
	}
	var c cases.Court
	if err := f.g.Take(&c, "code = ?", "26.0100").Error; err != nil || c.UnitCode == nil || *c.UnitCode != 4321 || *c.IBGEMunicipality != 3550308 {
		t.Fatalf("court after the form: %+v %v", c, err)
	}
	if body := adm.do("GET", "/admin/juizados", nil).Body.String(); !strings.Contains(body, `value="4321"`) || !strings.Contains(body, `value="3550308"`) {
		t.Errorf("the courts page does not show the unit")
	}

	okNum, badNum := ok["number"].(string), bad["number"].(string)
	rec = adm.do("GET", "/admin/datajud?mes="+month, nil)
	if body := rec.Body.String(); rec.Code != 200 || !strings.Contains(body, "1 processo(s) a exportar, 1 de fora") ||
		!strings.Contains(body, badNum) || !strings.Contains(body, "sem classe processual") {
		t.Fatalf("check: %d\n%s", rec.Code, body)
	}

	rec = adm.do("GET", "/admin/datajud/exportacao?mes="+month+"&formato=json", nil)
	var docs []struct {
		NumeroProcesso string `json:"numeroProcesso"`
		OrgaoJulgador  struct {
			Codigo int `json:"codigo"`
		} `json:"orgaoJulgador"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &docs); err != nil || rec.Code != 200 || len(docs) != 1 ||
		strings.ReplaceAll(strings.ReplaceAll(okNum, "-", ""), ".", "") != docs[0].NumeroProcesso || docs[0].OrgaoJulgador.Codigo != 4321 ||
		!strings.Contains(rec.Header().Get("Content-Disposition"), `attachment; filename=datajud-26.0100-`+month+`.json`) {
		t.Fatalf("json download: %d %v %q\n%s", rec.Code, err, rec.Header().Get("Content-Disposition"), rec.Body.String())
	}
	rec = adm.do("GET", "/admin/datajud/exportacao?mes="+month+"&formato=xml", nil)
	var x struct {
		Processo []struct {
			Dados struct {
				Numero string `xml:"numero,attr"`
			} `xml:"dadosBasicos"`
		} `xml:"processo"`
	}
	if err := xml.Unmarshal(rec.Body.Bytes(), &x); err != nil || len(x.Processo) != 1 || x.Processo[0].Dados.Numero != docs[0].NumeroProcesso ||
		!strings.HasPrefix(rec.Header().Get("Content-Type"), "application/xml") {
		t.Fatalf("xml download: %d %v\n%s", rec.Code, err, rec.Body.String())
	}
	if rec := adm.do("GET", "/admin/datajud/exportacao?mes=2025-13&formato=json", nil); rec.Code != 422 || strings.Contains(rec.Header().Get("Content-Disposition"), "attachment") {
		t.Errorf("bad month: %d %q", rec.Code, rec.Header().Get("Content-Disposition"))
	}
	if rec := f.browser(t, "clerk").do("GET", "/admin/datajud", nil); rec.Code != 403 {
		t.Errorf("clerk: %d, want 403", rec.Code)
	}
}
