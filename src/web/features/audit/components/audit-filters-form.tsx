import { useId, useState, type FormEvent } from 'react';
import {
  NO_FILTERS,
  OBJECT_TYPES,
  fromLocalInput,
  isFiltered,
  toLocalInput,
  type AuditFilters,
} from '../lib/audit-filters.ts';
import { OPERATION_VERBS } from '../lib/entry-words.ts';

const OPERATIONS = Object.keys(OPERATION_VERBS);

/**
 * The log's filters, the same as `GET /audit/`'s: a time range (in the browser's time zone),
 * who, which list, which object, which operation. Applying them puts them in the URL; the page
 * reads them from there.
 */
export function AuditFiltersForm({
  filters,
  onApply,
}: {
  filters: AuditFilters;
  onApply: (filters: AuditFilters) => void;
}) {
  const id = useId();
  const operationsId = `${id}-operations`;
  // Open where there is room, or when filters apply; a phone shows the log first.
  const [open, setOpen] = useState(
    () => isFiltered(filters) || matchMedia('(min-width: 40rem)').matches,
  );
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const value = (name: string) => {
      const entered = form.get(name);
      return typeof entered === 'string' ? entered.trim() : '';
    };
    const objectType = value('object_type');
    onApply({
      since: fromLocalInput(value('since')),
      until: fromLocalInput(value('until')),
      actor: value('actor'),
      list: value('list'),
      objectType: OBJECT_TYPES.find((type) => type.value === objectType)?.value ?? '',
      objectId: value('object_id'),
      operation: value('operation'),
    });
  };
  return (
    <details
      className="audit-filter-box"
      open={open}
      onToggle={(event) => setOpen(event.currentTarget.open)}
    >
      <summary>Filters{isFiltered(filters) ? ' (applied)' : ''}</summary>
      <form
        role="search"
        aria-label="Filter the audit log"
        className="audit-filters"
        onSubmit={submit}
      >
        <div className="field">
          <label htmlFor={`${id}-since`}>From</label>
          <input
            id={`${id}-since`}
            name="since"
            type="datetime-local"
            defaultValue={toLocalInput(filters.since)}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-until`}>Until</label>
          <input
            id={`${id}-until`}
            name="until"
            type="datetime-local"
            defaultValue={toLocalInput(filters.until)}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-actor`}>Who</label>
          <input
            id={`${id}-actor`}
            name="actor"
            type="search"
            defaultValue={filters.actor}
            aria-describedby={`${id}-actor-hint`}
            autoComplete="off"
          />
          <p id={`${id}-actor-hint`} className="hint">
            A username, a key’s description, an address, or <code>system</code>.
          </p>
        </div>
        <div className="field">
          <label htmlFor={`${id}-list`}>List</label>
          <input
            id={`${id}-list`}
            name="list"
            type="search"
            defaultValue={filters.list}
            autoComplete="off"
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-object-type`}>Object</label>
          <select id={`${id}-object-type`} name="object_type" defaultValue={filters.objectType}>
            <option value="">Any</option>
            {OBJECT_TYPES.map((type) => (
              <option key={type.value} value={type.value}>
                {type.label}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-object-id`}>Object id</label>
          <input
            id={`${id}-object-id`}
            name="object_id"
            type="search"
            defaultValue={filters.objectId}
            autoComplete="off"
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-operation`}>Operation</label>
          <input
            id={`${id}-operation`}
            name="operation"
            type="search"
            list={operationsId}
            defaultValue={filters.operation}
            autoComplete="off"
            aria-describedby={`${id}-operation-hint`}
          />
          <datalist id={operationsId}>
            {OPERATIONS.map((operation) => (
              <option key={operation} value={operation} />
            ))}
          </datalist>
          <p id={`${id}-operation-hint`} className="hint">
            Such as <code>lists.update</code> or <code>member.join</code>.
          </p>
        </div>
        <div className="actions audit-filter-actions">
          <button type="submit" className="button primary">
            Apply
          </button>
          {isFiltered(filters) && (
            <button type="button" className="button" onClick={() => onApply(NO_FILTERS)}>
              Clear filters
            </button>
          )}
        </div>
      </form>
    </details>
  );
}
