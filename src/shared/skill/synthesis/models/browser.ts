import type { SymbolicWorld } from '../world';
import { pageTitle } from '../fixtures';
import { setFile, titled, type MethodModel } from './types';

/** The browser window's tabs as a task leaves them: their page titles and the one in front (-1: not known). */
interface Tabs extends Record<string, unknown> {
  titles: string[];
  active: number;
}

const tabs = (w: SymbolicWorld, app: string) => w.model<Tabs>(`${app}@tabs`, () => ({ titles: [], active: -1 }));
const show = (w: SymbolicWorld, app: string, t: Tabs) => titled(w, app, t.active >= 0 ? t.titles[t.active] : undefined);

/** A page of the task's must be in front to be saved. */
const noPage = (w: SymbolicWorld, app: string): string | undefined => {
  const t = tabs(w, app);
  return t.active < 0 || t.titles[t.active] === 'New Tab' ? 'no page of the task is in front' : undefined;
};

/** Browsers (Browser, Tabs): the page in front by its title, saved pages and PDFs. */
export const BROWSER_MODELS: Record<string, MethodModel> = {
  'Browser.open_file': {
    blocked: (w, _ctx, a) => (pageTitle(w, String(a.path)) ? undefined : 'the page title is not known'),
    apply: (w, ctx, a) => {
      // A New Tab page in front takes the page; otherwise it opens in a new tab.
      const t = tabs(w, ctx.app);
      const title = pageTitle(w, String(a.path))!;
      if (t.active >= 0 && t.titles[t.active] === 'New Tab') t.titles[t.active] = title;
      else t.active = t.titles.push(title) - 1;
      show(w, ctx.app, t);
    },
  },
  'Tabs.new_tab': {
    apply: (w, ctx) => {
      const t = tabs(w, ctx.app);
      t.active = t.titles.push('New Tab') - 1;
      show(w, ctx.app, t);
    },
  },
  'Browser.save_page': { blocked: (w, ctx) => noPage(w, ctx.app), apply: (w, _ctx, a) => setFile(w, String(a.path), undefined) },
  'Browser.save_page_as_pdf': { blocked: (w, ctx) => noPage(w, ctx.app), apply: (w, _ctx, a) => setFile(w, String(a.path), undefined) },
};
