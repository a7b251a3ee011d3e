import type { ArgValues } from '../domains';
import type { SkillLibrary } from '../library';
import { templateSlots } from '../template';

/** How a value reads in a sentence: text quoted, lists as "a, b", the rest as is. */
function spoken(value: unknown, type: string | undefined): string {
  if (Array.isArray(value)) return value.map((v) => spoken(v, undefined)).join(', ');
  if (typeof value === 'string' && (type === 'text' || type === 'string')) return JSON.stringify(value);
  // An option reads as words: document_end -> document end.
  return type === 'enum' ? String(value).replaceAll('_', ' ') : String(value);
}

/**
 * The instruction a user would give for a task, built from its steps' intents: for each step an
 * intent (picked by `pick` among those that name the most of its arguments) with the arguments
 * in it, the app named where the task starts and wherever it moves to another app; arguments an
 * intent cannot say (a boolean, an option) follow in parentheses.
 */
export function instructionFor(
  library: SkillLibrary,
  steps: readonly { skill: string; app: string; args: ArgValues }[],
  pick: <T>(xs: readonly T[]) => T,
): string {
  const parts: string[] = [];
  let lastApp: string | undefined;
  for (const step of steps) {
    const skill = library.skills.get(step.skill);
    if (!skill) continue;
    const given = Object.keys(step.args);
    const covered = (intent: string) => templateSlots(intent).filter((s) => given.includes(s)).length;
    // An intent naming another app ("open notepad then write ...") is not said of this one.
    const otherApps = [...library.apps.values()].filter((a) => a.id !== step.app).flatMap((a) => [a.id, a.name]);
    const namesOther = (i: string) => {
      const words = i.replace(/\$\{[^}]*\}/g, ' ').toLowerCase();
      return otherApps.some((name) => new RegExp(`(^|\\W)${name.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\W|$)`).test(words));
    };
    const usable = skill.intents.filter((i) => templateSlots(i).every((s) => given.includes(s)) && !namesOther(i));
    const best = Math.max(0, ...usable.map(covered));
    // Without a fitting intent, the method's name says what the step does.
    const intent = usable.length
      ? pick(usable.filter((i) => covered(i) === best))
      : (skill.implements ?? skill.id).split('.').pop()!.replaceAll('_', ' ');
    const said = new Set(templateSlots(intent));
    let text = intent.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)[^}]*\}/g, (_m, name: string) =>
      spoken(step.args[name], skill.args[name]?.type),
    );
    const rest = given.filter((n) => !said.has(n)).map((n) => `${n.replaceAll('_', ' ')}: ${spoken(step.args[n], skill.args[n]?.type)}`);
    if (rest.length) text += ` (${rest.join('; ')})`;
    if (step.app !== lastApp) text = `in ${library.apps.get(step.app)?.name ?? step.app}, ${text}`;
    lastApp = step.app;
    parts.push(text);
  }
  const sentence = parts.join(', then ');
  return sentence.charAt(0).toUpperCase() + sentence.slice(1) + '.';
}
