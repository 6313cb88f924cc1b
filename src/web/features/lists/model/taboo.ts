import { isValidRegex } from '../../../../api/primitives.ts';

/** One taboo rule that matched a sample, with what it matched. */
export interface TabooMatch {
  index: number;
  rule: string;
  /** The header line (unfolded) or body line the rule matched in. */
  line: string;
  matched: string;
}

/** RFC 5322 §2.2.3: a header continues on lines that begin with white space. */
export function unfoldHeaders(block: string): string[] {
  const lines: string[] = [];
  for (const raw of block.replace(/\r\n?/g, '\n').split('\n')) {
    if (/^[ \t]/.test(raw) && lines.length > 0) lines[lines.length - 1] += ` ${raw.trim()}`;
    else if (raw.trim() !== '') lines.push(raw);
  }
  return lines;
}

/**
 * Which taboo rules (spec §2.4: a match holds the message for approval) match a pasted header block
 * or body. Headers are tested one unfolded header at a time; the body as a whole. Invalid rules are
 * skipped (the form refuses them on their field).
 */
export function findTabooMatches(
  rules: readonly string[],
  sample: string,
  kind: 'headers' | 'body',
): TabooMatch[] {
  const matches: TabooMatch[] = [];
  const units = kind === 'headers' ? unfoldHeaders(sample) : [sample];
  rules.forEach((rule, index) => {
    if (rule === '' || !isValidRegex(rule)) return;
    const pattern = new RegExp(rule, 'm');
    for (const unit of units) {
      const found = pattern.exec(unit);
      if (found) {
        const line =
          kind === 'headers'
            ? unit
            : (unit.split('\n').find((candidate) => pattern.test(candidate)) ?? found[0]);
        matches.push({ index, rule, line, matched: found[0] });
        return;
      }
    }
  });
  return matches;
}
