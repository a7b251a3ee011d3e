import { Option, type Command } from 'commander';
import { SkillDeskError } from '../../../shared/errors';
import { composeAgent } from '../../core/agent';
import { modelSettings, type PlannerOverrides } from '../../core/modelSettings';
import { OfflinePlanner, type AgentReport } from '../../services/agent';
import { hostPlatform } from '../../services/desktop';
import {
  LLM_ROLES,
  OpenAiLlmClient,
  PROVIDER_PRESETS,
  describeProvider,
  probeCapabilities,
  resolveProviderConfig,
  type LlmRole,
  type ProviderPreset,
} from '../../services/llm';
import { HybridRetriever } from '../../services/retrieval';
import { withSigintAbort } from '../abort';
import { agentExitCode, describeAgentEvent, type AgentCommandContext } from './agentContext';

interface ModelFlags {
  offline?: boolean;
  model?: string;
  baseUrl?: string;
  preset?: ProviderPreset;
  apiKeyEnv?: string;
  timeoutMs?: string;
}

/** The model flags as planner overrides (they sit above saved settings and SKILLDESK_* variables). */
export function plannerOverrides(flags: ModelFlags): PlannerOverrides {
  let timeoutMs: number | undefined;
  if (flags.timeoutMs !== undefined) {
    timeoutMs = Number(flags.timeoutMs);
    if (!Number.isInteger(timeoutMs) || timeoutMs <= 0)
      throw new SkillDeskError('cli.bad_option', `Expected \`--timeout-ms\` to be a positive integer, got \`${flags.timeoutMs}\``);
  }
  return {
    ...(flags.offline && { offline: true }),
    ...(flags.model && { model: flags.model }),
    ...(flags.baseUrl && { baseURL: flags.baseUrl }),
    ...(flags.preset && { preset: flags.preset }),
    ...(flags.apiKeyEnv && { apiKeyEnv: flags.apiKeyEnv }),
    ...(timeoutMs !== undefined && { timeoutMs }),
  };
}

function addModelOptions(cmd: Command): Command {
  return cmd
    .option('--offline', 'use the deterministic offline planner even if a model is configured')
    .option('--model <name>', 'planner model (with --base-url or --preset)')
    .option('--base-url <url>', 'OpenAI-compatible server, e.g. http://127.0.0.1:11434/v1')
    .addOption(new Option('--preset <preset>', 'server kind').choices(Object.keys(PROVIDER_PRESETS)))
    .option('--api-key-env <VAR>', 'environment variable holding the API key (keys are never accepted on the command line)')
    .option('--timeout-ms <ms>', 'per-request timeout of the model');
}

/** Human summary of a finished agent run. */
export function summarizeReport(r: AgentReport): string {
  const acc = r.accounting;
  const tokens = acc.llm.calls
    ? `, ${acc.llm.calls} model calls, ${acc.llm.totalTokens} tokens${acc.llm.retries ? `, ${acc.llm.retries} retries` : ''}`
    : '';
  return `${r.outcome}: ${r.message}\n(${r.planner} planner, ${r.steps.filter((s) => s.run).length} skill runs, ${acc.wallMs} ms${tokens}; agent run ${r.agentRunId})`;
}

/** `agent "<goal>"` and `llm probe`. */
export function registerAgentCommands(program: Command, ctx: AgentCommandContext): void {
  addModelOptions(
    program
      .command('agent')
      .description('Reach a goal stated in words: plan, retrieve skills, fill their arguments, run them, remember the outcomes')
      .argument('<goal...>', 'the goal, e.g. "open notepad then write hello and save it as /tmp/a.txt"')
      .option('--dry-run', 'run every skill as a dry run (nothing on the desktop is touched)')
      .option('--plan-only', 'offline planner: print the plan and stop')
      .addOption(new Option('--max-steps <n>', 'stop after this many steps').default('10'))
      .option('--json', 'print the agent report as JSON'),
  )
    .addHelpText(
      'after',
      `
With no model configured the offline planner matches the goal against the skills' intent templates.
Configure a model in the Settings screen, with SKILLDESK_PLANNER_MODEL/_BASE_URL/_PRESET/_API_KEY_ENV,
or with the flags; each overrides the one before it (flags win).

Examples:
  $ skilldesk agent "open notepad then write 'hello' and save it as /tmp/hello.txt"
  $ skilldesk agent "calculate 398 - 174 * sqrt(505)" --json
  $ skilldesk agent "summarise the open document into /tmp/s.txt" --preset ollama --model qwen2.5:7b`,
    )
    .action(async (words: string[], o: ModelFlags & { dryRun?: boolean; planOnly?: boolean; maxSteps: string; json?: boolean }) => {
      const goal = words.join(' ').trim();
      const maxSteps = Number(o.maxSteps);
      if (!Number.isInteger(maxSteps) || maxSteps < 1)
        throw new SkillDeskError('cli.bad_option', `Expected \`--max-steps\` to be a positive integer, got \`${o.maxSteps}\``);
      const { library } = await ctx.loadLibrary();
      if (o.planOnly) {
        const platform = hostPlatform();
        const planner = new OfflinePlanner(library, HybridRetriever.fromLibrary(library, { platform }), platform);
        const plan = await planner.plan(goal);
        ctx.out(
          o.json
            ? JSON.stringify(plan, null, 2)
            : plan.ok
              ? plan.steps
                  .map((s, i) => `${i + 1}. ${s.skill}${s.app ? ` on ${s.app}` : ''} ${JSON.stringify(s.args)}   <- "${s.clause}"`)
                  .join('\n')
              : plan.message,
        );
        return ctx.setExitCode(plan.ok ? 0 : 3);
      }
      const { agent, planner } = await composeAgent(await ctx.core(), { overrides: plannerOverrides(o) });
      if (!o.json) ctx.err(planner ? describeProvider(planner) : 'planner: offline (no model configured)');
      const report = await withSigintAbort(ctx, (signal) =>
        agent.run(goal, {
          maxSteps,
          dryRun: o.dryRun ?? false,
          signal,
          onEvent: (e) => {
            if (o.json) return;
            const line = describeAgentEvent(e);
            if (line) ctx.err(line);
          },
        }),
      );
      ctx.out(o.json ? JSON.stringify(report, null, 2) : summarizeReport(report));
      ctx.setExitCode(agentExitCode(report.outcome));
    });

  const llm = program.command('llm').description('Model providers: check what a configured server supports');
  addModelOptions(
    llm
      .command('probe')
      .description("Probe a role's server: model list, structured output mode, images, embeddings")
      .addOption(new Option('--role <role>', 'which role').choices([...LLM_ROLES]).default('planner'))
      .option('--json', 'print JSON'),
  ).action(async (o: ModelFlags & { role: LlmRole; json?: boolean }) => {
    // The flags describe the planner; for another role they are not taken.
    const overrides = o.role === 'planner' ? plannerOverrides(o) : {};
    const config = resolveProviderConfig(o.role, modelSettings((await ctx.core()).db, { overrides }));
    if (!config)
      throw new SkillDeskError(
        'cli.not_configured',
        `No model is configured for the ${o.role} role; set SKILLDESK_${o.role.toUpperCase()}_MODEL (and _BASE_URL or _PRESET) or use the settings`,
      );
    const caps = await probeCapabilities(new OpenAiLlmClient(config), {
      chat: o.role !== 'embedder',
      images: o.role === 'grounder',
      embeddings: o.role === 'embedder',
    });
    if (o.json) return ctx.out(JSON.stringify({ provider: describeProvider(config), ...caps }, null, 2));
    ctx.out(
      [
        describeProvider(config),
        `reachable: ${caps.reachable}; model listed: ${caps.modelListed}`,
        `structured output: ${caps.structured}; images: ${caps.images}; embeddings: ${caps.embeddings ? `${caps.embeddings.dimensions} dims` : 'no'}`,
        ...caps.notes.map((n) => `  note: ${n}`),
      ].join('\n'),
    );
    if (!caps.reachable) ctx.setExitCode(1);
  });
}
