#!/usr/bin/env bash
# Where the 1,000-event appends lose to the gappy baseline (docs/performance.md): the server's cost of inserting the
# same 100,000 rows (twice, 200,000 in all) into the store's events table, the baseline's table, and the store's table
# without the category column and the category and time indexes. psql's \timing, on a throw-away PostgreSQL 15.
#   tools/pg-insert-cost.sh
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh --postgres-server >/dev/null
. tools/pg-server.sh
pg_server_start 55495
psql -X -q "$pg_url" <<'SQL' 2>&1 | grep -E "^Time|^--" 
CREATE SCHEMA t;
CREATE TABLE t.ours (position bigint PRIMARY KEY, stream_id text COLLATE "C" NOT NULL, version bigint NOT NULL, event_id uuid NOT NULL UNIQUE,
  type text COLLATE "C" NOT NULL, recorded_at bigint NOT NULL, metadata bytea NOT NULL, metadata_pairs integer NOT NULL, data bytea NOT NULL,
  category text COLLATE "C" GENERATED ALWAYS AS (split_part(stream_id, '-', 1)) STORED, UNIQUE (stream_id, version));
CREATE INDEX ON t.ours (category, position);
CREATE INDEX ON t.ours (recorded_at, position);
CREATE TABLE t.baseline (position bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, stream_id text NOT NULL, version bigint NOT NULL,
  event_id uuid NOT NULL UNIQUE, type text NOT NULL, metadata bytea NOT NULL, data bytea NOT NULL, recorded_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (stream_id, version));
CREATE TABLE t.ours_plain (LIKE t.ours INCLUDING DEFAULTS);
ALTER TABLE t.ours_plain DROP COLUMN category, ADD PRIMARY KEY (position), ADD UNIQUE (event_id), ADD UNIQUE (stream_id, version);
\timing on
\echo -- ours (category column and index, time index)
INSERT INTO t.ours (position, stream_id, version, event_id, type, recorded_at, metadata, metadata_pairs, data)
  SELECT g, 'pet-' || (g / 1000), g % 1000, gen_random_uuid(), 'PetWeightLogged', 0, '\x0102', 1, convert_to(repeat('x', 120), 'UTF8') FROM generate_series(0, 99999) g;
INSERT INTO t.ours (position, stream_id, version, event_id, type, recorded_at, metadata, metadata_pairs, data)
  SELECT g, 'pet-' || (g / 1000), g % 1000, gen_random_uuid(), 'PetWeightLogged', 0, '\x0102', 1, convert_to(repeat('x', 120), 'UTF8') FROM generate_series(100000, 199999) g;
\echo -- the gappy baseline
INSERT INTO t.baseline (stream_id, version, event_id, type, metadata, data)
  SELECT 'pet-' || (g / 1000), g % 1000, gen_random_uuid(), 'PetWeightLogged', '\x0102', convert_to(repeat('x', 120), 'UTF8') FROM generate_series(0, 99999) g;
INSERT INTO t.baseline (stream_id, version, event_id, type, metadata, data)
  SELECT 'pet-' || (g / 1000), g % 1000, gen_random_uuid(), 'PetWeightLogged', '\x0102', convert_to(repeat('x', 120), 'UTF8') FROM generate_series(100000, 199999) g;
\echo -- ours without the category column and the category and time indexes
INSERT INTO t.ours_plain (position, stream_id, version, event_id, type, recorded_at, metadata, metadata_pairs, data)
  SELECT g, 'pet-' || (g / 1000), g % 1000, gen_random_uuid(), 'PetWeightLogged', 0, '\x0102', 1, convert_to(repeat('x', 120), 'UTF8') FROM generate_series(0, 99999) g;
INSERT INTO t.ours_plain (position, stream_id, version, event_id, type, recorded_at, metadata, metadata_pairs, data)
  SELECT g, 'pet-' || (g / 1000), g % 1000, gen_random_uuid(), 'PetWeightLogged', 0, '\x0102', 1, convert_to(repeat('x', 120), 'UTF8') FROM generate_series(100000, 199999) g;
SQL
