import { StoreError } from './errors';
import { toJson } from './json';
import { cachedTransaction, prepared, whereClause, type StoreDb } from './statements';
import { expectInteger, expectOptionalText, expectText } from './validate';

/** Library document kinds the index holds. */
export type SkillIndexKind = 'interface' | 'app' | 'implementation' | 'app_skill' | 'composite';

/** One indexed library entry: enough to list and search without re-reading the files. */
export interface SkillIndexEntry {
  skillId: string;
  kind: SkillIndexKind;
  app?: string | null;
  /** `TextEditor.save_as` for implementations and composites. */
  interfaceMethod?: string | null;
  version?: string | null;
  sourceFile: string;
  /** Hash of the source document, to tell whether a file changed since it was indexed. */
  contentHash: string;
  /** The entry itself (the validated document or resolved skill). */
  json: unknown;
}

export type SkillIndexRow = Required<Omit<SkillIndexEntry, 'app' | 'interfaceMethod' | 'version'>> & {
  app: string | null;
  interfaceMethod: string | null;
  version: string | null;
  indexedAt: number;
};

export interface ListSkillIndexFilter {
  app?: string;
  kind?: SkillIndexKind;
  interfaceMethod?: string;
}

interface SkillIndexRecord {
  skill_id: string;
  kind: SkillIndexKind;
  app: string | null;
  interface_method: string | null;
  version: string | null;
  source_file: string;
  content_hash: string;
  json: string;
  indexed_at: number;
}

/**
 * Replaces the whole index in one transaction: readers see the old index or the new one,
 * never a mix. A duplicate id rejects the batch and keeps the old index.
 */
export function replaceSkillIndex(db: StoreDb, entries: readonly SkillIndexEntry[], indexedAt: number = Date.now()): { count: number } {
  expectInteger(indexedAt, 'indexedAt');
  const seen = new Set<string>();
  for (const [i, e] of entries.entries()) {
    expectText(e.skillId, `entries[${i}].skillId`);
    expectText(e.kind, `entries[${i}].kind`);
    expectText(e.sourceFile, `entries[${i}].sourceFile`);
    expectText(e.contentHash, `entries[${i}].contentHash`);
    expectOptionalText(e.app, `entries[${i}].app`);
    expectOptionalText(e.interfaceMethod, `entries[${i}].interfaceMethod`);
    if (seen.has(e.skillId)) {
      throw new StoreError(
        'store.duplicate_skill',
        `Skill id \`${e.skillId}\` appears twice in the index batch (second time in ${e.sourceFile}); ids are unique`,
        { skillId: e.skillId },
      );
    }
    seen.add(e.skillId);
  }
  cachedTransaction(db, 'replaceSkillIndex', (d: StoreDb, all: readonly SkillIndexEntry[], at: number) => {
    prepared(d, 'DELETE FROM skill_index').run();
    const insert = prepared(
      d,
      `INSERT INTO skill_index (skill_id, kind, app, interface_method, version, source_file, content_hash, json, indexed_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    for (const e of all) {
      insert.run(
        e.skillId,
        e.kind,
        e.app ?? null,
        e.interfaceMethod ?? null,
        e.version ?? null,
        e.sourceFile,
        e.contentHash,
        toJson(e.json, `${e.skillId}.json`),
        at,
      );
    }
  }).immediate(db, entries, indexedAt);
  return { count: entries.length };
}

/** Indexed entries sorted by id, optionally filtered. */
export function listSkillIndex(db: StoreDb, filter: ListSkillIndexFilter = {}): SkillIndexRow[] {
  const where = whereClause([
    ['app = ?', filter.app],
    ['kind = ?', filter.kind],
    ['interface_method = ?', filter.interfaceMethod],
  ]);
  return prepared<SkillIndexRecord>(db, `SELECT * FROM skill_index ${where.sql} ORDER BY skill_id`)
    .all(...where.params)
    .map(toSkillIndexRow);
}

/** One indexed entry, or undefined. */
export function getSkillIndexEntry(db: StoreDb, skillId: string): SkillIndexRow | undefined {
  const record = prepared<SkillIndexRecord>(db, 'SELECT * FROM skill_index WHERE skill_id = ?').get(skillId);
  return record && toSkillIndexRow(record);
}

function toSkillIndexRow(r: SkillIndexRecord): SkillIndexRow {
  return {
    skillId: r.skill_id,
    kind: r.kind,
    app: r.app,
    interfaceMethod: r.interface_method,
    version: r.version,
    sourceFile: r.source_file,
    contentHash: r.content_hash,
    json: JSON.parse(r.json) as unknown,
    indexedAt: r.indexed_at,
  };
}
