import { describe, expect, it } from 'vitest';
import { SequencedClipboard } from '../../../../src/main/services/desktop/SequencedClipboard';

function fakeClipboard() {
  const state = { text: 'old', sequence: 1 };
  return {
    state,
    inner: {
      readText: async () => state.text,
      writeText: async (t: string) => {
        state.text = t;
        state.sequence++;
      },
    },
  };
}

describe('src/main/services/desktop/SequencedClipboard', () => {
  it('waits after a copy shortcut until the clipboard changes, then reads the new text', async () => {
    const { state, inner } = fakeClipboard();
    const clip = new SequencedClipboard(inner, () => state.sequence, { pollMs: 1 });
    await clip.expectCopy();
    // The app copies a little later than the shortcut was sent.
    setTimeout(() => void inner.writeText('copied'), 30);
    expect(await clip.readText()).toBe('copied');
  });

  it('reads what is there once a copy that changed nothing has had its time', async () => {
    const { state, inner } = fakeClipboard();
    const clip = new SequencedClipboard(inner, () => state.sequence, { copyTimeoutMs: 40, pollMs: 1 });
    await clip.expectCopy();
    const started = Date.now();
    expect(await clip.readText()).toBe('old');
    expect(Date.now() - started).toBeGreaterThanOrEqual(35);
    // Only the first read after a copy waits.
    const again = Date.now();
    await clip.readText();
    expect(Date.now() - again).toBeLessThan(35);
  });
});
