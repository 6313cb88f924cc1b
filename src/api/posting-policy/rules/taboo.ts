import { compilePattern } from '../regex.ts';
import { headerLines } from '../message.ts';
import type { RuleHit } from '../types.ts';
import type { PostingRule } from './context.ts';

/** Matched text shown in a reason is cut to this many characters. */
const SHOWN = 60;

function shown(text: string): string {
  const line = text.replace(/\s+/g, ' ');
  return line.length > SHOWN ? `${line.slice(0, SHOWN - 1)}…` : line;
}

/**
 * Spec §2.4 taboo rules: "A match forces the message to be held for approval". Each rule is an
 * re2js pattern (linear time), case-sensitive as written (`(?i)` makes it insensitive). A rule that
 * cannot be compiled holds the message too: failing open would let through what it was meant to stop.
 */
function tabooRule(
  field: 'taboo_headers' | 'taboo_body',
  units: (message: Parameters<PostingRule>[0]['message']) => string[],
  where: string,
): PostingRule {
  return ({ settings, message }) => {
    const rules = settings[field];
    let texts: string[] | null = null;
    for (const [index, source] of rules.entries()) {
      const setting = `${field}[${index}]`;
      const pattern = compilePattern(source, { multiline: true });
      if (!pattern.ok) {
        return {
          rule: 'taboo-unusable',
          action: 'hold',
          setting,
          reason: `Taboo rule ${index + 1} of ${field} (${source}) cannot be run (${pattern.error}), so every message is held until it is fixed.`,
        } satisfies RuleHit;
      }
      texts ??= units(message);
      for (const text of texts) {
        const found = pattern.find(text);
        if (found === null) continue;
        return {
          rule: field === 'taboo_headers' ? 'taboo-header' : 'taboo-body',
          action: 'hold',
          setting,
          reason: `Taboo rule ${index + 1} of ${field} (${source}) matches “${shown(found)}” in ${where}, so the message is held for approval.`,
          match: { pattern: source, text: found },
        } satisfies RuleHit;
      }
    }
    return null;
  };
}

/** Header rules see one unfolded `Name: value` field at a time. */
export const tabooHeadersRule = tabooRule('taboo_headers', headerLines, 'the headers');

/** Body rules see the plain body whole; ^ and $ match at each line. */
export const tabooBodyRule = tabooRule('taboo_body', (message) => [message.body], 'the body');
