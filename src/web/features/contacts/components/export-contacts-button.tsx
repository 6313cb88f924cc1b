import { useRef, useState } from 'react';
import { ErrorMessage } from '../../../components/error-message.tsx';
import { downloadText } from '../../../lib/csv.ts';
import type { ReadAll } from '../controllers/use-contacts-page.ts';
import { contactsToCsv } from '../lib/export-contacts.ts';

type ExportState =
  | { status: 'idle' }
  | { status: 'running'; done: number; total: number | null }
  | { status: 'done'; count: number }
  | { status: 'failed'; error: unknown };

/** Downloads every contact matching the current search (all pages) as CSV. */
export function ExportContactsButton({ readAll }: { readAll: ReadAll }) {
  const [state, setState] = useState<ExportState>({ status: 'idle' });
  const abort = useRef<AbortController | null>(null);

  async function run() {
    const controller = new AbortController();
    abort.current = controller;
    setState({ status: 'running', done: 0, total: null });
    try {
      const contacts = await readAll(
        (done, total) => setState({ status: 'running', done, total }),
        controller.signal,
      );
      downloadText(
        `contacts-${new Date().toISOString().slice(0, 10)}.csv`,
        contactsToCsv(contacts),
      );
      setState({ status: 'done', count: contacts.length });
    } catch (error) {
      setState(controller.signal.aborted ? { status: 'idle' } : { status: 'failed', error });
    }
  }

  return (
    <div className="export-contacts">
      {state.status === 'running' ? (
        <button type="button" className="button" onClick={() => abort.current?.abort()}>
          Stop the export
        </button>
      ) : (
        <button type="button" className="button" onClick={() => void run()}>
          Export as CSV
        </button>
      )}
      <p role="status" className="summary">
        {state.status === 'running' &&
          (state.total === null
            ? 'Exporting…'
            : `Exporting: ${state.done} of ${state.total} contacts read…`)}
        {state.status === 'done' && `Exported ${state.count} contacts.`}
      </p>
      {state.status === 'failed' && <ErrorMessage error={state.error} />}
    </div>
  );
}
