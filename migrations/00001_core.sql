-- +goose Up
-- Juizado core schema: courts, users and tokens, authorization rules, venues,
-- fan groups (minimal), cases with defendants and docket, bans, blocklist versions.

CREATE EXTENSION IF NOT EXISTS unaccent;
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- unaccent() is STABLE; an immutable wrapper lets indexes use it.
-- +goose StatementBegin
CREATE FUNCTION f_unaccent(text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS
$$ SELECT lower(public.unaccent('public.unaccent'::regdictionary, $1)) $$;
-- +goose StatementEnd

-- Court units (juizados): code TR.OOOO of the CNJ number (Res. CNJ 65/2008).
CREATE TABLE courts (
    code             text PRIMARY KEY CHECK (code ~ '^[0-9]{2}\.[0-9]{4}$'),
    name             text NOT NULL,
    sec7_doubles_ban boolean NOT NULL DEFAULT true,   -- LGE art. 201 § 7º default reading
    publish_default  boolean NOT NULL DEFAULT true,   -- DOMAIN.md §6 default publication
    created_at       timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE fan_groups (
    id             bigserial PRIMARY KEY,
    name           text NOT NULL,
    cnpj           char(14) CHECK (cnpj ~ '^[0-9]{14}$'),
    supported_club text NOT NULL DEFAULT '',
    status         text NOT NULL DEFAULT 'active',
    created_at     timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX fan_groups_name_key ON fan_groups (f_unaccent(name));

CREATE TABLE users (
    id         bigserial PRIMARY KEY,
    name       text NOT NULL UNIQUE,
    role       text NOT NULL CHECK (role IN ('admin','clerk','judge','prosecutor','police','fan_group','club')),
    court_code text REFERENCES courts(code),
    club       text,
    group_id   bigint REFERENCES fan_groups(id),
    created_at timestamptz NOT NULL DEFAULT now(),
    disabled_at timestamptz,
    CHECK (role NOT IN ('admin','clerk','judge','prosecutor','police') OR court_code IS NOT NULL),
    CHECK (role <> 'club' OR club IS NOT NULL),
    CHECK (role <> 'fan_group' OR group_id IS NOT NULL)
);

-- API tokens: 256-bit random, stored as SHA-256 only.
CREATE TABLE api_tokens (
    id          bigserial PRIMARY KEY,
    user_id     bigint NOT NULL REFERENCES users(id),
    token_hash  bytea NOT NULL UNIQUE CHECK (length(token_hash) = 32),
    created_at  timestamptz NOT NULL DEFAULT now(),
    expires_at  timestamptz,
    revoked_at  timestamptz
);

-- Casbin policy (casbin/gorm-adapter layout; the adapter's auto-migration is off).
CREATE TABLE casbin_rule (
    id    bigserial PRIMARY KEY,
    ptype varchar(100),
    v0    varchar(100),
    v1    varchar(100),
    v2    varchar(100),
    v3    varchar(100),
    v4    varchar(100),
    v5    varchar(100)
);
CREATE UNIQUE INDEX idx_casbin_rule ON casbin_rule (ptype, v0, v1, v2, v3, v4, v5);

CREATE TABLE venues (
    id        bigserial PRIMARY KEY,
    name      text NOT NULL,
    city      text NOT NULL,
    uf        char(2) NOT NULL,
    latitude  double precision NOT NULL CHECK (latitude BETWEEN -90 AND 90),
    longitude double precision NOT NULL CHECK (longitude BETWEEN -180 AND 180),
    capacity  integer NOT NULL DEFAULT 0 CHECK (capacity >= 0)
);
CREATE UNIQUE INDEX venues_name_key ON venues (f_unaccent(name));

INSERT INTO venues (name, city, uf, latitude, longitude, capacity) VALUES
  ('Estádio Jornalista Mário Filho (Maracanã)', 'Rio de Janeiro', 'RJ', -22.91216, -43.23018, 78838),
  ('Estádio Nilton Santos', 'Rio de Janeiro', 'RJ', -22.89320, -43.29210, 44661),
  ('Estádio São Januário', 'Rio de Janeiro', 'RJ', -22.89070, -43.22830, 21880),
  ('Arena Corinthians', 'São Paulo', 'SP', -23.54531, -46.47423, 49205),
  ('Allianz Parque', 'São Paulo', 'SP', -23.52751, -46.67834, 43713),
  ('Estádio Cícero Pompeu de Toledo (Morumbi)', 'São Paulo', 'SP', -23.60000, -46.72030, 66795),
  ('Estádio Urbano Caldeira (Vila Belmiro)', 'Santos', 'SP', -23.95110, -46.33890, 16068),
  ('Estádio Governador Magalhães Pinto (Mineirão)', 'Belo Horizonte', 'MG', -19.86590, -43.97110, 61846),
  ('Arena do Grêmio', 'Porto Alegre', 'RS', -29.97390, -51.19500, 55662),
  ('Estádio José Pinheiro Borda (Beira-Rio)', 'Porto Alegre', 'RS', -30.06540, -51.23580, 50842),
  ('Arena da Baixada', 'Curitiba', 'PR', -25.44840, -49.27690, 42372),
  ('Arena Fonte Nova', 'Salvador', 'BA', -12.97870, -38.50430, 47907),
  ('Estádio Governador Plácido Castelo (Castelão)', 'Fortaleza', 'CE', -3.80720, -38.52240, 57876),
  ('Arena Pernambuco', 'São Lourenço da Mata', 'PE', -8.04010, -35.00810, 44300),
  ('Estádio Nacional Mané Garrincha', 'Brasília', 'DF', -15.78350, -47.89920, 69910);

-- Gapless CNJ sequence per court unit and year (Res. CNJ 65/2008).
CREATE TABLE case_sequences (
    court_code text NOT NULL REFERENCES courts(code),
    year       integer NOT NULL,
    last       integer NOT NULL CHECK (last BETWEEN 0 AND 9999999),
    PRIMARY KEY (court_code, year)
);

CREATE TABLE cases (
    id             bigserial PRIMARY KEY,
    number         char(20) NOT NULL UNIQUE CHECK (number ~ '^[0-9]{20}$'),
    court_code     text NOT NULL REFERENCES courts(code),
    year           integer NOT NULL,
    sequence       integer NOT NULL,
    status         text NOT NULL,
    judge_id       bigint REFERENCES users(id),
    filer_user_id  bigint NOT NULL REFERENCES users(id),
    filer_role     text NOT NULL,
    filed_by_kind  text NOT NULL,
    filed_by_name  text NOT NULL,
    ref            text NOT NULL DEFAULT '',
    competition    text NOT NULL DEFAULT '',
    home_team      text NOT NULL DEFAULT '',
    away_team      text NOT NULL DEFAULT '',
    venue_id       bigint REFERENCES venues(id),
    kickoff        timestamptz,
    occurred_at    timestamptz NOT NULL,
    facts_date     date NOT NULL,
    latitude       double precision,
    longitude      double precision,
    conduct        jsonb NOT NULL DEFAULT '[]',
    police_reports jsonb NOT NULL DEFAULT '[]',
    description    text NOT NULL DEFAULT '',
    filed_at       timestamptz NOT NULL,
    UNIQUE (court_code, year, sequence)
);
CREATE INDEX cases_judge ON cases (judge_id);
CREATE INDEX cases_status ON cases (status);

CREATE TABLE defendants (
    id             bigserial PRIMARY KEY,
    case_id        bigint NOT NULL REFERENCES cases(id),
    position       integer NOT NULL,
    kind           text NOT NULL CHECK (kind IN ('person','fan_group')),
    full_name      text NOT NULL DEFAULT '',
    cpf            char(11) CHECK (cpf ~ '^[0-9]{11}$'),
    birth_date     date,
    mother_name    text NOT NULL DEFAULT '',
    father_name    text NOT NULL DEFAULT '',
    address        text NOT NULL DEFAULT '',
    group_name     text NOT NULL DEFAULT '',
    cnpj           char(14),
    supported_club text NOT NULL DEFAULT '',
    group_id       bigint REFERENCES fan_groups(id),
    UNIQUE (case_id, position)
);
CREATE INDEX defendants_cpf ON defendants (cpf);
CREATE INDEX defendants_name_trgm ON defendants USING gin (f_unaccent(full_name) gin_trgm_ops);

-- Docket entries (movimentações) with the CNJ TPU code where one exists.
CREATE TABLE movements (
    id             bigserial PRIMARY KEY,
    case_id        bigint NOT NULL REFERENCES cases(id),
    at             timestamptz NOT NULL,
    tpu_code       integer,
    description    text NOT NULL,
    author_user_id bigint REFERENCES users(id),
    author_role    text NOT NULL DEFAULT ''
);
CREATE INDEX movements_case ON movements (case_id, at, id);

-- Stadium bans (impedimento de comparecimento).
CREATE TABLE bans (
    id                bigserial PRIMARY KEY,
    case_id           bigint NOT NULL REFERENCES cases(id),
    defendant_id      bigint NOT NULL REFERENCES defendants(id),
    subject           text NOT NULL CHECK (subject IN ('person','group')),
    source            text NOT NULL CHECK (source IN ('sentence','plea_agreement','conditional_suspension','civil_judgment','settlement','precautionary_order')),
    court_code        text NOT NULL REFERENCES courts(code),
    case_number       char(20) NOT NULL,
    cpf               char(11) CHECK (cpf ~ '^[0-9]{11}$'),
    name              text NOT NULL DEFAULT '',  -- the banned person's or group's name
    birth_date        date,
    group_id          bigint REFERENCES fan_groups(id),
    facts_date        date NOT NULL,
    law               text NOT NULL,
    article           text NOT NULL,
    range_min_months  integer NOT NULL,
    range_max_months  integer NOT NULL,
    sec7_applied      boolean NOT NULL DEFAULT false,
    sec7_doubles_ban  boolean NOT NULL DEFAULT true,
    eligible          boolean NOT NULL DEFAULT true,
    organiser         boolean NOT NULL DEFAULT false,
    precautionary     boolean NOT NULL DEFAULT false,
    first_day         date NOT NULL,
    months            integer CHECK (months > 0),
    computed_last_day date,
    last_day          date,
    override_reason   text NOT NULL DEFAULT '',
    prison_months     integer CHECK (prison_months > 0),
    reporting_place   text NOT NULL DEFAULT '',
    reporting_club    text NOT NULL DEFAULT '',
    reporting_competition text NOT NULL DEFAULT '',
    publish           boolean NOT NULL,
    status            text NOT NULL DEFAULT 'active' CHECK (status IN ('active','lifted')),
    created_at        timestamptz NOT NULL,
    created_by        bigint REFERENCES users(id),
    CHECK (first_day >= facts_date),
    CHECK (precautionary OR (months IS NOT NULL AND last_day IS NOT NULL)),
    CHECK (last_day IS NULL OR last_day >= first_day)
);
CREATE UNIQUE INDEX bans_one_per_defendant ON bans (defendant_id) WHERE status = 'active' AND NOT precautionary;
CREATE INDEX bans_in_force ON bans (first_day, last_day) WHERE status = 'active';
CREATE INDEX bans_cpf ON bans (cpf) WHERE status = 'active';

-- Blocklist versions: a new version is made whenever the set of entries in
-- force changes (a sentence, a lift, or a ban starting or ending at midnight).
CREATE TABLE blocklist_versions (
    version      bigserial PRIMARY KEY,
    generated_at timestamptz NOT NULL,
    digest       bytea NOT NULL,
    entries      integer NOT NULL
);

-- +goose Down
DROP TABLE blocklist_versions, bans, movements, defendants, cases, case_sequences, venues, casbin_rule, api_tokens, users, fan_groups, courts;
DROP FUNCTION f_unaccent(text);
