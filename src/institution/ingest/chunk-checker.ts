import { Worker } from 'node:worker_threads';

import type { CheckReply, CheckRequest } from './chunk-check-thread.js';
import { type StagedChunk, unpackChunk } from './installment-staging.js';

type Pending = { resolve: (chunk: StagedChunk) => void; reject: (error: Error) => void };

/**
 * Checking a chunk of installments (decompressing, parsing, the contract's schema, the item rules,
 * COPY text) is most of the worker's processor time. It runs on a thread of its own, so that the
 * worker's main thread keeps the database busy meanwhile: on two processors, the database applies
 * one chunk while the thread checks the next.
 */
class CheckThread {
  private worker?: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;

  check(request: Omit<CheckRequest, 'id'>): Promise<StagedChunk> {
    const worker = this.start();
    const id = this.nextId++;
    return new Promise<StagedChunk>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.ref();
      worker.postMessage({ ...request, id } satisfies CheckRequest);
    });
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = startThread('./chunk-check-thread');
    worker.on('message', (reply: CheckReply) => {
      const pending = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      // An idle thread never keeps the process alive.
      if (this.pending.size === 0) worker.unref();
      if ('error' in reply) pending?.reject(new Error(`checking thread: ${reply.error}`));
      else pending?.resolve(unpackChunk(reply.chunk));
    });
    const fail = (error: Error) => {
      this.worker = undefined;
      for (const pending of this.pending.values()) pending.reject(error);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`checking thread exited with code ${code}`)));
    worker.unref();
    this.worker = worker;
    return worker;
  }
}

/**
 * Compiled (`dist/`), the thread runs the `.js` next to this module. Under tsx (tests,
 * `start:dev`) a thread does not inherit the loader, so the `.ts` module goes through the shim.
 */
function startThread(module: string): Worker {
  if (import.meta.url.endsWith('.js')) return new Worker(new URL(`${module}.js`, import.meta.url));
  return new Worker(new URL('../../dev/thread-entry.mjs', import.meta.url), {
    workerData: { module: new URL(`${module}.ts`, import.meta.url).href },
  });
}

/** The process's checking thread, started on first use. */
export const checkThread = new CheckThread();
