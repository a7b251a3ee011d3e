import { createStore, type StoreApi } from 'zustand/vanilla';
import type { AuditView, GrantView, IpcError, PermissionPromptView, PromptAnswer, SkillDeskBridge } from '../../../../shared/ipc';

export type PermissionsBridge = Pick<
  SkillDeskBridge,
  'permissionsPending' | 'permissionsAnswer' | 'permissionsGrants' | 'permissionsRevoke' | 'permissionsAudit'
>;

export interface AuditFilter {
  decision?: 'allow' | 'confirm' | 'deny';
  skill?: string;
  text?: string;
}

export interface PermissionsState {
  /** Prompts waiting for an answer, oldest first; the modal shows the first. */
  prompts: PermissionPromptView[];
  grants: GrantView[];
  audit: AuditView[];
  filter: AuditFilter;
  error?: IpcError;
  loadPending(): Promise<void>;
  promptArrived(p: PermissionPromptView): void;
  promptSettled(promptId: string): void;
  answer(promptId: string, answer: PromptAnswer): Promise<void>;
  loadGrants(): Promise<void>;
  revoke(id: string): Promise<void>;
  loadAudit(): Promise<void>;
  setFilter(filter: AuditFilter): Promise<void>;
}

/** Permission prompts (host mode's modal), grants with revoke, and the audit trail. */
export function createPermissionsStore(bridge: PermissionsBridge): StoreApi<PermissionsState> {
  return createStore<PermissionsState>((set, get) => ({
    prompts: [],
    grants: [],
    audit: [],
    filter: {},
    async loadPending() {
      const r = await bridge.permissionsPending({});
      if (r.ok) set({ prompts: r.value });
    },
    promptArrived(p) {
      if (!get().prompts.some((x) => x.promptId === p.promptId)) set({ prompts: [...get().prompts, p] });
    },
    promptSettled(promptId) {
      set({ prompts: get().prompts.filter((p) => p.promptId !== promptId) });
    },
    async answer(promptId, answer) {
      const r = await bridge.permissionsAnswer({ promptId, answer });
      get().promptSettled(promptId);
      if (!r.ok) set({ error: r.error });
      else if (!r.value.accepted)
        set({
          error: { code: 'permissions.expired', message: 'That request had already been answered or timed out; the step was denied.' },
        });
    },
    async loadGrants() {
      const r = await bridge.permissionsGrants({});
      set(r.ok ? { grants: r.value } : { error: r.error });
    },
    async revoke(id) {
      const r = await bridge.permissionsRevoke({ id });
      if (!r.ok) set({ error: r.error });
      await get().loadGrants();
    },
    async loadAudit() {
      const f = get().filter;
      const r = await bridge.permissionsAudit({
        limit: 500,
        ...(f.decision && { decision: f.decision }),
        ...(f.skill && { skill: f.skill }),
        ...(f.text && { text: f.text }),
      });
      set(r.ok ? { audit: r.value } : { error: r.error });
    },
    async setFilter(filter) {
      set({ filter });
      await get().loadAudit();
    },
  }));
}

/** The audit rows as CSV (RFC 4180 quoting), for export. */
export function auditToCsv(rows: readonly AuditView[]): string {
  const cols: (keyof AuditView)[] = [
    'id',
    'ts',
    'sessionId',
    'runId',
    'skillId',
    'nodeId',
    'capability',
    'target',
    'decision',
    'answer',
    'reason',
    'policySource',
  ];
  const cell = (v: unknown): string => {
    const s = v === null || v === undefined ? '' : String(v);
    return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return (
    [cols.join(','), ...rows.map((r) => cols.map((c) => cell(c === 'ts' ? new Date(r.ts).toISOString() : r[c])).join(','))].join('\r\n') +
    '\r\n'
  );
}
