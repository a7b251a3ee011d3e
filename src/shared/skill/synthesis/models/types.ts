import type { AppDoc } from '../../documents';
import type { ArgValues } from '../../domains';
import type { SymbolicWorld } from '../world';

/** Where a model runs: the app and its profile. */
export interface ModelContext {
  app: string;
  profile?: AppDoc;
}

/**
 * The precise effect of an interface method on what a task can check, beyond its declared facts:
 * a plain-text document's text and cursor, what the clipboard holds, what a file holds after a
 * save, what a calculation returns. The declared pre- and postconditions link methods in the
 * composition graph; a model gives the values its checks compare (file bytes, the clipboard).
 */
export interface MethodModel {
  /** Why the method cannot run in this state, if it cannot (the walk takes another). */
  blocked?(w: SymbolicWorld, ctx: ModelContext, args: ArgValues): string | undefined;
  /** Arguments the state decides (a word the document holds, for a replacement). */
  bind?(w: SymbolicWorld, ctx: ModelContext, pick: Pick): ArgValues | undefined;
  /**
   * Applies the effect; `result` is what the method returns, when the model knows it. A composite
   * whose model has none is walked instead (its calls' models apply).
   */
  apply?(w: SymbolicWorld, ctx: ModelContext, args: ArgValues): { result?: unknown } | void;
}

/** A random pick among `xs` (the walk's seeded generator). */
export type Pick = <T>(xs: readonly T[]) => T;

/** The clipboard's text as the world knows it. */
export const clipboardText = (w: SymbolicWorld) => w.valueOf({ fact: 'clipboard_holds' });

/** The clipboard holds `text` (unknown text when undefined). */
export const setClipboard = (w: SymbolicWorld, text: string | undefined) =>
  w.apply({ fact: 'clipboard_holds', holds: true, ...(text !== undefined && { value: text }) });

/** A file's text as the world knows it. */
export const fileText = (w: SymbolicWorld, path: string) => w.valueOf({ fact: 'file_content', path });

/** A file is at `path` holding `text` (unknown content when undefined). */
export const setFile = (w: SymbolicWorld, path: string, text: string | undefined) => {
  w.apply({ fact: 'file_exists', holds: true, path });
  w.apply({ fact: 'file_content', holds: true, path, ...(text !== undefined && { value: text }) });
};

/** The app's window title shows `text` (unknown when undefined). */
export const titled = (w: SymbolicWorld, app: string, text: string | undefined) =>
  w.apply({ fact: 'window_title', holds: true, app, ...(text !== undefined && { value: text }) });
