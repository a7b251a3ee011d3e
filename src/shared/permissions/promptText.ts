import type { PermissionPrompt } from '../ports/prompter';
import { escapeForDisplay, summarizeForDisplay } from './display';

/** The label under which a prompt shows the skill's own text, so it cannot pass for SkillDesk's words. */
export const SKILL_SAYS_LABEL = 'The skill says (its own words, not SkillDesk’s):';

/** A prompt as plain text: a one-line headline and the body that shows everything in full. */
export interface PromptText {
  headline: string;
  body: string;
}

/**
 * The text the terminal and the native dialog show for a prompt. Every value that comes from
 * the skill or its arguments is escaped; the target is shown whole, one gutter-prefixed line per
 * line of the target, so a line break inside it cannot start a line that looks like SkillDesk's;
 * `fallbackMsg` is quoted under `SKILL_SAYS_LABEL`.
 */
export function formatPromptText(p: PermissionPrompt): PromptText {
  const one = (s: string) => escapeForDisplay(s).text;
  const headline = `${one(p.skill.id)} wants ${one(p.capability)}${p.target === undefined ? '' : ` on ${summarizeForDisplay(p.target)}`}`;
  const lines = [`Skill: ${one(p.skill.id)} v${one(p.skill.version)} (trust: ${p.skill.trust}) · level: ${p.level}`];
  if (p.target !== undefined) {
    const { text, escaped } = escapeForDisplay(p.target, { multiline: true });
    lines.push(`Target, in full (${Array.from(p.target).length} characters):`, ...quoted(text));
    if (escaped > 0)
      lines.push(
        `Warning: it contains ${escaped} hidden or control character${escaped === 1 ? '' : 's'}, shown as escapes such as \\r or \\u{202E}.`,
      );
  }
  if (p.fallbackMsg) lines.push(SKILL_SAYS_LABEL, ...quoted(escapeForDisplay(p.fallbackMsg, { multiline: true }).text));
  lines.push(`Why SkillDesk asks: ${one(p.reason)}`, `Policy: ${one(p.policySource)}`);
  lines.push(`Denied automatically after ${Math.round(p.timeoutMs / 1000)} s. A session grant never widens what the skill declares.`);
  return { headline, body: lines.join('\n') };
}

/** Each line behind a `| ` gutter. */
function quoted(text: string): string[] {
  return text.split('\n').map((l) => `  | ${l}`);
}
