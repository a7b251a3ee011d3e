import type * as Nut from '@nut-tree-fork/nut-js';

/** The nut.js module as adapters receive it (imported lazily by index.ts: it loads native code). */
export type NutModule = typeof Nut;
