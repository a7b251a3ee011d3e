import { describe, expect, expectTypeOf, it } from 'vitest';
import type { RunRepository } from '../../src/main/core/Core';
import type { RunEvent as ExecutorRunEvent, RunResult as ExecutorRunResult } from '../../src/main/services/executor';
import type { RunRow, RunRowStatus } from '../../src/main/services/store';
import type { CoreApi, RunDetail, RunEventView, RunResultView, RunStatusView, RunSummary, StepView } from '../../src/shared/ipc';
import {
  isRecordedRunStatus,
  RECORDED_RUN_STATUSES,
  type RecordedRunStatus,
  type RunEvent,
  type RunResult,
  type StepRecord,
} from '../../src/shared/run';

describe('src/shared/run', () => {
  it('is the one definition of a run: the executor, the store, the core and the IPC views use its types', () => {
    // Checked by `npm run typecheck`: a second, drifting definition anywhere fails these.
    expectTypeOf<ExecutorRunResult>().toEqualTypeOf<RunResult>();
    expectTypeOf<ExecutorRunEvent>().toEqualTypeOf<RunEvent>();
    expectTypeOf<RunResultView>().toEqualTypeOf<RunResult>();
    expectTypeOf<StepView>().toEqualTypeOf<StepRecord>();
    expectTypeOf<RunStatusView>().toEqualTypeOf<RecordedRunStatus>();
    expectTypeOf<RunRowStatus>().toEqualTypeOf<RecordedRunStatus>();
    expectTypeOf<RunRow['status']>().toEqualTypeOf<RunRowStatus>();
    // The executor's events stream to the UI as they are: no cast between them.
    expectTypeOf<RunEvent>().toMatchTypeOf<RunEventView>();
    expectTypeOf<ReturnType<RunRepository['get']>>().toEqualTypeOf<RunDetail | undefined>();
    expectTypeOf<ReturnType<RunRepository['list']>>().toEqualTypeOf<RunSummary[]>();
    expectTypeOf<Awaited<ReturnType<CoreApi['getRun']>>>().toEqualTypeOf<RunDetail | undefined>();
  });

  it('recognises the recorded statuses and nothing else when a filter is typed by a person', () => {
    expect(RECORDED_RUN_STATUSES.filter(isRecordedRunStatus)).toEqual(['running', 'succeeded', 'failed', 'aborted']);
    expect(isRecordedRunStatus('done')).toBe(false);
    expect(isRecordedRunStatus('Running')).toBe(false);
  });
});
