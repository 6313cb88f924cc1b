import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { Contact } from '../../../../api/schemas/contact.ts';
import { ErrorMessage } from '../../../components/error-message.tsx';
import { apiFor, type AccountId } from '../../../lib/api-client.ts';
import { describeError } from '../../../lib/api-error-message.ts';
import { listQueries } from '../../../lib/list-queries.ts';
import { contactQueries } from '../../../lib/contact-queries.ts';
import {
  BULK_ACTION_LABELS,
  applyBulk,
  describePlan,
  failedContactsCsv,
  planBulk,
  type BulkAction,
  type BulkPlan,
} from '../lib/bulk-actions.ts';
import { downloadText } from '../../../lib/csv.ts';
import type { ReadAll } from '../controllers/use-contacts-page.ts';
import type { Job } from '../../../lib/job-runner.ts';
import { useStartJob } from '../../../lib/start-job.ts';
import { LazyJobProgress } from '../../../components/lazy-job-progress.tsx';
import { useJobState } from '../../../lib/use-job.ts';
import { useReachableLists } from '../../../lib/reach.ts';
import { FormField } from '../../../components/form/form-field.tsx';

type Step =
  | { step: 'choose' }
  | { step: 'planning'; read: number; total: number | null }
  | { step: 'review'; action: BulkAction; plan: BulkPlan }
  | { step: 'running'; action: BulkAction; job: Job<Contact> };

/**
 * Bulk work on the selected contacts or on every contact matching the search (all pages): a dry
 * run says what will change, then a visible job does it (lib/job-runner.ts).
 */
export function BulkPanel({
  accountId,
  readAll,
  matching,
  selected,
  onFinished,
}: {
  accountId: AccountId;
  /** Reads every contact the page's filters match (all pages). */
  readAll: ReadAll;
  matching: number;
  selected: Contact[];
  onFinished: () => void;
}) {
  const queryClient = useQueryClient();
  // Until one is picked, a selection is what the panel acts on: who ticked two contacts and chose
  // Delete means those two, not every contact the search matches.
  const [scope, setScope] = useState<'selected' | 'matching' | null>(null);
  const [kind, setKind] = useState<BulkAction['kind']>('add-to-list');
  const [list, setList] = useState('');
  const [step, setStep] = useState<Step>({ step: 'choose' });
  const startJob = useStartJob();
  const [error, setError] = useState<unknown>(null);
  const [open, setOpen] = useState(false);
  // The account's lists are read only once the panel is opened (each read costs allowance).
  const lists = useReachableLists(accountId, open);
  const state = useJobState(step.step === 'running' ? step.job : null);
  const id = useId();
  const needsList = kind === 'add-to-list' || kind === 'remove-from-list';
  const effectiveScope = selected.length === 0 ? 'matching' : (scope ?? 'selected');

  async function dryRun() {
    setError(null);
    const action: BulkAction =
      kind === 'add-to-list' || kind === 'remove-from-list' ? { kind, list } : { kind };
    try {
      let contacts = selected;
      if (effectiveScope === 'matching') {
        setStep({ step: 'planning', read: 0, total: null });
        contacts = await readAll((read, total) => setStep({ step: 'planning', read, total }));
      }
      setStep({ step: 'review', action, plan: planBulk(action, contacts) });
    } catch (cause) {
      setError(cause);
      setStep({ step: 'choose' });
    }
  }

  async function start(action: BulkAction, plan: BulkPlan) {
    const api = apiFor(accountId);
    const job = await startJob.start(plan.contacts, (contact) => applyBulk(api, action, contact), {
      describe: describeError,
    });
    if (!job) return;
    setStep({ step: 'running', action, job });
    void job.finished.then(() =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: contactQueries.all(accountId) }),
        queryClient.invalidateQueries({ queryKey: listQueries.all(accountId) }),
      ]),
    );
  }

  if (step.step === 'running' && state) {
    return (
      <LazyJobProgress
        title={`${BULK_ACTION_LABELS[step.action.kind]}${'list' in step.action ? `: ${step.action.list}` : ''}`}
        job={step.job}
        state={state}
        onDownloadFailures={() =>
          downloadText('contacts-failed.csv', failedContactsCsv(state.failures))
        }
        onClose={() => {
          setStep({ step: 'choose' });
          onFinished();
        }}
      />
    );
  }

  if (step.step === 'review') {
    return (
      <section className="job" aria-label="Dry run">
        <h2>Dry run</h2>
        <p role="status">{describePlan(step.action, step.plan)}</p>
        {startJob.loadError && <ErrorMessage error={startJob.loadError} />}
        <div className="actions">
          <button
            type="button"
            className={step.action.kind === 'delete' ? 'button danger' : 'button primary'}
            disabled={step.plan.contacts.length === 0}
            onClick={() => void start(step.action, step.plan)}
          >
            Start
          </button>
          <button type="button" className="button" onClick={() => setStep({ step: 'choose' })}>
            Back
          </button>
        </div>
      </section>
    );
  }

  return (
    <details
      className="bulk-panel"
      open={open}
      onToggle={(event) => setOpen(event.currentTarget.open)}
    >
      <summary>Bulk actions</summary>
      <form
        className="inline-form"
        aria-label="Bulk action"
        onSubmit={(event) => {
          event.preventDefault();
          void dryRun();
        }}
      >
        <fieldset className="radio-group">
          <legend>Contacts</legend>
          <div className="checkbox-field">
            <input
              type="radio"
              id={`${id}-selected`}
              name={`${id}-scope`}
              checked={effectiveScope === 'selected'}
              disabled={selected.length === 0}
              onChange={() => setScope('selected')}
            />
            <label htmlFor={`${id}-selected`}>The {selected.length} selected</label>
          </div>
          <div className="checkbox-field">
            <input
              type="radio"
              id={`${id}-matching`}
              name={`${id}-scope`}
              checked={effectiveScope === 'matching'}
              onChange={() => setScope('matching')}
            />
            <label htmlFor={`${id}-matching`}>All {matching} matching the search</label>
          </div>
        </fieldset>
        <FormField id={`${id}-action`} label="Action">
          {(control) => (
            <select
              {...control}
              value={kind}
              onChange={(event) => setKind(event.target.value as BulkAction['kind'])}
            >
              {Object.entries(BULK_ACTION_LABELS).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          )}
        </FormField>
        {needsList && (
          <FormField id={`${id}-list`} label="List">
            {(control) => (
              <select {...control} value={list} onChange={(event) => setList(event.target.value)}>
                <option value="">Choose a list</option>
                {lists.data?.map((l) => (
                  <option key={l.name} value={l.name}>
                    {l.name}
                  </option>
                ))}
              </select>
            )}
          </FormField>
        )}
        <button
          type="submit"
          className="button"
          disabled={step.step === 'planning' || (needsList && !list)}
        >
          Dry run
        </button>
        {step.step === 'planning' && (
          <p role="status" className="summary">
            Reading the contacts
            {step.total === null ? '…' : `: ${step.read} of ${step.total}`}
          </p>
        )}
      </form>
      {lists.isError && <ErrorMessage error={lists.error} />}
      {error !== null && <ErrorMessage error={error} />}
    </details>
  );
}
