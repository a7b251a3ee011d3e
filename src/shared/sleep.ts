/**
 * Waits `ms` milliseconds; rejects with `aborted()` as soon as `signal` aborts (at once when it
 * already has), so a stop never waits out a pause.
 */
export function abortableSleep(ms: number, signal: AbortSignal | undefined, aborted: () => Error): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(aborted());
    const onAbort = () => {
      clearTimeout(timer);
      reject(aborted());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
