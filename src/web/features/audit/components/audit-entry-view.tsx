import { useEffect, useId, useRef } from 'react';
import type { AuditEntry } from '../../../../api/schemas/audit.ts';
import { RelativeTime } from '../../../components/relative-time.tsx';
import { serviceWords, summaryOf, valueWords } from '../lib/entry-words.ts';
import { AuditChangeRow } from './audit-change-row.tsx';

/**
 * One entry: who did what to which object, when, how and from where, then each field changed
 * with its value before and after, and what else the server noted (a deleted list's member
 * count, a moderator's reason). Its heading takes the focus when `focus` says so (the first of a
 * page loaded with "Load more").
 */
export function AuditEntryView({ entry, focus }: { entry: AuditEntry; focus: boolean }) {
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (focus) heading.current?.focus();
  }, [focus]);
  const details = Object.entries(entry.details);
  return (
    <li className="audit-entry">
      <article aria-labelledby={headingId}>
        <h2 id={headingId} ref={heading} tabIndex={-1} className="audit-summary">
          {summaryOf(entry)}
        </h2>
        <p className="audit-meta">
          <RelativeTime time={new Date(entry.time)} />
          <span>{serviceWords(entry.service)}</span>
          {entry.address && <span>from {entry.address}</span>}
          <code>{entry.operation}</code>
        </p>
        {entry.changes.length > 0 && (
          <table className="audit-changes">
            <caption className="visually-hidden">Fields changed</caption>
            <thead>
              <tr>
                <th scope="col">Field</th>
                <th scope="col">Before</th>
                <th scope="col">After</th>
              </tr>
            </thead>
            <tbody>
              {entry.changes.map((change, index) => (
                <AuditChangeRow key={`${change.field}-${index}`} change={change} />
              ))}
            </tbody>
          </table>
        )}
        {details.length > 0 && (
          <dl className="audit-details">
            {details.map(([name, value]) => (
              <div key={name}>
                <dt>{name.replaceAll('_', ' ')}</dt>
                <dd>{valueWords(value)}</dd>
              </div>
            ))}
          </dl>
        )}
      </article>
    </li>
  );
}
