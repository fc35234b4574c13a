export interface TickBatchOptions {
  /** Calls gathered into one before it runs even if the wait is not over. (Default: 500) */
  maxSize?: number;
  /** How long the first call of a batch waits for others; 0 waits for the end of the current turn of the event loop only. (Default: 0) */
  delayMs?: number;
}

/**
 * Turns a set-based function into a per-item one: the calls made close together run as one call
 * of `run`, and each caller gets its own answer (`run` answers one output per input, in order).
 * A failure of `run` fails every call of its batch. Many jobs that each need one row then cost one
 * round trip together instead of one each, while each job still waits for its own result.
 */
export function tickBatch<I, O>(
  run: (inputs: I[]) => Promise<O[]>,
  options: TickBatchOptions = {},
): (input: I) => Promise<O> {
  const maxSize = options.maxSize ?? 500;
  const delayMs = options.delayMs ?? 0;
  let pending: { input: I; resolve: (output: O) => void; reject: (error: unknown) => void }[] = [];
  let timer: NodeJS.Timeout | NodeJS.Immediate | undefined;

  const flush = () => {
    if (timer !== undefined) {
      if (delayMs > 0) clearTimeout(timer as NodeJS.Timeout);
      else clearImmediate(timer as NodeJS.Immediate);
      timer = undefined;
    }
    const batch = pending;
    pending = [];
    if (batch.length === 0) return;
    run(batch.map((b) => b.input)).then(
      (outputs) => batch.forEach((b, i) => b.resolve(outputs[i]!)),
      (error: unknown) => batch.forEach((b) => b.reject(error)),
    );
  };

  return (input) =>
    new Promise<O>((resolve, reject) => {
      pending.push({ input, resolve, reject });
      if (pending.length >= maxSize) flush();
      else if (timer === undefined) timer = delayMs > 0 ? setTimeout(flush, delayMs) : setImmediate(flush);
    });
}
