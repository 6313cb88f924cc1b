import { useId, useState } from 'react';
import { useWatch } from 'react-hook-form';
import type { ListSettingsValues } from '../../model/list-form.ts';
import { findTabooMatches } from '../../model/taboo.ts';
import { LineListField } from './fields.tsx';
import { FormField } from '../../../../components/form/form-field.tsx';

function Tester({ kind }: { kind: 'headers' | 'body' }) {
  const rules = (useWatch<ListSettingsValues>({
    name: kind === 'headers' ? 'taboo_headers' : 'taboo_body',
  }) ?? []) as string[];
  const [sample, setSample] = useState('');
  const id = useId();
  const matches = sample === '' ? [] : findTabooMatches(rules, sample, kind);
  return (
    <FormField
      id={id}
      label={kind === 'headers' ? 'Test a header block' : 'Test a message body'}
      after={
        <>
          <div id={`${id}-result`} aria-live="polite" className="hint">
            {sample === '' ? (
              <p>
                Paste {kind === 'headers' ? 'headers' : 'a body'} to see which rule would hold it.
              </p>
            ) : matches.length === 0 ? (
              <p>No rule matches: this would not be held by a taboo rule.</p>
            ) : (
              <ul aria-label={`Matching ${kind} rules`}>
                {matches.map((match) => (
                  <li key={match.index}>
                    Rule {match.index + 1} <code>{match.rule}</code> matches <q>{match.line}</q>
                  </li>
                ))}
              </ul>
            )}
          </div>
        </>
      }
    >
      {(control) => (
        <textarea
          {...control}
          rows={4}
          spellCheck={false}
          className="code"
          value={sample}
          aria-describedby={`${id}-result`}
          onChange={(event) => setSample(event.target.value)}
        />
      )}
    </FormField>
  );
}

export function TabooSection() {
  return (
    <div className="stack">
      <p className="hint">
        A message whose headers or body match one of these regular expressions is held for approval.
      </p>
      <LineListField
        name="taboo_headers"
        kind="regex"
        label="Taboo header rules"
        help="One regular expression a line, matched against each header (for example ^X-Mailer: Bulk)."
      />
      <Tester kind="headers" />
      <LineListField
        name="taboo_body"
        kind="regex"
        label="Taboo body rules"
        help="One regular expression a line, matched against the message body."
      />
      <Tester kind="body" />
    </div>
  );
}
