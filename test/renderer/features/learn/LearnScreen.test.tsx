import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { createStore } from 'zustand/vanilla';
import { StoresContext, type Stores } from '../../../../src/renderer/src/app/stores';
import { LearnScreen } from '../../../../src/renderer/src/features/learn/LearnScreen';
import { createLearnStore, exampleValues, type LearnState } from '../../../../src/renderer/src/features/learn/learnStore';
import type { LearnBlueprintView, LearnMethodView, LearnResultView } from '../../../../src/shared/ipc';

/**
 * The Learn view rendered to markup in plain Node (no DOM): what it shows in each phase of a
 * demonstration, for a store in that phase. Effects do not run here, so nothing is fetched.
 */

const addToCart: LearnMethodView = {
  ref: 'ShoppingSite.add_to_cart',
  interface: 'ShoppingSite',
  method: 'add_to_cart',
  description: 'Put the product whose page is in front in the cart.',
  intents: ['add ${quantity} to the cart'],
  args: { quantity: { type: 'number', integer: true, min: 1, max: 5, default: 1, examples: [1, 2], description: 'How many to add' } },
  example: { quantity: 1 },
};
const checkout: LearnMethodView = {
  ref: 'ShoppingSite.checkout',
  interface: 'ShoppingSite',
  method: 'checkout',
  description: 'Check out the cart.',
  intents: ['place the order for ${full_name}'],
  args: {
    full_name: { type: 'string', maxLength: 100, examples: ['Grace Hopper'] },
    shipping: { type: 'enum', values: ['standard', 'express'], default: 'standard' },
    gift: { type: 'boolean', optional: true },
  },
  example: { full_name: 'Grace Hopper', shipping: 'standard' },
};
const blueprint: NonNullable<LearnBlueprintView['blueprint']> = {
  app: 'shop-b',
  kind: 'site',
  origin: 'http://127.0.0.1:8102',
  methods: [addToCart, checkout],
};
const apps: LearnBlueprintView['apps'] = [
  { id: 'shop-b', name: 'Bazaar Bros', kind: 'site', implements: ['ShoppingSite'], missing: 2 },
  { id: 'pcmanfm', name: 'PCManFM', kind: 'desktop', implements: ['FileManager'], missing: 11 },
  {
    id: 'notepad',
    name: 'Notepad',
    kind: 'desktop',
    implements: ['TextEditor'],
    missing: 2,
    unavailable: 'a win32 app: demonstrate it where it runs',
  },
];
const result = (over: Partial<LearnResultView>): LearnResultView => ({
  id: 'rep-1',
  method: 'ShoppingSite.add_to_cart',
  app: 'shop-b',
  status: 'admitted',
  skillId: 'shop-b.add_to_cart',
  signatureAdded: false,
  files: ['/data/skills/shop-b.add_to_cart.yaml'],
  steps: 3,
  runs: [
    { args: { quantity: 2 }, ok: true, runId: 'r1' },
    { args: { quantity: 4 }, ok: true, runId: 'r2' },
  ],
  at: 1,
  reportFile: '/data/induction/rep-1.json',
  ...over,
});

/** The view over a store already in `state` (server rendering reads a store's initial state). */
function render(state: Partial<LearnState>): string {
  const base = createLearnStore({
    learnBlueprint: async () => ({ ok: true, value: { apps: [] } }),
    learnRecord: async () => ({ ok: false, error: { code: 'x', message: 'x' } }),
    learnStop: async () => ({ ok: false, error: { code: 'x', message: 'x' } }),
  }).getState();
  const learn = createStore<LearnState>(() => ({ ...base, apps, app: 'shop-b', blueprint, ...state }));
  return renderToStaticMarkup(
    <StoresContext.Provider value={{ learn } as unknown as Stores}>
      <LearnScreen />
    </StoresContext.Provider>,
  );
}

/** The attributes of the element with this id, whatever order React writes them in. */
function attributes(html: string, id: string): Record<string, string> {
  const tag = html.match(new RegExp(`<\\w+ [^>]*id="${id}"[^>]*>`))?.[0];
  if (!tag) throw new Error(`no element #${id} in ${html}`);
  return Object.fromEntries([...tag.matchAll(/([\w-]+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
}

describe('src/renderer/src/features/learn/LearnScreen', () => {
  it('offers sites and desktop apps with what each lacks, and lists the blueprint with a Show me how per method', () => {
    const html = render({});
    expect(html).toContain(
      '<optgroup label="Websites"><option value="shop-b" selected="">Bazaar Bros (shop-b) — 2 to learn</option></optgroup>',
    );
    expect(html).toContain('PCManFM (pcmanfm) — 11 to learn</option>');
    expect(html).toContain('Notepad (notepad) — 2 to learn · cannot record here</option>');
    expect(html).toContain('What shop-b lacks');
    expect(html.match(/>Show me how</g)).toHaveLength(2);
    expect(html).toContain('<code>ShoppingSite.checkout(full_name, shipping, gift)</code>');
    // The intent with the example values in its slots.
    expect(html).toContain('e.g. “place the order for Grace Hopper”');
    // Nothing is chosen yet: no form, no Record.
    expect(html).not.toContain('>Record<');
  });

  it('fills the argument form from the specs: a number input, an enum as a select, a checkbox, and a start page for a site', () => {
    const cart = render({ method: addToCart, values: exampleValues(addToCart) });
    expect(cart).toContain('Show me how to add 1 to the cart');
    expect(attributes(cart, 'arg-quantity')).toMatchObject({ type: 'number', value: '1', min: '1', max: '5', step: '1' });
    expect(cart).toContain('id="learn-start"');
    expect(cart).toContain('>Record</button>');
    const order = render({ method: checkout, values: { ...exampleValues(checkout), shipping: 'express' } });
    expect(order).toMatch(
      /<select id="arg-shipping" name="shipping"><option value="standard">standard<\/option><option value="express" selected="">express<\/option><\/select>/,
    );
    expect(attributes(order, 'arg-gift')).toMatchObject({ type: 'checkbox' });
    expect(attributes(order, 'arg-gift')).not.toHaveProperty('checked');
    expect(attributes(order, 'arg-full_name')).toMatchObject({ type: 'text', value: 'Grace Hopper' });
  });

  it('says where to demonstrate while recording, with a Stop button instead of Record', () => {
    const web = render({
      method: addToCart,
      values: { quantity: '2' },
      phase: 'recording',
      recording: {
        session: 's1',
        app: 'shop-b',
        method: addToCart.ref,
        args: { quantity: 2 },
        where: 'browser',
        url: 'http://127.0.0.1:8102/',
      },
    });
    expect(web).toContain('Recording…');
    expect(web).toContain('do it in the browser SkillDesk opened on <code>http://127.0.0.1:8102/</code>, then press Stop');
    expect(web).toContain('>Stop</button>');
    expect(web).not.toContain('>Record</button>');
    const desktop = render({
      apps,
      app: 'pcmanfm',
      blueprint: { app: 'pcmanfm', kind: 'desktop', methods: [addToCart] },
      method: addToCart,
      values: { quantity: '1' },
      phase: 'recording',
      recording: { session: 's2', app: 'pcmanfm', method: addToCart.ref, args: { quantity: 1 }, where: 'desktop' },
    });
    expect(desktop).toContain('do it on the desktop, in pcmanfm&#x27;s windows');
    // A desktop app has no start page.
    expect(desktop).not.toContain('id="learn-start"');
  });

  it('shows what induction is doing, then the admitted skill with its file and verification runs', () => {
    const learning = render({ method: addToCart, phase: 'learning', progress: ['Recording stopped.', 'Learning from 3 recorded steps…'] });
    expect(learning).toContain('Learning…');
    expect(learning).toContain('<li>Learning from 3 recorded steps…</li>');
    const done = render({ method: addToCart, phase: 'done', result: result({}) });
    expect(done).toContain('data-status="admitted"');
    expect(done).toContain('Learned: shop-b.add_to_cart');
    expect(done).toContain('<code>/data/skills/shop-b.add_to_cart.yaml</code>');
    expect(done).toContain('<code>{&quot;quantity&quot;:4}</code>');
    expect(done.match(/outcome outcome-ok/g)).toHaveLength(2);
    expect(done).toContain('<code>/data/induction/rep-1.json</code>');
    expect(done).toContain('>Learn another</button>');
    // Learned: the method is not offered for recording again.
    expect(done).not.toContain('>Record</button>');
  });

  it('shows a rejection with its reason and the run that failed', () => {
    const html = render({
      method: addToCart,
      phase: 'done',
      result: result({
        status: 'rejected',
        files: [],
        reason: 'Re-executed on {"quantity":4}, it failed: no basket line of 4',
        runs: [
          { args: { quantity: 2 }, ok: true },
          { args: { quantity: 4 }, ok: false, why: 'no basket line of 4' },
        ],
      }),
    });
    expect(html).toContain('data-status="rejected"');
    expect(html).toContain('Not learned: ShoppingSite.add_to_cart on shop-b');
    expect(html).toContain('Re-executed on {&quot;quantity&quot;:4}, it failed: no basket line of 4');
    expect(html).toContain('outcome outcome-failed');
    expect(html).toContain('<td>no basket line of 4</td>');
    expect(html).not.toContain('Learned:');
  });

  it('says why an app cannot be recorded on, and keeps Record disabled', () => {
    const html = render({
      app: 'notepad',
      blueprint: { app: 'notepad', kind: 'desktop', methods: [addToCart] },
      method: addToCart,
      values: { quantity: '1' },
    });
    expect(html).toContain('Cannot record on notepad here: a win32 app: demonstrate it where it runs.');
    expect(html).toContain('<button class="primary" disabled="">Record</button>');
  });
});
