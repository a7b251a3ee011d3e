import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Grounder } from '../../../../src/shared/ports/grounding';
import { ChainedGrounder, OpenAiVisionGrounder, smartResize, toSentPixels } from '../../../../src/main/services/grounding';
import { OpenAiLlmClient, resolveProviderConfig, type RoleSettings } from '../../../../src/main/services/llm';
import { useReplayServer } from '../../../helpers/replay';

const png = new Uint8Array(readFileSync('test/fixtures/grounding/dialog.png'));
const screenshot = { width: 480, height: 200, png };

describe('src/main/services/grounding/OpenAiVisionGrounder', () => {
  const replay = useReplayServer();
  const client = (over: Partial<RoleSettings> = {}) =>
    new OpenAiLlmClient(
      resolveProviderConfig('grounder', { grounder: { baseURL: replay.baseURL, model: 'ui-tars', maxRetries: 0, ...over } })!,
    );
  const answer = (content: object) =>
    replay.server.load({
      name: 'v',
      interactions: [{ route: 'chat', stage: 'locate_element', respond: { content: JSON.stringify(content) } }],
    });

  it('sends the screenshot as an image and maps 0-1000 answers to screen pixels', async () => {
    answer({ found: true, x: 760, y: 765 });
    const r = await new OpenAiVisionGrounder(client({ coordinates: 'normalized_1000' })).locate(
      { kind: 'text', text: 'Cancel' },
      { screenshot },
    );
    expect(r).toEqual({ found: true, source: 'vision', confidence: 0.5, point: { x: 365, y: 153 } });
    const sent = replay.server.requests.at(-1)!.body.messages[1].content;
    expect(sent[1].image_url.url).toMatch(/^data:image\/png;base64,iVBOR/);
    expect(sent[0].text).toMatch(/0-1000 scale/);
  });

  it('scales absolute answers back when the image was shrunk, and adds the window offset and display scale', async () => {
    answer({ found: true, x: 91, y: 38 });
    const g = new OpenAiVisionGrounder(client({ coordinates: 'absolute', imageMaxSide: 240 }), { displayScale: 2 });
    // window (logical) 120,40 120x60 -> physical 240,80 240x120 in the full 480x200 shot
    const r = await g.locate(
      { kind: 'text', text: 'Cancel' },
      { screenshot, window: { id: 'w', title: 't', bounds: { x: 120, y: 40, width: 120, height: 60 } } },
    );
    // sent image: the 240x120 crop, unscaled (fits 240) -> physical (240+91, 80+38) -> logical /2
    expect(r).toMatchObject({ found: true, point: { x: Math.round((240 + 91) / 2), y: Math.round((80 + 38) / 2) } });
  });

  it('undoes the model-side smart resize for the resized convention', () => {
    expect(smartResize(480, 200)).toEqual({ width: 476, height: 196 });
    expect(smartResize(3840, 2160, 3136, 1_003_520)).toEqual({ width: 1316, height: 728 });
    const p = toSentPixels(476, 196, { width: 480, height: 200 }, 'resized');
    expect(p).toEqual({ x: 480, y: 200 });
  });

  it('reports not-found, out-of-image answers and model errors as misses, and the chain falls through to the next grounder', async () => {
    answer({ found: false, reason: 'no such button' });
    const g = new OpenAiVisionGrounder(client());
    expect(await g.locate({ kind: 'text', text: 'Apply' }, { screenshot })).toMatchObject({ found: false, reason: /no such button/ });
    answer({ found: true, x: 5000, y: 10 });
    expect(await g.locate({ kind: 'text', text: 'Apply' }, { screenshot })).toMatchObject({
      found: false,
      reason: /outside the 480x200 image/,
    });
    replay.server.load({
      name: 'v',
      interactions: [{ route: 'chat', stage: 'locate_element', respond: { status: 500, body: { error: { message: 'boom' } } } }],
    });
    const fallback: Grounder = {
      locate: async () => ({ found: true, point: { x: 1, y: 2 }, confidence: 1, source: 'fake-accessibility' }),
    };
    const chained = await new ChainedGrounder([g, fallback]).locate({ kind: 'text', text: 'Apply' }, { screenshot });
    expect(chained).toMatchObject({ found: true, source: 'fake-accessibility' });
    const none = await new ChainedGrounder([g]).locate({ kind: 'text', text: 'Apply' }, { screenshot: { ...screenshot } }).catch((e) => e);
    expect(none).toMatchObject({ found: false, source: 'chain' });
  });
});
