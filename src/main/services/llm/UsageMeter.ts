import type { LlmRole } from './config';

/** One model call as accounted: tokens, wall time, attempts (1 + retries), outcome. */
export interface UsageRecord {
  role: LlmRole;
  model: string;
  stage: string;
  promptTokens: number;
  completionTokens: number;
  ms: number;
  attempts: number;
  outcome: 'ok' | string;
}

/** Totals for a run, stored with it (`runs.accounting` JSON). */
export interface UsageTotals {
  calls: number;
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  llmMs: number;
  retries: number;
  failures: number;
  byStage: Record<string, { calls: number; tokens: number; ms: number }>;
}

/** Collects token and time accounting for one agent run (or one CLI command). */
export class UsageMeter {
  readonly records: UsageRecord[] = [];

  record(r: UsageRecord): void {
    this.records.push(r);
  }

  totals(): UsageTotals {
    const t: UsageTotals = {
      calls: 0,
      promptTokens: 0,
      completionTokens: 0,
      totalTokens: 0,
      llmMs: 0,
      retries: 0,
      failures: 0,
      byStage: {},
    };
    for (const r of this.records) {
      t.calls += 1;
      t.promptTokens += r.promptTokens;
      t.completionTokens += r.completionTokens;
      t.llmMs += r.ms;
      t.retries += r.attempts - 1;
      if (r.outcome !== 'ok') t.failures += 1;
      const s = (t.byStage[r.stage] ??= { calls: 0, tokens: 0, ms: 0 });
      s.calls += 1;
      s.tokens += r.promptTokens + r.completionTokens;
      s.ms += r.ms;
    }
    t.totalTokens = t.promptTokens + t.completionTokens;
    return t;
  }
}
