import '../contacts.css';
import { useId, useState, type ReactNode } from 'react';
import { ErrorMessage } from '../../../components/error-message.tsx';
import { FormField } from '../../../components/form/form-field.tsx';
import { LazyJobProgress } from '../../../components/lazy-job-progress.tsx';
import { UnsavedChangesGuard } from '../../../components/unsaved-changes-guard.tsx';
import type { AccountId } from '../../../lib/api-client.ts';
import { downloadText } from '../../../lib/csv.ts';
import { useJobState } from '../../../lib/use-job.ts';
import { useImportContacts, type Step, type Table } from '../controllers/use-import-contacts.ts';
import {
  TARGET_LABELS,
  describeImport,
  mapRows,
  unknownCustomColumns,
  rejectedRowsCsv,
  type ColumnTarget,
  type MapOptions,
} from '../lib/import-contacts.ts';
import type { ExistingAddresses } from '../lib/import-row.ts';

/** CSV import: paste or a file, map the columns, preview with errors, then a visible job. */
export function ImportContacts({ accountId }: { accountId: AccountId }) {
  const importer = useImportContacts(accountId);
  const { step } = importer;
  const guard = (
    <UnsavedChangesGuard
      dirty={importer.dirty}
      description="The CSV you pasted or read is not imported yet. If you leave, it is lost."
    />
  );
  if (step.step === 'source')
    return (
      <>
        <SourceForm text={importer.pasted} setText={importer.setPasted} onRead={importer.read} />
        {guard}
      </>
    );
  if (step.step === 'map')
    return (
      <>
        {guard}
        {importer.loadError && <ErrorMessage error={importer.loadError} />}
        <MappingForm
          table={step.table}
          mapping={step.mapping}
          options={importer.options}
          existing={importer.existing}
          onExisting={importer.setExisting}
          onMapping={importer.remap}
          onBack={importer.back}
          onStart={importer.start}
        />
      </>
    );
  return <ImportJob step={step} onDone={importer.done} />;
}

function ImportJob({
  step,
  onDone,
}: {
  step: Extract<Step, { step: 'running' }>;
  onDone: () => void;
}) {
  const state = useJobState(step.job);
  if (!state) return null;
  const over = state.status === 'done' || state.status === 'cancelled';
  // Not imported: the rows invalid before sending and the rows the server refused, with its reason.
  const rejected = [
    ...step.rejected,
    ...state.failures.map((f) => ({ line: f.item.line, cells: f.item.cells, message: f.message })),
  ].sort((a, b) => a.line - b.line);
  const summary = describeImport({
    rows: step.table.rows.length,
    invalid: step.rejected.length,
    created: step.counts.created,
    merged: step.counts.merged,
    skipped: step.counts.skipped,
    refused: state.failures.length,
    pending: state.total - state.done,
  });
  return (
    <>
      <LazyJobProgress
        title="Import"
        job={step.job}
        state={state}
        summary={summary}
        failedCount={rejected.length}
        listFailures={false}
        onDownloadFailures={() =>
          downloadText('import-rejected.csv', rejectedRowsCsv(step.table.header, rejected))
        }
        onClose={onDone}
      />
      <NotStored counts={step.counts.notStored} />
      {over && rejected.length > 0 && <RowErrors rows={rejected} />}
    </>
  );
}

function SourceForm({
  text,
  setText,
  onRead,
}: {
  text: string;
  setText: (text: string) => void;
  onRead: (table: Table) => void;
}) {
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const read = async (source: string) => {
    // Papa Parse (6 kB gzip) loads when there is a CSV to read (issue 17 item 9).
    const parser = await import('../../../lib/csv-parse.ts').catch(() => null);
    if (!parser) {
      setError('The CSV reader could not load; the dashboard may have been updated. Reload it.');
      return;
    }
    const [header, ...rows] = parser.parseCsv(source);
    if (!header || rows.length === 0) {
      setError('The CSV needs a header row and at least one row of data.');
      return;
    }
    setError(null);
    onRead({ header, rows });
  };
  return (
    <form
      className="stack contact-form"
      aria-label="CSV to import"
      onSubmit={(event) => {
        event.preventDefault();
        void read(text);
      }}
    >
      <FormField id={`${id}-file`} label="A CSV file">
        {(control) => (
          <input
            {...control}
            type="file"
            accept=".csv,.txt,text/csv"
            onChange={(event) => {
              const file = event.target.files?.[0];
              if (file) void file.text().then(read);
            }}
          />
        )}
      </FormField>
      <FormField
        id={`${id}-text`}
        label="Or paste CSV"
        hint="The first row names the columns; columns may be separated by “,” or “;”. Several addresses or lists in one cell are separated by “;” (in a “;”-separated file, quote such a cell)."
      >
        {(control) => (
          <textarea
            {...control}
            rows={8}
            value={text}
            onChange={(event) => setText(event.target.value)}
          />
        )}
      </FormField>
      {error && (
        <p role="alert" className="field-error">
          {error}
        </p>
      )}
      <div className="actions">
        <button type="submit" className="button primary" disabled={text.trim() === ''}>
          Read the pasted CSV
        </button>
      </div>
    </form>
  );
}

function MappingForm({
  table,
  mapping,
  options,
  existing,
  onExisting,
  onMapping,
  onBack,
  onStart,
}: {
  table: Table;
  mapping: ColumnTarget[];
  options: MapOptions;
  existing: ExistingAddresses;
  onExisting: (value: ExistingAddresses) => void;
  onMapping: (mapping: ColumnTarget[]) => void;
  onBack: () => void;
  onStart: () => void;
}) {
  const id = useId();
  const { valid, invalid } = mapRows(table.header, table.rows, mapping, options);
  // Columns sent as custom fields the account is not known to have (lib/custom-field-queries.ts):
  // the server may ignore them (X-Ignored-Fields), so the preview says so before anything is sent.
  const unknown = unknownCustomColumns(table.header, mapping, options.customFields ?? []);
  return (
    <div className="stack contact-page">
      <section className="stack" aria-labelledby={`${id}-map`}>
        <h2 id={`${id}-map`}>Columns</h2>
        <div className="table-scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">Column</th>
                <th scope="col">First value</th>
                <th scope="col">Import as</th>
              </tr>
            </thead>
            <tbody>
              {table.header.map((name, column) => (
                <tr key={column}>
                  <th scope="row">{name}</th>
                  <td>{table.rows[0]?.[column] ?? ''}</td>
                  <td>
                    <select
                      aria-label={`Import the column ${name} as`}
                      value={mapping[column]}
                      onChange={(event) =>
                        onMapping(
                          mapping.map((target, i) =>
                            i === column ? (event.target.value as ColumnTarget) : target,
                          ),
                        )
                      }
                    >
                      {Object.entries(TARGET_LABELS).map(([value, label]) => (
                        <option key={value} value={value}>
                          {label}
                        </option>
                      ))}
                    </select>
                    {unknown.includes(name) && (
                      <p className="field-error">
                        Not a custom field the account is known to have.
                      </p>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <fieldset className="radio-group">
          <legend>Addresses already in the account</legend>
          {(
            [
              ['skip', 'Skip the row'],
              ['merge', 'Merge the row into that contact'],
            ] as const
          ).map(([value, label]) => (
            <div className="checkbox-field" key={value}>
              <input
                type="radio"
                id={`${id}-${value}`}
                name={`${id}-existing`}
                checked={existing === value}
                onChange={() => onExisting(value)}
              />
              <label htmlFor={`${id}-${value}`}>{label}</label>
            </div>
          ))}
        </fieldset>
      </section>
      <section className="stack" aria-labelledby={`${id}-preview`}>
        <h2 id={`${id}-preview`}>Preview</h2>
        <p role="status">
          {valid.length} rows ready to import; {invalid.length} with errors (not imported).
        </p>
        {unknown.length > 0 && (
          <p className="notice warning">
            {unknown.map((name) => `“${name}”`).join(', ')} {unknown.length === 1 ? 'is' : 'are'}{' '}
            not among the custom fields the account is known to have
            {options.customFields?.length
              ? ` (${options.customFields.join(', ')})`
              : ' (none is known: the account has no contact showing one)'}
            : the server may not store {unknown.length === 1 ? 'it' : 'them'}, and the import will
            say so if it does not.
          </p>
        )}
        {invalid.length > 0 && <RowErrors rows={invalid} />}
        {valid.length > 0 && (
          <div className="table-scroll">
            <table>
              <caption className="visually-hidden">The first rows to import</caption>
              <thead>
                <tr>
                  <th scope="col">Line</th>
                  <th scope="col">Name</th>
                  <th scope="col">Email addresses</th>
                  <th scope="col">Lists</th>
                </tr>
              </thead>
              <tbody>
                {valid.slice(0, 10).map((row) => (
                  <tr key={row.line}>
                    <td>{row.line}</td>
                    <td>{[row.body.firstname, row.body.surname].filter(Boolean).join(' ')}</td>
                    <td>{row.body.emails.join(', ')}</td>
                    <td>{row.body.lists?.join(', ')}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <div className="actions">
          <button
            type="button"
            className="button primary"
            disabled={valid.length === 0}
            onClick={onStart}
          >
            Import {valid.length} contacts
          </button>
          <button type="button" className="button" onClick={onBack}>
            Back
          </button>
        </div>
      </section>
    </div>
  );
}

function RowErrors({ rows }: { rows: readonly { line: number; message: string }[] }) {
  return (
    <ErrorList>
      {rows.slice(0, 100).map((row) => (
        <li key={row.line}>
          Line {row.line}: {row.message}
        </li>
      ))}
    </ErrorList>
  );
}

function ErrorList({ children }: { children: ReactNode }) {
  return (
    <div className="error-message">
      <ul aria-label="Rows with errors">{children}</ul>
    </div>
  );
}

/** The fields the server named as not stored (X-Ignored-Fields), never counted as imported. */
function NotStored({ counts }: { counts: Record<string, number> }) {
  const fields = Object.entries(counts);
  if (fields.length === 0) return null;
  return (
    <div className="notice warning" role="alert">
      <p>The server did not store some of the columns (it named them in X-Ignored-Fields):</p>
      <ul>
        {fields.map(([name, rows]) => (
          <li key={name}>
            “{name}” on {rows} {rows === 1 ? 'row' : 'rows'}: not a field the account has.
          </li>
        ))}
      </ul>
    </div>
  );
}
