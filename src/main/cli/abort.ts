import type { Output } from './output';

/**
 * Runs `work` with an AbortSignal that Ctrl+C triggers: the run stops before its next step
 * instead of the process dying mid-keystroke.
 */
export async function withSigintAbort<T>(out: Output, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const onSigint = () => {
    out.err('stopping before the next step...');
    controller.abort();
  };
  process.once('SIGINT', onSigint);
  try {
    return await work(controller.signal);
  } finally {
    process.off('SIGINT', onSigint);
  }
}

/** Resolves on Ctrl+C or SIGTERM: how a serving command (serve, desktop-host) waits to be stopped. */
export function untilInterrupted(): Promise<void> {
  return new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
