/** Per-operation latencies and answers of a load run (load-client.ts records, the report prints). */
export interface OperationStats {
  name: string;
  requests: number;
  /** 2xx answers. */
  ok: number;
  /** 4xx other than 429: the mix sends only valid requests, so these are counted, and reported. */
  clientErrors: number;
  rateLimited: number;
  serverErrors: number;
  /** No answer at all (connection refused or reset). */
  network: number;
  /** Milliseconds, from the request to the last byte of the answer. */
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

interface Samples {
  latencies: number[];
  ok: number;
  clientErrors: number;
  rateLimited: number;
  serverErrors: number;
  network: number;
}

export class LoadStats {
  readonly #operations = new Map<string, Samples>();

  /** `status` 0: no answer. */
  record(operation: string, status: number, milliseconds: number): void {
    let samples = this.#operations.get(operation);
    if (!samples) {
      samples = {
        latencies: [],
        ok: 0,
        clientErrors: 0,
        rateLimited: 0,
        serverErrors: 0,
        network: 0,
      };
      this.#operations.set(operation, samples);
    }
    if (status === 0) {
      samples.network += 1;
      return;
    }
    samples.latencies.push(milliseconds);
    if (status >= 500) samples.serverErrors += 1;
    else if (status === 429) samples.rateLimited += 1;
    else if (status >= 400) samples.clientErrors += 1;
    else samples.ok += 1;
  }

  summary(): OperationStats[] {
    return [...this.#operations]
      .map(([name, samples]) => {
        const sorted = samples.latencies.toSorted((a, b) => a - b);
        return {
          name,
          requests: sorted.length + samples.network,
          ok: samples.ok,
          clientErrors: samples.clientErrors,
          rateLimited: samples.rateLimited,
          serverErrors: samples.serverErrors,
          network: samples.network,
          p50: percentile(sorted, 50),
          p90: percentile(sorted, 90),
          p99: percentile(sorted, 99),
          max: sorted.at(-1) ?? 0,
        };
      })
      .sort((a, b) => a.name.localeCompare(b.name));
  }
}

/** Nearest-rank percentile of ascending samples (0 when there are none). */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] ?? 0;
}
