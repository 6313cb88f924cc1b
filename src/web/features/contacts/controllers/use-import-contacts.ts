import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import type { AccountId } from '../../../lib/api-client.ts';
import { reportingApi } from '../../../lib/ignored-fields.ts';
import { describeError } from '../../../lib/api-error-message.ts';
import { contactQueries } from '../../../lib/contact-queries.ts';
import { customFieldQueries } from '../../../lib/custom-field-queries.ts';
import type { Job } from '../../../lib/job-runner.ts';
import { listQueries } from '../../../lib/list-queries.ts';
import { usePermissions } from '../../../lib/permissions.ts';
import { useReachableLists } from '../../../lib/reach.ts';
import { useStartJob } from '../../../lib/start-job.ts';
import {
  guessMapping,
  mapRows,
  type ColumnTarget,
  type MapOptions,
  type ValidRow,
} from '../lib/import-contacts.ts';
import { importRow, type ExistingAddresses, type ImportCounts } from '../lib/import-row.ts';

export interface Table {
  header: string[];
  rows: string[][];
}

export type Step =
  | { step: 'source' }
  | { step: 'map'; table: Table; mapping: ColumnTarget[] }
  | {
      step: 'running';
      table: Table;
      rejected: { line: number; cells: string[]; message: string }[];
      job: Job<ValidRow>;
      counts: ImportCounts;
    };

/**
 * The import page's controller (logic apart from the view, as react-admin's ra-core does): the
 * steps (source, mapping, running job), the pasted text kept across them, what the mapping is
 * checked against (the custom fields known, the lists, spec §2.6 limit_metadata), and the job
 * that imports the valid rows and then refreshes the contacts and lists.
 */
export function useImportContacts(accountId: AccountId) {
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
    const counts: ImportCounts = { created: 0, skipped: 0, merged: 0, notStored: {} };
    // Each row with its own client: what the server did not store is counted per field.
    const importOne = async (row: ValidRow) => {
      const { api, ignored } = reportingApi(accountId);
      try {
        await importRow(api, row.body, existing, counts);
      } finally {
        for (const name of ignored()) counts.notStored[name] = (counts.notStored[name] ?? 0) + 1;
      }
    };
    const job = await startJob.start(valid, importOne, {
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

  return {
    step,
    options,
    existing,
    setExisting,
    pasted,
    setPasted,
    loadError: startJob.loadError,
    /** Pasted or read but not imported yet: leaving asks first. */
    dirty: step.step === 'map' || (step.step === 'source' && pasted.trim() !== ''),
    read: (table: Table) =>
      setStep({ step: 'map', table, mapping: guessMapping(table.header, options.customFields) }),
    remap: (mapping: ColumnTarget[]) =>
      setStep((now) => (now.step === 'map' ? { ...now, mapping } : now)),
    back: () => setStep({ step: 'source' }),
    start: () => {
      if (step.step === 'map') void start(step.table, step.mapping);
    },
    done: () => {
      setPasted('');
      setStep({ step: 'source' });
    },
  };
}
