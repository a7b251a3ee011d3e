import { describe, expect, it } from 'vitest';
import {
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

function recordingBridge(accepted = true) {
  const calls: { method: string; request: unknown }[] = [];
  const audit: AuditView[] = [];
  const bridge: PermissionsBridge = {
    permissionsPending: async () => ({ ok: true, value: [prompt('p0')] }),
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
      return { ok: true, value: audit };
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
    await store.getState().answer('p0', 'allow_session');
    expect(calls).toContainEqual({ method: 'answer', request: { promptId: 'p0', answer: 'allow_session' } });
    expect(store.getState().prompts.map((p) => p.promptId)).toEqual(['p1']);
    store.getState().promptSettled('p1');
    expect(store.getState().prompts).toEqual([]);
  });

  it('says so when an answer arrives after the prompt expired', async () => {
    const { bridge } = recordingBridge(false);
    const store = createPermissionsStore(bridge);
    store.getState().promptArrived(prompt('late'));
    await store.getState().answer('late', 'allow_once');
    expect(store.getState().error?.code).toBe('permissions.expired');
  });

  it('sends the audit filter to main', async () => {
    const { bridge, calls } = recordingBridge();
    const store = createPermissionsStore(bridge);
    await store.getState().setFilter({ decision: 'deny', text: 'file' });
    expect(calls.at(-1)).toEqual({ method: 'audit', request: { limit: 500, decision: 'deny', text: 'file' } });
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
