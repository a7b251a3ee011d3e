import { useEffect, type ReactNode } from 'react';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import type { TaskFigures } from '../../../../shared/metrics';
import { useStores } from '../../app/stores';
import { BarChart } from './BarChart';
import { appBars, fraction, METRICS_WINDOWS, percent, skillBars, type MetricsWindow } from './metricsStore';

function Figure({ id, title, value, children }: { id: string; title: string; value: string; children: ReactNode }) {
  return (
    <div className="figure" data-figure={id}>
      <div className="figure-title">{title}</div>
      <div className="figure-value">{value}</div>
      <div className="figure-note">{children}</div>
    </div>
  );
}

function steps(f: TaskFigures): string {
  const { mean, median } = f.stepsOnSuccess;
  return mean === null || median === null ? '–' : `${Number(mean.toFixed(1))} / ${median}`;
}

/**
 * The skill metrics of the recorded runs (docs/metrics.md): the five figures, per kind of task,
 * and bar charts of success per app and of the most used skills.
 */
export function MetricsScreen() {
  const { metrics } = useStores();
  const s = useStore(
    metrics,
    useShallow((x) => ({ view: x.view, window: x.window, loading: x.loading, error: x.error })),
  );
  useEffect(() => {
    void metrics.getState().load();
  }, [metrics]);
  const v = s.view;
  return (
    <div className="stack metrics">
      {s.error && <div className="error-box">{s.error.message}</div>}
      <section className="panel">
        <div className="row between">
          <h2>Skill metrics</h2>
          <div className="row">
            <select
              aria-label="metrics window"
              value={s.window}
              onChange={(e) => void metrics.getState().setWindow(e.target.value as MetricsWindow)}
            >
              {METRICS_WINDOWS.map((w) => (
                <option key={w.id} value={w.id}>
                  {w.label}
                </option>
              ))}
            </select>
            <button onClick={() => void metrics.getState().load()} disabled={s.loading}>
              {s.loading ? 'Measuring…' : 'Refresh'}
            </button>
          </div>
        </div>
        <p className="muted">
          A task is an agent goal, with the skills it ran, or a skill run you started. Dry runs and tasks still running are left out
          {v ? ` (${v.excluded.dryRun} dry, ${v.excluded.running} running)` : ''}. Fallbacks are the Desktop skills that act on any window.
        </p>
        {v && (
          <div className="figures" data-tasks={v.tasks.all.tasks}>
            <Figure id="success" title="Success rate" value={percent(v.tasks.all.success)}>
              goals {percent(v.tasks.goals.success)} ({fraction(v.tasks.goals.success)}) · direct runs {percent(v.tasks.direct.success)} (
              {fraction(v.tasks.direct.success)})
            </Figure>
            <Figure id="steps" title="Steps per successful task" value={steps(v.tasks.all)}>
              mean / median primitive steps over {v.tasks.all.stepsOnSuccess.tasks} successful tasks, calls not counted
            </Figure>
            <Figure id="reusability" title="Skill reusability" value={percent(v.reusability)}>
              {fraction(v.reusability)} library skills ran in a task
            </Figure>
            <Figure id="coverage" title="Task coverage" value={percent(v.tasks.all.coverage)}>
              {fraction(v.tasks.all.coverage)} tasks ran a library skill, not only fallbacks
            </Figure>
            <Figure
              id="compositionality"
              title="Compositionality"
              value={`${percent(v.compositionality.skills)} · ${percent(v.compositionality.tasks)}`}
            >
              {fraction(v.compositionality.skills)} calls in {v.compositionality.skills.skills} composites and user skills call another
              library skill · {fraction(v.compositionality.tasks)} tasks ran 2+ library skills
            </Figure>
          </div>
        )}
      </section>
      {v && v.tasks.all.tasks === 0 && (
        <div className="empty">No finished task in this window yet: run a skill or give the agent a goal, then come back.</div>
      )}
      {v && v.tasks.all.tasks > 0 && (
        <div className="metrics-charts">
          <section className="panel">
            <h3>Success per app</h3>
            <BarChart label="success rate per app" bars={appBars(v)} />
          </section>
          <section className="panel">
            <h3>Most used skills</h3>
            <BarChart label="tasks per skill" bars={skillBars(v)} />
          </section>
          <section className="panel">
            <h3>By kind of task</h3>
            <table className="metrics-kinds">
              <thead>
                <tr>
                  <th />
                  <th>tasks</th>
                  <th>success</th>
                  <th>steps (mean / median)</th>
                  <th>coverage</th>
                  <th>2+ skills</th>
                </tr>
              </thead>
              <tbody>
                {(
                  [
                    ['agent goals', v.tasks.goals],
                    ['direct runs', v.tasks.direct],
                    ['all tasks', v.tasks.all],
                  ] as const
                ).map(([name, f]) => (
                  <tr key={name} data-kind={name}>
                    <td>{name}</td>
                    <td>{f.tasks}</td>
                    <td>{percent(f.success)}</td>
                    <td>{steps(f)}</td>
                    <td>{percent(f.coverage)}</td>
                    <td>{percent(f.multiSkill)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        </div>
      )}
    </div>
  );
}
