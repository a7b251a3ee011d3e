import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { SkillDeskError } from '../../../shared/errors';
import {
  CAPABILITIES,
  CAPABILITY_NAMES,
  CATEGORY_TITLES,
  describeTarget,
  parseSimulationGrants,
  parseSimulationPolicy,
  parseSimulationRequest,
  simulate,
  type SimulationResult,
} from '../../../shared/permissions';
import { INTERPRETERS, type Interpreter, type SkillLibrary } from '../../../shared/skill';
import { checkSkillManifest, inferCommand, inferFile, type InferenceResult } from '../../services/permissions';
import type { CliContext } from '../context';
import { permissionsGrant, permissionsGrants, permissionsRevoke, type GrantOptions } from './permissionGrants';
import type { Output } from '../output';
import { table } from '../output';

/** `permissions infer|manifest|simulate|grants|grant|revoke|taxonomy`: the permission tools for authors and administrators. */

export interface InferOptions {
  file?: string;
  command?: string;
  /** Language of `--command` (or of `--file` when its name and shebang do not tell). @default bash */
  shell?: string;
  json?: boolean;
}

/** Exit codes: 0 analysed; 1 analysis incomplete (a mediator would deny: fail closed); 2 bad options. */
export function permissionsInfer(o: InferOptions, io: Output): number {
  if (Boolean(o.file) === Boolean(o.command))
    throw new SkillDeskError('cli.bad_option', 'Give exactly one of `--file <path>` or `--command "<command line>"`');
  if (o.shell && !INTERPRETERS.includes(o.shell as Interpreter)) {
    throw new SkillDeskError('cli.bad_option', `Expected \`--shell\` to be one of ${INTERPRETERS.join(', ')}, got \`${o.shell}\``);
  }
  const lang = o.shell as Interpreter | undefined;
  const r = o.file
    ? inferFile(o.file, { ...(lang && { language: lang }) })
    : inferCommand(o.command!, { ...(lang && { shell: lang }), cwd: process.cwd() });
  if (o.json) io.out(JSON.stringify(r, null, 2));
  else io.out(formatInference(r));
  return r.ok ? 0 : 1;
}

/** Human-readable inference report: capabilities with evidence, findings, what could not be analysed. */
export function formatInference(r: InferenceResult): string {
  const lines: string[] = [];
  const byCap = new Map<string, InferenceResult['capabilities']>();
  for (const c of r.capabilities) byCap.set(c.capability, [...(byCap.get(c.capability) ?? []), c]);
  lines.push(`Language: ${r.language}${r.followed.length ? `; followed ${r.followed.join(', ')}` : ''}`);
  if (byCap.size === 0) lines.push('Capabilities: none found');
  else {
    lines.push('Capabilities:');
    for (const [cap, list] of [...byCap.entries()].sort(([a], [b]) => a.localeCompare(b))) {
      const level = CAPABILITIES[cap as keyof typeof CAPABILITIES]?.level ?? '?';
      lines.push(`  ${cap} [${level}]`);
      for (const c of list.slice(0, 6))
        lines.push(`    ${describeTarget(c.target) ?? '-'}  <- ${c.evidence} (${c.file}${c.line ? `:${c.line}` : ''})`);
      if (list.length > 6) lines.push(`    ... ${list.length - 6} more`);
    }
  }
  for (const f of r.findings)
    lines.push(`${f.kind === 'exfiltration' ? 'EXFILTRATION' : f.kind.toUpperCase().replace('_', ' ')}: ${f.message}`);
  if (!r.ok) {
    lines.push('Not fully analysable (a run would be denied: fail closed):');
    for (const e of r.errors) lines.push(`  ${e}`);
  }
  return lines.join('\n');
}

/** Derived needs vs. the declared manifest of one skill. Exit 1 when under-declared. */
export function permissionsManifest(library: SkillLibrary, id: string, o: { app?: string; json?: boolean }, io: Output): number {
  const skill = library.resolve(id, o.app);
  const check = checkSkillManifest(skill, library);
  if (o.json) {
    io.out(
      JSON.stringify(
        {
          skill: skill.id,
          declared: skill.permissions,
          derived: check.derived.needs,
          suggested: check.derived.suggested,
          errors: check.errors,
          warnings: check.warnings,
        },
        null,
        2,
      ),
    );
    return check.errors.length ? 1 : 0;
  }
  const lines = [
    `${skill.id} (${skill.kind}${skill.app ? ` on ${skill.app}` : ''}, ${skill.trust})`,
    '',
    'Needs (derived from the graph, callees and scripts):',
    table(
      ['CAPABILITY', 'LEVEL', 'ON', 'FROM'],
      check.derived.needs.map((n) => [
        n.capability,
        CAPABILITIES[n.capability].level,
        n.scopes.join(', ').slice(0, 50) || '-',
        n.from.slice(0, 2).join(', ') + (n.from.length > 2 ? ` +${n.from.length - 2}` : ''),
      ]),
    ),
    '',
    'Declared:',
    ...(skill.permissions.length
      ? skill.permissions.map(
          (e) =>
            `  ${e.effect} ${e.capability}${e.priority ? ` (priority ${e.priority})` : ''}${e.constraints ? ` ${JSON.stringify(e.constraints)}` : ''}`,
        )
      : ['  (none)']),
  ];
  if (check.errors.length) lines.push('', 'Errors (the library rejects this skill):', ...check.errors.map((e) => `  ${e}`));
  if (check.warnings.length) lines.push('', 'Warnings:', ...check.warnings.map((w) => `  ${w}`));
  if (!check.errors.length && !check.warnings.length) lines.push('', 'The manifest declares exactly what the skill needs.');
  io.out(lines.join('\n'));
  return check.errors.length ? 1 : 0;
}

export interface SimulateOptions {
  policy: string;
  requests: string;
  grants?: string;
  json?: boolean;
}

/** Runs requests through the policy; prints one decision per request. */
export function permissionsSimulate(o: SimulateOptions, io: Output, now = Date.now()): number {
  const policy = parseSimulationPolicy(readJson(o.policy, '--policy'));
  if (!policy.ok) throw new SkillDeskError('permissions.bad_policy', `The policy ${o.policy} is invalid:\n  ${policy.errors.join('\n  ')}`);
  const grants = parseSimulationGrants(o.grants ? readJson(o.grants, '--grants') : []);
  if (!grants.ok)
    throw new SkillDeskError('permissions.bad_grants', `The grants ${o.grants} are invalid:\n  ${grants.errors.join('\n  ')}`);
  const text = readText(o.requests, '--requests');
  const requests = text.split('\n').flatMap((line, i) => {
    if (!line.trim() || line.trim().startsWith('#')) return [];
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch (err) {
      throw new SkillDeskError('permissions.bad_requests', `${o.requests}:${i + 1}: not JSON: ${(err as Error).message}`);
    }
    const r = parseSimulationRequest(raw, i + 1);
    if (!r.ok) throw new SkillDeskError('permissions.bad_requests', `${o.requests}:${i + 1}: ${r.errors.join('; ')}`);
    return [r.value];
  });
  const results = simulate(policy.value, requests, grants.value, { now });
  if (o.json) io.out(JSON.stringify(results.map(plainResult), null, 2));
  else {
    io.out(
      table(
        ['#', 'SKILL', 'CAPABILITY', 'TARGET', 'DECISION', 'SOURCE', 'REASON'],
        results.map((r) => [
          String(r.index + 1),
          r.request.skill,
          r.request.capability,
          describeTarget(r.request.target) ?? '-',
          r.answer ? `${r.effect}->${r.final} (${r.answer})` : r.effect,
          r.source,
          r.reason.slice(0, 80),
        ]),
      ),
    );
  }
  return 0;
}

function plainResult(r: SimulationResult) {
  return {
    index: r.index,
    skill: r.request.skill,
    capability: r.request.capability,
    target: r.request.target,
    decision: r.effect,
    final: r.final,
    reason: r.reason,
    source: r.source,
    ...(r.answer && { answer: r.answer }),
    ...(r.grantCreated && { grant_created: r.grantCreated }),
  };
}

function readText(file: string, option: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    throw new SkillDeskError('cli.bad_option', `Cannot read ${option} ${file}: ${(err as Error).message}`);
  }
}

function readJson(file: string, option: string): unknown {
  const text = readText(file, option);
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new SkillDeskError('cli.bad_option', `${option} ${file} is not JSON: ${(err as Error).message}`);
  }
}

/** The taxonomy as a table (or JSON). */
export function permissionsTaxonomy(o: { json?: boolean }, io: Output): number {
  if (o.json) {
    io.out(
      JSON.stringify(
        CAPABILITY_NAMES.map((c) => ({ capability: c, ...CAPABILITIES[c] })),
        null,
        2,
      ),
    );
    return 0;
  }
  io.out(
    table(
      ['CAPABILITY', 'GROUP', 'LEVEL', 'SCOPED BY', 'MEANING'],
      CAPABILITY_NAMES.map((c) => {
        const i = CAPABILITIES[c];
        return [c, CATEGORY_TITLES[i.category], i.level, i.scope, i.description];
      }),
    ),
  );
  return 0;
}

/** Registers `permissions ...` on the program. */
export function registerPermissionsCommands(program: Command, ctx: CliContext): void {
  const p = program.command('permissions').description('Inspect capabilities: infer them from scripts, check manifests, simulate policies');
  p.command('infer')
    .description('Infer the capabilities of a script file or a command line (statically, no model), following referenced scripts')
    .option('--file <path>', 'script file (bash, PowerShell, cmd, Python, JavaScript: by extension or shebang)')
    .option('--command <line>', 'a command line')
    .option('--shell <language>', `language of --command or --file: ${INTERPRETERS.join(', ')}`)
    .option('--json', 'print JSON')
    .action((o: InferOptions) => ctx.setExitCode(permissionsInfer(o, ctx)));
  p.command('manifest')
    .description("Derive what a skill's graph needs and compare it with its declared manifest")
    .argument('<skill>', 'skill id or Interface.method')
    .option('--app <app>', 'resolve an interface method for this app')
    .option('--json', 'print JSON')
    .action(async (id: string, o: { app?: string; json?: boolean }) => {
      const { library } = await ctx.loadLibrary();
      ctx.setExitCode(permissionsManifest(library, id, o, ctx));
    });
  p.command('simulate')
    .description('Decide a list of requests against a policy, as the mediator would')
    .requiredOption('--policy <file>', 'policy JSON: { workspace?, skills: { id: { permissions, trust?, app? } }, env? }')
    .requiredOption('--requests <file>', 'JSON Lines: { skill, capability, target?, args?, app?, time?, answer? } per line')
    .option('--grants <file>', 'grants JSON: [{ skill, capability, constraints?, scope?, expires_at? }]')
    .option('--json', 'print JSON')
    .action((o: SimulateOptions) => ctx.setExitCode(permissionsSimulate(o, ctx)));
  const collect = (v: string, prev: string[] = []) => [...prev, v];
  const store = async () => {
    const db = (await ctx.core()).db;
    if (!db) throw new SkillDeskError('permissions.no_store', 'This SkillDesk has no store for grants; check --data-dir');
    return db;
  };
  p.command('grants')
    .description('List persistent grants (active ones unless --all)')
    .option('--all', 'include revoked and expired grants')
    .option('--skill <id>', 'only grants of this skill')
    .option('--json', 'print JSON')
    .action(async (o: { all?: boolean; skill?: string; json?: boolean }) => ctx.setExitCode(permissionsGrants(await store(), o, ctx)));
  p.command('grant')
    .description("Answer a skill's confirm entry ahead of time (persistent, revocable); never wider than that entry")
    .argument('<skill>', 'concrete skill id')
    .argument('<capability>', 'capability name, e.g. file.write')
    .option('--path <scope>', 'narrow to this path scope (repeatable)', collect)
    .option('--app <id>', 'narrow to this app (repeatable)', collect)
    .option('--domain <host>', 'narrow to this domain (repeatable)', collect)
    .option('--expires <when>', 'age such as 7d, or an ISO time')
    .option('--json', 'print JSON')
    .action(async (skill: string, capability: string, o: GrantOptions) => {
      const { library } = await ctx.loadLibrary();
      ctx.setExitCode(permissionsGrant(await store(), library, skill, capability, o, ctx));
    });
  p.command('revoke')
    .description('Revoke a persistent grant')
    .argument('<id>', 'grant id')
    .action(async (id: string) => ctx.setExitCode(permissionsRevoke(await store(), id, ctx)));
  p.command('taxonomy')
    .description('List the capability taxonomy with protection levels')
    .option('--json', 'print JSON')
    .action((o: { json?: boolean }) => ctx.setExitCode(permissionsTaxonomy(o, ctx)));
}
