/**
 * What to do with a promise nobody awaits now. Each says why on its own line, so that a floating
 * promise (`@typescript-eslint/no-floating-promises`) is always one of these two, never a
 * forgotten `await`: Node ends the process on a rejection nobody handles.
 */

/** `promise`, awaited later by its caller, who meets its failure then; until then it is not unhandled. */
export function handledLater<T>(promise: Promise<T>): Promise<T> {
  promise.then(undefined, () => {});
  return promise;
}

/** Lets `promise` finish on its own, its failure of no consequence (closing what is dropped anyway). */
export function ignoreOutcome(promise: Promise<unknown>): void {
  promise.then(undefined, () => {});
}
