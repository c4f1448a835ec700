-- +goose Up
-- The CNJ's Tabelas Processuais Unificadas as data (Res. CNJ 46/2007; issue
-- 31, item 1): package tpu syncs the tables from the files embedded in the
-- binary (tpu/data/*.csv) right after the migrations when the database holds
-- an older version, and `juizado tpu load` replaces one with a newer SGT
-- export, whole or nothing.
--
-- tpu_tables: each table's version (the SGT table's date, YYYY-MM-DD, with
-- this product's revision .N), where it came from and when. Reference data,
-- written by the migrations too: not in the audit trail (its trigger would
-- report every migrated database as written outside). tpu_items: its items;
-- verified false marks a code not checked against a published source
-- (DOMAIN.md §§ 4, 6).
CREATE TABLE tpu_tables (
    name      text PRIMARY KEY CHECK (name IN ('classes', 'subjects', 'movements')),
    version   text NOT NULL,
    source    text NOT NULL DEFAULT '',
    loaded_at timestamptz NOT NULL
);
CREATE TABLE tpu_items (
    tbl         text NOT NULL REFERENCES tpu_tables(name),
    code        integer NOT NULL CHECK (code BETWEEN 1 AND 999999),
    name        text NOT NULL CHECK (name <> ''),
    parent      integer,
    complements jsonb NOT NULL DEFAULT '[]',
    verified    boolean NOT NULL DEFAULT false,
    note        text NOT NULL DEFAULT '',
    PRIMARY KEY (tbl, code)
);

-- movements.kind: what the system wrote (cases.MovementKind: "distribution",
-- "hearing_scheduled", ...; "manual" for the clerk's entry; '' before this
-- migration); its national code follows from it (cases.MovementTPU).
-- complements: the TPU complements of the entry ([{name, value}], e.g. the
-- kind and situation of a hearing).
ALTER TABLE movements
    ADD COLUMN kind text NOT NULL DEFAULT '',
    ADD COLUMN complements jsonb NOT NULL DEFAULT '[]';

-- cases.class_code, subject_codes: the TPU class and subjects of the case
-- (Res. CNJ 46/2007), derived at filing from the flow and the conduct; the
-- clerk corrects them (docketed). NULL / [] on cases filed before.
ALTER TABLE cases
    ADD COLUMN class_code integer,
    ADD COLUMN subject_codes jsonb NOT NULL DEFAULT '[]';

-- +goose Down
ALTER TABLE cases DROP COLUMN subject_codes, DROP COLUMN class_code;
ALTER TABLE movements DROP COLUMN complements, DROP COLUMN kind;
DROP TABLE tpu_items, tpu_tables;
