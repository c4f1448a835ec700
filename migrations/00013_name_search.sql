-- +goose Up
-- Case search by name by whole words and word prefixes (issue 10,
-- bench/search.sh). GET /api/v1/cases?q= used to match every word as a
-- substring, f_unaccent(full_name) LIKE '%w%', with trigram indexes
-- (00001, 00009): the trigrams of a name ("nas", "cim", "ent") are shared
-- by a large share of all names, so the index scan and its recheck grew
-- with the table (a one-surname search: 7.8 s at p99 with 1,000,000 cases).
--
-- Now a query word matches a word of the name that starts with it ("Magalh"
-- finds "Magalhães", "joao conceicao" finds "João da Conceição"); a word in
-- the middle of another ("alhães") no longer does. name_search holds every
-- prefix of every word of the defendant's name (person or group), lower
-- case and unaccented, so that each query word is an exact lexeme of one
-- GIN posting list (a prefix tsquery, 'magalh':*, would merge the posting
-- lists of every lexeme under the prefix: 20 ms for a full name at 1M
-- cases against 2-3 ms), and so that checking one defendant while walking
-- the court's cases newest first (cases_court_filed) is a cheap @@ on a
-- stored value instead of recomputing f_unaccent and the parser.
-- f_name_query builds the matching tsquery (every word, AND) from the text
-- a clerk typed, with the same parser and f_unaccent. The bodies name
-- public.f_unaccent: pg_restore runs them with an empty search_path.

-- +goose StatementBegin
CREATE FUNCTION f_name_prefixes(text) RETURNS tsvector
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS
$$ SELECT coalesce(array_to_tsvector(array_agg(left(w, n))), ''::tsvector)
   FROM unnest(tsvector_to_array(to_tsvector('simple'::regconfig, public.f_unaccent($1)))) AS w,
        generate_series(1, length(w)) AS n $$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION f_name_query(text) RETURNS tsquery
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS
$$ SELECT string_agg('''' || replace(replace(w, '\', '\\'), '''', '''''') || '''', ' & ')::tsquery
   FROM unnest(tsvector_to_array(to_tsvector('simple'::regconfig, public.f_unaccent($1)))) AS w $$;
-- +goose StatementEnd

-- Persons have group_name '' and groups full_name '': the name is the one
-- that is set.
ALTER TABLE defendants ADD COLUMN name_search tsvector NOT NULL
    GENERATED ALWAYS AS (f_name_prefixes(full_name || ' ' || group_name)) STORED;
CREATE INDEX defendants_name_search ON defendants USING gin (name_search);

-- The trigram indexes served only this search.
DROP INDEX defendants_name_trgm;
DROP INDEX defendants_group_name_trgm;

-- +goose Down
CREATE INDEX defendants_name_trgm ON defendants USING gin (f_unaccent(full_name) gin_trgm_ops);
CREATE INDEX defendants_group_name_trgm ON defendants USING gin (f_unaccent(group_name) gin_trgm_ops);
ALTER TABLE defendants DROP COLUMN name_search;
DROP FUNCTION f_name_query(text);
DROP FUNCTION f_name_prefixes(text);
