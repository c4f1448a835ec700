-- +goose Up
-- Case search by name in the court's newest-first order without gathering
-- every match (issue 10, bench/search.sh; cases.Service.listByName).
--
-- The GIN index of 00013 answers "which defendants have these words" but
-- has no order and no early stop: a name at the 1,000-case cap of the
-- total (a surname and a common first name, 0.1 % of a million cases)
-- needed either every match read and sorted or the court's cases walked
-- newest first until 20 matched (52,000 cases for "Conceição Siqueira":
-- 157 ms; a p99 of 87-115 ms at one connection).
--
-- name_heads has one row per defendant and key, a key being a head, the
-- first four letters of a word of the name (three-letter words are their
-- own head; shorter words have none), or a pair of the defendant's
-- four-letter heads ('mari silv', in order), lower case and unaccented as
-- in f_name_query, with the defendant's words (words: ' ' || the words, in
-- no particular order) and its case's court and filing instant. Its
-- B-tree (head, court, filed_at DESC, case_id DESC) INCLUDE (words) is
-- read newest first, index only: the rows of one key of the query (the
-- pair of its two rarest heads, or its one head), each checked against
-- every word of the query with words LIKE '% word%' ("word begins a word
-- of the name", the meaning of 00013), so the first page stops after its
-- 20 cases and the total stops at the cap. The worst case reads one key's
-- rows: a head's (about 66,000 at a million cases, 20 ms) for a name of
-- one long word, a pair's (a few thousand) for two or more. Queries whose
-- words all have fewer than four letters keep the GIN path.
--
-- Kept by triggers on defendants (insert, delete, a change of name) and
-- cases (a change of court or filing instant); juizado seed --scale, which
-- copies with triggers off, calls name_heads_add itself. Derived data,
-- not a court record: no audit trigger.
CREATE TABLE name_heads (
    head text NOT NULL,
    court_code text NOT NULL,
    filed_at timestamptz NOT NULL,
    case_id bigint NOT NULL,
    defendant_id bigint NOT NULL,
    words text NOT NULL
);
CREATE INDEX name_heads_walk ON name_heads (head, court_code, filed_at DESC, case_id DESC) INCLUDE (words);
CREATE INDEX name_heads_case ON name_heads (case_id);
-- The key a search walks is made of the heads the statistics find rarest
-- (cases.Service reads pg_stats): keep the frequencies of many keys.
ALTER TABLE name_heads ALTER COLUMN head SET STATISTICS 1000;

-- f_name_words: the words of a name or of a typed query, unaccented and
-- lower case, every punctuation mark a separator ("C.Neves", "Ana/Paula",
-- "João—da" are two words each; the text search parser alone keeps
-- "c.neves" as one word).
-- +goose StatementBegin
CREATE FUNCTION f_name_words(text) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS
$$ SELECT tsvector_to_array(to_tsvector('simple'::regconfig,
       regexp_replace(public.f_unaccent($1), '[[:punct:]]+', ' ', 'g'))) $$;
-- +goose StatementEnd

-- f_name_words_stored: the words kept for a defendant's name, those of
-- f_name_words and those of the name without its apostrophes, so that
-- "D'Ávila" is found by "davila" as well as by "d'avila" and "avila".
-- +goose StatementBegin
CREATE FUNCTION f_name_words_stored(text) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS
$$ SELECT array(SELECT DISTINCT w FROM unnest(public.f_name_words($1)
       || public.f_name_words(regexp_replace($1, '[''’`´]', '', 'g'))) AS w ORDER BY w) $$;
-- +goose StatementEnd

-- name_heads_add(lo, hi) adds the rows of defendants lo..hi (by id): a
-- row per distinct head, and per pair of distinct four-letter heads.
-- +goose StatementBegin
CREATE FUNCTION name_heads_add(lo bigint, hi bigint) RETURNS void
LANGUAGE sql AS
$$ INSERT INTO public.name_heads (head, court_code, filed_at, case_id, defendant_id, words)
   SELECT k.head, c.court_code, c.filed_at, c.id, d.id, ' ' || array_to_string(ws, ' ')
   FROM public.defendants d
   JOIN public.cases c ON c.id = d.case_id
   CROSS JOIN LATERAL public.f_name_words_stored(d.full_name || ' ' || d.group_name) AS ws
   CROSS JOIN LATERAL (
       WITH hs AS (SELECT DISTINCT left(w, 4) AS h FROM unnest(ws) AS w WHERE length(w) >= 3)
       SELECT h AS head FROM hs
       UNION ALL
       SELECT a.h || ' ' || b.h FROM hs a JOIN hs b ON a.h < b.h WHERE length(a.h) = 4 AND length(b.h) = 4
   ) AS k
   WHERE d.id BETWEEN lo AND hi $$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION name_heads_defendant() RETURNS trigger
LANGUAGE plpgsql AS
$$ BEGIN
    IF TG_OP <> 'INSERT' THEN
        DELETE FROM public.name_heads WHERE case_id = OLD.case_id AND defendant_id = OLD.id;
    END IF;
    IF TG_OP <> 'DELETE' THEN
        PERFORM public.name_heads_add(NEW.id, NEW.id);
    END IF;
    RETURN NULL;
END $$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION name_heads_case() RETURNS trigger
LANGUAGE plpgsql AS
$$ BEGIN
    UPDATE public.name_heads SET court_code = NEW.court_code, filed_at = NEW.filed_at WHERE case_id = NEW.id;
    RETURN NULL;
END $$;
-- +goose StatementEnd

CREATE TRIGGER name_heads_defendant AFTER INSERT OR DELETE OR UPDATE OF full_name, group_name, case_id ON defendants
    FOR EACH ROW EXECUTE FUNCTION name_heads_defendant();
CREATE TRIGGER name_heads_case AFTER UPDATE OF court_code, filed_at ON cases
    FOR EACH ROW WHEN (OLD.court_code IS DISTINCT FROM NEW.court_code OR OLD.filed_at IS DISTINCT FROM NEW.filed_at)
    EXECUTE FUNCTION name_heads_case();

SELECT name_heads_add(0, (SELECT coalesce(max(id), 0) FROM defendants));
ANALYZE name_heads;

-- +goose Down
DROP TRIGGER name_heads_case ON cases;
DROP TRIGGER name_heads_defendant ON defendants;
DROP FUNCTION name_heads_case();
DROP FUNCTION name_heads_defendant();
DROP FUNCTION name_heads_add(bigint, bigint);
DROP FUNCTION f_name_words_stored(text);
DROP FUNCTION f_name_words(text);
DROP TABLE name_heads;
