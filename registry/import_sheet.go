package registry

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/juizado/juizado/internal/errs"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"
)

func unreadable(msg string) error { return errs.New(errs.Unreadable, msg) }

func invalidBody(msg string) error { return errs.InvalidField("body", "spreadsheet", msg) }

// readSheet finds the CSV (and the photos, for a ZIP) and decodes its text.
func readSheet(body []byte, contentType string) (*sheet, error) {
	if len(bytes.TrimSpace(body)) == 0 {
		return nil, unreadable("O corpo da requisição está vazio: envie a planilha (text/csv) ou um ZIP com a planilha e as fotos.")
	}
	if len(body) > MaxImportBytes {
		return nil, &TooLargeError{Message: "O arquivo excede 64 MB."}
	}
	ct := strings.ToLower(strings.TrimSpace(strings.SplitN(contentType, ";", 2)[0]))
	isZip := bytes.HasPrefix(body, []byte("PK\x03\x04")) || bytes.HasPrefix(body, []byte("PK\x05\x06"))
	if (ct == "application/zip" || ct == "application/x-zip-compressed") && !isZip {
		return nil, invalidBody("o corpo enviado como application/zip não é um arquivo ZIP.")
	}
	sh := &sheet{photos: map[string][]byte{}, tooBig: map[string]bool{}}
	raw := body
	if isZip {
		sh.isZip = true
		var err error
		raw, err = readZip(body, sh)
		if err != nil {
			return nil, err
		}
	} else if len(raw) > MaxCSVBytes {
		return nil, &TooLargeError{Message: "A planilha excede 10 MB."}
	}
	text, enc, err := decodeText(raw)
	if err != nil {
		return nil, err
	}
	sh.text, sh.encoding = text, enc
	return sh, nil
}

// readZip reads the one CSV of a ZIP and the image files beside it, within
// MaxZipFiles and MaxZipTotal (sizes are checked while reading: a header
// may lie).
func readZip(body []byte, sh *sheet) ([]byte, error) {
	zr, err := zip.NewReader(bytes.NewReader(body), int64(len(body)))
	if err != nil {
		return nil, invalidBody("o arquivo ZIP está corrompido ou não pôde ser lido.")
	}
	if len(zr.File) > MaxZipFiles {
		return nil, &TooLargeError{Message: fmt.Sprintf("O ZIP tem %d arquivos; o máximo é %d.", len(zr.File), MaxZipFiles)}
	}
	var csvData []byte
	var csvName string
	var total int64
	for _, f := range zr.File {
		if f.FileInfo().IsDir() {
			continue
		}
		name := path.Base(strings.ReplaceAll(f.Name, "\\", "/"))
		if strings.HasPrefix(name, ".") || strings.Contains(f.Name, "__MACOSX") {
			continue
		}
		lower := strings.ToLower(name)
		isCSV := strings.HasSuffix(lower, ".csv") || strings.HasSuffix(lower, ".txt")
		limit := int64(MaxPhotoBytes)
		if isCSV {
			limit = MaxCSVBytes
		}
		rc, err := f.Open()
		if err != nil {
			return nil, invalidBody(fmt.Sprintf("o arquivo %q do ZIP não pôde ser lido.", name))
		}
		data, err := io.ReadAll(io.LimitReader(rc, limit+1))
		rc.Close()
		if err != nil {
			return nil, invalidBody(fmt.Sprintf("o arquivo %q do ZIP está corrompido.", name))
		}
		total += int64(len(data))
		if total > MaxZipTotal {
			return nil, &TooLargeError{Message: "O conteúdo do ZIP excede 256 MB."}
		}
		if isCSV {
			if csvData != nil {
				return nil, invalidBody(fmt.Sprintf("o ZIP tem mais de uma planilha (%s, %s): envie uma só.", csvName, name))
			}
			if int64(len(data)) > limit {
				return nil, &TooLargeError{Message: "A planilha excede 10 MB."}
			}
			csvData, csvName = data, name
			continue
		}
		if int64(len(data)) > limit {
			sh.tooBig[lower] = true
			continue
		}
		sh.photos[lower] = data
	}
	if csvData == nil {
		return nil, invalidBody("o ZIP não contém a planilha (.csv).")
	}
	return csvData, nil
}

// decodeText detects the encoding: a UTF-8 or UTF-16 BOM; else valid UTF-8;
// else Windows-1252 (Excel in Brazil).
func decodeText(raw []byte) (string, string, error) {
	var text, enc string
	switch {
	case bytes.HasPrefix(raw, []byte{0xEF, 0xBB, 0xBF}):
		raw, enc = raw[3:], "UTF-8 com BOM"
		if !utf8.Valid(raw) {
			return "", "", invalidBody("a planilha diz ser UTF-8 (BOM) mas contém bytes inválidos.")
		}
		text = string(raw)
	case bytes.HasPrefix(raw, []byte{0xFF, 0xFE}), bytes.HasPrefix(raw, []byte{0xFE, 0xFF}):
		e := unicode.UTF16(unicode.LittleEndian, unicode.ExpectBOM)
		enc = "UTF-16"
		b, err := e.NewDecoder().Bytes(raw)
		if err != nil {
			return "", "", invalidBody("a planilha em UTF-16 não pôde ser decodificada.")
		}
		text = string(b)
	case utf8.Valid(raw):
		text, enc = string(raw), "UTF-8"
	default:
		b, err := charmap.Windows1252.NewDecoder().Bytes(raw)
		if err != nil {
			return "", "", invalidBody("a planilha não está em UTF-8 nem em Windows-1252.")
		}
		text, enc = string(b), "Windows-1252"
	}
	if strings.ContainsRune(text, 0) {
		return "", "", invalidBody("o arquivo contém caracteres nulos: não é uma planilha CSV (envie text/csv ou um ZIP).")
	}
	if strings.TrimSpace(text) == "" {
		return "", "", unreadable("A planilha está vazia.")
	}
	return text, enc, nil
}

// detectSeparator picks `;`, `,` or tab, whichever appears most often
// outside quotes in the header line.
func detectSeparator(text string) rune {
	counts := map[rune]int{}
	inQuotes := false
	for _, r := range text {
		if r == '"' {
			inQuotes = !inQuotes
			continue
		}
		if !inQuotes && (r == '\n' || r == '\r') {
			break
		}
		if !inQuotes && (r == ';' || r == ',' || r == '\t') {
			counts[r]++
		}
	}
	best := ';'
	for _, r := range []rune{';', ',', '\t'} {
		if counts[r] > counts[best] {
			best = r
		}
	}
	return best
}
