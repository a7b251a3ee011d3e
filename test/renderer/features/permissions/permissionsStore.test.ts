import { describe, expect, it } from 'vitest';
import {
  AUDIT_PAGE_ROWS,
  auditToCsv,
  createPermissionsStore,
  type PermissionsBridge,
} from '../../../../src/renderer/src/features/permissions/permissionsStore';
import type { AuditView, PermissionPromptView } from '../../../../src/shared/ipc';

const prompt = (id: string): PermissionPromptView => ({
  promptId: id,
  skillId: 'mousepad.save_as',
  trust: 'builtin',
  capability: 'file.write',
  level: 'dangerous',
  target: '/tmp/a.txt',
  reason: 'manifest says confirm',
  policySource: 'manifest:mousepad.save_as#1',
  askedAt: 1,
  expiresAt: 60_001,
});

const auditRow = (id: number): AuditView => ({
  id,
  ts: 1_000 + id,
  sessionId: 's',
  runId: null,
  skillId: 'a.b',
  nodeId: 'n',
  capability: 'file.write',
  target: `/tmp/${id}`,
  decision: 'allow',
  answer: null,
  reason: 'r',
  policySource: 'manifest:a.b#0',
});

/**
 * A bridge over an audit of `rows` rows (ids 1..rows), paged like the store: newest first,
 * cursor = the last id shown, and at most `scanBudget` rows examined per call, so a short page
 * with a cursor happens as it does for a rare text match.
 */
function recordingBridge(accepted = true, rows = 0, scanBudget = Infinity) {
  const calls: { method: string; request: unknown }[] = [];
  const bridge: PermissionsBridge = {
    permissionsPending: async () => ({ ok: true, value: [prompt('p0')] }),
    permissionsShow: async (r) => {
      calls.push({ method: 'show', request: r });
      return { ok: true, value: { nonce: `nonce-${r.promptId}`, answerableInMs: 700 } };
    },
    permissionsAnswer: async (r) => {
      calls.push({ method: 'answer', request: r });
      return { ok: true, value: { accepted } };
    },
    permissionsGrants: async () => ({ ok: true, value: [] }),
    permissionsRevoke: async (r) => {
      calls.push({ method: 'revoke', request: r });
      return { ok: true, value: { revoked: true } };
    },
    permissionsAudit: async (r) => {
      calls.push({ method: 'audit', request: r });
      const below = r.cursor === undefined ? rows + 1 : Number(r.cursor);
      const window = Math.min(below - 1, scanBudget);
      const ids = Array.from({ length: window }, (_, k) => below - 1 - k).filter((id) => !r.text || String(id).includes(r.text));
      const page = ids.slice(0, r.limit).map(auditRow);
      const more = ids.length > (r.limit ?? 500) ? page.at(-1)!.id : window < below - 1 ? below - window : null;
      return { ok: true, value: { rows: page, nextCursor: more === null ? null : String(more) } };
    },
  };
  return { bridge, calls };
}

describe('src/renderer/src/features/permissions/permissionsStore', () => {
  it('queues prompts once each and removes a prompt when it is answered', async () => {
    const { bridge, calls } = recordingBridge();
    const store = createPermissionsStore(bridge);
    await store.getState().loadPending();
    store.getState().promptArrived(prompt('p1'));
    store.getState().promptArrived(prompt('p1'));
    expect(store.getState().prompts.map((p) => p.promptId)).toEqual(['p0', 'p1']);
    const shown = await store.getState().show('p0');
    expect(shown).toEqual({ nonce: 'nonce-p0', answerableInMs: 700 });
    await store.getState().answer('p0', 'allow_session', shown!.nonce);
    expect(calls).toContainEqual({ method: 'answer', request: { promptId: 'p0', answer: 'allow_session', nonce: 'nonce-p0' } });
    expect(store.getState().prompts.map((p) => p.promptId)).toEqual(['p1']);
    store.getState().promptSettled('p1');
    expect(store.getState().prompts).toEqual([]);
  });

  it('keeps a prompt on screen when main refuses the answer (too soon), and says why', async () => {
    const { bridge } = recordingBridge();
    bridge.permissionsAnswer = async () => ({ ok: false, error: { code: 'permissions.too_soon', message: 'read it first' } });
    const store = createPermissionsStore(bridge);
    store.getState().promptArrived(prompt('p1'));
    await store.getState().answer('p1', 'allow_once', 'n');
    expect(store.getState().prompts.map((p) => p.promptId)).toEqual(['p1']);
    expect(store.getState().error?.code).toBe('permissions.too_soon');
  });

  it('says so when an answer arrives after the prompt expired', async () => {
    const { bridge } = recordingBridge(false);
    const store = createPermissionsStore(bridge);
    store.getState().promptArrived(prompt('late'));
    await store.getState().answer('late', 'allow_once', 'n');
    expect(store.getState().error?.code).toBe('permissions.expired');
  });

  it('sends the audit filter to main', async () => {
    const { bridge, calls } = recordingBridge();
    const store = createPermissionsStore(bridge);
    await store.getState().setFilter({ decision: 'deny', text: 'file', capability: 'file.write' });
    expect(calls.at(-1)).toEqual({
      method: 'audit',
      request: { limit: AUDIT_PAGE_ROWS, decision: 'deny', text: 'file', capability: 'file.write' },
    });
  });

  it('loads older pages with the cursor until the oldest row, and exports every matching row', async () => {
    const { bridge, calls } = recordingBridge(true, 450);
    const store = createPermissionsStore(bridge);
    await store.getState().loadAudit();
    expect(
      store
        .getState()
        .audit.map((r) => r.id)
        .slice(0, 3),
    ).toEqual([450, 449, 448]);
    expect(store.getState().audit).toHaveLength(AUDIT_PAGE_ROWS);
    expect(store.getState().auditCursor).toBe('251');
    await store.getState().loadOlderAudit();
    expect(calls.at(-1)).toEqual({ method: 'audit', request: { limit: AUDIT_PAGE_ROWS, cursor: '251' } });
    await store.getState().loadOlderAudit();
    const ids = store.getState().audit.map((r) => r.id);
    expect(ids).toEqual(Array.from({ length: 450 }, (_, k) => 450 - k));
    expect(store.getState().auditCursor).toBeNull();
    const before = calls.length;
    await store.getState().loadOlderAudit(); // nothing older: no call
    expect(calls).toHaveLength(before);

    await store.getState().loadAudit(); // back to the newest page only
    expect(store.getState().audit).toHaveLength(AUDIT_PAGE_ROWS);
    const exported = await store.getState().exportAudit();
    expect(exported?.map((r) => r.id)).toEqual(ids);
    expect(calls.at(-1)).toEqual({ method: 'audit', request: { limit: 10_000 } });
  });

  it('keeps asking while the store returns short pages, until the page is full', async () => {
    const { bridge, calls } = recordingBridge(true, 1_000, 100);
    const store = createPermissionsStore(bridge);
    await store.getState().setFilter({ text: '7' });
    const ids = store.getState().audit.map((r) => r.id);
    expect(ids).toHaveLength(AUDIT_PAGE_ROWS);
    expect(ids.every((id) => String(id).includes('7'))).toBe(true);
    expect(ids[0]).toBe(997);
    expect(calls.length).toBeGreaterThan(2);
  });

  it('drops the answer to a filter that was replaced while it loaded', async () => {
    const { bridge } = recordingBridge(true, 50);
    let release!: () => void;
    const slow: PermissionsBridge = {
      ...bridge,
      permissionsAudit: async (r) => {
        if (r.text === 'slow') await new Promise<void>((res) => (release = res));
        return bridge.permissionsAudit(r);
      },
    };
    const store = createPermissionsStore(slow);
    const stale = store.getState().setFilter({ text: 'slow' });
    await store.getState().setFilter({ text: '4' });
    release();
    await stale;
    expect(store.getState().audit.map((r) => r.id)).toEqual([49, 48, 47, 46, 45, 44, 43, 42, 41, 40, 34, 24, 14, 4]);
  });

  it('exports the audit as CSV with quoting', () => {
    const row: AuditView = {
      id: 7,
      ts: Date.UTC(2026, 0, 2, 3, 4, 5),
      sessionId: 's',
      runId: null,
      skillId: 'a.b',
      nodeId: 'n',
      capability: 'file.write',
      target: '/tmp/a, "b".txt',
      decision: 'confirm',
      answer: 'allow_once',
      reason: 'line1\nline2',
      policySource: 'manifest:a.b#0',
    };
    const csv = auditToCsv([row]);
    const [head, body] = csv.split('\r\n');
    expect(head).toBe('id,ts,sessionId,runId,skillId,nodeId,capability,target,decision,answer,reason,policySource');
    expect(body).toBe(
      '7,2026-01-02T03:04:05.000Z,s,,a.b,n,file.write,"/tmp/a, ""b"".txt",confirm,allow_once,"line1\nline2",manifest:a.b#0',
    );
  });
});
