import type { SymbolicWorld } from '../world';
import { pageTitle } from '../fixtures';
import { titled, type MethodModel } from './types';

/** The player's playlist (its items' titles) and the item playing (-1: none). */
interface Playlist extends Record<string, unknown> {
  items: string[];
  playing: number;
}

const playlist = (w: SymbolicWorld, app: string) => w.model<Playlist>(`${app}@playlist`, () => ({ items: [], playing: -1 }));
const show = (w: SymbolicWorld, app: string, p: Playlist) => titled(w, app, p.playing >= 0 ? p.items[p.playing] : undefined);
const known = (w: SymbolicWorld, path: unknown) => (pageTitle(w, String(path)) ? undefined : 'what the media shows is not known');

/** Media players: the item playing, by the title the window shows. */
export const MEDIA_MODELS: Record<string, MethodModel> = {
  'MediaPlayer.open_media': {
    blocked: (w, _ctx, a) => known(w, a.path),
    apply: (w, ctx, a) => {
      const p = Object.assign(playlist(w, ctx.app), { items: [pageTitle(w, String(a.path))!], playing: 0 });
      show(w, ctx.app, p);
    },
  },
  'MediaPlayer.enqueue': {
    blocked: (w, ctx, a) => known(w, a.path) ?? (playlist(w, ctx.app).playing < 0 ? 'nothing plays' : undefined),
    apply: (w, ctx, a) => void playlist(w, ctx.app).items.push(pageTitle(w, String(a.path))!),
  },
  'MediaPlayer.next_track': {
    blocked: (w, ctx) => {
      const p = playlist(w, ctx.app);
      return p.playing < 0 || p.playing >= p.items.length - 1 ? 'no next item' : undefined;
    },
    apply: (w, ctx) => {
      const p = playlist(w, ctx.app);
      p.playing += 1;
      show(w, ctx.app, p);
    },
  },
  'MediaPlayer.previous_track': {
    blocked: (w, ctx) => (playlist(w, ctx.app).playing > 0 ? undefined : 'no previous item'),
    apply: (w, ctx) => {
      const p = playlist(w, ctx.app);
      p.playing -= 1;
      show(w, ctx.app, p);
    },
  },
};
