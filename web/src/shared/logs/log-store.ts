import { create } from 'zustand';

/** spec §3 log entry: message, type, time, meta. */
export interface LogEntry {
  id: number;
  message: string;
  type: 'error' | 'warning' | 'info' | string;
  time: string;
  meta?: Record<string, unknown>;
}

const MAX_ENTRIES = 500;
let nextId = 1;

interface LogState {
  entries: LogEntry[];
  add(entry: Omit<LogEntry, 'id' | 'time'>): void;
  clear(): void;
}

export const useLogs = create<LogState>((set) => ({
  entries: [],
  add(entry) {
    set((s) => ({ entries: [{ ...entry, id: nextId++, time: new Date().toISOString() }, ...s.entries].slice(0, MAX_ENTRIES) }));
  },
  clear: () => set({ entries: [] }),
}));

export const addLog = (entry: Omit<LogEntry, 'id' | 'time'>) => useLogs.getState().add(entry);
