import type { TrustTier } from '../../../shared/permissions/manifest';
import { appRunsOn, trustOf, type ArgSpecs, type Platform, type SkillLibrary } from '../../../shared/skill';

/**
 * What retrieval ranks: one card per interface method (standing for all of its implementations,
 * which share intents) and one per app-only skill, so five editors do not crowd out the top 5.
 */
export interface SkillCard {
  /** `Interface.method` or an app-only skill id: what the agent passes to the executor. */
  ref: string;
  kind: 'method' | 'app_skill';
  description: string;
  intents: string[];
  args: ArgSpecs;
  /** Apps it can run on (implementations present, or composite on an implementing app). */
  apps: string[];
  returns?: string;
  /** Who wrote the card's text (the interface file's or the skill's trust): model prompts quote it as data. */
  trust: TrustTier;
}

/** Builds the cards of a library; `platform` keeps only apps that run there. */
export function skillCards(library: SkillLibrary, platform?: Platform): SkillCard[] {
  const runsHere = (app: string) => !platform || appRunsOn(library.apps.get(app) ?? { platforms: [] }, platform);
  const cards: SkillCard[] = [];
  for (const iface of library.interfaces.values()) {
    // Universal interfaces hold the basic primitives: the agent adds them to every candidate list itself.
    if (iface.universal) continue;
    for (const [name, m] of Object.entries(iface.methods)) {
      const ref = `${iface.id}.${name}`;
      const apps = m.composite ? library.implementers(iface.id) : library.implementationsOf(ref).map((s) => s.app!);
      const here = [...new Set(apps)].filter(runsHere).sort();
      if (!here.length || (m.composite && !library.skills.has(ref))) continue;
      cards.push({
        ref,
        kind: 'method',
        description: m.description,
        intents: m.intents,
        args: m.args,
        apps: here,
        ...(m.returns && { returns: m.returns.type }),
        trust: trustOf(iface.source, undefined),
      });
    }
  }
  for (const s of library.skills.values()) {
    if (s.kind !== 'app_skill' || !runsHere(s.app!)) continue;
    cards.push({
      ref: s.id,
      kind: 'app_skill',
      description: s.description,
      intents: s.intents,
      args: s.args,
      apps: [s.app!],
      ...(s.returns && { returns: s.returns.type }),
      trust: s.trust,
    });
  }
  return cards.sort((a, b) => a.ref.localeCompare(b.ref));
}
