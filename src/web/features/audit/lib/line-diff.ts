/** One line of a text's change: kept, removed (in the old text only) or added (in the new only). */
export interface DiffLine {
  kind: 'same' | 'removed' | 'added';
  text: string;
}

/** Beyond this many lines on a side the texts are shown whole, before then after. */
const MAX_LINES = 400;

/**
 * The lines two texts share and those each has alone, in order: a longest common subsequence of
 * lines (a few lines of code for a footer or a welcome message, no library). Null when either
 * text is too long to compare line by line.
 */
export function lineDiff(before: string, after: string): DiffLine[] | null {
  // An empty text has no lines (''.split would give it one, empty, shown as removed).
  const a = before === '' ? [] : before.split('\n');
  const b = after === '' ? [] : after.split('\n');
  if (a.length > MAX_LINES || b.length > MAX_LINES) return null;
  // common[i][j]: the longest common subsequence of a[i..] and b[j..].
  const common = Array.from({ length: a.length + 1 }, () =>
    new Array<number>(b.length + 1).fill(0),
  );
  for (let i = a.length - 1; i >= 0; i--) {
    const row = common[i] as number[];
    const next = common[i + 1] as number[];
    for (let j = b.length - 1; j >= 0; j--)
      row[j] =
        a[i] === b[j]
          ? (next[j + 1] as number) + 1
          : Math.max(next[j] as number, row[j + 1] as number);
  }
  const lines: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      lines.push({ kind: 'same', text: a[i] as string });
      i++;
      j++;
    } else if ((common[i + 1]?.[j] ?? 0) >= (common[i]?.[j + 1] ?? 0)) {
      lines.push({ kind: 'removed', text: a[i++] as string });
    } else {
      lines.push({ kind: 'added', text: b[j++] as string });
    }
  }
  while (i < a.length) lines.push({ kind: 'removed', text: a[i++] as string });
  while (j < b.length) lines.push({ kind: 'added', text: b[j++] as string });
  return lines;
}

/** What an array gained and lost, each value once (taboo rules, permissions, a contact's lists). */
export function arrayDiff(before: readonly unknown[], after: readonly unknown[]) {
  const key = (value: unknown) => JSON.stringify(value);
  const had = new Set(before.map(key));
  const has = new Set(after.map(key));
  return {
    added: after.filter((value) => !had.has(key(value))),
    removed: before.filter((value) => !has.has(key(value))),
  };
}
