package web_test

import (
	"bytes"
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/testenv"
)

// BNMP mandates over HTTP (Res. CNJ 417/2021): a final ban's mandate is in
// the clerk's queue; registering it names the bad field (422), then
// records the number (200) and refuses a second time (409); its PDF
// carries a verification code; the queue page lists it and its form
// records the registration; the judge reads but cannot register; a
// mandate of another court is 404.
func TestBNMPMandates_QueueRegisterPDF(t *testing.T) {
	f := newFixture(t)
	today := f.clk.Now().In(testenv.SaoPaulo).Format("2006-01-02")
	_, banID := f.finalBan(t, "", `"ban": {"months": 24}, "reporting_duty": {"place": "24º DP", "club": "Corinthians"}`)
	code, body, v := f.send(t, "GET", "/api/v1/bnmp/mandates?status=pending", "clerk", "", "")
	items, _ := v["items"].([]any)
	if code != 200 || len(items) != 1 {
		t.Fatalf("queue: %d %s", code, body)
	}
	m := items[0].(map[string]any)
	if int(m["ban_id"].(float64)) != banID || m["kind"] != "execucao" || m["status"] != "pending" || m["valid_until"] == nil || m["review_on"] == nil {
		t.Fatalf("mandate %v", m)
	}
	id := int(m["id"].(float64))
	path := fmt.Sprintf("/api/v1/bnmp/mandates/%d", id)
	if code, body, _ := f.send(t, "GET", "/api/v1/bnmp/mandates?status=lost", "clerk", "", ""); code != 422 || !strings.Contains(body, `"status"`) {
		t.Errorf("bad status: %d %s", code, body)
	}
	code, body, _ = f.send(t, "POST", path+"/registered", "clerk", "application/json", `{"bnmp_number": "x", "registered_on": "2999-01-01"}`)
	if code != 422 || !strings.Contains(body, "bnmp_number") || !strings.Contains(body, "registered_on") {
		t.Errorf("bad registration: %d %s", code, body)
	}
	if code, body, _ := f.send(t, "POST", path+"/registered", "judge", "application/json", `{"bnmp_number": "12345", "registered_on": "`+today+`"}`); code != 403 {
		t.Errorf("the judge registered: %d %s", code, body)
	}
	code, body, r := f.send(t, "POST", path+"/registered", "clerk", "application/json", `{"bnmp_number": "0000123-45.2025.8.26.0100.01.0001-01", "registered_on": "`+today+`"}`)
	if code != 200 || r["status"] != "registered" || r["bnmp_number"] != "0000123-45.2025.8.26.0100.01.0001-01" {
		t.Fatalf("registration: %d %s", code, body)
	}
	if code, body, _ := f.send(t, "POST", path+"/registered", "clerk", "application/json", `{"bnmp_number": "12345", "registered_on": "`+today+`"}`); code != 409 {
		t.Errorf("second registration: %d %s", code, body)
	}
	if code, _, v := f.send(t, "GET", "/api/v1/bnmp/mandates?status=registered", "judge", "", ""); code != 200 || len(v["items"].([]any)) != 1 {
		t.Errorf("the judge's registered list: %d %v", code, v)
	}
	rec := f.do("GET", path+".pdf", f.tokens["clerk"], "", nil, "")
	if rec.Code != 200 || rec.Header().Get("Content-Type") != "application/pdf" || rec.Header().Get("X-Juizado-Document-Code") == "" || !bytes.HasPrefix(rec.Body.Bytes(), []byte("%PDF")) {
		t.Fatalf("pdf: %d %v", rec.Code, rec.Header())
	}
	docs := func() (n int64) {
		if err := f.g.Raw("SELECT count(*) FROM documents WHERE mandate_id = ? AND kind = 'mandate'", id).Scan(&n).Error; err != nil {
			t.Fatal(err)
		}
		return n
	}
	if docs() != 1 {
		t.Errorf("mandate document not stored with its mandate")
	}
	if rec := f.do("GET", path+".pdf", f.tokens["clerk"], "", nil, ""); rec.Code != 200 || docs() != 1 {
		t.Errorf("the same mandate was issued again on the same day")
	}
	// Another court's mandate.
	if err := cases.EnsureCourt(context.Background(), f.g, "26.0200", ""); err != nil {
		t.Fatal(err)
	}
	if err := f.g.Exec("UPDATE bnmp_mandates SET court_code = '26.0200' WHERE id = ?", id).Error; err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{path, path + ".pdf"} {
		if code, body, _ := f.send(t, "GET", p, "clerk", "", ""); code != 404 {
			t.Errorf("another court's %s: %d %s", p, code, body)
		}
	}
	if code, body, _ := f.send(t, "POST", path+"/registered", "clerk", "application/json", `{"bnmp_number": "12345", "registered_on": "`+today+`"}`); code != 404 {
		t.Errorf("another court's registration: %d %s", code, body)
	}
}

// The clerk's page (Portuguese): the queue with the form; a bad date is
// shown next to the field (422), a good one records the number.
func TestBNMPMandatesPage(t *testing.T) {
	f := newFixture(t)
	f.finalBan(t, "", `"ban": {"months": 12}, "reporting_duty": {"place": "24º DP", "club": "Corinthians"}`)
	k := f.browser(t, "clerk")
	rec := k.do("GET", "/mandados", nil)
	body := rec.Body.String()
	if rec.Code != 200 || !strings.Contains(body, "A registrar no BNMP") || !strings.Contains(body, "Execução do impedimento") || !strings.Contains(body, "Anotar registro") {
		t.Fatalf("page: %d\n%s", rec.Code, body)
	}
	var id int
	if err := f.g.Raw("SELECT id FROM bnmp_mandates").Scan(&id).Error; err != nil {
		t.Fatal(err)
	}
	if rec := k.do("GET", fmt.Sprintf("/mandados/%d.pdf", id), nil); rec.Code != 200 || rec.Header().Get("Content-Type") != "application/pdf" || rec.Header().Get("X-Juizado-Document-Code") == "" {
		t.Errorf("the page's PDF: %d %v", rec.Code, rec.Header())
	}
	p := fmt.Sprintf("reg[%d].", id)
	rec = k.do("POST", fmt.Sprintf("/mandados/%d/registro", id), url.Values{p + "bnmp_number": {"12345"}, p + "registered_on": {"31/02/2025"}})
	if rec.Code != 422 || !strings.Contains(rec.Body.String(), "Data do registro") {
		t.Errorf("bad date: %d\n%s", rec.Code, rec.Body.String())
	}
	day := f.clk.Now().In(testenv.SaoPaulo).Format("02/01/2006")
	if rec = k.do("POST", fmt.Sprintf("/mandados/%d/registro", id), url.Values{p + "bnmp_number": {"12345-6"}, p + "registered_on": {day}}); rec.Code != 303 {
		t.Fatalf("register: %d\n%s", rec.Code, rec.Body.String())
	}
	if body := k.do("GET", "/mandados", nil).Body.String(); !strings.Contains(body, "Registrados") || !strings.Contains(body, "12345-6") {
		t.Errorf("after registering:\n%s", body)
	}
	if rec := f.browser(t, "judge").do("GET", "/mandados", nil); rec.Code != 200 || strings.Contains(rec.Body.String(), "Anotar registro") {
		t.Errorf("judge's page: %d", rec.Code)
	}
}
