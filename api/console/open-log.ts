// Chooses the console event log: one process's memory by default (one API
// replica). Helper C replaces this with PostgreSQL when DATABASE_URL is set.
import type { ConsoleLog } from '../../contract/console.ts';
import { MemoryConsoleLog } from './log-memory.ts';

export function openConsoleLog(_env: NodeJS.ProcessEnv): Promise<ConsoleLog> {
  return Promise.resolve(new MemoryConsoleLog());
}
