/**
 * A value, or the promise of it. What is in memory (a cached key, the embedded rate counter) is
 * answered at once: on the hot path every `await` inside an async function is a promise and a trip
 * through the microtask queue, and a single-contact GET made a dozen of them (measured with
 * bench/server-throughput.ts).
 */
export type MaybePromise<T> = T | Promise<T>;
