import { Option, type Command } from 'commander';
import { SkillDeskError } from '../../../shared/errors';
import { embeddingRetrieval } from '../../core/agent';
import { modelSettings } from '../../core/modelSettings';
import { HybridRetriever } from '../../services/retrieval';
import { PlatformSchema } from '../../../shared/skill';
import { hostPlatform } from '../../services/desktop';
import type { AgentCommandContext } from './agentContext';

/** `retrieve "<query>" [--top N] [--json]`: the skills the agent would consider, lexical or hybrid. */
export function registerRetrieveCommand(program: Command, ctx: AgentCommandContext): void {
  program
    .command('retrieve')
    .description(
      'Find the skills that match a request (BM25 over intents, names and descriptions; plus embeddings when an embedder is configured)',
    )
    .argument('<query...>', 'what you want done, in words; several quoted queries are merged')
    .addOption(new Option('--top <n>', 'how many skills to show').default('5'))
    .option('--platform <platform>', 'only apps of this platform (linux, win32, darwin); default: this machine')
    .option('--lexical', 'ignore a configured embedder')
    .option('--json', 'print JSON')
    .addHelpText(
      'after',
      `
Examples:
  $ skilldesk retrieve "save the document under a new name"
  $ skilldesk retrieve "compute 2+2" "copy the result" --top 3 --json
  $ SKILLDESK_EMBEDDER_MODEL=nomic-embed-text SKILLDESK_EMBEDDER_PRESET=ollama skilldesk retrieve "open a file"

The embedder is the one in force for the agent: the Settings screen's, overridden by SKILLDESK_EMBEDDER_* variables.`,
    )
    .action(async (queries: string[], o: { top: string; platform?: string; lexical?: boolean; json?: boolean }) => {
      const top = Number(o.top);
      if (!Number.isInteger(top) || top < 1)
        throw new SkillDeskError('cli.bad_option', `Expected \`--top\` to be a positive integer, got \`${o.top}\``);
      const parsed = PlatformSchema.safeParse(o.platform ?? hostPlatform());
      if (!parsed.success)
        throw new SkillDeskError('cli.bad_option', `Expected \`--platform\` to be linux, win32 or darwin, got \`${o.platform}\``);
      const platform = parsed.data;
      const { library } = await ctx.loadLibrary();
      const core = await ctx.core();
      const retriever = HybridRetriever.fromLibrary(library, {
        platform,
        ...(!o.lexical && embeddingRetrieval(modelSettings(core.db), core.db)),
      });
      const t0 = performance.now();
      const hits = await retriever.retrieve(queries, { top });
      const ms = performance.now() - t0;
      if (o.json) {
        return ctx.out(
          JSON.stringify(
            {
              mode: retriever.mode,
              ms: Number(ms.toFixed(2)),
              queries,
              hits: hits.map((h, i) => ({
                rank: i + 1,
                skill: h.card.ref,
                kind: h.card.kind,
                score: Number(h.score.toFixed(4)),
                lexical: Number(h.lexical.toFixed(4)),
                ...(h.semantic !== undefined && { semantic: Number(h.semantic.toFixed(4)) }),
                apps: h.card.apps,
                description: h.card.description,
                intents: h.card.intents,
                args: h.card.args,
              })),
            },
            null,
            2,
          ),
        );
      }
      if (!hits.length) {
        ctx.out(`No skill matches ${queries.map((q) => `"${q}"`).join(', ')}. Try other words, or \`skilldesk skills list\`.`);
        return ctx.setExitCode(1);
      }
      const lines = hits.map(
        (h, i) =>
          `${String(i + 1).padStart(2)}. ${h.card.ref.padEnd(28)} ${h.score.toFixed(3)}  ${h.card.description}\n      apps: ${h.card.apps.join(', ')}${h.intent ? `   matched: "${h.intent}"` : ''}`,
      );
      ctx.out(`${lines.join('\n')}\n(${retriever.mode}, ${ms.toFixed(1)} ms)`);
    });
}
