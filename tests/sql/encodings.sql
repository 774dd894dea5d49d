-- Input errors in databases whose encoding is not UTF-8 still name the right character at the
-- right position. LATIN1 stores Ä as the one byte 0xC4 (not valid UTF-8 on its own): the message
-- names it by its code point, <U+00C4>, in ASCII, which every encoding carries. SQL_ASCII stores
-- the client's bytes as they came (UTF-8 here), and the message gives them back as they are.
SELECT current_database() AS regress_db \gset
CREATE DATABASE ulid_latin1 ENCODING 'LATIN1' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0;
CREATE DATABASE ulid_sql_ascii ENCODING 'SQL_ASCII' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0;

\c ulid_latin1
SET client_encoding = 'UTF8';
CREATE EXTENSION ulid;
SHOW server_encoding;
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FÄV'::ulid;
SELECT '00CMXB6TAK4S£'::ulidflake;
SELECT 'é1ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid;
SELECT ulid_is_valid('01ARZ3NDEKTSV4RRFFQ69G5FÄV') AS valid, '01arz3ndektsv4rrffq69g5fav'::ulid AS good_input_still_parses;

\c ulid_sql_ascii
SET client_encoding = 'UTF8';
CREATE EXTENSION ulid;
SHOW server_encoding;
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FÄV'::ulid;
SELECT '00CMXB6TAK4S£'::ulidflake;

\c :regress_db
DROP DATABASE ulid_latin1;
DROP DATABASE ulid_sql_ascii;
