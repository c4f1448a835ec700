package audit

import (
	"context"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/juizado/juizado/internal/db"
	"gorm.io/gorm"
)

// The kinds of Drift: how a row of an audited table stands against the
// trail.
const (
	// DriftDiffers: the row's content is not the image its last audit row
	// recorded (edited with the triggers off, or the trail rewritten).
	DriftDiffers = "differs"
	// DriftNoAuditRow: the row exists and no audit row names it (written
	// with the triggers off, or before the trail existed: migration 00006).
	DriftNoAuditRow = "no audit row"
	// DriftDeletedUnseen: the trail's last image of the row is there to
	// see, the row is gone, and no audit row says it was deleted.
	DriftDeletedUnseen = "deleted unseen"
	// DriftAuditedDeleted: the trail says the row was deleted (or moved to
	// another key) and the row is there.
	DriftAuditedDeleted = "audited as deleted"
)

// Drift is a row of an audited table (one with the trigger audit_write,
// migration 00006) that does not match the trail: its current content
// compared with the image (after) of the last audit row of its primary
// key, an insert, update, delete or the baseline of the rows older than the
// trail (migration 00095) (issue 32, item 4: what a superuser did with the
// triggers off).
type Drift struct {
	Table   string // the table
	Key     string // the row's primary key as JSON ({"id": 12}; {"user_id": 3})
	Kind    string // DriftDiffers, DriftNoAuditRow, DriftDeletedUnseen or DriftAuditedDeleted
	AuditID int64  // the last audit row of that key; 0 when none
}

// String is the drift as `juizado audit verify` prints it.
func (d Drift) String() string {
	if d.AuditID == 0 {
		return fmt.Sprintf("%s %s: %s", d.Table, d.Key, d.Kind)
	}
	return fmt.Sprintf("%s %s: %s (last audit row %d)", d.Table, d.Key, d.Kind, d.AuditID)
}

// Drifts compares every audited table's current rows with their last
// audited image and calls fn, table by table in name order and key order
// within, for every row that differs, has no audit row, was deleted
// unseen, or is there though audited as deleted; fn's error stops it.
//
// Images are compared as the trigger made them (audit_compact of the row as
// JSON); where the bytes differ, they are compared again as the table's
// types read them back (jsonb_populate_record: an instant written in
// another time zone is the same instant) and only on the columns the audit
// image holds (a column added by a later migration is not in the images
// made before it); a value the trail hides ("(oculto)": a password's hash,
// migration 00008) is not compared. A table without a primary key is
// reported as an error.
func Drifts(ctx context.Context, g *gorm.DB, fn func(Drift) error) error {
	var tables []struct {
		Table string
		Keys  string // primary key columns, comma-separated, in key order
	}
	err := db.Conn(ctx, g).Raw(`
		SELECT c.relname AS table,
		       (SELECT string_agg(a.attname, ',' ORDER BY k.n) FROM pg_index i
		          CROSS JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, n)
		          JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
		         WHERE i.indrelid = c.oid AND i.indisprimary) AS keys
		FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
		WHERE t.tgname = 'audit_write' AND NOT t.tgisinternal AND c.relnamespace = 'public'::regnamespace
		ORDER BY c.relname`).Scan(&tables).Error
	if err != nil {
		return err
	}
	for _, t := range tables {
		if t.Keys == "" {
			return fmt.Errorf("audit: table %s has no primary key: its rows cannot be compared with the trail", t.Table)
		}
		rows, err := db.Conn(ctx, g).Raw(driftSQL(t.Table, strings.Split(t.Keys, ",")), t.Table).Rows()
		if err != nil {
			return fmt.Errorf("audit: comparing %s with the trail: %w", t.Table, err)
		}
		for rows.Next() {
			d := Drift{Table: t.Table}
			if err := rows.Scan(&d.Key, &d.Kind, &d.AuditID); err != nil {
				rows.Close()
				return err
			}
			if err := fn(d); err != nil {
				rows.Close()
				return err
			}
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return fmt.Errorf("audit: comparing %s with the trail: %w", t.Table, err)
		}
	}
	return nil
}

// driftSQL is the comparison of one table (its one parameter: the table's
// name in audit_log): the trail's last state of every key (an image, or
// gone), full-joined with the current rows by key.
func driftSQL(table string, keys []string) string {
	tbl := pgx.Identifier{table}.Sanitize()
	key := func(of string) string { // jsonb_build_object('id', of->'id', ...)
		parts := make([]string, len(keys))
		for i, k := range keys {
			lit := "'" + strings.ReplaceAll(k, "'", "''") + "'"
			parts[i] = lit + ", " + fmt.Sprintf(of, lit, pgx.Identifier{k}.Sanitize())
		}
		return "jsonb_build_object(" + strings.Join(parts, ", ") + ")"
	}
	// norm(img): the image read back as the table's types, on the columns
	// of the audited image l.img.
	norm := func(img string) string {
		return `(SELECT coalesce(jsonb_object_agg(e.key, e.value), '{}'::jsonb)
		           FROM jsonb_each(to_jsonb(jsonb_populate_record(NULL::` + tbl + `, ` + img + `))) e WHERE jsonb_exists(l.img, e.key))`
	}
	// cur: the current image with the values the trail hides ("(oculto)":
	// a password's hash, migration 00008) hidden alike.
	cur := `(c.img || coalesce((SELECT jsonb_object_agg(h.key, h.value) FROM jsonb_each(l.img) h WHERE h.value = '"(oculto)"'::jsonb), '{}'::jsonb))`
	return `
WITH ev AS (
  SELECT a.id, k.key, k.img
  FROM audit_log a CROSS JOIN LATERAL (
    SELECT ` + key("a.after->%[1]s") + ` AS key, a.after AS img WHERE a.after IS NOT NULL
    UNION ALL
    SELECT ` + key("a.before->%[1]s") + `, NULL WHERE a.before IS NOT NULL
      AND (a.after IS NULL OR ` + key("a.before->%[1]s") + ` <> ` + key("a.after->%[1]s") + `)
  ) k
  WHERE a.table_name = ? AND a.action IN ('insert', 'update', 'delete', 'baseline')
), l AS (
  SELECT DISTINCT ON (key) key, id, img FROM ev ORDER BY key, id DESC
), c AS (
  SELECT ` + key("to_jsonb(t.%[2]s)") + ` AS key, audit_compact(to_jsonb(t)) AS img FROM ` + tbl + ` t
)
SELECT coalesce(c.key, l.key)::text,
       CASE WHEN l.key IS NULL THEN '` + DriftNoAuditRow + `'
            WHEN c.key IS NULL THEN '` + DriftDeletedUnseen + `'
            WHEN l.img IS NULL THEN '` + DriftAuditedDeleted + `'
            ELSE '` + DriftDiffers + `' END,
       coalesce(l.id, 0)
FROM c FULL JOIN l ON l.key = c.key
WHERE (c.key IS NULL AND l.img IS NOT NULL)
   OR (c.key IS NOT NULL AND (l.key IS NULL OR l.img IS NULL
       OR (` + cur + ` <> l.img AND ` + norm(cur) + ` IS DISTINCT FROM ` + norm("l.img") + `)))
ORDER BY 1`
}
