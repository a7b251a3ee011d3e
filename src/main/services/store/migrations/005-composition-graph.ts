import type { Migration } from './types';

/**
 * 005: the composition graph (issue 13 item 1), stored so the CLI, the UI and tools can query
 * it: its nodes (a skill on an app, with its pre- and postconditions), its edges (calls, and
 * may-follow links with the facts that link them and the data that flows), and the digest of the
 * library it was built from (rebuilt when the library changes).
 */
const SQL = `
CREATE TABLE composition_nodes (
  skill           TEXT NOT NULL,
  app             TEXT NOT NULL,
  method          TEXT,
  args_json       TEXT NOT NULL,
  conditions_json TEXT NOT NULL,
  PRIMARY KEY (skill, app)
) STRICT;
CREATE TABLE composition_edges (
  kind        TEXT NOT NULL CHECK (kind IN ('call', 'may_follow')),
  from_skill  TEXT NOT NULL,
  from_app    TEXT NOT NULL,
  to_skill    TEXT NOT NULL,
  to_app      TEXT NOT NULL,
  facts_json  TEXT NOT NULL DEFAULT '[]',
  bind_json   TEXT NOT NULL DEFAULT '{}',
  across_apps INTEGER NOT NULL DEFAULT 0 CHECK (across_apps IN (0, 1)),
  PRIMARY KEY (kind, from_skill, from_app, to_skill, to_app)
) STRICT;
CREATE INDEX composition_edges_to ON composition_edges (to_skill, to_app);
CREATE TABLE composition_meta (
  id       INTEGER PRIMARY KEY CHECK (id = 1),
  digest   TEXT NOT NULL,
  built_at INTEGER NOT NULL
) STRICT;
`;

export const migration005: Migration = {
  version: 5,
  name: 'composition-graph',
  up(db) {
    db.exec(SQL);
  },
};
