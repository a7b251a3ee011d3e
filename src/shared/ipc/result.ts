/**
 * Errors cross the bridge as data (Signal Desktop style): every call resolves to a result, never
 * rejects, so the renderer handles failures where it handles values.
 */

/** A failure the user can act on: a stable `code` and a message that says what to do next. */
export interface IpcError {
  code: string;
  message: string;
  /** Field-level problems, e.g. validation errors of a saved skill. */
  problems?: { path: (string | number)[]; message: string; line?: number }[];
}

export type IpcResult<T> = { ok: true; value: T } | { ok: false; error: IpcError };

export const ok = <T>(value: T): IpcResult<T> => ({ ok: true, value });
export const fail = (code: string, message: string, problems?: IpcError['problems']): IpcResult<never> => ({
  ok: false,
  error: { code, message, ...(problems && { problems }) },
});

/** Turns anything thrown into an `IpcError`, keeping a `code` when the error carries one. */
export function toIpcError(err: unknown): IpcError {
  if (err && typeof err === 'object') {
    const e = err as { code?: unknown; message?: unknown; problems?: unknown };
    const code = typeof e.code === 'string' ? e.code : 'internal.error';
    const message = typeof e.message === 'string' ? e.message : String(err);
    return { code, message, ...(Array.isArray(e.problems) && { problems: e.problems as IpcError['problems'] }) };
  }
  return { code: 'internal.error', message: String(err) };
}
