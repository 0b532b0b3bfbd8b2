/*
 * The print worker pool: PDFs are made in worker threads (print-worker.ts), so a batch of 500
 * records never blocks the API's event loop. Workers start on the first print, keep their parsed
 * fonts, take one job at a time from a FIFO queue, and are replaced when they fail, run out of
 * memory (a bounded heap) or overrun the time limit.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { PdfmeTemplate } from './print-compile.ts';

export interface PrintJob {
  template: PdfmeTemplate;
  inputs: Record<string, string>[];
  /** The fonts the template uses (fontsOf). */
  fonts: string[];
}

interface Pending {
  id: number;
  jobs: PrintJob[];
  resolve: (pdf: Uint8Array) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  ready: Promise<void>;
  busy: Pending | null;
  timer: NodeJS.Timeout | null;
}

const WORKER_URL = new URL('./print-worker.ts', import.meta.url);
/** A render that takes longer is abandoned (its worker replaced). */
const JOB_TIMEOUT_MS = 120_000;

export class PrintPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Pending[] = [];
  private nextId = 1;
  private closed = false;

  constructor(private readonly size = Math.max(1, Math.min(2, availableParallelism()))) {}

  render(jobs: PrintJob[]): Promise<Uint8Array> {
    if (this.closed) return Promise.reject(new Error('The print pool is closed'));
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, jobs, resolve, reject });
      this.dispatch();
    });
  }

  /** Starts the workers ahead of the first print (each reads the fonts once, a few seconds). */
  warm(): void {
    while (!this.closed && this.slots.length < this.size) this.spawn();
  }

  /** Jobs waiting or running (for tests and diagnostics). */
  get load() {
    return this.queue.length + this.slots.filter((s) => s.busy).length;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const p of this.queue.splice(0)) p.reject(new Error('The print pool is closed'));
    await Promise.all(this.slots.splice(0).map((s) => this.retire(s, new Error('The print pool is closed'))));
  }

  private spawn(): Slot {
    const worker = new Worker(WORKER_URL, { execArgv: [], resourceLimits: { maxOldGenerationSizeMb: 1024 } });
    worker.unref();
    let markReady!: () => void;
    const slot: Slot = { worker, ready: new Promise((r) => (markReady = r)), busy: null, timer: null };
    worker.on('message', (message: { ready?: boolean; id?: number; pdf?: Uint8Array; error?: string }) => {
      if (message.ready) return markReady();
      const pending = slot.busy;
      if (!pending || pending.id !== message.id) return;
      this.finish(slot);
      if (message.pdf) pending.resolve(message.pdf);
      else pending.reject(new Error(message.error ?? 'The PDF could not be made'));
      this.dispatch();
    });
    const fail = (error: Error) => {
      const pending = slot.busy;
      this.finish(slot);
      const at = this.slots.indexOf(slot);
      if (at >= 0) this.slots.splice(at, 1);
      pending?.reject(error);
      this.dispatch();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`The print worker stopped (${code})`)));
    this.slots.push(slot);
    return slot;
  }

  private finish(slot: Slot) {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.busy = null;
  }

  private async retire(slot: Slot, error: Error) {
    const pending = slot.busy;
    this.finish(slot);
    pending?.reject(error);
    await slot.worker.terminate();
  }

  private dispatch() {
    while (this.queue.length > 0) {
      let slot = this.slots.find((s) => !s.busy);
      if (!slot && this.slots.length < this.size) slot = this.spawn();
      if (!slot) return;
      const pending = this.queue.shift()!;
      const chosen = slot;
      chosen.busy = pending;
      chosen.timer = setTimeout(() => {
        const at = this.slots.indexOf(chosen);
        if (at >= 0) this.slots.splice(at, 1);
        void this.retire(chosen, new Error('The PDF took too long to make'));
        this.dispatch();
      }, JOB_TIMEOUT_MS);
      void chosen.ready.then(() => {
        if (chosen.busy === pending) chosen.worker.postMessage({ id: pending.id, jobs: pending.jobs });
      });
    }
  }
}

let shared: PrintPool | null = null;

/** The process's pool (created on first use; its workers do not keep the process alive). */
export function printPool(): PrintPool {
  if (!shared) shared = new PrintPool();
  return shared;
}
