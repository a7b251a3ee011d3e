/**
 * Serves the loopback test sites (shop A, shop B, DevHub) on the ports their app profiles name
 * (`base_url` in skills/apps/{shop-a,shop-b,devhub}.yaml), so that the web skills, `skilldesk
 * record` and the Learn screen have sites to work on outside the tests. Ctrl+C stops them.
 *
 *   npm run sites
 */
import { SITE_NAMES, startSite, type RunningSite } from '../test/fixtures/sites/server';

const PORTS: Record<(typeof SITE_NAMES)[number], number> = { 'shop-a': 8101, 'shop-b': 8102, devhub: 8103 };

async function main(): Promise<void> {
  const running: RunningSite[] = [];
  for (const name of SITE_NAMES) {
    try {
      const site = await startSite(name, { port: PORTS[name] });
      running.push(site);
      console.log(`${name.padEnd(7)} ${site.url}`);
    } catch (err) {
      console.error(`${name}: cannot serve on port ${PORTS[name]} (${(err as Error).message}); is it served already?`);
      process.exitCode = 1;
    }
  }
  if (!running.length) return;
  console.log('Serving; press Ctrl+C to stop.');
  process.on('SIGINT', () => void Promise.all(running.map((s) => s.close())).then(() => process.exit()));
}

void main();
