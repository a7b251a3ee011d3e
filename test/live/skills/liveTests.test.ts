import { join } from 'node:path';
import { afterAll, beforeAll, describe } from 'vitest';
import type { Core } from '../../../src/main/core/Core';
import { defineLiveTests, desktopLane, killPatterns, shippedLiveTests } from '../helpers/liveTestRunner';
import { killApps, liveCore } from './liveCore';

/**
 * Runs the live tests shipped with the skills (`skills/**` files of `kind: live_tests`, lane
 * `desktop`) on the test desktop. `SKILLDESK_LIVE_APPS=geany,pcmanfm` runs only those apps' files.
 */
const { library, docs, requireValidLibrary } = await shippedLiveTests('desktop');

let core: Core;
let approving: Core;
beforeAll(async () => {
  requireValidLibrary();
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
