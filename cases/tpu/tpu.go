// Package tpu holds the CNJ's Tabelas Processuais Unificadas (Res. CNJ
// 46/2007) as data: the classes, subjects and movements this court uses,
// shipped with the product as CSV files in the shape of the SGT's export
// (embedded, data/*.csv, each with its version), kept in the database with
// their version (tables tpu_tables and tpu_items, migration 00200), synced
// from the embedded files at migrate and startup when the database holds an
// older version, and replaced by a newer SGT export (`juizado tpu load`).
//
// Codes not verified against a published source are marked so in the
// files (column verificado = nao) and in the API (verified false), never
// silently invented (DOMAIN.md §§ 4 and 6).
//
// The package speaks database/sql (so internal/db can sync it right after
// the migrations) through Conn: a *sql.DB, a *sql.Tx or GORM's ConnPool.
package tpu

import (
	"context"
	"database/sql"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/juizado/juizado/internal/errs"
)

// The three tables of the TPU (Res. CNJ 46/2007, art. 1º).
const (
	Classes   = "classes"
	Subjects  = "subjects"
	Movements = "movements"
)

// Tables lists the tables in the order they are synced.
var Tables = []string{Classes, Subjects, Movements}

// TablePT names each table in Portuguese, for messages and pages.
var TablePT = map[string]string{Classes: "classes", Subjects: "assuntos", Movements: "movimentos"}

//go:embed data/*.csv
var data embed.FS

// Item is one entry of a table: its national code (positive), its name, its
// parent's code (nil at the root or when unknown), the names of the
// complements it carries (movements: e.g. "tipo de audiência"), whether the
// code was verified against a published source, and the source or note.
type Item struct {
	Code        int      `json:"code"`
	Name        string   `json:"name"`
	Parent      *int     `json:"parent"`
	Complements []string `json:"complements"`
	Verified    bool     `json:"verified"`
	Note        string   `json:"note,omitempty"`
}

// Table is one table of the TPU at a version: the body of GET
// /api/v1/tpu?table=… (version and items by code).
type Table struct {
	Name    string `json:"table"`
	Version string `json:"version"`
	Items   []Item `json:"items"`
}

// Conn is what the package queries through: *sql.DB, *sql.Tx, or the
// ConnPool of a GORM session (inside the caller's transaction).
type Conn interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// versionRE is a table's version: the date of the SGT's table it follows
// (YYYY-MM-DD) and, optionally, this product's revision of it (.N).
var versionRE = regexp.MustCompile(`^([0-9]{4}-[0-9]{2}-[0-9]{2})(?:\.([0-9]{1,6}))?$`)

// CheckVersion returns an errs.Invalid naming "version" unless v is
// YYYY-MM-DD or YYYY-MM-DD.N.
func CheckVersion(v string) error {
	if m := versionRE.FindStringSubmatch(v); m != nil {
		if _, err := time.Parse("2006-01-02", m[1]); err == nil {
			return nil
		}
	}
	return errs.InvalidField("version", "format", fmt.Sprintf("versão %q inválida: use a data da tabela do SGT, AAAA-MM-DD (ex.: 2025-09-01), com revisão opcional (2025-09-01.2).", v))
}

// Newer reports whether version a is newer than b (both checked by
// CheckVersion; the empty b, no table yet, is older than any).
func Newer(a, b string) bool {
	if b == "" {
		return true
	}
	ma, mb := versionRE.FindStringSubmatch(a), versionRE.FindStringSubmatch(b)
	if ma == nil || mb == nil {
		return a > b
	}
	if ma[1] != mb[1] {
		return ma[1] > mb[1]
	}
	ra, _ := strconv.Atoi(ma[2])
	rb, _ := strconv.Atoi(mb[2])
	return ra > rb
}

// Embedded returns the table shipped with the product (data/NAME.csv),
// parsed; an error is a defect of the product (the test reads every file).
func Embedded(name string) (*Table, error) {
	b, err := data.ReadFile("data/" + name + ".csv")
	if err != nil {
		return nil, err
	}
	t, err := Parse(name, b, "")
	if err != nil {
		return nil, fmt.Errorf("tpu: embedded %s: %w", name, err)
	}
	return t, nil
}

// Version returns the version of table name in the database ("" when none
// was loaded).
func Version(ctx context.Context, c Conn, name string) (string, error) {
	var v string
	err := c.QueryRowContext(ctx, "SELECT version FROM tpu_tables WHERE name = $1", name).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return v, err
}

// Sync loads each embedded table whose version is newer than the
// database's (a table loaded from a newer SGT export is kept), in one
// transaction per table under an advisory lock; it returns the tables
// loaded. Called after the migrations (db.MigrateUp) and at startup.
func Sync(ctx context.Context, db *sql.DB, now time.Time) ([]string, error) {
	var loaded []string
	for _, name := range Tables {
		t, err := Embedded(name)
		if err != nil {
			return loaded, err
		}
		did, err := replace(ctx, db, t, "embutida no produto", now, false)
		if err != nil {
			return loaded, err
		}
		if did {
			loaded = append(loaded, name)
		}
	}
	return loaded, nil
}

// Load replaces table t in the database when t.Version is newer than the
// database's, whole or nothing in one transaction; source says where it
// came from (a file's name). An older or equal version is errs.Conflict
// naming both versions.
func Load(ctx context.Context, db *sql.DB, t *Table, source string, now time.Time) error {
	if err := CheckVersion(t.Version); err != nil {
		return err
	}
	_, err := replace(ctx, db, t, source, now, true)
	return err
}

// replace writes t when newer than the database's version; strict makes
// an older or equal version a Conflict instead of a no-op.
func replace(ctx context.Context, db *sql.DB, t *Table, source string, now time.Time, strict bool) (bool, error) {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return false, err
	}
	defer func() { _ = tx.Rollback() }()
	if _, err := tx.ExecContext(ctx, "SELECT pg_advisory_xact_lock(hashtext('tpu_tables'))"); err != nil {
		return false, err
	}
	cur, err := Version(ctx, tx, t.Name)
	if err != nil {
		return false, err
	}
	if !Newer(t.Version, cur) {
		if strict {
			return false, errs.New(errs.Conflict, fmt.Sprintf("A tabela de %s do banco já está na versão %s: a versão %s não é mais nova.", TablePT[t.Name], cur, t.Version))
		}
		return false, nil
	}
	if _, err := tx.ExecContext(ctx, "DELETE FROM tpu_items WHERE tbl = $1", t.Name); err != nil {
		return false, err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO tpu_tables (name, version, source, loaded_at) VALUES ($1, $2, $3, $4)
		ON CONFLICT (name) DO UPDATE SET version = EXCLUDED.version, source = EXCLUDED.source, loaded_at = EXCLUDED.loaded_at`,
		t.Name, t.Version, source, now); err != nil {
		return false, err
	}
	for _, it := range t.Items {
		comp, _ := json.Marshal(orEmpty(it.Complements))
		if _, err := tx.ExecContext(ctx, "INSERT INTO tpu_items (tbl, code, name, parent, complements, verified, note) VALUES ($1, $2, $3, $4, $5, $6, $7)",
			t.Name, it.Code, it.Name, it.Parent, string(comp), it.Verified, it.Note); err != nil {
			return false, err
		}
	}
	return true, tx.Commit()
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// Read returns table name as the database holds it, items by code; an
// unknown name is errs.Invalid on "table".
func Read(ctx context.Context, c Conn, name string) (*Table, error) {
	if _, ok := TablePT[name]; !ok {
		return nil, errs.InvalidField("table", "enum", fmt.Sprintf("tabela %q desconhecida: use classes, subjects ou movements.", name))
	}
	v, err := Version(ctx, c, name)
	if err != nil {
		return nil, err
	}
	rows, err := c.QueryContext(ctx, "SELECT code, name, parent, complements, verified, note FROM tpu_items WHERE tbl = $1 ORDER BY code", name)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	t := &Table{Name: name, Version: v, Items: []Item{}}
	for rows.Next() {
		var it Item
		var parent sql.NullInt64
		var comp []byte
		if err := rows.Scan(&it.Code, &it.Name, &parent, &comp, &it.Verified, &it.Note); err != nil {
			return nil, err
		}
		if parent.Valid {
			p := int(parent.Int64)
			it.Parent = &p
		}
		if err := json.Unmarshal(comp, &it.Complements); err != nil {
			return nil, err
		}
		t.Items = append(t.Items, it)
	}
	return t, rows.Err()
}

// Names returns the names of the given codes of table name (codes the
// table lacks are absent from the map).
func Names(ctx context.Context, c Conn, name string, codes []int) (map[int]string, error) {
	out := map[int]string{}
	if len(codes) == 0 {
		return out, nil
	}
	ids := make([]string, len(codes))
	for i, c := range codes {
		ids[i] = strconv.Itoa(c)
	}
	rows, err := c.QueryContext(ctx, "SELECT code, name FROM tpu_items WHERE tbl = $1 AND code = ANY(string_to_array($2, ',')::int[])", name, strings.Join(ids, ","))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var code int
		var n string
		if err := rows.Scan(&code, &n); err != nil {
			return nil, err
		}
		out[code] = n
	}
	return out, rows.Err()
}

// Check returns code's name in table name, or an errs.Invalid on field
// naming the table and its version when the table lacks the code (Res.
// CNJ 46/2007: only codes of the unified tables).
func Check(ctx context.Context, c Conn, name, field string, code int) (string, error) {
	names, err := Names(ctx, c, name, []int{code})
	if err != nil {
		return "", err
	}
	if n, ok := names[code]; ok {
		return n, nil
	}
	v, err := Version(ctx, c, name)
	if err != nil {
		return "", err
	}
	return "", errs.InvalidField(field, "tpu_unknown", UnknownMessage(name, v, code))
}

// UnknownMessage is the Portuguese message of a code that table name, at
// version v, lacks (Res. CNJ 46/2007).
func UnknownMessage(name, v string, code int) string {
	return fmt.Sprintf("o código %d não consta da tabela de %s da TPU do CNJ (versão %s; Res. CNJ 46/2007): consulte GET /api/v1/tpu?table=%s ou carregue a versão mais nova do SGT.", code, TablePT[name], v, name)
}
