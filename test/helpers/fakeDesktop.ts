import { createRecordingDesktop, INPUT_OPS, type RecordedCall, type RecordingDesktopOptions } from '../../src/main/services/desktop';
import type { WindowInfo } from '../../src/shared/ports/desktop';

/**
 * The unit tests' desktop: the product's recording desktop (the one dry runs use) on linux, plus
 * two conveniences: `hooks.beforeInput`, set at any time to make the world react to an input
 * (a dialog closing after a click, focus moving), and `inputCalls()`, the keyboard and mouse calls.
 */
export function fakeDesktop(options: RecordingDesktopOptions = {}) {
  const hooks: { beforeInput?: (call: RecordedCall) => void } = {};
  const rec = createRecordingDesktop({
    platform: 'linux',
    ...options,
    onCall: (call) => {
      options.onCall?.(call);
      if (INPUT_OPS.has(call.op)) hooks.beforeInput?.(call);
    },
  });
  return { ...rec, hooks, inputCalls: () => rec.calls.filter((c) => INPUT_OPS.has(c.op)) };
}

/** A window of `processName` at a fixed place on screen. */
export function win(id: string, title: string, processName: string, className?: string): WindowInfo {
  return { id, title, processName, ...(className && { className }), bounds: { x: 10, y: 20, width: 800, height: 600 } };
}
