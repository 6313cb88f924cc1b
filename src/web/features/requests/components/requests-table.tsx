import type { MemberRequest } from '../../../../api/schemas/request.ts';
import { RelativeTime } from '../../../components/relative-time.tsx';
import { SelectBox } from '../../../components/select-box.tsx';
import { TriageActions } from '../../../components/triage/triage-actions.tsx';
import {
  SelectAllHeading,
  TriageRow,
  type TriageTableProps,
} from '../../../components/triage/triage-table-parts.tsx';
import type { TriageAction } from '../../../lib/use-undoable-actions.ts';
import { requestKey } from '../lib/request-page-data.ts';

/** Where the request was made (api/schemas/request.ts REQUEST_SOURCES); another server's as sent. */
const SOURCES: Record<string, string> = {
  web: 'The list’s page',
  mail: 'A mail command',
  'one-click': 'A one-click link in a delivery',
};

const KINDS = { join: 'Join', leave: 'Leave' } as const;

interface RequestsTableProps extends TriageTableProps<MemberRequest> {
  requests: readonly MemberRequest[];
  onAct: (action: TriageAction, request: MemberRequest) => void;
}

/**
 * A page of the requests queue: each request with its list, kind, where it was made and its
 * times, and its own approve, reject and discard. A row's address is a button that puts the
 * cursor on it; it carries lib/use-triage-cursor.ts's `data-triage-link`.
 */
export function RequestsTable({
  requests,
  selected,
  onToggle,
  onToggleAll,
  current,
  onCurrent,
  onAct,
  ref,
}: RequestsTableProps) {
  return (
    <table className="triage-table" ref={ref}>
      <thead>
        <tr>
          <SelectAllHeading
            label="Select every request on this page"
            keys={requests.map(requestKey)}
            selected={selected}
            onToggleAll={onToggleAll}
          >
            Address
          </SelectAllHeading>
          <th scope="col">Kind</th>
          <th scope="col">List</th>
          <th scope="col">Made on</th>
          <th scope="col">Asked</th>
          <th scope="col">Confirmed</th>
          <th scope="col">Expires</th>
          <th scope="col">
            <span className="visually-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {requests.map((request) => {
          const key = requestKey(request);
          const kind = KINDS[request.kind];
          return (
            <TriageRow key={key} rowKey={key} current={current} onCurrent={onCurrent}>
              <td data-label="Address">
                <SelectBox
                  label={`Select ${request.address}’s request`}
                  checked={selected.has(key)}
                  onChange={(on) => onToggle(request, on)}
                />
                <button
                  type="button"
                  className="link-button address"
                  data-triage-link={key}
                  aria-describedby={`request-kind-${key} request-list-${key}`}
                  onClick={() => onCurrent(key)}
                >
                  {request.address}
                </button>
              </td>
              <td data-label="Kind" id={`request-kind-${key}`}>
                {kind}
              </td>
              <td data-label="List" id={`request-list-${key}`}>
                {request.list}
              </td>
              <td data-label="Made on">{SOURCES[request.source] ?? request.source}</td>
              <td data-label="Asked">
                <Moment iso={request.created} />
              </td>
              <td data-label="Confirmed">
                {request.confirmed === null ? 'Not yet' : <Moment iso={request.confirmed} />}
              </td>
              <td data-label="Expires">
                <Moment iso={request.expires} />
              </td>
              <td>
                <TriageActions
                  label={`${kind} ${request.list}: ${request.address}`}
                  names={{ approve: 'Approve', reject: 'Reject…', discard: 'Discard' }}
                  onAct={(action) => onAct(action, request)}
                />
              </td>
            </TriageRow>
          );
        })}
      </tbody>
    </table>
  );
}

/** An ISO 8601 time relative to now; as sent when it is not one (another server's). */
function Moment({ iso }: { iso: string }) {
  const time = new Date(iso);
  return Number.isNaN(time.getTime()) ? iso : <RelativeTime time={time} />;
}
