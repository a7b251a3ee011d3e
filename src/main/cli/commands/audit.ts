import type { Command } from 'commander';
import { SkillDeskError } from '../../../shared/errors';
import type { AuditFilter } from '../../../shared/permissions/audit';
import { exportAuditJsonl, queryAudit, reanchorAudit, verifyAuditChain, type AuditRow, type StoreDb } from '../../services/store';
import type { CliContext } from '../context';
import { formatTime, table, type Output } from '../output';

/** `audit`: the hash-chained trail of permission decisions. */

export interface AuditOptions {
  json?: boolean;
  /** ISO time, epoch ms, or a relative age such as `30m`, `2h`, `7d`. */
  since?: string;
  /** Like `since`: decisions before this time. */
  until?: string;
  decision?: string;
  skill?: string;
  capability?: string;
  run?: string;
  session?: string;
  text?: string;
  limit?: number;
  /** A cursor printed after a listing: continue with older rows. */
  before?: string;
  verify?: boolean;
  /** Accept the trail as it is now: record that in the trail and rewrite the anchor. */
  reanchor?: boolean;
  export?: string;
}

/** Parses `--since` or `--until`: `2026-11-22T07:00:00Z`, `1763794800000`, or an age: `90s`, `30m`, `2h`, `7d`. */
export function parseTime(value: string, now = Date.now(), option = '--since'): number {
  const rel = /^(\d+)\s*(s|m|h|d)$/.exec(value.trim());
  if (rel) return now - Number(rel[1]) * { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[rel[2] as 's' | 'm' | 'h' | 'd'];
  if (/^\d+$/.test(value.trim())) return Number(value);
  const t = Date.parse(value);
  if (Number.isNaN(t))
    throw new SkillDeskError(
      'cli.bad_option',
      `Expected \`${option}\` to be an ISO time, epoch ms or an age like 30m/2h/7d, got \`${value}\``,
    );
  return t;
}

/**
 * Lists, verifies, re-anchors or exports the audit trail. Exit codes: 0 fine; 1 the trail does
 * not verify (a row modified, removed or inserted, rows cut from its end, the anchor missing or
 * forged, the key missing or readable by others: the JSON's `reason` says which).
 */
export function auditCommand(db: StoreDb, o: AuditOptions, io: Output, now = Date.now()): number {
  const filter = {
    ...(o.since !== undefined && { since: parseTime(o.since, now) }),
    ...(o.until !== undefined && { until: parseTime(o.until, now, '--until') }),
    ...(o.decision && { decision: o.decision as AuditFilter['decision'] }),
    ...(o.skill && { skill: o.skill }),
    ...(o.capability && { capability: o.capability }),
    ...(o.run && { runId: o.run }),
    ...(o.session && { sessionId: o.session }),
    ...(o.text && { text: o.text }),
  } satisfies AuditFilter;
  let code = 0;
  if (o.reanchor) {
    const { previous, row } = reanchorAudit(db, now);
    if (o.json) io.out(JSON.stringify({ reanchored: { row: row.id, previous } }, null, 2));
    else io.out(`Re-anchored the audit trail at row ${row.id}, which records it${previous.ok ? '' : `; before: ${previous.message}`}`);
    if (!o.verify && !o.export) return code;
  }
  if (o.verify) {
    const v = verifyAuditChain(db);
    if (o.json) io.out(JSON.stringify({ verify: v }, null, 2));
    else io.out(v.ok ? v.message : `AUDIT TRAIL NOT VERIFIED (${v.reason}): ${v.message}`);
    code = v.ok ? 0 : 1;
    if (!o.export) return code;
  }
  if (o.export) {
    const { count } = exportAuditJsonl(db, o.export, filter);
    io.out(
      o.json
        ? JSON.stringify({ exported: count, file: o.export })
        : `Exported ${count} row(s) to ${o.export} (JSON Lines; \`skilldesk audit --verify\` checks the store's chain)`,
    );
    return code;
  }
  const { rows, nextCursor } = newestRows(db, filter, o.limit ?? 200, o.before);
  if (o.json) {
    io.out(JSON.stringify({ rows, nextCursor }, null, 2));
    return code;
  }
  if (rows.length === 0) {
    io.out('No decisions recorded for this filter.');
    return code;
  }
  io.out(
    table(
      ['ID', 'TIME', 'SKILL', 'NODE', 'CAPABILITY', 'TARGET', 'DECISION', 'SOURCE', 'REASON'],
      rows.map((r) => [
        String(r.id),
        formatTime(r.ts),
        r.skillId ?? '-',
        r.nodeId ?? '-',
        r.capability,
        (r.target ?? '-').slice(0, 40),
        r.decision === 'confirm' ? `confirm:${r.answer}` : r.decision,
        r.policySource,
        r.reason.slice(0, 70),
      ]),
    ),
  );
  if (nextCursor) io.out(`Older decisions: the same command with --before ${nextCursor}`);
  return code;
}

/** Up to `limit` rows, newest first. The store examines a bounded number of rows per call, so a rare match takes several. */
function newestRows(db: StoreDb, filter: AuditFilter, limit: number, before?: string): { rows: AuditRow[]; nextCursor: string | null } {
  const rows: AuditRow[] = [];
  let cursor = before ?? null;
  do {
    const page = queryAudit(db, { ...filter, limit: limit - rows.length, ...(cursor !== null && { cursor }) });
    rows.push(...page.rows);
    cursor = page.nextCursor;
  } while (cursor !== null && rows.length < limit);
  return { rows, nextCursor: cursor };
}

/** Registers `audit` on the program. */
export function registerAuditCommands(program: Command, ctx: CliContext): void {
  program
    .command('audit')
    .description('Show, verify or export the audit trail of permission decisions')
    .option('--json', 'print JSON')
    .option('--since <time>', 'only decisions since an ISO time, epoch ms, or an age like 30m, 2h, 7d')
    .option('--until <time>', 'only decisions before an ISO time, epoch ms, or an age')
    .option('--decision <d>', 'only allow, confirm or deny decisions')
    .option('--skill <id>', 'only decisions about this skill')
    .option('--capability <c>', 'only decisions about this capability (file.write)')
    .option('--run <id>', 'only decisions of this run')
    .option('--session <id>', 'only decisions of this session')
    .option('--text <s>', 'only decisions whose capability, target, reason, skill, policy or answer contains this')
    .option('--before <cursor>', 'continue a listing with older decisions (the cursor it printed)')
    .option('--limit <n>', 'at most this many rows, newest first (listing)', (v) => {
      const n = Number(v);
      if (!Number.isInteger(n) || n <= 0)
        throw new SkillDeskError('cli.bad_option', `Expected \`--limit\` to be a positive integer, got \`${v}\``);
      return n;
    })
    .option('--verify', 'check every row against the audit key and the head against the anchor; exit 1 on any tampering')
    .option(
      '--reanchor',
      'after investigating a verify failure (anchor missing, rows cut from the end): accept the trail as it is and record that',
    )
    .option('--export <file>', 'write the matching rows as JSON Lines')
    .action(async (o: AuditOptions) => {
      const db = (await ctx.core()).db;
      if (!db) throw new SkillDeskError('audit.no_store', 'This SkillDesk has no store to read the audit from; check --data-dir');
      ctx.setExitCode(auditCommand(db, o, ctx));
    });
}
