/**
 * The desktop host protocol: how a SkillDesk core drives the desktop ports (input, windows, screen,
 * clipboard, processes, files) of another process, possibly on another machine (a Windows VM, a
 * second PC). One authenticated HTTP exchange per port call, JSON both ways, every message checked
 * against these schemas on both sides. Permissions, the journal and the audit stay in the core:
 * the host does what an authenticated core asks, so its token is the whole of its trust.
 *
 * Versioning: `PROTOCOL_VERSION` changes on any incompatible change; the client refuses a host
 * whose `hello` names another version, with both numbers in the message.
 */
import { z } from 'zod';
import { INTERPRETERS } from '../skill/interpreters';
import { keyNameProblem } from '../skill/keys';

export const PROTOCOL_VERSION = 2;

/** Header carrying the bearer token (`Authorization: Bearer <token>`). */
export const AUTH_SCHEME = 'Bearer';

/** Largest request or response body either side accepts (a screenshot of a 4K screen fits). */
export const MAX_BODY_BYTES = 64 * 1024 * 1024;

const Key = z.string().superRefine((key, ctx) => {
  const problem = keyNameProblem(key);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});
const Coord = z.number().int().min(-100_000).max(100_000);
const Point = z.strictObject({ x: Coord, y: Coord });
const Size = z.number().int().min(0).max(100_000);
const Rect = z.strictObject({ x: Coord, y: Coord, width: Size, height: Size });
const Env = z.record(z.string(), z.string());
const WindowId = z.string().min(1).max(64);

/** Every call a core can make, one per port method. */
export const CallSchema = z.discriminatedUnion('op', [
  z.strictObject({ op: z.literal('input.pressKey'), key: Key }),
  z.strictObject({ op: z.literal('input.hotkey'), keys: z.array(Key).min(1).max(8) }),
  z.strictObject({ op: z.literal('input.typeText'), text: z.string().max(1_000_000) }),
  z.strictObject({
    op: z.literal('input.click'),
    at: Point,
    button: z.enum(['left', 'right', 'middle']),
    count: z.union([z.literal(1), z.literal(2)]),
  }),
  z.strictObject({ op: z.literal('input.drag'), from: Point, to: Point }),
  z.strictObject({ op: z.literal('input.scroll'), at: Point.optional(), dx: Coord, dy: Coord }),
  z.strictObject({ op: z.literal('windows.list') }),
  z.strictObject({ op: z.literal('windows.active') }),
  z.strictObject({ op: z.literal('windows.focus'), id: WindowId }),
  z.strictObject({ op: z.literal('windows.close'), id: WindowId }),
  z.strictObject({ op: z.literal('screen.capture'), region: Rect.optional() }),
  z.strictObject({ op: z.literal('clipboard.read') }),
  z.strictObject({ op: z.literal('clipboard.write'), text: z.string().max(10_000_000) }),
  z.strictObject({
    op: z.literal('processes.launch'),
    command: z.string().min(1).max(32_768),
    args: z.array(z.string().max(32_768)).max(256),
    env: Env.optional(),
    cwd: z.string().max(32_768).optional(),
  }),
  z.strictObject({
    op: z.literal('processes.runScript'),
    interpreter: z.enum(INTERPRETERS),
    script: z.string().max(1_000_000),
    args: z.array(z.string().max(32_768)).max(256),
    timeoutMs: z.number().int().positive().max(3_600_000),
    env: Env.optional(),
  }),
  z.strictObject({ op: z.literal('files.exists'), path: z.string().min(1).max(32_768) }),
  z.strictObject({ op: z.literal('files.readText'), path: z.string().min(1).max(32_768) }),
  z.strictObject({ op: z.literal('registry.readValue'), key: z.string().min(1).max(32_768), name: z.string().max(32_768) }),
]);
export type Call = z.infer<typeof CallSchema>;
export type Op = Call['op'];

const WindowInfoSchema = z.strictObject({
  id: WindowId,
  title: z.string(),
  pid: z.number().int().optional(),
  processName: z.string().optional(),
  className: z.string().optional(),
  dialog: z.boolean().optional(),
  bounds: Rect,
});

/** What each op answers with (`value` of a successful reply). */
export const RESULT_SCHEMAS = {
  'input.pressKey': z.null(),
  'input.hotkey': z.null(),
  'input.typeText': z.null(),
  'input.click': z.null(),
  'input.drag': z.null(),
  'input.scroll': z.null(),
  'windows.list': z.array(WindowInfoSchema).max(10_000),
  'windows.active': WindowInfoSchema.nullable(),
  'windows.focus': z.null(),
  'windows.close': z.null(),
  'screen.capture': z.strictObject({ width: Size, height: Size, pngBase64: z.string() }),
  'clipboard.read': z.string(),
  'clipboard.write': z.null(),
  'processes.launch': z.strictObject({ pid: z.number().int() }),
  'processes.runScript': z.strictObject({ exitCode: z.number().int(), stdout: z.string(), stderr: z.string() }),
  'files.exists': z.boolean(),
  'files.readText': z.string(),
  'registry.readValue': z.strictObject({ type: z.string().max(100), data: z.string() }).nullable(),
} as const satisfies Record<Op, z.ZodType>;

/** An error the host reports: the adapter's stable code and message, as the local adapter would throw them. */
export const HostErrorSchema = z.strictObject({
  code: z.string().min(1).max(200),
  message: z.string().max(10_000),
});
export type HostError = z.infer<typeof HostErrorSchema>;

/** Every reply: errors cross as data. */
export const ReplySchema = z.union([
  z.strictObject({ ok: z.literal(true), value: z.unknown() }),
  z.strictObject({ ok: z.literal(false), error: HostErrorSchema }),
]);
export type Reply = z.infer<typeof ReplySchema>;

/** The host's answer to `GET /v1/hello`: who it is and what it drives. */
export const HelloSchema = z.strictObject({
  protocol: z.number().int(),
  /** The platform whose app implementations apply (`win32` for a Windows host). */
  platform: z.enum(['linux', 'win32', 'darwin']),
  /** The host process's Node version and OS release, for diagnostics. */
  node: z.string().max(100),
  osRelease: z.string().max(200),
  /** Primary screen in physical pixels, and its scale factor (1 = 96 DPI on Windows). */
  screen: z.strictObject({ width: Size, height: Size, scale: z.number().positive().max(10) }).optional(),
});
export type Hello = z.infer<typeof HelloSchema>;
