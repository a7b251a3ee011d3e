import type { Command } from 'commander';
import { SkillDeskError } from '../../../shared/errors';
import type { CompositionGraph } from '../../../shared/skill';
import type { CliContext } from '../context';

/** `skills graph`: the composition graph on concrete skills, as text, JSON or Graphviz DOT. */
export function registerSkillGraphCommand(skills: Command, ctx: CliContext): void {
  skills
    .command('graph')
    .description(
      "Show the composition graph: which skill calls which (a composite's steps) and which skill may follow which (its postconditions meet the other's preconditions, within an app and across apps)",
    )
    .option('--app <app>', "only this app's skills and the edges that touch them")
    .option('--json', 'print JSON: nodes (skill, app, conditions), calls and mayFollow edges with their facts and bindings')
    .option('--dot', 'print Graphviz DOT (calls solid, may-follow dashed; across apps in blue)')
    .addHelpText(
      'after',
      `
A may-follow edge names the facts that link the two skills (file_exists, document_open, clipboard_holds...)
and the data that flows: "path <- \${path}" means the next skill's path is the one the first one wrote.
Facts are declared as \`pre\` and \`post\` on interface methods and refined by implementations.

Examples:
  $ skilldesk skills graph --app mousepad
  $ skilldesk skills graph --json | jq '.mayFollow | length'
  $ skilldesk skills graph --app mousepad --dot | dot -Tsvg > graph.svg`,
    )
    .action(async (o: { app?: string; json?: boolean; dot?: boolean }) => {
      if (o.json && o.dot) throw new SkillDeskError('cli.bad_option', 'Choose one of --json and --dot');
      const { library } = await ctx.loadLibrary();
      if (o.app && !library.apps.has(o.app))
        throw new SkillDeskError('cli.unknown_app', `No app \`${o.app}\`; known apps: ${[...library.apps.keys()].join(', ')}`);
      // Read from the store, where the graph is kept (and rebuilt when the library changes).
      const graph = await (await ctx.core()).compositionGraph(o.app);
      if (o.json) return ctx.out(JSON.stringify(graph, null, 2));
      ctx.out(o.dot ? toDot(graph) : toText(graph));
    });
}

const at = (n: { skill: string; app: string }) => `${n.skill}@${n.app}`;

function toText(g: CompositionGraph): string {
  const across = g.mayFollow.filter((e) => e.acrossApps).length;
  const lines = [
    `${g.nodes.length} skills, ${g.calls.length} calls, ${g.mayFollow.length} may-follow edges (${across} across apps)`,
    '',
    'CALLS',
    ...g.calls.map((c) => `  ${at(c.from)} -> ${c.to.skill}`),
    '',
    'MAY FOLLOW',
    ...g.mayFollow.map((e) => {
      const bind = Object.entries(e.bind).map(([k, v]) => `${k} <- ${String(v)}`);
      return `  ${at(e.from)} -> ${at(e.to)}  [${e.facts.join(', ')}]${bind.length ? `  ${bind.join(', ')}` : ''}`;
    }),
  ];
  return lines.join('\n');
}

function toDot(g: CompositionGraph): string {
  const q = (s: string) => JSON.stringify(s);
  return [
    'digraph composition {',
    '  rankdir=LR; node [shape=box, fontsize=10];',
    ...g.nodes.map((n) => `  ${q(at(n))};`),
    ...g.calls.map((c) => `  ${q(at(c.from))} -> ${q(at(c.to))};`),
    ...g.mayFollow.map(
      (e) => `  ${q(at(e.from))} -> ${q(at(e.to))} [style=dashed${e.acrossApps ? ', color=blue' : ''}, label=${q(e.facts.join(','))}];`,
    ),
    '}',
  ].join('\n');
}
