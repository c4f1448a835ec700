package web_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/juizado/juizado/internal/sharedfix"
)

// do sends a request with a body and content type.
func (f *fixture) do(method, path, token, ctype string, body []byte, accept string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, path, bytes.NewReader(body))
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	rec := httptest.NewRecorder()
	f.srv.Echo.ServeHTTP(rec, req)
	return rec
}

// Court documents over HTTP: the staff get PDFs with their code; anyone
// verifies a code and a copy; a changed byte is reported as altered.
func TestDocumentsOverHTTP(t *testing.T) {
	f := newFixture(t)
	raw, err := os.ReadFile(sharedfix.Path(t, "fixtures", "representations.json"))
	if err != nil {
		t.Fatal(err)
	}
	var fx struct{ Representations []json.RawMessage }
	if err := json.Unmarshal(raw, &fx); err != nil {
		t.Fatal(err)
	}
	rec := f.do("POST", "/api/v1/cases", f.tokens["prosecutor"], "application/json", fx.Representations[0], "")
	if rec.Code != 201 {
		t.Fatalf("filing: %d %s", rec.Code, rec.Body)
	}
	var c struct {
		ID         int64
		Defendants []struct{ ID int64 }
	}
	_ = json.Unmarshal(rec.Body.Bytes(), &c)
	body := fmt.Sprintf(`{"defendant_id": %d, "ban": {"first_day": "2025-04-01", "months": 6}, "reporting_duty": {"place": "24º DP", "club": "Corinthians"}}`, c.Defendants[0].ID)
	rec = f.do("POST", fmt.Sprintf("/api/v1/cases/%d/sentence", c.ID), f.tokens["judge"], "application/json", []byte(body), "")
	if rec.Code != 201 {
		t.Fatalf("sentence: %d %s", rec.Code, rec.Body)
	}
	var s struct{ Ban struct{ ID int64 } }
	_ = json.Unmarshal(rec.Body.Bytes(), &s)

	base := fmt.Sprintf("/api/v1/cases/%d/documents/", c.ID)
	var pdfBytes []byte
	var code string
	for _, p := range []string{"sentence.pdf?ban_id=%d", "notice.pdf?ban_id=%d", "letter.pdf?ban_id=%d", "summary.pdf"} {
		path := base + p
		if strings.Contains(p, "%d") {
			path = fmt.Sprintf(base+p, s.Ban.ID)
		}
		rec := f.do("GET", path, f.tokens["clerk"], "", nil, "")
		if rec.Code != 200 || rec.Header().Get("Content-Type") != "application/pdf" || !bytes.HasPrefix(rec.Body.Bytes(), []byte("%PDF-")) {
			t.Fatalf("%s: %d %s %.200s", path, rec.Code, rec.Header().Get("Content-Type"), rec.Body)
		}
		if code = rec.Header().Get("X-Juizado-Document-Code"); len(code) != 14 {
			t.Errorf("%s: code %q", path, code)
		}
		pdfBytes = rec.Body.Bytes()
	}
	if rec := f.do("GET", base+"sentence.pdf", f.tokens["judge"], "", nil, ""); rec.Code != 422 {
		t.Errorf("no ban_id: %d", rec.Code)
	}
	if rec := f.do("GET", base+"sentence.pdf?ban_id=999", f.tokens["judge"], "", nil, ""); rec.Code != 404 {
		t.Errorf("other ban: %d", rec.Code)
	}
	if rec := f.do("GET", base+"summary.pdf", f.tokens["club"], "", nil, ""); rec.Code != 403 {
		t.Errorf("club reads a summary: %d", rec.Code)
	}

	// Verification: JSON and HTML, no personal data.
	rec = f.do("GET", "/verificar/"+code, "", "", nil, "application/json")
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), `"kind":"summary"`) || strings.Contains(rec.Body.String(), "Figueiredo") {
		t.Errorf("verify JSON: %d %s", rec.Code, rec.Body)
	}
	rec = f.do("GET", "/verificar/"+strings.ToLower(code)+"?format=html", "", "", nil, "")
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), "Resumo da representação") || strings.Contains(rec.Body.String(), "Figueiredo") {
		t.Errorf("verify HTML: %d %s", rec.Code, rec.Body)
	}
	if rec := f.do("GET", "/verificar/ZZZZ-ZZZZ-ZZZZ", "", "", nil, ""); rec.Code != 404 || !strings.Contains(rec.Body.String(), "Nenhum documento") {
		t.Errorf("unknown code HTML: %d", rec.Code)
	}
	if rec := f.do("GET", "/verificar/nada", "", "", nil, "application/json"); rec.Code != 422 {
		t.Errorf("malformed code: %d", rec.Code)
	}

	upload := func(b []byte) *httptest.ResponseRecorder {
		var buf bytes.Buffer
		w := multipart.NewWriter(&buf)
		fw, _ := w.CreateFormFile("file", "copia.pdf")
		fw.Write(b)
		w.Close()
		return f.do("POST", "/verificar/"+code+"?format=json", "", w.FormDataContentType(), buf.Bytes(), "")
	}
	if rec := upload(pdfBytes); rec.Code != 200 || !strings.Contains(rec.Body.String(), `"status":"authentic"`) {
		t.Errorf("original copy: %d %s", rec.Code, rec.Body)
	}
	altered := append([]byte(nil), pdfBytes...)
	altered[len(altered)/3] ^= 0x20
	if rec := upload(altered); rec.Code != 200 || !strings.Contains(rec.Body.String(), `"status":"altered"`) {
		t.Errorf("altered copy: %d %s", rec.Code, rec.Body)
	}
	sum := sha256.Sum256(pdfBytes)
	if rec := f.do("POST", "/verificar/"+code+"?sha256="+hex.EncodeToString(sum[:]), "", "", nil, "application/json"); !strings.Contains(rec.Body.String(), `"match":true`) {
		t.Errorf("sha256: %s", rec.Body)
	}
	if rec := f.do("POST", "/verificar/"+code, "", "application/pdf", altered, "text/html"); rec.Code != 200 || !strings.Contains(rec.Body.String(), "Cópia alterada") {
		t.Errorf("altered copy, HTML: %d %s", rec.Code, rec.Body)
	}
	if rec := f.do("POST", "/verificar/"+code+"?sha256=12", "", "", nil, "application/json"); rec.Code != 422 {
		t.Errorf("bad sha256: %d", rec.Code)
	}

	// Certificate by CPF and the public poster.
	rec = f.do("GET", "/api/v1/certificates/663.923.321-54.pdf", f.tokens["prosecutor"], "", nil, "")
	if rec.Code != 200 || rec.Header().Get("Content-Type") != "application/pdf" {
		t.Errorf("certificate: %d %.300s", rec.Code, rec.Body)
	}
	if rec := f.do("GET", "/api/v1/certificates/123", f.tokens["prosecutor"], "", nil, ""); rec.Code != 422 {
		t.Errorf("bad CPF: %d", rec.Code)
	}
	rec = f.do("GET", "/impedidos.pdf", "", "", nil, "")
	if rec.Code != 200 || rec.Header().Get("X-Juizado-Document-Code") == "" {
		t.Errorf("poster: %d %.300s", rec.Code, rec.Body)
	}
	if rec := f.do("GET", "/impedidos.pdf?court=x", "", "", nil, ""); rec.Code != 422 {
		t.Errorf("poster, bad court: %d", rec.Code)
	}
}
