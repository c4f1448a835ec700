-- +goose Up
-- The DataJud export (Res. CNJ 331/2020; issue 31, item 2).
--
-- courts.unit_code, unit_name, ibge_municipality: the court's judging unit
-- as the CNJ knows it (código and nome do órgão julgador of the DataJud's
-- orgaoJulgador) and the IBGE code of its municipality (7 digits: the MTD's
-- codigoMunicipioIBGE and codigoLocalidade). NULL / '' until the admin sets
-- them; the export refuses to run without them.
ALTER TABLE courts
    ADD COLUMN unit_code integer CHECK (unit_code BETWEEN 1 AND 999999999),
    ADD COLUMN unit_name text NOT NULL DEFAULT '',
    ADD COLUMN ibge_municipality integer CHECK (ibge_municipality BETWEEN 1100000 AND 5399999);

-- cases.secrecy_level: the case's nivelSigilo of the MNI/MTD (0 public, 1
-- segredo de justiça, 2 to 5 sigilo mínimo to absoluto). 0 for every case
-- this court files (CF art. 93, IX: public by default); the export carries
-- it and withholds the parties' names and documents above 0.
ALTER TABLE cases
    ADD COLUMN secrecy_level smallint NOT NULL DEFAULT 0 CHECK (secrecy_level BETWEEN 0 AND 5);

-- +goose Down
ALTER TABLE cases DROP COLUMN secrecy_level;
ALTER TABLE courts DROP COLUMN ibge_municipality, DROP COLUMN unit_name, DROP COLUMN unit_code;
