import { createStore, type StoreApi } from 'zustand/vanilla';
import type {
  AuditView,
  GrantView,
  IpcError,
  IpcResult,
  PermissionPromptView,
  PromptAnswer,
  SkillDeskBridge,
} from '../../../../shared/ipc';
import type { AuditFilter, AuditPage } from '../../../../shared/permissions/audit';

export type PermissionsBridge = Pick<
  SkillDeskBridge,
  'permissionsPending' | 'permissionsShow' | 'permissionsAnswer' | 'permissionsGrants' | 'permissionsRevoke' | 'permissionsAudit'
>;

export type { AuditFilter } from '../../../../shared/permissions/audit';

/** Rows the audit table asks for at a time ("Load older" adds as many). */
export const AUDIT_PAGE_ROWS = 200;
/** The contract's largest page, used when exporting every matching row. */
const EXPORT_PAGE_ROWS = 10_000;

export interface PermissionsState {
  /** Prompts waiting for an answer, oldest first; the modal shows the first. */
  prompts: PermissionPromptView[];
  grants: GrantView[];
  /** The audit rows shown, newest first. */
  audit: AuditView[];
  /** Continues the audit table with older rows; null once it reaches the oldest match. */
  auditCursor: string | null;
  auditLoading: boolean;
  filter: AuditFilter;
  error?: IpcError;
  loadPending(): Promise<void>;
  promptArrived(p: PermissionPromptView): void;
  promptSettled(promptId: string): void;
  /** The modal displays the prompt: the nonce its answer needs and how long until it may be given; undefined on error. */
  show(promptId: string): Promise<{ nonce: string; answerableInMs: number } | undefined>;
  /** The user clicked an answer in the modal; `nonce` comes from `show`. */
  answer(promptId: string, answer: PromptAnswer, nonce: string): Promise<void>;
  loadGrants(): Promise<void>;
  revoke(id: string): Promise<void>;
  /** Loads the newest page for the filter, replacing the table. */
  loadAudit(): Promise<void>;
  /** Appends the next older page. */
  loadOlderAudit(): Promise<void>;
  setFilter(filter: AuditFilter): Promise<void>;
  /** Every row matching the filter (not only those shown), newest first, for export; undefined on error. */
  exportAudit(): Promise<AuditView[] | undefined>;
}

/** Permission prompts (host mode's modal), grants with revoke, and the audit trail. */
export function createPermissionsStore(bridge: PermissionsBridge): StoreApi<PermissionsState> {
  return createStore<PermissionsState>((set, get) => {
    // Bumped by every table load: the answer to an older filter or page is dropped, not shown.
    let generation = 0;
    const loadTable = async (cursor: string | null) => {
      const mine = ++generation;
      const current = () => mine === generation;
      set({ auditLoading: true });
      const r = await fetchAuditRows(bridge, { filter: get().filter, cursor, want: AUDIT_PAGE_ROWS, pageRows: AUDIT_PAGE_ROWS, current });
      if (!current()) return;
      if (!r.ok) return set({ auditLoading: false, error: r.error });
      const audit = cursor === null ? r.value.rows : [...get().audit, ...r.value.rows];
      set({ audit, auditCursor: r.value.nextCursor, auditLoading: false });
    };
    return {
      prompts: [],
      grants: [],
      audit: [],
      auditCursor: null,
      auditLoading: false,
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
      async show(promptId) {
        const r = await bridge.permissionsShow({ promptId });
        if (r.ok) return r.value;
        if (r.error.code === 'permissions.expired') get().promptSettled(promptId);
        set({ error: r.error });
        return undefined;
      },
      async answer(promptId, answer, nonce) {
        const r = await bridge.permissionsAnswer({ promptId, answer, nonce });
        // Refused (too soon, not the owner...): the prompt is still pending in main, so it stays on screen.
        if (!r.ok) return set({ error: r.error });
        get().promptSettled(promptId);
        if (!r.value.accepted)
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
      loadAudit: () => loadTable(null),
      async loadOlderAudit() {
        const { auditCursor, auditLoading } = get();
        if (auditCursor !== null && !auditLoading) await loadTable(auditCursor);
      },
      async setFilter(filter) {
        set({ filter });
        await get().loadAudit();
      },
      async exportAudit() {
        const r = await fetchAuditRows(bridge, { filter: get().filter, cursor: null, want: Infinity, pageRows: EXPORT_PAGE_ROWS });
        if (r.ok) return r.value.rows;
        set({ error: r.error });
        return undefined;
      },
    };
  });
}

/**
 * Up to `want` rows older than `cursor`, newest first. The store examines a bounded number of
 * rows per call, so a rare text match arrives over several short pages: keep asking until the
 * page is full, the trail ends, or the caller no longer wants the answer.
 */
async function fetchAuditRows(
  bridge: PermissionsBridge,
  o: { filter: AuditFilter; cursor: string | null; want: number; pageRows: number; current?: () => boolean },
): Promise<IpcResult<AuditPage>> {
  const { filter, want, pageRows, current = () => true } = o;
  let cursor = o.cursor;
  const rows: AuditView[] = [];
  do {
    const r = await bridge.permissionsAudit({
      ...filter,
      limit: Math.min(want - rows.length, pageRows),
      ...(cursor !== null && { cursor }),
    });
    if (!r.ok) return r;
    rows.push(...r.value.rows);
    cursor = r.value.nextCursor;
  } while (cursor !== null && rows.length < want && current());
  return { ok: true, value: { rows, nextCursor: cursor } };
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
