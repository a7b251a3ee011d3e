import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';

// Three builds. Main has three entries: the Electron root, and two plain-Node roots (the CLI
// and host mode) that share the core but never load electron. Dependencies stay external
// (native modules such as better-sqlite3 and nut.js cannot be bundled).
export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rollupOptions: {
        input: {
          index: resolve(__dirname, 'src/main/index.ts'),
          cli: resolve(__dirname, 'src/main/cli/index.ts'),
          host: resolve(__dirname, 'src/main/host.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      rollupOptions: {
        input: { index: resolve(__dirname, 'src/preload/index.ts') },
        // A sandboxed preload cannot `require` packages: bundle everything it uses.
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
      externalizeDeps: false,
    },
  },
  renderer: {
    root: resolve(__dirname, 'src/renderer'),
    base: './',
    plugins: [react()],
    build: {
      outDir: 'out/renderer',
      // Host mode serves this over HTTP: ship it minified.
      minify: true,
      // One bundle (React, React Flow, zod) is fine for a local app.
      chunkSizeWarningLimit: 1000,
      rollupOptions: { input: { index: resolve(__dirname, 'src/renderer/index.html') } },
    },
  },
});
