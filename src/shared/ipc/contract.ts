import { z } from 'zod';
import { ApiKeyEnvName } from '../apiKeyEnv';
import type { MetricsView } from '../metrics/types';
import { AuditFilter } from '../permissions/audit';
import type { LearnBlueprintView, LearnEventView, LearnRecordingView, LearnResultView } from './learnViews';
import type {
  AppInfo,
  AuditPage,
  DirectoryView,
  CompositionView,
  ConnectionTestView,
  GrantView,
  LibraryView,
  PermissionPromptView,
  RunDetail,
  RunEventView,
  RunSummary,
  SearchHit,
  SettingsView,
  SkillDetail,
  StatusView,
} from './views';
import { LLM_ROLE_NAMES, PROVIDER_PRESET_NAMES } from './views';

/**
 * The one IPC contract between the UI and main, carried by Electron IPC and by host mode's
 * WebSocket alike. Channels are `domain:verb`. Main validates every request with its schema;
 * responses are typed here and produced by main. Events stream from main to the renderer.
 */

/** A request/response entry; `Res` is carried only in the type. */
export interface InvokeEntry<Req extends z.ZodType, Res> {
  kind: 'invoke';
  request: Req;
  /** Phantom field carrying the response type. */
  readonly _response?: Res;
}

function invoke<Req extends z.ZodType>(request: Req) {
  return { returns: <Res>(): InvokeEntry<Req, Res> => ({ kind: 'invoke', request }) };
}

const Empty = z.object({}).strict();
const Id = z.string().min(1).max(200);
const ArgValue = z.union([
  z.string().max(100_000),
  z.number(),
  z.boolean(),
  z.array(z.union([z.string().max(10_000), z.number()])).max(1000),
]);

export const RunStartRequest = z
  .object({
    skill: z.string().min(1).max(200),
    app: z.string().min(1).max(100).optional(),
    args: z.record(z.string().max(100), ArgValue).default({}),
    dryRun: z.boolean().default(false),
    /** Screenshot after every step, for thumbnails in the trajectory. */
    screenshots: z.boolean().default(false),
  })
  .strict();

export const SkillSaveRequest = z
  .object({
    /** The skill document in file form (`graphToFileForm`); validated again in main before it is written. */
    doc: z.record(z.string(), z.unknown()),
  })
  .strict();

export const AuditQuery = AuditFilter.extend({
  /** Rows per page. */
  limit: z.number().int().positive().max(10_000).default(500),
  /** A previous page's `nextCursor`: continue with older rows. */
  cursor: z.string().min(1).max(100).optional(),
}).strict();

export const ProviderSettingsInput = z
  .object({
    preset: z.enum(PROVIDER_PRESET_NAMES),
    baseURL: z.string().url().optional(),
    resource: z.string().max(200).optional(),
    model: z.string().min(1).max(200),
    /** Absent: keep the stored key. Empty string: remove it. */
    apiKey: z.string().max(500).optional(),
    apiKeyEnv: ApiKeyEnvName.optional(),
  })
  .strict();

export const SettingsInput = z
  .object({
    providers: z.partialRecord(z.enum(LLM_ROLE_NAMES), ProviderSettingsInput.nullable()).optional(),
    defaultApps: z.record(z.string().regex(/^[A-Z][A-Za-z0-9]*$/), z.string().max(100)).optional(),
  })
  .strict();

export const MetricsQuery = z
  .object({
    /** Only tasks started at or after this time (epoch ms); every recorded task when absent. */
    since: z.number().int().nonnegative().optional(),
  })
  .strict();

const AppId = z.string().min(1).max(100);

export const LearnBlueprintQuery = z
  .object({
    /** The app whose missing methods to list; every app's count alone when absent. */
    app: AppId.optional(),
  })
  .strict();

export const LearnRecordRequest = z
  .object({
    app: AppId,
    /** The method demonstrated; a method the interface lacks is added to it (signature first). */
    method: z
      .string()
      .max(200)
      .regex(/^[A-Z][A-Za-z0-9]*\.[a-z][a-z0-9_]*$/, 'expected `Interface.method`, e.g. `ShoppingSite.search_product`'),
    /** The values the demonstration uses; checked against the method's argument specs in main. */
    args: z.record(z.string().max(100), ArgValue).default({}),
    /**
     * A website only: the page opened before the recording (the state the method starts from, not
     * a step of it). Without it, the site's home page is opened as the demonstration's first step.
     */
    start: z
      .string()
      .max(2000)
      .regex(/^\/\S*$/, 'expected a path of the site such as `/find/mug`')
      .optional(),
  })
  .strict();

export const contract = {
  'app:info': invoke(Empty).returns<AppInfo>(),
  'app:status': invoke(Empty).returns<StatusView>(),
  'library:get': invoke(Empty).returns<LibraryView>(),
  'library:reload': invoke(Empty).returns<LibraryView>(),
  'library:search': invoke(
    z
      .object({
        query: z.string().min(1).max(500),
        app: z.string().max(100).optional(),
        limit: z.number().int().positive().max(100).default(10),
      })
      .strict(),
  ).returns<SearchHit[]>(),
  'library:composition': invoke(Empty).returns<CompositionView>(),
  'skills:get': invoke(z.object({ id: Id }).strict()).returns<SkillDetail>(),
  'skills:save': invoke(SkillSaveRequest).returns<{ path: string; skill: SkillDetail }>(),
  'run:start': invoke(RunStartRequest).returns<{ runId: string }>(),
  'run:goal': invoke(
    z.object({ goal: z.string().min(1).max(2000), app: z.string().max(100).optional(), dryRun: z.boolean().default(false) }).strict(),
  ).returns<{ runId: string }>(),
  /** Stops one run, or every run when `runId` is absent (emergency stop). */
  'run:stop': invoke(z.object({ runId: Id.optional() }).strict()).returns<{ stopped: number }>(),
  'runs:list': invoke(
    z.object({ limit: z.number().int().positive().max(1000).default(50), skill: z.string().max(200).optional() }).strict(),
  ).returns<RunSummary[]>(),
  'runs:get': invoke(z.object({ id: Id }).strict()).returns<RunDetail>(),
  /** A step screenshot as a data: URL; only files inside the data folder's screenshots are served. */
  'runs:screenshot': invoke(z.object({ path: z.string().min(1).max(1000) }).strict()).returns<{ dataUrl: string }>(),
  /** A folder's entries, for the path picker of the run form (home folder when `path` is absent). */
  'files:list': invoke(
    z.object({ path: z.string().min(1).max(4096).optional(), showHidden: z.boolean().default(false) }).strict(),
  ).returns<DirectoryView>(),
  'permissions:pending': invoke(Empty).returns<PermissionPromptView[]>(),
  /**
   * The modal displays this prompt now: returns the nonce its answer must carry, and how long until
   * an answer counts (presence; host mode's owner page only).
   */
  'permissions:show': invoke(z.object({ promptId: Id }).strict()).returns<{ nonce: string; answerableInMs: number }>(),
  /** A click on the modal's buttons, with the nonce `permissions:show` gave (host mode's owner page only). */
  'permissions:answer': invoke(
    z.object({ promptId: Id, answer: z.enum(['allow_once', 'allow_session', 'deny']), nonce: z.string().min(1).max(100) }).strict(),
  ).returns<{ accepted: boolean }>(),
  'permissions:grants': invoke(Empty).returns<GrantView[]>(),
  'permissions:revoke': invoke(z.object({ id: Id }).strict()).returns<{ revoked: boolean }>(),
  'permissions:audit': invoke(AuditQuery).returns<AuditPage>(),
  /** The skill metrics of docs/metrics.md over the recorded runs (`skilldesk metrics`). */
  'metrics:get': invoke(MetricsQuery).returns<MetricsView>(),
  /** What apps lack: every app with its count of missing methods, and the blueprint of `app` (`skilldesk induce --list`). */
  'learn:blueprint': invoke(LearnBlueprintQuery).returns<LearnBlueprintView>(),
  /**
   * Starts recording a demonstration (`skilldesk record`): SkillDesk's browser on a site, the global
   * input hook for a desktop app; answers once it records. Progress streams as `learn:event`.
   */
  'learn:record': invoke(LearnRecordRequest).returns<LearnRecordingView>(),
  /** Ends a recording and induces a skill from it (`skilldesk induce`): admitted once re-execution verifies it, else rejected. */
  'learn:stop': invoke(z.object({ session: Id }).strict()).returns<LearnResultView>(),
  'settings:get': invoke(Empty).returns<SettingsView>(),
  'settings:save': invoke(SettingsInput).returns<SettingsView>(),
  'settings:test': invoke(z.object({ role: z.enum(LLM_ROLE_NAMES) }).strict()).returns<ConnectionTestView>(),
} as const;

/** Streams from main to the renderer. */
export interface EventMap {
  'run:event': RunEventView;
  'permissions:prompt': PermissionPromptView;
  'permissions:settled': { promptId: string; answer: string; by: string };
  'app:status': StatusView;
  'library:changed': { reason: string };
  'learn:event': LearnEventView;
}

export const EVENT_CHANNELS = [
  'run:event',
  'permissions:prompt',
  'permissions:settled',
  'app:status',
  'library:changed',
  'learn:event',
] as const satisfies readonly (keyof EventMap)[];

export type Contract = typeof contract;
export type Channel = keyof Contract;
export type EventChannel = keyof EventMap;
export type RequestInput<C extends Channel> = z.input<Contract[C]['request']>;
export type RequestOf<C extends Channel> = z.output<Contract[C]['request']>;
export type ResponseOf<C extends Channel> = Contract[C] extends InvokeEntry<z.ZodType, infer R> ? R : never;

export const CHANNELS = Object.keys(contract) as Channel[];

export function isChannel(name: unknown): name is Channel {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(contract, name);
}
