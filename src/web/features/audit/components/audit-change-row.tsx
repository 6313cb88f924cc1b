import type { AuditChange } from '../../../../api/schemas/audit.ts';
import { arrayDiff, lineDiff } from '../lib/line-diff.ts';
import { valueWords } from '../lib/entry-words.ts';

/** A text this long, or of more than one line, shows as lines removed and added. */
const LONG_TEXT = 80;

const isLongText = (value: unknown) =>
  typeof value === 'string' && (value.includes('\n') || value.length > LONG_TEXT);

/**
 * One field of an entry: its value before and after. A secret shows only that it was set; a long
 * or multi-line text (a footer, a welcome message) its lines removed and added; a list of values
 * (taboo rules, permissions, a contact's lists) what it gained and lost beside both values.
 */
export function AuditChangeRow({ change }: { change: AuditChange }) {
  const field = (
    <th scope="row">
      <code>{change.field}</code>
    </th>
  );
  const before: unknown = change.old;
  const after: unknown = change.new;
  if (change.secret)
    return (
      <tr>
        {field}
        <td>—</td>
        <td>{after ? 'Set (its value is never recorded)' : 'Cleared'}</td>
      </tr>
    );
  if ((isLongText(before) || isLongText(after)) && 'old' in change && 'new' in change) {
    const lines = lineDiff(
      typeof before === 'string' ? before : '',
      typeof after === 'string' ? after : '',
    );
    if (lines)
      return (
        <tr>
          {field}
          <td colSpan={2}>
            <pre className="audit-text-diff">
              {lines.map((line, index) =>
                line.kind === 'same' ? (
                  <span key={index}>{`  ${line.text}\n`}</span>
                ) : line.kind === 'removed' ? (
                  <del key={index}>
                    <span className="visually-hidden">Removed: </span>
                    {`− ${line.text}\n`}
                  </del>
                ) : (
                  <ins key={index}>
                    <span className="visually-hidden">Added: </span>
                    {`+ ${line.text}\n`}
                  </ins>
                ),
              )}
            </pre>
          </td>
        </tr>
      );
  }
  const changed = Array.isArray(before) && Array.isArray(after) ? arrayDiff(before, after) : null;
  return (
    <tr>
      {field}
      <td>{'old' in change ? <Value value={before} /> : <span className="hint">(new)</span>}</td>
      <td>
        {'new' in change ? <Value value={after} /> : <span className="hint">(deleted)</span>}
        {changed && (changed.added.length > 0 || changed.removed.length > 0) && (
          <p className="hint">
            {changed.added.length > 0 && <>Added: {valueWords(changed.added)}. </>}
            {changed.removed.length > 0 && <>Removed: {valueWords(changed.removed)}.</>}
          </p>
        )}
      </td>
    </tr>
  );
}

/** A value; the words for nothing (`(none)`, `(empty)`) are muted, as the column's notes are. */
function Value({ value }: { value: unknown }) {
  const nothing =
    value === null ||
    value === undefined ||
    value === '' ||
    (Array.isArray(value) && value.length === 0);
  return <span className={nothing ? 'audit-value hint' : 'audit-value'}>{valueWords(value)}</span>;
}
