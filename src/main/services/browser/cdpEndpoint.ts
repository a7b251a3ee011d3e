import { SkillDeskError } from '../../../shared/errors';
import { parseEgress } from '../../../shared/permissions/hosts';

/**
 * The CDP endpoint to attach to, when it is on this machine's loopback interface: a debugging
 * port gives whoever reaches it full control of the browser (its cookies, its pages, running code
 * in them), so SkillDesk never drives one across the network.
 * @example loopbackCdpEndpoint('http://127.0.0.1:9222') // 'http://127.0.0.1:9222'
 */
export function loopbackCdpEndpoint(endpoint: string): string {
  const e = parseEgress(endpoint);
  const loopback = e !== undefined && (e.host === 'localhost' || e.host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(e.host));
  if (!e || !['http', 'ws'].includes(e.scheme ?? '') || !loopback || e.defaultPort)
    throw new SkillDeskError(
      'browser.cdp_not_loopback',
      `Expected a DevTools endpoint on this machine's loopback interface with its port, such as \`http://127.0.0.1:9222\`, got \`${endpoint}\`: a debugging port is full control of the browser, so SkillDesk attaches only to one bound to 127.0.0.1`,
    );
  return endpoint;
}
