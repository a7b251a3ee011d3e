import type { BrowserPage, BrowserSession, RecordedWebEvent } from '../../../shared/ports/browser';
import { sameOrigin } from '../../../shared/permissions/webRequests';
import type { ArgValues } from '../../../shared/skill';
import { webSteps, type Trajectory } from '../../../shared/learning/trajectory';
import { SkillDeskError } from '../../../shared/errors';

export interface WebDemonstration {
  /** The site's app id and origin: the demonstration stays on it (requests elsewhere are refused). */
  app: string;
  origin: string;
  /**
   * Where the page is when the demonstration starts (a URL of the site, opened before recording:
   * the state the method starts from, not a step of it); the page is left as it is when absent.
   */
  startUrl?: string;
  method?: string;
  args?: ArgValues;
  /** What the person does; the recording ends when it resolves (the CLI: when they press Enter). */
  perform: (page: BrowserPage) => Promise<void>;
}

/**
 * Records a person's demonstration in SkillDesk's browser as a trajectory: the page's own events
 * (clicks, fields, keys, with each element's role, name and label) become steps, the pages actions
 * led to become their `after`, and the data the page sent (form posts) is noted on the step that
 * sent it. While it records, the page may reach its own site only: a demonstration is not a
 * licence to browse elsewhere.
 */
export async function recordWebDemonstration(session: BrowserSession, d: WebDemonstration): Promise<Trajectory> {
  if (!session.record)
    throw new SkillDeskError(
      'record.unsupported',
      'This browser cannot record a demonstration (attach to a Chromium SkillDesk started, or launch one)',
    );
  const events: RecordedWebEvent[] = [];
  const posts: { at: number; url: string }[] = [];
  session.setRequestGuard(async (request) => {
    if (!sameOrigin(request.url, d.origin) && !/^(data|blob|about):/i.test(request.url))
      return { allow: false, reason: `a demonstration stays on ${d.origin}` };
    if (request.method !== 'GET' && request.method !== 'HEAD') posts.push({ at: Date.now(), url: request.url });
    return { allow: true };
  });
  const page = await session.page();
  let stop: (() => Promise<void>) | undefined;
  try {
    if (d.startUrl) await page.navigate(d.startUrl);
    stop = await session.record((e) => events.push(e));
    await d.perform(page);
    // Events still on their way from the page (the binding is asynchronous).
    await new Promise((r) => setTimeout(r, 300));
  } finally {
    await stop?.();
    session.setRequestGuard(undefined);
  }
  const steps = webSteps(events);
  for (const post of posts) {
    const step = [...steps].reverse().find((s) => s.at <= post.at) ?? steps[0];
    if (step) step.posts = [...(step.posts ?? []), post.url];
  }
  return {
    kind: 'trajectory',
    app: d.app,
    source: 'browser',
    ...(d.method && { method: d.method }),
    args: d.args ?? {},
    steps,
    recordedAt: Date.now(),
  };
}
