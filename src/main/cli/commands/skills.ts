import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { SkillDeskError } from '../../../shared/errors';
import { type Skill, type SkillLibrary, type Verification } from '../../../shared/skill';
import { libraryCounts, methodImplementations, skillDetail, skillSummary } from '../../core/libraryViews';
import { loadCheckedLibrary, SkillSaveError } from '../../core/skills';
import { formatProblem } from '../../services/library/YamlLibraryLoader';
import { table } from '../output';
import type { CliContext } from '../context';
import { registerSkillGraphCommand } from './skillGraph';
import { registerSkillReviewCommand } from './skillReview';

/** `skills list|show|validate|add|review|graph`. */
export function registerSkillsCommands(program: Command, ctx: CliContext): void {
  const skills = program.command('skills').description('Browse and check the skill library');
  registerSkillReviewCommand(skills, ctx);
  registerSkillGraphCommand(skills, ctx);

  skills
    .command('list')
    .description(
      'List the library by interface, method and app, with how each implementation is verified (live on the test desktop, live in the Windows lane, or dry run only)',
    )
    .option('--app <app>', 'only skills that run on this app')
    .option('--domain <interface>', 'only skills of this domain interface, e.g. TextEditor')
    .option('--flat', 'one row per skill instead of grouping by interface and method')
    .option('--json', 'print JSON: the counts (per app too) and every skill with its verification')
    .addHelpText(
      'after',
      `
Verification comes from the live tests shipped with the skills (skills/live-tests/*.yaml), which
\`npm test\` runs on the test desktop and in the Windows lane; a user's own test files do not count.

Examples:
  $ skilldesk skills list --domain Spreadsheet
  $ skilldesk skills list --app mousepad --flat
  $ skilldesk skills list --json | jq .counts`,
    )
    .action(async (o: { app?: string; domain?: string; flat?: boolean; json?: boolean }) => {
      const { library, problems } = await ctx.loadLibrary();
      const list = library.list({ ...(o.app && { app: o.app }), ...(o.domain && { domain: o.domain }) });
      if (o.json) {
        // The Library screen's summaries, so scripts and the UI see the same fields.
        const reliability = (await ctx.core()).reliability();
        return ctx.out(
          JSON.stringify(
            { counts: libraryCounts(library), skills: list.map((s) => skillSummary(library, s, reliability.bySkill.get(s.id))) },
            null,
            2,
          ),
        );
      }
      if (o.flat) {
        ctx.out(
          table(
            ['SKILL', 'KIND', 'APP', 'IMPLEMENTS', 'VERIFIED', 'DESCRIPTION'],
            list.map((s) => [
              s.id,
              s.kind,
              s.app ?? '*',
              s.implements ?? '-',
              VERIFIED[skillSummary(library, s).verification],
              s.description.slice(0, 60),
            ]),
          ),
        );
      } else {
        ctx.out(groupedListing(library, list, o.app));
      }
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
      if (o.json) return ctx.out(JSON.stringify(skillDetail(library, skill, reliability), null, 2));
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

  skills
    .command('add')
    .description('Install a skill file in the user skill folder, after the checks the library runs when it loads')
    .argument('<file>', 'a skill document in YAML (`kind: skill`), e.g. one written by hand or exported from another machine')
    .option('--json', 'print JSON')
    .addHelpText(
      'after',
      `
The skill is checked exactly as at startup: schema, links to its app and interface, and a
manifest that covers everything its graph does. If it would not load, nothing is written and
every problem is printed as file:line: error: field: message (exit 1).

It is installed as <data-dir>/skills/<id>.yaml, replacing an earlier user skill with the same id;
a user skill overrides the built-in skill of the same id. Its trust is at most \`community\`
(sensitive steps ask first), whatever the file says.

Examples:
  $ skilldesk skills add ./mousepad.greet.yaml
  $ skilldesk --data-dir /tmp/sd skills add skills/implementations/mousepad/save_as.yaml --json`,
    )
    .action(async (file: string, o: { json?: boolean }) => {
      const text = await readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
        throw new SkillDeskError('cli.no_file', `Cannot read \`${file}\`: ${err.code === 'ENOENT' ? 'no such file' : err.message}`);
      });
      const core = await ctx.core();
      const before = (await core.loadLibrary()).library;
      let saved;
      try {
        saved = await core.saveUserSkill({ text, file }, { savedBy: 'skilldesk skills add' });
      } catch (err) {
        if (!(err instanceof SkillSaveError)) throw err;
        if (o.json) ctx.out(JSON.stringify({ ok: false, file, problems: err.problems }, null, 2));
        else
          for (const p of err.problems)
            ctx.err(formatProblem({ file, path: p.path, message: p.message, severity: 'error', ...(p.line && { line: p.line }) }));
        ctx.err(`error: ${file} was not installed; fix the problems above and run \`skilldesk skills add\` again`);
        return ctx.setExitCode(1);
      }
      const after = (await core.loadLibrary()).library;
      const skill = after.skills.get(saved.id)!;
      const previous = before.skills.get(saved.id);
      if (o.json) return ctx.out(JSON.stringify({ ok: true, path: saved.path, skill: skillSummary(after, skill) }, null, 2));
      ctx.out(
        `installed ${skill.id} (trust: ${skill.trust}) as ${saved.path}${previous ? `, replacing the ${previous.source.origin === 'builtin' ? 'built-in skill' : 'earlier user skill'}` : ''}`,
      );
    });
}

const VERIFIED: Record<Verification, string> = {
  live_desktop: 'live (test desktop)',
  live_windows: 'live (Windows lane)',
  dry_run: 'dry run only',
};

/**
 * The listing grouped as the library is organised: per interface, each method and the apps that
 * implement it (a composite: every app of the interface), with how each is verified; app-only
 * skills after; the totals last.
 */
function groupedListing(library: SkillLibrary, list: Skill[], app: string | undefined): string {
  const rows: string[][] = [];
  const listed = new Set(list.map((s) => s.id));
  for (const iface of [...library.interfaces.values()].sort((a, b) => a.id.localeCompare(b.id))) {
    for (const [name, m] of Object.entries(iface.methods)) {
      const impls = methodImplementations(library, iface.id, name).filter((x) => listed.has(x.skillId) && (!app || x.app === app));
      impls.forEach((x, i) =>
        rows.push([
          i === 0 ? `${iface.id}.${name}${m.composite ? ' (composite)' : ''}` : '',
          x.app,
          x.skillId,
          `${VERIFIED[x.verification]}${x.tests.length ? `: ${x.tests.length} test${x.tests.length === 1 ? '' : 's'}` : ''}`,
        ]),
      );
    }
  }
  for (const s of list.filter((s) => s.kind === 'app_skill'))
    rows.push(['(app skill)', s.app ?? '*', s.id, VERIFIED[library.verification(s.id, s.app).status]]);
  const c = libraryCounts(library);
  const methodsShown = new Set(rows.map((r) => r[0]).filter(Boolean)).size;
  return [
    table(['INTERFACE.METHOD', 'APP', 'SKILL', 'VERIFIED'], rows),
    '',
    `${methodsShown} method(s) listed. Library: ${c.interfaces} interfaces, ${c.methods} methods (${c.composites} composites), ${c.implementations} implementations on ${c.apps} apps.`,
    `Verified live: ${c.liveDesktop.implementations} implementations on ${c.liveDesktop.apps} apps on the test desktop (${c.liveDesktop.tests} tests), ${c.liveWindows.implementations} on ${c.liveWindows.apps} apps in the Windows lane; ${c.dryRunOnly} dry run only.`,
  ].join('\n');
}
