import { describe, expect, it } from 'vitest';
import { abortableSleep } from '../../src/shared/sleep';

describe('src/shared/sleep', () => {
  it('resolves after the pause, rejects at once when aborted before or during it', async () => {
    await expect(abortableSleep(1, undefined, () => new Error('x'))).resolves.toBeUndefined();
    const before = new AbortController();
    before.abort();
    await expect(abortableSleep(60_000, before.signal, () => new Error('stopped'))).rejects.toThrow('stopped');
    const during = new AbortController();
    const started = Date.now();
    const pending = abortableSleep(60_000, during.signal, () => new Error('stopped later'));
    during.abort();
    await expect(pending).rejects.toThrow('stopped later');
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
