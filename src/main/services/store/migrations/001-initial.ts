import type { Migration } from './types';

// Conventions: times are INTEGER epoch milliseconds; `*_json` columns hold JSON text;
// STRICT tables so a wrongly typed value fails at write time instead of being coerced.
const SQL = `
-- A rebuildable cache of the loaded skill library (replaced wholesale on every reload).
-- No CHECK on kind: the set follows the library's document kinds, and a cache should not need a migration for that.
CREATE TABLE skill_index (
  skill_id         TEXT PRIMARY KEY,
  kind             TEXT NOT NULL,
  app              TEXT,
  interface_method TEXT,
  version          TEXT,
  source_file      TEXT NOT NULL,
  content_hash     TEXT NOT NULL,
  json             TEXT NOT NULL,
  indexed_at       INTEGER NOT NULL
) STRICT;
CREATE INDEX skill_index_by_app ON skill_index(app) WHERE app IS NOT NULL;
CREATE INDEX skill_index_by_method ON skill_index(interface_method) WHERE interface_method IS NOT NULL;

-- parent_run_id has no foreign key on purpose: a parent may be journaled elsewhere (a dry
-- run kept in memory), and a child's record must not be refused for it.
-- owner_pid/owner_boot_ms identify the process writing a running run, so opening the store
-- from a second process (CLI while the app runs) does not mark a live run as interrupted.
CREATE TABLE runs (
  id              TEXT PRIMARY KEY,
  skill_id        TEXT NOT NULL,
  app             TEXT,
  session_id      TEXT,
  args_json       TEXT NOT NULL,
  status          TEXT NOT NULL CHECK (status IN ('running', 'succeeded', 'failed', 'aborted')),
  error_json      TEXT,
  result_json     TEXT,
  dry_run         INTEGER NOT NULL CHECK (dry_run IN (0, 1)),
  started_at      INTEGER NOT NULL,
  ended_at        INTEGER,
  parent_run_id   TEXT,
  goal            TEXT,
  accounting_json TEXT,
  owner_pid       INTEGER,
  owner_boot_ms   INTEGER,
  CHECK ((status = 'running') = (ended_at IS NULL))
) STRICT;
CREATE INDEX runs_by_started ON runs(started_at DESC);
CREATE INDEX runs_by_skill ON runs(skill_id, started_at DESC);
CREATE INDEX runs_by_status ON runs(status, started_at DESC);
CREATE INDEX runs_by_parent ON runs(parent_run_id) WHERE parent_run_id IS NOT NULL;

CREATE TABLE steps (
  run_id             TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  seq                INTEGER NOT NULL CHECK (seq >= 0),
  depth              INTEGER NOT NULL DEFAULT 0 CHECK (depth >= 0),
  skill_id           TEXT NOT NULL,
  app                TEXT,
  node_id            TEXT NOT NULL,
  primitive          TEXT NOT NULL,
  resolved_args_json TEXT NOT NULL,
  started_at         INTEGER NOT NULL,
  ended_at           INTEGER NOT NULL,
  outcome            TEXT NOT NULL CHECK (outcome IN ('ok', 'failed', 'skipped', 'denied')),
  error              TEXT,
  screenshot_path    TEXT,
  PRIMARY KEY (run_id, seq)
) STRICT;

-- The agent's summarised outcomes (issue 4). run_id has no foreign key: many entries
-- (malformed model answers, out-of-domain arguments) never produced a run.
CREATE TABLE memory (
  id         INTEGER PRIMARY KEY,
  run_id     TEXT,
  session_id TEXT NOT NULL,
  goal       TEXT NOT NULL,
  step       INTEGER NOT NULL CHECK (step >= 0),
  intent     TEXT NOT NULL,
  skill_id   TEXT,
  args_json  TEXT NOT NULL,
  outcome    TEXT NOT NULL CHECK (outcome <> ''),
  summary    TEXT NOT NULL,
  created_at INTEGER NOT NULL
) STRICT;
CREATE INDEX memory_by_session ON memory(session_id, id);
CREATE INDEX memory_by_run ON memory(run_id) WHERE run_id IS NOT NULL;

-- Append-only, hash-chained decisions (issue 3). No foreign keys: a cascade or SET NULL would
-- rewrite rows and break the chain, and decisions are recorded for runs that are never stored.
-- answer says how a 'confirm' was answered, and only a 'confirm' has one.
CREATE TABLE audit (
  id            INTEGER PRIMARY KEY AUTOINCREMENT,
  ts            INTEGER NOT NULL,
  session_id    TEXT NOT NULL,
  run_id        TEXT,
  skill_id      TEXT,
  node_id       TEXT,
  capability    TEXT NOT NULL,
  target        TEXT,
  decision      TEXT NOT NULL CHECK (decision IN ('allow', 'confirm', 'deny')),
  answer        TEXT CHECK (answer IN ('allow_once', 'allow_session', 'allow_persistent', 'deny', 'timeout', 'no_user')),
  reason        TEXT NOT NULL,
  policy_source TEXT NOT NULL,
  args_digest   TEXT,
  prev_hash     TEXT NOT NULL CHECK (length(prev_hash) = 64),
  hash          TEXT NOT NULL CHECK (length(hash) = 64),
  CHECK ((decision = 'confirm') = (answer IS NOT NULL))
) STRICT;
CREATE INDEX audit_by_ts ON audit(ts);
CREATE INDEX audit_by_skill ON audit(skill_id, ts) WHERE skill_id IS NOT NULL;
CREATE INDEX audit_by_run ON audit(run_id) WHERE run_id IS NOT NULL;

-- Persistent permission grants; revoking keeps the row so the history stays reviewable.
CREATE TABLE grants (
  id               INTEGER PRIMARY KEY,
  skill_id         TEXT NOT NULL,
  capability       TEXT NOT NULL,
  constraints_json TEXT NOT NULL,
  granted_at       INTEGER NOT NULL,
  expires_at       INTEGER CHECK (expires_at IS NULL OR expires_at > granted_at),
  revoked_at       INTEGER
) STRICT;
CREATE INDEX grants_by_skill ON grants(skill_id, capability);

-- Embedding cache keyed by the text's hash and the model that produced the vector.
-- vector holds dims little-endian float32 values.
CREATE TABLE embeddings (
  text_hash  TEXT NOT NULL,
  model      TEXT NOT NULL,
  dims       INTEGER NOT NULL CHECK (dims > 0),
  vector     BLOB NOT NULL CHECK (length(vector) = dims * 4),
  created_at INTEGER NOT NULL,
  PRIMARY KEY (text_hash, model)
) STRICT;

CREATE TABLE settings (
  key        TEXT PRIMARY KEY,
  value_json TEXT NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;
`;

/** 001: skill index, runs and steps, memory, audit, grants, embeddings, settings. */
export const migration001: Migration = {
  version: 1,
  name: 'initial',
  up(db) {
    db.exec(SQL);
  },
};
