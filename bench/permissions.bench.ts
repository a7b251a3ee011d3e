/**
 * Permissions benchmark (no display needed):
 *  - decision latency of the pure engine (`PermissionSession.decide`) over a mixed request stream
 *    against the built-in library's manifests and the default workspace policy: p50/p99/mean;
 *  - end-to-end mediation latency (`PolicyMediator.check` for a type_text step: needs, decision,
 *    argument digest, audit append) with the audit in a real SQLite file;
 *  - audit append throughput: rows/s appended one transaction each (as the mediator does; each row
 *    MACed with the store key, the anchor rewritten at most every 250 ms) to a
 *    store on disk, and the time to verify the whole chain.
 * Prints one JSON object. Run: `npx tsx bench/permissions.bench.ts` (BENCH_DECISIONS, BENCH_AUDIT_ROWS to scale).
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { loadLibrary } from '../src/main/services/library/YamlLibraryLoader';
import { createPolicyMediator, MemoryAuditSink } from '../src/main/services/permissions';
import { appendAudit, openStore, verifyAuditChain } from '../src/main/services/store';
import { PermissionSession, defaultWorkspacePolicy, type PermissionRequest, type PermissionTarget } from '../src/shared/permissions';
import type { Capability } from '../src/shared/permissions/taxonomy';
import type { ActionRequest } from '../src/shared/ports/mediation';
import type { PermissionPrompter } from '../src/shared/ports/prompter';

const DECISIONS = Number(process.env.BENCH_DECISIONS ?? 50_000);
const MEDIATIONS = Number(process.env.BENCH_MEDIATIONS ?? 5_000);
const AUDIT_ROWS = Number(process.env.BENCH_AUDIT_ROWS ?? 5_000);

function percentiles(samplesNs: number[]) {
  const s = [...samplesNs].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))]! / 1000;
  const mean = s.reduce((a, b) => a + b, 0) / s.length / 1000;
  return { n: s.length, p50_us: round(at(0.5)), p99_us: round(at(0.99)), max_us: round(s.at(-1)! / 1000), mean_us: round(mean) };
}
const round = (x: number) => Math.round(x * 100) / 100;

async function main() {
  // A disk-backed folder next to the repo (not tmpfs), removed afterwards.
  const dir = mkdtempSync(join(process.cwd(), '.bench-permissions-'));
  try {
    const { library } = await loadLibrary({ builtinDir: 'skills' });
    const env = { folders: { home: '/home/u', documents: '/home/u/Documents' }, pathStyle: 'posix' as const, utcOffsetMinutes: 0 };
    const session = new PermissionSession(defaultWorkspacePolicy(), env);
    for (const s of library.skills.values())
      session.loadSkill(s.id, { permissions: s.permissions, trust: s.trust, version: s.version, ...(s.app && { app: s.app }) });

    // A mixed stream: allowed input, bound file writes in and out of scope, undeclared network, confirms answered by a grant.
    const kinds: {
      skill: string;
      capability: Capability;
      target: (i: number) => PermissionTarget;
      args?: (i: number) => Record<string, unknown>;
      app?: string;
    }[] = [
      {
        skill: 'wine-notepad.type_text',
        capability: 'input.keyboard',
        target: () => ({ kind: 'app', app: 'wine-notepad' }),
        app: 'wine-notepad',
      },
      {
        skill: 'wine-notepad.save_as',
        capability: 'file.write',
        target: (i) => ({ kind: 'path', path: `/home/u/Documents/f${i % 50}.txt` }),
        args: (i) => ({ path: `/home/u/Documents/f${i % 50}.txt` }),
      },
      {
        skill: 'wine-notepad.save_as',
        capability: 'file.write',
        target: () => ({ kind: 'path', path: '/home/u/.bashrc' }),
        args: () => ({ path: '/home/u/Documents/a.txt' }),
      },
      { skill: 'TextEditor.get_text', capability: 'clipboard.read', target: () => ({ kind: 'none' }), app: 'mousepad' },
      { skill: 'mousepad.copy', capability: 'web.post', target: () => ({ kind: 'url', url: 'https://x.example.com/' }) },
      {
        skill: 'calculator.enter_expression',
        capability: 'script.execute',
        target: () => ({ kind: 'command', command: 'Write-Output 1' }),
      },
    ];
    const requests: PermissionRequest[] = Array.from({ length: DECISIONS }, (_, i) => {
      const k = kinds[i % kinds.length]!;
      return {
        skill: k.skill,
        capability: k.capability,
        target: k.target(i),
        time: 1_700_000_000_000 + i,
        ...(k.args && { args: k.args(i) }),
        ...(k.app && { app: k.app }),
      };
    });
    const effects: Record<string, number> = {};
    for (let i = 0; i < 2000; i++) session.decide(requests[i]!); // warm-up
    const samples: number[] = [];
    for (const r of requests) {
      const t = process.hrtime.bigint();
      const d = session.decide(r);
      samples.push(Number(process.hrtime.bigint() - t));
      effects[d.effect] = (effects[d.effect] ?? 0) + 1;
    }

    // End-to-end mediation, first with the audit in memory (the mediator's own cost), then in SQLite.
    const denyAll: PermissionPrompter = { ask: async () => ({ answer: 'deny', by: 'no_user' }) };
    const inMemory = createPolicyMediator({ library, prompter: denyAll, audit: new MemoryAuditSink(), env }).mediator;
    const store = openStore({ file: join(dir, 'mediation.db') });
    const { mediator } = createPolicyMediator({ library, prompter: denyAll, db: store.db, env });
    const skill = library.skills.get('wine-notepad.type_text')!;
    const request = (i: number): ActionRequest => ({
      sessionId: 'bench',
      runId: `run-${Math.floor(i / 100)}`,
      skill,
      app: 'wine-notepad',
      nodeId: 'act',
      primitive: { action: 'type_text', text: `line ${i}` },
      raw: { action: 'type_text', text: '${text}' },
      screenshot: false,
      args: { text: `line ${i}` },
      callChain: [skill.id],
      activeWindow: { id: '1', title: 'Untitled - Notepad', className: 'notepad.exe', bounds: { x: 0, y: 0, width: 1, height: 1 } },
      activeWindowIsApp: true,
    });
    for (let i = 0; i < 200; i++) await inMemory.check(request(i));
    const mediationMemory: number[] = [];
    for (let i = 0; i < MEDIATIONS; i++) {
      const t = process.hrtime.bigint();
      await inMemory.check(request(i));
      mediationMemory.push(Number(process.hrtime.bigint() - t));
    }
    for (let i = 0; i < 200; i++) await mediator.check(request(i));
    const mediation: number[] = [];
    for (let i = 0; i < MEDIATIONS; i++) {
      const t = process.hrtime.bigint();
      const d = await mediator.check(request(i));
      mediation.push(Number(process.hrtime.bigint() - t));
      if (d.effect !== 'allow') throw new Error(`expected allow, got ${JSON.stringify(d)}`);
    }
    store.close();

    // Audit append throughput on disk: one IMMEDIATE transaction per row (WAL, synchronous=NORMAL).
    const audit = openStore({ file: join(dir, 'audit.db') });
    const t0 = performance.now();
    for (let i = 0; i < AUDIT_ROWS; i++) {
      appendAudit(audit.db, {
        ts: 1_700_000_000_000 + i,
        sessionId: 'bench',
        runId: `run-${i >> 6}`,
        skillId: 'wine-notepad.save_as',
        nodeId: 'name',
        capability: 'file.write',
        target: `/home/u/Documents/f${i}.txt`,
        decision: i % 7 === 0 ? 'deny' : 'allow',
        reason: 'allow file.write on /home/u/Documents/f.txt by manifest:wine-notepad.save_as#1',
        policySource: 'manifest:wine-notepad.save_as#1',
        argsDigest: 'a'.repeat(64),
      });
    }
    const appendMs = performance.now() - t0;
    const t1 = performance.now();
    const verified = verifyAuditChain(audit.db);
    const verifyMs = performance.now() - t1;
    const fileBytes = statSync(join(dir, 'audit.db')).size + (statSync(join(dir, 'audit.db-wal'), { throwIfNoEntry: false })?.size ?? 0);
    audit.close();

    console.log(
      JSON.stringify(
        {
          benchmark: 'permissions',
          node: process.version,
          decision: { ...percentiles(samples), effects },
          mediation_with_memory_audit: percentiles(mediationMemory),
          mediation_with_sqlite_audit: percentiles(mediation),
          audit_append: {
            rows: AUDIT_ROWS,
            journal_mode: audit.journalMode,
            total_ms: round(appendMs),
            rows_per_s: Math.round(AUDIT_ROWS / (appendMs / 1000)),
            verify_ms: round(verifyMs),
            verified: verified.ok,
            file_bytes: fileBytes,
          },
        },
        null,
        2,
      ),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
