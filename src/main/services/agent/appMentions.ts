import type { Platform, SkillLibrary } from '../../../shared/skill';

/** Names people use for an app: its id, the id's words, its display name without notes, the id's last word. */
export function appAliases(library: SkillLibrary, platform: Platform | undefined): Map<string, string[]> {
  const byAlias = new Map<string, string[]>();
  const add = (alias: string, app: string) => {
    const a = alias.toLowerCase().replace(/\s+/g, ' ').trim();
    if (a.length < 3) return;
    const list = byAlias.get(a) ?? [];
    if (!list.includes(app)) list.push(app);
    byAlias.set(a, list);
  };
  for (const app of library.apps.values()) {
    if (platform && !app.platforms.includes(platform)) continue;
    add(app.id, app.id);
    add(app.id.replace(/[-_]/g, ' '), app.id);
    add(app.name.replace(/\s*\(.*?\)\s*/g, ' '), app.id);
    add(app.id.split(/[-_]/).pop()!, app.id);
  }
  return byAlias;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `text` with a trailing "in notepad" / "using the calculator" removed, and the app it named. */
export function stripAppMention(text: string, aliases: Map<string, string[]>): { text: string; app: string }[] {
  const out: { text: string; app: string }[] = [];
  for (const [alias, apps] of aliases) {
    if (apps.length !== 1) continue;
    const re = new RegExp(
      `\\s+(?:in|with|using|on)\\s+(?:the\\s+)?${escape(alias).replace(/ /g, '\\s+')}(?:\\s+app(?:lication)?)?\\s*[.!]?\\s*$`,
      'iu',
    );
    if (re.test(text)) out.push({ text: text.replace(re, ''), app: apps[0]! });
  }
  return out;
}

/** The app a clause like "open notepad" / "start the calculator" launches, if it is one. */
export function launchClause(text: string, aliases: Map<string, string[]>): string | undefined {
  const m = /^\s*(?:open|start|launch|run|bring up)\s+(?:the\s+|a\s+)?(.+?)(?:\s+app(?:lication)?)?\s*[.!]?\s*$/iu.exec(text);
  if (!m) return undefined;
  // "Notepad (Wine)": the name as the app shows it, its note aside.
  const apps = aliases.get(
    m[1]!
      .replace(/\s*\(.*?\)\s*/g, ' ')
      .toLowerCase()
      .replace(/\s+/g, ' ')
      .trim(),
  );
  return apps?.length === 1 ? apps[0] : undefined;
}

/**
 * The app a clause that only names one sets as the context of what follows ("In Mousepad, ...",
 * "then using the calculator, ..."): the clause maps to no step of its own.
 */
export function appContextClause(text: string, aliases: Map<string, string[]>): string | undefined {
  const m = /^\s*(?:in|with|using|on)\s+(?:the\s+)?(.+?)(?:\s+app(?:lication)?)?\s*[,:]?\s*$/iu.exec(text);
  if (!m) return undefined;
  // "Notepad (Wine)": the name as the app shows it, its note aside.
  const apps = aliases.get(
    m[1]!
      .replace(/\s*\(.*?\)\s*/g, ' ')
      .toLowerCase()
      .replace(/\s+/g, ' ')
      .trim(),
  );
  return apps?.length === 1 ? apps[0] : undefined;
}
