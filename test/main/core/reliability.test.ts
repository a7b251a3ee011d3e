import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadReliability } from '../../../src/main/core/reliability';

const dir = () => mkdtempSync(join(tmpdir(), 'skilldesk-reliability-'));
const figures = {
  benchmark: 'reliability',
  date: '2026-11-22T00:00:00Z',
  skills: { 'mousepad.save_as': { runs: 5, succeeded: 4, successRate: 0.8 } },
};

describe('src/main/core/reliability', () => {
  it('reads the first file that exists', () => {
    const d = dir();
    const second = join(d, 'b.json');
    writeFileSync(second, JSON.stringify(figures));
    const r = loadReliability([join(d, 'missing.json'), second]);
    expect(r.source).toBe(second);
    expect(r.bySkill.get('mousepad.save_as')).toEqual({ successRate: 0.8, runs: 5 });
    expect(r.problem).toBeUndefined();
  });

  it('has no figures and no problem when no file exists', () => {
    const r = loadReliability([join(dir(), 'none.json')]);
    expect(r.bySkill.size).toBe(0);
    expect(r.problem).toBeUndefined();
  });

  it('reports a file that is not the benchmark output as a warning naming the file and field', () => {
    const d = dir();
    const bad = join(d, 'r.json');
    writeFileSync(bad, JSON.stringify({ ...figures, skills: { x: { runs: 2, succeeded: 1, successRate: 3 } } }));
    const r = loadReliability([bad]);
    expect(r.bySkill.size).toBe(0);
    expect(r.problem).toMatchObject({ file: bad, severity: 'warning', path: ['skills', 'x', 'successRate'] });
    expect(r.problem?.message).toMatch(/npm run bench -- reliability/);
    writeFileSync(bad, '{ not json');
    expect(loadReliability([bad]).problem).toMatchObject({ file: bad, severity: 'warning' });
  });
});
