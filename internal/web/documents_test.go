package web_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/http/httptest"
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
// verifies a code and a copy; a changed byte is reported as altered. The
// sentence's ban waits for the final judgment (Súmula 643 STJ).
func TestDocumentsOverHTTP(t *testing.T) {
	f := newFixture(t)
	reps := sharedfix.Representations(t)
	rec := f.do("POST", "/api/v1/cases", f.tokens["prosecutor"], "application/json", reps[0], "")
	if rec.Code != 201 {
		t.Fatalf("filing: %d %s", rec.Code, rec.Body)
	}
	var c struct {
		ID         int64
		Defendants []struct{ ID int64 }
	}
	_ = json.Unmarshal(rec.Body.Bytes(), &c)
	body := fmt.Sprintf(`{"defendant_id": %d, "ban": {"months": 6}, `+reasoningJSON+`, `+reportingJSON+`}`, c.Defendants[0].ID)
	f.receive(t, c.ID)
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
	if rec := f.do("GET", fmt.Sprintf(base+"sentence.pdf?ban_id=%d&defendant_id=%d", s.Ban.ID, c.Defendants[0].ID), f.tokens["judge"], "", nil, ""); rec.Code != 422 {
		t.Errorf("both ban_id and defendant_id: %d", rec.Code)
	}
	if rec := f.do("GET", base+"sentence.pdf?defendant_id=x", f.tokens["judge"], "", nil, ""); rec.Code != 422 {
		t.Errorf("defendant_id not a number: %d", rec.Code)
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

// One verification code per decision: GET .../documents/sentence.pdf by
// the ban or by the defendant gives the same stored PDF every time, for an
// acquittal (CPP art. 386, no ban) too; the judge previews the saved minuta
// at GET .../sentence/draft.pdf ("MINUTA — sem valor de documento": no
// code, nothing stored), which only the judge may read.
func TestSentenceDocumentOncePerDecisionAndDraftPreview_CPP386(t *testing.T) {
	f := newFixture(t)
	reps := sharedfix.Representations(t)
	file := func(i int) (int64, int64) {
		t.Helper()
		rec := f.do("POST", "/api/v1/cases", f.tokens["prosecutor"], "application/json", reps[i], "")
		if rec.Code != 201 {
			t.Fatalf("filing: %d %s", rec.Code, rec.Body)
		}
		var c struct {
			ID         int64
			Defendants []struct{ ID int64 }
		}
		_ = json.Unmarshal(rec.Body.Bytes(), &c)
		f.receive(t, c.ID)
		return c.ID, c.Defendants[0].ID
	}
	sentence := func(caseID int64, body string) *httptest.ResponseRecorder {
		return f.do("POST", fmt.Sprintf("/api/v1/cases/%d/sentence", caseID), f.tokens["judge"], "application/json", []byte(body), "")
	}
	get := func(path, role string) *httptest.ResponseRecorder {
		return f.do("GET", path, f.tokens[role], "", nil, "")
	}

	caseID, defID := file(0)
	if rec := sentence(caseID, fmt.Sprintf(`{"defendant_id": %d, "ban": {"months": 6}, `+reasoningJSON+`, `+reportingJSON+`}`, defID)); rec.Code != 201 {
		t.Fatalf("sentence: %d %s", rec.Code, rec.Body)
	}
	var banID int64
	if err := f.g.Raw("SELECT id FROM bans WHERE defendant_id = ?", defID).Scan(&banID).Error; err != nil {
		t.Fatal(err)
	}
	base := fmt.Sprintf("/api/v1/cases/%d/documents/sentence.pdf", caseID)
	first := get(fmt.Sprintf("%s?ban_id=%d", base, banID), "clerk")
	if first.Code != 200 {
		t.Fatalf("sentence by ban: %d %s", first.Code, first.Body)
	}
	code := first.Header().Get("X-Juizado-Document-Code")
	for _, p := range []string{fmt.Sprintf("%s?ban_id=%d", base, banID), fmt.Sprintf("%s?defendant_id=%d", base, defID)} {
		for _, role := range []string{"clerk", "judge", "prosecutor"} {
			rec := get(p, role)
			if rec.Code != 200 || rec.Header().Get("X-Juizado-Document-Code") != code || !bytes.Equal(rec.Body.Bytes(), first.Body.Bytes()) {
				t.Errorf("%s by %s: %d code %q, want the same document %s", p, role, rec.Code, rec.Header().Get("X-Juizado-Document-Code"), code)
			}
		}
	}
	var n int64
	if err := f.g.Raw("SELECT count(*) FROM documents WHERE kind = 'sentence'").Scan(&n).Error; err != nil || n != 1 {
		t.Errorf("%d sentence documents (%v), want 1", n, err)
	}

	// An acquittal has no ban: its sentence by the defendant.
	acqCase, acqDef := file(1)
	if rec := sentence(acqCase, fmt.Sprintf(`{"defendant_id": %d, "outcome": "acquittal", "acquittal_ground": "VII", "text": {"reasoning": "Não há prova suficiente para a condenação."}}`, acqDef)); rec.Code != 201 {
		t.Fatalf("acquittal: %d %s", rec.Code, rec.Body)
	}
	acqBase := fmt.Sprintf("/api/v1/cases/%d/documents/", acqCase)
	if rec := get(fmt.Sprintf("%ssentence.pdf?defendant_id=%d", acqBase, acqDef), "clerk"); rec.Code != 200 || !bytes.HasPrefix(rec.Body.Bytes(), []byte("%PDF-")) {
		t.Errorf("acquittal's sentence: %d %.200s", rec.Code, rec.Body)
	}
	if rec := get(fmt.Sprintf("%snotice.pdf?defendant_id=%d", acqBase, acqDef), "clerk"); rec.Code != 200 {
		t.Errorf("acquittal's notice: %d %.200s", rec.Code, rec.Body)
	}
	if rec := get(fmt.Sprintf("%sletter.pdf?defendant_id=%d", acqBase, acqDef), "clerk"); rec.Code != 404 {
		t.Errorf("a letter about an acquittal (no ban): %d, want 404", rec.Code)
	}
	if rec := get(fmt.Sprintf("%ssentence.pdf?defendant_id=%d", acqBase, defID), "clerk"); rec.Code != 404 {
		t.Errorf("another case's defendant: %d, want 404", rec.Code)
	}

	// The minuta's preview.
	draftCase, draftDef := file(2)
	draftURL := fmt.Sprintf("/api/v1/cases/%d/sentence/draft.pdf?defendant_id=%d", draftCase, draftDef)
	if rec := get(draftURL, "judge"); rec.Code != 404 {
		t.Errorf("preview with no minuta: %d, want 404", rec.Code)
	}
	rec := sentence(draftCase, fmt.Sprintf(`{"defendant_id": %d, "draft": true, "outcome": "ban", "prison_months": 24, "text": {"report": "Relatório da minuta.", "reasoning": "Fundamentação da minuta."}}`, draftDef))
	if rec.Code != 201 || !strings.Contains(rec.Body.String(), `"status":"draft"`) {
		t.Fatalf("minuta: %d %s", rec.Code, rec.Body)
	}
	if err := f.g.Raw("SELECT count(*) FROM documents WHERE kind = 'sentence'").Scan(&n).Error; err != nil {
		t.Fatal(err)
	}
	docs := n
	rec = get(draftURL, "judge")
	if rec.Code != 200 || rec.Header().Get("Content-Type") != "application/pdf" || !bytes.HasPrefix(rec.Body.Bytes(), []byte("%PDF-")) {
		t.Fatalf("preview: %d %s %.300s", rec.Code, rec.Header().Get("Content-Type"), rec.Body)
	}
	if c := rec.Header().Get("X-Juizado-Document-Code"); c != "" {
		t.Errorf("the preview has a verification code %q", c)
	}
	if err := f.g.Raw("SELECT count(*) FROM documents WHERE kind = 'sentence'").Scan(&n).Error; err != nil || n != docs {
		t.Errorf("the preview stored a document: %d → %d (%v)", docs, n, err)
	}
	if err := f.g.Raw("SELECT count(*) FROM sentences WHERE defendant_id = ? AND status = 'signed'", draftDef).Scan(&n).Error; err != nil || n != 0 {
		t.Errorf("the preview signed the minuta: %d signed (%v)", n, err)
	}
	if rec := get(draftURL, "clerk"); rec.Code != 403 {
		t.Errorf("a clerk previews the minuta: %d, want 403", rec.Code)
	}
	if rec := get(fmt.Sprintf("/api/v1/cases/%d/sentence/draft.pdf", draftCase), "judge"); rec.Code != 422 {
		t.Errorf("preview without defendant_id: %d, want 422", rec.Code)
	}
}
