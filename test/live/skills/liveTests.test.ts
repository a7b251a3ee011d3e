import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe } from 'vitest';
import type { Core } from '../../../src/main/core/Core';
import { loadLibrary } from '../../../src/main/services/library/YamlLibraryLoader';
import { defineLiveTests, desktopLane, killPatterns } from '../helpers/liveTestRunner';
import { killApps, liveCore } from './liveCore';

/**
 * Runs the live tests shipped with the skills (`skills/**` files of `kind: live_tests`, lane
 * `desktop`) on the test desktop. `SKILLDESK_LIVE_APPS=geany,pcmanfm` runs only those apps' files.
 */
const { library, problems } = await loadLibrary({ builtinDir: resolve(__dirname, '../../../skills') });
const only = process.env.SKILLDESK_LIVE_APPS?.split(',').filter(Boolean);
const docs = library.liveTests.filter((d) => d.lane === 'desktop' && (!only || only.includes(d.app)));

let core: Core;
let approving: Core;
beforeAll(async () => {
  if (problems.some((p) => p.severity === 'error'))
    throw new Error(
      `the skill library has errors; run \`skilldesk skills validate\`:\n${problems.map((p) => `${p.file}: ${p.message}`).join('\n')}`,
    );
  ({ core } = await liveCore());
  ({ core: approving } = await liveCore({ approve: true }));
});
afterAll(() => {
  core?.close();
  approving?.close();
  for (const d of docs) for (const p of killPatterns(library, d)) killApps(p);
});

for (const doc of docs) {
  describe(`${doc.app} (live tests: ${join('skills', doc.source.file.split('/skills/').pop() ?? doc.source.file)})`, () => {
    defineLiveTests(
      library,
      doc,
      desktopLane((approve) => (approve ? approving : core)),
    );
  });
}
