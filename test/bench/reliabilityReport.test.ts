import { describe, expect, it } from 'vitest';
import { markdownTable, reliabilityReport, successChart, type TaskResult } from '../../bench/reliabilityReport';

const task = (id: string, app: string, ok: boolean, ms: number, skills: string[], failing?: string): TaskResult => ({
  id,
  app,
  apps: [app],
  instruction: `task ${id}`,
  steps: 2,
  skills,
  ok,
  ms,
  ...(!ok && { failure: { step: 1, skill: failing ?? skills[0]!, node: 'n', message: 'boom' } }),
});

describe('bench/reliabilityReport', () => {
  it('computes per-app and per-skill figures from task results', () => {
    const results = [
      task('a', 'mousepad', true, 4000, ['mousepad.save_as', 'mousepad.type_text']),
      task('b', 'mousepad', false, 6000, ['mousepad.save_as', 'mousepad.type_text'], 'mousepad.save_as'),
      task('c', 'mousepad', true, 9000, ['mousepad.type_text']),
      task('d', 'xterm', true, 1000, ['xterm.run_command']),
    ];
    const r = reliabilityReport(results, { mousepad: { skills: 3, primitives: [2, 4, 6] }, xterm: { skills: 1, primitives: [5] } });
    expect(r.overall).toEqual({ tasks: 4, succeeded: 3, successRate: 0.75, apps: 2 });
    expect(r.apps.mousepad).toEqual({
      skills: 3,
      primitivesPerSkill: { mean: 4, std: 1.63, min: 2, max: 6 },
      tasks: 3,
      succeeded: 2,
      successRate: 0.667,
      medianSeconds: 6,
    });
    expect(r.skills['mousepad.save_as']).toEqual({ runs: 2, succeeded: 1, successRate: 0.5 });
    expect(r.skills['mousepad.type_text']).toEqual({ runs: 3, succeeded: 3, successRate: 1 });
    expect(r.failures).toEqual([
      { id: 'b', app: 'mousepad', instruction: 'task b', skill: 'mousepad.save_as', node: 'n', message: 'boom' },
    ]);
    expect(markdownTable(r)).toContain('| mousepad | 3 | 4 ± 1.63 (2–6) | 3 | 66.7% | 6 |');
    const svg = successChart(r, 'Reliability <test>');
    expect(svg).toContain('Reliability &lt;test&gt;');
    expect(svg).toContain('66.7% (2/3)');
    expect(svg).not.toMatch(/<script|href=/);
  });
});
