import { defineConfig } from 'vitest/config';

// Projects: `unit` runs in plain Node with fakes; `live` drives real applications on the
// virtual display (scripts/test-desktop.sh) and `windows` drives Win32 programs there through
// the Windows desktop host, each one file at a time, because they share one keyboard, one
// mouse and one focused window; `e2e` drives the UI in Chromium.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          // Renderer components are tested as .test.tsx: rendered to markup in plain Node.
          include: ['test/**/*.test.{ts,tsx}'],
          exclude: ['test/live/**', 'test/windows/**', 'test/e2e/**', 'node_modules/**'],
          environment: 'node',
          // Many files load the whole shipped library (hundreds of skills, each manifest derived):
          // seconds on a busy machine, more in a beforeAll that loads it for the file.
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'live',
          include: ['test/live/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
      {
        // The Windows lane: the core on Linux drives SkillDesk's desktop host running as a
        // Windows program under Wine (scripts/windows-lane.cjs); one desktop, so one file at a time.
        test: {
          name: 'windows',
          include: ['test/windows/**/*.test.ts'],
          globalSetup: ['test/windows/globalSetup.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
