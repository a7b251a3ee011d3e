import type { Command } from 'commander';
import { SkillDeskError } from '../../../shared/errors';
import { exportAuditJsonl, listAudit, verifyAuditChain, type ListAuditFilter, type StoreDb } from '../../services/store';
import type { CliContext } from '../context';
import { formatTime, table, type Output } from '../output';

/** `audit`: the hash-chained trail of permission decisions. */

export interface AuditOptions {
  json?: boolean;
  /** ISO time, epoch ms, or a relative age such as `30m`, `2h`, `7d`. */
  since?: string;
  skill?: string;
  run?: string;
  limit?: number;
  verify?: boolean;
  export?: string;
}

/** Parses `--since`: `2026-11-22T07:00:00Z`, `1763794800000`, `90s`, `30m`, `2h`, `7d`. */
export function parseSince(value: string, now = Date.now()): number {
  const rel = /^(\d+)\s*(s|m|h|d)$/.exec(value.trim());
  if (rel) return now - Number(rel[1]) * { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[rel[2] as 's' | 'm' | 'h' | 'd'];
  if (/^\d+$/.test(value.trim())) return Number(value);
  const t = Date.parse(value);
  if (Number.isNaN(t))
    throw new SkillDeskError(
      'cli.bad_option',
      `Expected \`--since\` to be an ISO time, epoch ms or an age like 30m/2h/7d, got \`${value}\``,
    );
  return t;
}

/**
 * Lists, verifies or exports the audit trail. Exit codes: 0 fine; 1 the chain does not verify
 * (a row was modified, removed or inserted).
 */
export function auditCommand(db: StoreDb, o: AuditOptions, io: Output, now = Date.now()): number {
  const filter: Omit<ListAuditFilter, 'limit'> = {
    ...(o.since !== undefined && { since: parseSince(o.since, now) }),
    ...(o.skill && { skill: o.skill }),
    ...(o.run && { runId: o.run }),
  };
  let code = 0;
  if (o.verify) {
    const v = verifyAuditChain(db);
    if (o.json) io.out(JSON.stringify({ verify: v }, null, 2));
    else
      io.out(
        v.ok
          ? `Audit chain verified: ${v.count} row(s), head ${v.headHash.slice(0, 16)}...`
          : `AUDIT CHAIN BROKEN at row ${v.firstBadId} (${v.reason}): ${v.message}`,
      );
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
  const rows = listAudit(db, { ...filter, limit: o.limit ?? 200 });
  if (o.json) {
    io.out(JSON.stringify(rows, null, 2));
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
  return code;
}

/** Registers `audit` on the program. */
export function registerAuditCommands(program: Command, ctx: CliContext): void {
  program
    .command('audit')
    .description('Show, verify or export the audit trail of permission decisions')
    .option('--json', 'print JSON')
    .option('--since <time>', 'only decisions since an ISO time, epoch ms, or an age like 30m, 2h, 7d')
    .option('--skill <id>', 'only decisions about this skill')
    .option('--run <id>', 'only decisions of this run')
    .option('--limit <n>', 'at most this many rows (listing)', (v) => {
      const n = Number(v);
      if (!Number.isInteger(n) || n <= 0)
        throw new SkillDeskError('cli.bad_option', `Expected \`--limit\` to be a positive integer, got \`${v}\``);
      return n;
    })
    .option('--verify', 'recompute the hash chain; exit 1 if any row was modified, removed or inserted')
    .option('--export <file>', 'write the matching rows as JSON Lines')
    .action(async (o: AuditOptions) => {
      const db = (await ctx.core()).db;
      if (!db) throw new SkillDeskError('audit.no_store', 'This SkillDesk has no store to read the audit from; check --data-dir');
      ctx.setExitCode(auditCommand(db, o, ctx));
    });
}
