import type { Command } from 'commander';
import { loadCheckedLibrary } from '../../core/Core';
import { formatProblem } from '../../services/library/YamlLibraryLoader';
import { graphPrimitives, type Skill } from '../../../shared/skill';
import { table } from '../output';
import type { CliContext } from '../context';
import type { SkillReliability } from '../../core/reliability';

/** Plain-data view of a skill for `--json` and the UI. */
export function skillSummary(s: Skill, reliability?: SkillReliability) {
  return {
    id: s.id,
    kind: s.kind,
    app: s.app ?? null,
    implements: s.implements ?? null,
    version: s.version,
    trust: s.trust,
    description: s.description,
    intents: s.intents,
    args: s.args,
    returns: s.returns ?? null,
    primitives: graphPrimitives(s.graph).length,
    source: s.source.file,
    ...(reliability && { reliability }),
  };
}

/** `skills list|show|validate`. */
export function registerSkillsCommands(program: Command, ctx: CliContext): void {
  const skills = program.command('skills').description('Browse and check the skill library');

  skills
    .command('list')
    .description('List skills (implementations, app skills and interface composites)')
    .option('--app <app>', 'only skills that run on this app')
    .option('--domain <interface>', 'only skills of this domain interface, e.g. TextEditor')
    .option('--json', 'print JSON')
    .action(async (o: { app?: string; domain?: string; json?: boolean }) => {
      const { library, problems } = await ctx.loadLibrary();
      const list = library.list({ ...(o.app && { app: o.app }), ...(o.domain && { domain: o.domain }) });
      if (o.json)
        return ctx.out(
          JSON.stringify(
            list.map((s) => skillSummary(s)),
            null,
            2,
          ),
        );
      ctx.out(
        table(
          ['SKILL', 'KIND', 'APP', 'IMPLEMENTS', 'DESCRIPTION'],
          list.map((s) => [s.id, s.kind, s.app ?? '*', s.implements ?? '-', s.description.slice(0, 60)]),
        ),
      );
      const errors = problems.filter((p) => p.severity === 'error');
      if (errors.length)
        ctx.err(`${errors.length} problem(s) kept some files out of the library; run \`skilldesk skills validate\` for details.`);
    });

  skills
    .command('show')
    .description('Show one skill: arguments, manifest and execution graph')
    .argument('<id>', 'skill id, e.g. wine-notepad.save_as, or an interface method such as TextEditor.write_file')
    .option('--app <app>', 'resolve an interface method for this app')
    .option('--json', 'print JSON')
    .action(async (id: string, o: { app?: string; json?: boolean }) => {
      const { library } = await ctx.loadLibrary();
      const skill = library.resolve(id, o.app);
      const reliability = (await ctx.core()).reliability().bySkill.get(skill.id);
      if (o.json)
        return ctx.out(
          JSON.stringify(
            { ...skillSummary(skill, reliability), permissions: skill.permissions, graph: skill.graph, verify: skill.verify ?? null },
            null,
            2,
          ),
        );
      const lines = [
        `${skill.id}  (${skill.kind}${skill.app ? ` on ${skill.app}` : ''}${skill.implements ? `, implements ${skill.implements}` : ''}, v${skill.version}, ${skill.trust})`,
        skill.description,
        `Reliability: ${reliability ? `${Math.round(reliability.successRate * 100)}% of ${reliability.runs} benchmark run(s)` : 'not measured (npm run bench -- reliability)'}`,
        '',
        'Intents:',
        ...skill.intents.map((i) => `  - ${i}`),
        '',
        'Arguments:',
        ...(Object.keys(skill.args).length
          ? Object.entries(skill.args).map(
              ([k, a]) => `  ${k}: ${a.type}${a.optional ? ' (optional)' : ''}${a.description ? ` - ${a.description}` : ''}`,
            )
          : ['  (none)']),
        '',
        'Permissions:',
        ...(skill.permissions.length
          ? skill.permissions.map((p) => `  ${p.effect} ${p.capability}${p.constraints ? ` ${JSON.stringify(p.constraints)}` : ''}`)
          : ['  (none declared)']),
        '',
        `Graph (start: ${skill.graph.start}):`,
        ...skill.graph.nodes.map((n) => {
          const out = skill.graph.edges
            .filter((e) => e.from === n.id)
            .map((e) => `${e.to}${e.when ? ' [guarded]' : ''}${e.weight ? ` w=${e.weight}` : ''}`);
          const what = n.kind === 'terminal' ? `(${n.outcome})` : `${n.primitive.action} ${JSON.stringify(n.primitive).slice(0, 90)}`;
          return `  ${n.id}: ${what}${out.length ? `  -> ${out.join(', ')}` : ''}`;
        }),
      ];
      ctx.out(lines.join('\n'));
    });

  skills
    .command('validate')
    .description('Validate skill files; exits non-zero when any file has an error')
    .argument('[dir]', 'folder to validate instead of the installed library')
    .option('--json', 'print JSON')
    .action(async (dir: string | undefined, o: { json?: boolean }) => {
      const loaded = dir ? await loadCheckedLibrary({ builtinDir: dir }) : await ctx.loadLibrary();
      const errors = loaded.problems.filter((p) => p.severity === 'error');
      if (o.json) {
        ctx.out(
          JSON.stringify(
            { ok: errors.length === 0, files: loaded.files, skills: loaded.library.skills.size, problems: loaded.problems },
            null,
            2,
          ),
        );
      } else {
        for (const p of loaded.problems) ctx.err(formatProblem(p));
        ctx.out(
          `${loaded.files} files, ${loaded.library.skills.size} skills, ${errors.length} errors, ${loaded.problems.length - errors.length} warnings`,
        );
      }
      if (errors.length) ctx.setExitCode(1);
    });
}
