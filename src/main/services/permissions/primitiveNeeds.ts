import type { PermissionTarget } from '../../../shared/permissions/policy';
import type { Capability } from '../../../shared/permissions/taxonomy';
import type { Primitive, Skill } from '../../../shared/skill';
import { conditionReadsScreen, templateSlots } from '../../../shared/skill';
import { isSecretPath } from './inference/paths';
import type { InferenceResult, ScriptLanguage } from './inference/types';

/**
 * Which capabilities one primitive needs, and on what. Used at run time by the mediator (with
 * resolved arguments) and statically by manifest derivation (with templates as targets).
 */
export interface CapabilityNeed {
  capability: Capability;
  target: PermissionTarget;
  /** Why: the primitive field or script line that needs it. */
  detail: string;
}

export interface NeedsResult {
  needs: CapabilityNeed[];
  /** Set when the primitive cannot be judged (an unparseable script): deny. */
  unanalysable?: string;
  inference?: InferenceResult;
}

export type ScriptInferrer = (script: string, interpreter: ScriptLanguage) => InferenceResult;

export const INPUT_KEYBOARD = new Set<Primitive['action']>(['key', 'hotkey', 'type_text']);
export const INPUT_MOUSE = new Set<Primitive['action']>(['click', 'double_click', 'right_click', 'drag', 'scroll']);

/** Ctrl+C, Ctrl+X, Ctrl+Insert (and Cmd on macOS). */
export function isCopyChord(keys: readonly string[]): boolean {
  const mods = keys.slice(0, -1).map((k) => k.toLowerCase());
  const last = keys.at(-1)?.toLowerCase();
  return keys.length === 2 && (mods[0] === 'control' || mods[0] === 'super') && (last === 'c' || last === 'x' || last === 'insert');
}

/** Whether the primitive sends input to a window. */
export function isInputPrimitive(p: Primitive): boolean {
  return INPUT_KEYBOARD.has(p.action) || INPUT_MOUSE.has(p.action);
}

/**
 * Needs of `primitive` (resolved at run time, raw for static checks). `raw` is the template
 * form, used to find which path arguments the step touches; `app` is the app it addresses.
 */
export function primitiveNeeds(
  skill: Skill,
  primitive: Primitive,
  opts: { raw?: Primitive; app?: string; args?: Readonly<Record<string, unknown>>; screenshot?: boolean; infer: ScriptInferrer },
): NeedsResult {
  const needs: CapabilityNeed[] = [];
  const app = opts.app ?? skill.app;
  const appTarget: PermissionTarget = app ? { kind: 'app', app } : { kind: 'unknown', hint: 'no app' };
  const add = (capability: Capability, target: PermissionTarget, detail: string) => needs.push({ capability, target, detail });
  let unanalysable: string | undefined;
  let inference: InferenceResult | undefined;

  switch (primitive.action) {
    case 'launch':
      add('app.launch', appTarget, 'launch');
      break;
    case 'key':
    case 'type_text':
      add('input.keyboard', appTarget, primitive.action);
      break;
    case 'hotkey':
      add('input.keyboard', appTarget, primitive.action);
      // Copy and cut make the app replace the clipboard.
      if (isCopyChord(primitive.keys)) add('clipboard.write', { kind: 'none' }, `hotkey ${primitive.keys.join('+')}`);
      break;
    case 'click':
    case 'double_click':
    case 'right_click':
    case 'scroll':
    case 'drag': {
      add('input.mouse', appTarget, primitive.action);
      const targets =
        primitive.action === 'drag'
          ? [primitive.from, primitive.to]
          : primitive.action === 'scroll'
            ? [primitive.target]
            : [primitive.target];
      // Finding a target by its visible text reads the screen (OCR grounding).
      if (targets.some((t) => t?.kind === 'text')) add('screen.capture', { kind: 'none' }, `${primitive.action} on visible text`);
      if ('expect' in primitive && primitive.expect && conditionReadsScreen(primitive.expect.condition)) {
        add('screen.capture', { kind: 'none' }, `${primitive.action} expecting ${primitive.expect.condition.kind}`);
      }
      break;
    }
    case 'wait_until':
      if (conditionReadsScreen(primitive.condition)) add('screen.capture', { kind: 'none' }, `wait_until ${primitive.condition.kind}`);
      break;
    case 'read':
      if (primitive.source === 'clipboard') add('clipboard.read', { kind: 'none' }, 'read clipboard');
      if (primitive.source === 'file') {
        const path = primitive.path ?? '';
        add('file.read', path ? { kind: 'path', path } : { kind: 'unknown', hint: 'no path' }, 'read file');
        if (isSecretPath(path)) add('secrets.read', { kind: 'path', path }, 'read file');
      }
      break;
    case 'call':
      add('skill.call', { kind: 'skill', skill: primitive.skill }, `call ${primitive.skill}`);
      break;
    case 'run_script': {
      const interp = primitive.interpreter;
      add('script.execute', { kind: 'command', command: primitive.script }, `run_script (${interp})`);
      inference = opts.infer(primitive.script, interp);
      for (const c of inference.capabilities) add(c.capability, c.target, `run_script: ${c.evidence}${c.line ? ` (line ${c.line})` : ''}`);
      if (!inference.ok) unanalysable = `the ${interp} script cannot be fully analysed: ${inference.errors.slice(0, 2).join('; ')}`;
      break;
    }
    case 'focus_window':
    case 'wait_for_window':
    case 'wait':
      break;
  }
  if (opts.screenshot) add('screen.capture', { kind: 'none' }, 'screenshot after the step');

  // Path arguments the step uses: what an app is told to open or save is a file access.
  // (Waits only mention a path, e.g. in a title pattern; calls leave it to the callee's own steps.)
  const passesPath = !['call', 'wait', 'wait_until', 'wait_for_window', 'focus_window'].includes(primitive.action);
  if (passesPath && opts.raw) {
    const slots = new Set(templateSlots(JSON.stringify(opts.raw)));
    for (const [name, spec] of Object.entries(skill.args)) {
      if (spec.type !== 'path' || !slots.has(name)) continue;
      const value = opts.args?.[name];
      const path = typeof value === 'string' ? value : `\${${name}}`;
      add(spec.mustExist ? 'file.read' : 'file.write', { kind: 'path', path }, `argument \`${name}\``);
      if (spec.mustExist && isSecretPath(path)) add('secrets.read', { kind: 'path', path }, `argument \`${name}\``);
    }
  }
  // URL arguments a step uses (typed into an address bar, passed to a launch): web.navigate on the URL.
  if (passesPath && opts.raw) {
    const slots = new Set(templateSlots(JSON.stringify(opts.raw)));
    for (const [name, spec] of Object.entries(skill.args)) {
      if (!slots.has(name) || !isUrlArg(name, spec)) continue;
      const value = opts.args?.[name];
      add(
        'web.navigate',
        typeof value === 'string' ? { kind: 'url', url: value } : { kind: 'url', url: `\${${name}}` },
        `argument \`${name}\``,
      );
    }
  }
  return { needs, ...(unanalysable && { unanalysable }), ...(inference && { inference }) };
}

/** An argument that holds a URL: named so (`url`, `link`, `address`, `website`) or constrained to `http(s)://` by its pattern. */
export function isUrlArg(name: string, spec: Skill['args'][string]): boolean {
  if (spec.type !== 'string' && spec.type !== 'text') return false;
  if (/(^|_)(url|uri|link|address|website|site)s?($|_)/i.test(name)) return true;
  return spec.type === 'string' && spec.pattern !== undefined && /^\^?\(?https?/i.test(spec.pattern);
}
