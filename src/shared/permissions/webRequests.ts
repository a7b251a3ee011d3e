import type { PageRequest } from '../ports/browser';
import type { CapabilityNeed } from './needs';

/**
 * What a request a web page sends needs from the policy: the mediation of web skills on their
 * real effect (a click that submits a form is a POST, whatever the step was called). Pure.
 *
 * - anything but GET/HEAD (a form POST, a fetch with a body, a WebSocket) sends data: `web.post`;
 * - a top-level navigation (a link followed, a GET form, a redirect): `web.navigate`;
 * - a resource or frame of another origin than the document asking for it: `web.fetch`;
 * - a resource of the page's own origin, or one that never leaves the browser (`data:`,
 *   `blob:`, `about:`): nothing (the page was already allowed to be shown).
 */
export function requestNeed(request: PageRequest): CapabilityNeed | undefined {
  const target = { kind: 'url', url: request.url } as const;
  const method = request.method.toUpperCase();
  const via = request.redirect ? ' (a redirect the browser followed)' : '';
  if (method !== 'GET' && method !== 'HEAD') {
    const what = method === 'WEBSOCKET' ? 'a WebSocket the page opened' : `a ${method} request the page sent`;
    return { capability: 'web.post', target, detail: `${what}${via}` };
  }
  if (request.navigation && request.mainFrame) return { capability: 'web.navigate', target, detail: `the page navigated${via}` };
  if (/^(data|blob|about):/i.test(request.url) || sameOrigin(request.url, request.documentUrl)) return undefined;
  return {
    capability: 'web.fetch',
    target,
    detail: `${request.navigation ? 'a frame' : 'a resource'} from another origin than the page's${via}`,
  };
}

/** Whether two URLs share scheme, host and port (an unparseable one shares nothing). */
export function sameOrigin(a: string, b: string): boolean {
  try {
    const x = new URL(a);
    const y = new URL(b);
    return x.origin !== 'null' && x.origin === y.origin;
  } catch {
    return false;
  }
}
