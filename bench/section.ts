/** What every benchmark section (bundle size, later server throughput…) reports to bench/run.ts. */
export interface SectionResult {
  name: string;
  /** False when the section's budget or threshold was missed. */
  ok: boolean;
  /** Human-readable report, printed as is. */
  text: string;
}
