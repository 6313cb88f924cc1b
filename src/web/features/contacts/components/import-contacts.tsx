import '../contacts.css';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useMemo, useState, type ReactNode } from 'react';
import { ErrorMessage } from '../../../components/error-message.tsx';
import { customFieldQueries } from '../../../lib/custom-field-queries.ts';
import { apiFor, type AccountId } from '../../../lib/api-client.ts';
import { describeError } from '../../../lib/api-error-message.ts';
import { listQueries } from '../../../lib/list-queries.ts';
import { contactQueries } from '../../../lib/contact-queries.ts';
import { downloadText } from '../../../lib/csv.ts';
import {
  TARGET_LABELS,
  describeImport,
  guessMapping,
  mapRows,
  rejectedRowsCsv,
  type ColumnTarget,
  type MapOptions,
  type ValidRow,
} from '../lib/import-contacts.ts';
import { importRow, type ExistingAddresses, type ImportCounts } from '../lib/import-row.ts';
import type { Job } from '../../../lib/job-runner.ts';
import { useStartJob } from '../../../lib/start-job.ts';
import { LazyJobProgress } from '../../../components/lazy-job-progress.tsx';
import { UnsavedChangesGuard } from '../../../components/unsaved-changes-guard.tsx';
import { useJobState } from '../../../lib/use-job.ts';
import { useReachableLists } from '../../../lib/reach.ts';
import { usePermissions } from '../../../lib/permissions.ts';

interface Table {
  header: string[];
  rows: string[][];
}

type Step =
  | { step: 'source' }
  | { step: 'map'; table: Table; mapping: ColumnTarget[] }
  | {
      step: 'running';
      table: Table;
      rejected: { line: number; cells: string[]; message: string }[];
      job: Job<ValidRow>;
      counts: ImportCounts;
    };

/** CSV import: paste or a file, map the columns, preview with errors, then a visible job. */
export function ImportContacts({ accountId }: { accountId: AccountId }) {
  const [step, setStep] = useState<Step>({ step: 'source' });
  const startJob = useStartJob();
  const [existing, setExisting] = useState<ExistingAddresses>('skip');
  // The pasted CSV outlives the mapping step: "Back" finds it again (nothing typed is lost).
  const [pasted, setPasted] = useState('');
  const queryClient = useQueryClient();
  // Custom fields map by name on their own; rows naming a list the account lacks are flagged.
  const customFields = useQuery(customFieldQueries.known(accountId));
  const lists = useReachableLists(accountId);
  // Spec §2.6 limit_metadata: values for a custom field outside the limit are flagged too.
  const powers = usePermissions();
  const fieldLimit = powers.known ? powers.limitMetadata : null;
  const options = useMemo<MapOptions>(
    () => ({
      customFields: customFields.data ?? [],
      knownLists: lists.data ? new Set(lists.data.map((list) => list.name)) : undefined,
      writableField: (key) => fieldLimit === null || fieldLimit.includes(key),
    }),
    [customFields.data, lists.data, fieldLimit],
  );

  async function start(table: Table, mapping: ColumnTarget[]) {
    const { valid, invalid } = mapRows(table.header, table.rows, mapping, options);
    const api = apiFor(accountId);
    const counts: ImportCounts = { created: 0, skipped: 0, merged: 0 };
    const job = await startJob.start(valid, (row) => importRow(api, row.body, existing, counts), {
      describe: describeError,
    });
    if (!job) return;
    setStep({ step: 'running', table, rejected: invalid, job, counts });
    void job.finished.then(() =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: contactQueries.all(accountId) }),
        queryClient.invalidateQueries({ queryKey: listQueries.all(accountId) }),
      ]),
    );
  }

  // Pasted or read but not imported yet: leaving asks first.
  const guard = (
    <UnsavedChangesGuard
      dirty={step.step === 'map' || (step.step === 'source' && pasted.trim() !== '')}
      description="The CSV you pasted or read is not imported yet. If you leave, it is lost."
    />
  );
  if (step.step === 'source')
    return (
      <>
        <SourceForm
          text={pasted}
          setText={setPasted}
          onRead={(table) =>
            setStep({
              step: 'map',
              table,
              mapping: guessMapping(table.header, options.customFields),
            })
          }
        />
        {guard}
      </>
    );
  if (step.step === 'map')
    return (
      <>
        {guard}
        {startJob.loadError && <ErrorMessage error={startJob.loadError} />}
        <MappingForm
          table={step.table}
          mapping={step.mapping}
          options={options}
          existing={existing}
          onExisting={setExisting}
          onMapping={(mapping) => setStep({ ...step, mapping })}
          onBack={() => setStep({ step: 'source' })}
          onStart={() => void start(step.table, step.mapping)}
        />
      </>
    );
  return (
    <ImportJob
      step={step}
      onDone={() => {
        setPasted('');
        setStep({ step: 'source' });
      }}
    />
  );
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
      <div className="field">
        <label htmlFor={`${id}-file`}>A CSV file</label>
        <input
          id={`${id}-file`}
          type="file"
          accept=".csv,.txt,text/csv"
          onChange={(event) => {
            const file = event.target.files?.[0];
            if (file) void file.text().then(read);
          }}
        />
      </div>
      <div className="field">
        <label htmlFor={`${id}-text`}>Or paste CSV</label>
        <textarea
          id={`${id}-text`}
          rows={8}
          value={text}
          aria-describedby={`${id}-hint`}
          onChange={(event) => setText(event.target.value)}
        />
        <p id={`${id}-hint`} className="hint">
          The first row names the columns; columns may be separated by “,” or “;”. Several addresses
          or lists in one cell are separated by “;” (in a “;”-separated file, quote such a cell).
        </p>
      </div>
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
