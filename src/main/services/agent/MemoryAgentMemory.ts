import type { AgentMemory, MemoryEntry } from './types';

/** Memory kept in the process (tests, dry runs, no store). */
export class MemoryAgentMemory implements AgentMemory {
  readonly entries: MemoryEntry[] = [];

  append(entry: MemoryEntry): void {
    this.entries.push(entry);
  }

  recent(sessionId: string, limit: number): MemoryEntry[] {
    return this.entries.filter((e) => e.sessionId === sessionId).slice(-limit);
  }
}
