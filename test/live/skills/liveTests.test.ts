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
    // Its app ends with its tests: one left running can raise a window later (an alarm-clock
    // applet's Alarms window took the focus in the middle of a Chromium test, in CI).
    afterAll(() => {
      for (const p of killPatterns(library, doc)) killApps(p);
    });
    defineLiveTests(
      library,
      doc,
      desktopLane((approve) => (approve ? approving : core)),
    );
  });
}
