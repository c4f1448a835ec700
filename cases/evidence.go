package cases

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path"
	"strings"
	"time"

	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/errs"
)

// MaxEvidenceBytes bounds an evidence file (10 MB).
const MaxEvidenceBytes = 10 << 20

// Evidence types, told by their content (magic bytes), never by the name.
var evidenceMagic = []struct {
	ctype string
	magic []byte
	exts  []string
}{
	{"application/pdf", []byte("%PDF-"), []string{".pdf"}},
	{"image/jpeg", []byte{0xFF, 0xD8, 0xFF}, []string{".jpg", ".jpeg"}},
	{"image/png", []byte("\x89PNG\r\n\x1a\n"), []string{".png"}},
}

// SniffEvidence returns the type of data by its first bytes: PDF, JPEG or
// PNG; "" for anything else.
func SniffEvidence(data []byte) string {
	for _, m := range evidenceMagic {
		if bytes.HasPrefix(data, m.magic) {
			return m.ctype
		}
	}
	return ""
}

func typeOfName(name string) string {
	ext := strings.ToLower(path.Ext(name))
	for _, m := range evidenceMagic {
		if Contains(m.exts, ext) {
			return m.ctype
		}
	}
	return ""
}

var typePT = map[string]string{"application/pdf": "PDF", "image/jpeg": "JPEG", "image/png": "PNG"}

// Evidence is an evidence file attached to a case.
type Evidence struct {
	ID           int64
	CaseID       int64
	CourtCode    string
	Filename     string
	ContentType  string
	Size         int
	SHA256       []byte `gorm:"column:sha256"`
	Description  string
	Content      []byte `gorm:"->:false;<-:create"`
	UploadedAt   time.Time
	UploadedBy   *int64
	UploaderRole string
}

// TableName is evidence.
func (Evidence) TableName() string { return "evidence" }

// EvidenceView describes a stored evidence file (without its bytes).
type EvidenceView struct {
	ID          int64     `json:"id"`
	CaseID      int64     `json:"case_id"`
	Filename    string    `json:"filename"`
	ContentType string    `json:"content_type"`
	Size        int       `json:"size"`
	SHA256      string    `json:"sha256"`
	Description string    `json:"description"`
	UploadedAt  time.Time `json:"uploaded_at"`
	UploadedBy  *int64    `json:"uploaded_by"`
	Role        string    `json:"uploader_role"`
}

func evidenceView(e Evidence) EvidenceView {
	return EvidenceView{ID: e.ID, CaseID: e.CaseID, Filename: e.Filename, ContentType: e.ContentType, Size: e.Size,
		SHA256: hex.EncodeToString(e.SHA256), Description: e.Description, UploadedAt: e.UploadedAt, UploadedBy: e.UploadedBy, Role: e.UploaderRole}
}

// AddEvidence attaches a file to the case: a PDF, JPEG or PNG told by its
// content, whose name's extension must say the same type (a PDF named
// .png is errs.Invalid on "file"), of at most MaxEvidenceBytes, stored with
// its SHA-256 and a docket movement.
func (s *Service) AddEvidence(ctx context.Context, actor actor.Actor, caseID int64, filename, description string, data []byte) (*EvidenceView, error) {
	name, ctype, err := checkEvidence(filename, description, data)
	if err != nil {
		return nil, err
	}
	var out *EvidenceView
	err = db.WithTx(ctx, s.DB, func(ctx context.Context) error {
		c, err := s.LockCase(ctx, actor, caseID)
		if err != nil {
			return err
		}
		out, err = s.storeEvidence(ctx, c, actor, DocEvidence, name, ctype, description, data)
		if err != nil {
			return err
		}
		return s.Touch(ctx, c, "")
	})
	return out, err
}

// checkEvidence applies the evidence rules to a file (AddEvidence): its
// name (base name, with the extension of its type), its description, its
// size (1 byte to MaxEvidenceBytes) and its type told by the content; it
// returns the base name and the type, or errs.Invalid on "file" or
// "description".
func checkEvidence(filename, description string, data []byte) (name, ctype string, err error) {
	var f errs.Fields
	name = path.Base(strings.ReplaceAll(strings.TrimSpace(filename), `\`, "/"))
	switch {
	case len(data) == 0:
		f.Add("file", "required", "envie o arquivo (campo file) com conteúdo.")
	case len(data) > MaxEvidenceBytes:
		f.Add("file", "max_size", fmt.Sprintf("o arquivo tem %d bytes; o máximo é %d (10 MB).", len(data), MaxEvidenceBytes))
	}
	if name == "" || name == "." || name == "/" {
		f.Add("file", "filename", "o arquivo precisa de um nome com extensão (.pdf, .jpg, .png).")
		name = ""
	} else {
		CheckText(&f, "file", name, MaxName, false)
	}
	CheckText(&f, "description", description, MaxLong, true)
	ctype = SniffEvidence(data)
	if len(data) > 0 && name != "" {
		byName := typeOfName(name)
		switch {
		case ctype == "":
			f.Add("file", "content_type", "o conteúdo do arquivo não é PDF, JPEG nem PNG.")
		case byName == "":
			f.Add("file", "extension", fmt.Sprintf("extensão de %q não aceita: o conteúdo é %s; use %s.", name, typePT[ctype], strings.Join(extsOf(ctype), " ou ")))
		case byName != ctype:
			f.Add("file", "content_type", fmt.Sprintf("o nome %q diz %s, mas o conteúdo é %s.", name, typePT[byName], typePT[ctype]))
		}
	}
	return name, ctype, f.Err()
}

// DocumentType is what a file joined to a case is, named in the docket
// movement of its joining (TPU movement 581, complement "tipo de
// documento"): DocEvidence, DocPowerOfAttorney or DocPetition.
type DocumentType string

const (
	// DocEvidence is evidence a party joins (AddEvidence).
	DocEvidence DocumentType = "prova"
	// DocPowerOfAttorney is the procuração a lawyer attaches to a request
	// to be linked (RequestCounsel; CPC art. 104, CPP art. 266).
	DocPowerOfAttorney DocumentType = "procuração"
	// DocPetition is the PDF a party attaches to a petition (FilePetition;
	// Lei 11.419/2006, art. 10).
	DocPetition DocumentType = "petição"
)

// storeEvidence writes a file checkEvidence accepted to case c, locked by
// the caller's transaction, with its SHA-256 and the docket movement of
// its joining as a document of type doc; the caller touches the case.
func (s *Service) storeEvidence(ctx context.Context, c *Case, actor actor.Actor, doc DocumentType, name, ctype, description string, data []byte) (*EvidenceView, error) {
	sum := sha256.Sum256(data)
	uid := actor.UserID
	e := Evidence{CaseID: c.ID, CourtCode: c.CourtCode, Filename: name, ContentType: ctype, Size: len(data), SHA256: sum[:],
		Description: strings.TrimSpace(description), Content: data, UploadedAt: s.Now(), UploadedBy: &uid, UploaderRole: actor.Role}
	if err := db.Conn(ctx, s.DB).Create(&e).Error; err != nil {
		return nil, err
	}
	text := fmt.Sprintf("Juntada de %s: %s (%s, %d bytes, SHA-256 %s).", doc, name, typePT[ctype], len(data), hex.EncodeToString(sum[:]))
	if err := s.Move(ctx, c, &actor, e.UploadedAt, MoveEvidence, text, Complement{Name: "tipo de documento", Value: string(doc)}); err != nil {
		return nil, err
	}
	v := evidenceView(e)
	return &v, nil
}

func extsOf(ctype string) []string {
	for _, m := range evidenceMagic {
		if m.ctype == ctype {
			return m.exts
		}
	}
	return nil
}

// ListEvidence lists the evidence files of a case of the actor's court.
func (s *Service) ListEvidence(ctx context.Context, actor actor.Actor, caseID int64) ([]EvidenceView, error) {
	var n int64
	if err := db.Conn(ctx, s.DB).Model(&Case{}).Where("id = ? AND court_code = ?", caseID, actor.Court).Count(&n).Error; err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, NotFound(fmt.Sprintf("Processo %d", caseID))
	}
	var es []Evidence
	if err := db.Conn(ctx, s.DB).Omit("content").Where("case_id = ?", caseID).Order("id").Find(&es).Error; err != nil {
		return nil, err
	}
	out := make([]EvidenceView, 0, len(es))
	for _, e := range es {
		out = append(out, evidenceView(e))
	}
	return out, nil
}

// GetEvidence returns an evidence file of the actor's court with its
// bytes; errs.NotFound otherwise.
func (s *Service) GetEvidence(ctx context.Context, actor actor.Actor, id int64) (*EvidenceView, []byte, error) {
	var row struct {
		Evidence
		Data []byte
	}
	err := db.Conn(ctx, s.DB).Raw("SELECT *, content AS data FROM evidence WHERE id = ? AND court_code = ?", id, actor.Court).Scan(&row).Error
	if err != nil {
		return nil, nil, err
	}
	if row.ID == 0 {
		return nil, nil, errs.New(errs.NotFound, fmt.Sprintf("Prova %d não encontrada.", id))
	}
	v := evidenceView(row.Evidence)
	return &v, row.Data, nil
}
