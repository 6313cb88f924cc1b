// Every section of bench/report.md prints its figures as markdown tables.
/** A markdown table; columns of numbers are right-aligned. */
export function markdownTable(header: string[], rows: (string | number)[][]): string {
  const numeric = header.map(
    (_, i) => rows.length > 0 && rows.every((row) => /^[-+]?[\d.,]+$/.test(String(row[i] ?? ''))),
  );
  return [
    `| ${header.join(' | ')} |`,
    `| ${numeric.map((right) => (right ? '---:' : '---')).join(' | ')} |`,
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ].join('\n');
}
