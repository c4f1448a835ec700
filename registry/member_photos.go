package registry

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"
	"net/http"
	"strings"

	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/db"
	"github.com/juizado/juizado/internal/errs"
)

// MaxPhotoBytes is the largest photo accepted (5 MB).
const MaxPhotoBytes = 5 << 20

// maxPhotoPixels bounds a photo's decoded size (a small file may claim a
// huge image).
const maxPhotoPixels = 40_000_000

// TooLargeError is returned for a photo above MaxPhotoBytes (HTTP 413).
type TooLargeError struct{ Message string }

func (e *TooLargeError) Error() string { return e.Message }

// CleanPhoto checks that data is a JPEG or PNG by its content (signature
// and a full decode), at most MaxPhotoBytes, and re-encodes it so that no
// metadata (EXIF, GPS, comments, text chunks) is stored. It returns the
// content type, the clean bytes and the size. *TooLargeError above 5 MB;
// errs.Invalid for anything that is not a decodable JPEG or PNG.
func CleanPhoto(data []byte) (ctype string, clean []byte, w, h int, err error) {
	if len(data) > MaxPhotoBytes {
		return "", nil, 0, 0, &TooLargeError{Message: fmt.Sprintf("A foto tem %.1f MB; o máximo é 5 MB.", float64(len(data))/(1<<20))}
	}
	bad := func(msg string) error { return errs.InvalidField("photo", "image", msg) }
	if len(data) == 0 {
		return "", nil, 0, 0, bad("foto vazia.")
	}
	ctype = http.DetectContentType(data)
	var decode func([]byte) (image.Image, error)
	var cfg func([]byte) (image.Config, error)
	switch ctype {
	case "image/jpeg":
		decode = func(b []byte) (image.Image, error) { return jpeg.Decode(bytes.NewReader(b)) }
		cfg = func(b []byte) (image.Config, error) { return jpeg.DecodeConfig(bytes.NewReader(b)) }
	case "image/png":
		decode = func(b []byte) (image.Image, error) { return png.Decode(bytes.NewReader(b)) }
		cfg = func(b []byte) (image.Config, error) { return png.DecodeConfig(bytes.NewReader(b)) }
	default:
		return "", nil, 0, 0, bad("a foto deve ser uma imagem JPEG ou PNG (o conteúdo enviado não é).")
	}
	c, err := cfg(data)
	if err != nil {
		return "", nil, 0, 0, bad("a imagem está corrompida ou não é um " + strings.TrimPrefix(ctype, "image/") + " válido.")
	}
	if c.Width <= 0 || c.Height <= 0 || c.Width*c.Height > maxPhotoPixels {
		return "", nil, 0, 0, bad(fmt.Sprintf("dimensões da imagem fora do limite (%dx%d).", c.Width, c.Height))
	}
	img, err := decode(data)
	if err != nil {
		return "", nil, 0, 0, bad("a imagem está corrompida ou não é um " + strings.TrimPrefix(ctype, "image/") + " válido.")
	}
	var buf bytes.Buffer
	if ctype == "image/jpeg" {
		err = jpeg.Encode(&buf, img, &jpeg.Options{Quality: 90})
	} else {
		err = (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&buf, img)
	}
	if err != nil {
		return "", nil, 0, 0, err
	}
	b := img.Bounds()
	return ctype, buf.Bytes(), b.Dx(), b.Dy(), nil
}

// storePhoto stores a clean photo as member m's current photo.
func (s *Groups) storePhoto(ctx context.Context, a actor.Actor, m *Member, ctype string, clean []byte, w, h int, name string) error {
	sum := sha256.Sum256(clean)
	p := Photo{MemberID: m.ID, ContentType: ctype, Data: clean, SHA256: sum[:], Width: w, Height: h, CreatedAt: s.now()}
	tx := db.Conn(ctx, s.DB)
	if err := tx.Create(&p).Error; err != nil {
		return err
	}
	if err := s.history(ctx, a, m.ID, "photo", map[string]any{"photo_id": m.PhotoID}); err != nil {
		return err
	}
	m.PhotoID, m.PhotoName, m.UpdatedAt = &p.ID, name, s.now()
	return tx.Model(&Member{}).Where("id = ?", m.ID).Updates(map[string]any{"photo_id": p.ID, "photo_name": name, "updated_at": m.UpdatedAt}).Error
}

// SetPhoto stores the photo of member id (its group's managers only),
// checked and stripped by CleanPhoto.
func (s *Groups) SetPhoto(ctx context.Context, a actor.Actor, id int64, data []byte) (*MemberView, error) {
	err := db.WithTx(ctx, s.DB, func(ctx context.Context) error {
		m, err := s.memberForWrite(ctx, a, id)
		if err != nil {
			return err
		}
		ctype, clean, w, h, err := CleanPhoto(data)
		if err != nil {
			return err
		}
		if err := s.storePhoto(ctx, a, m, ctype, clean, w, h, ""); err != nil {
			return err
		}
		return s.touch(ctx, m.GroupID)
	})
	if err != nil {
		return nil, err
	}
	return s.memberView(ctx, id)
}

// GetPhoto returns member id's photo to those who may read the register
// (recorded for anyone but the managers); errs.NotFound otherwise or when
// the member has no photo.
func (s *Groups) GetPhoto(ctx context.Context, a actor.Actor, id int64) (ctype string, data []byte, sha string, err error) {
	err = db.WithTx(ctx, s.DB, func(ctx context.Context) error {
		m, err := s.memberForRead(ctx, a, id, "photo")
		if err != nil {
			return err
		}
		if m.PhotoID == nil {
			return errs.New(errs.NotFound, fmt.Sprintf("O associado %d não tem foto cadastrada.", id))
		}
		var p Photo
		if err := db.Conn(ctx, s.DB).Where("id = ?", *m.PhotoID).Take(&p).Error; err != nil {
			return err
		}
		ctype, data, sha = p.ContentType, p.Data, fmt.Sprintf("%x", p.SHA256)
		return nil
	})
	return ctype, data, sha, err
}
