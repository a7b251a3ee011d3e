import { describe, expect, it } from 'vitest';
import { AtspiGrounder } from '../../../../src/main/services/grounding';

describe('src/main/services/grounding/AtspiGrounder', () => {
  it('reports a miss with the reason, so the chain falls through, when AT-SPI cannot be reached', async () => {
    const g = new AtspiGrounder({ python: '/nonexistent/python3', timeoutMs: 2000 });
    const r = await g.locate(
      { kind: 'accessibility', name: 'Save', role: 'push button' },
      { screenshot: { width: 1, height: 1, png: new Uint8Array() } },
    );
    expect(r).toMatchObject({ found: false, source: 'accessibility' });
    if (!r.found) expect(r.reason).toMatch(/^AT-SPI unavailable: .*ENOENT/);
  });
});
