import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { CustomField } from '../../../../api/schemas/field.ts';
import { ErrorMessage } from '../../../components/error-message.tsx';
import { TableSkeleton } from '../../../components/skeleton.tsx';
import { TableScroll } from '../../../components/table-scroll.tsx';
import type { AccountId } from '../../../lib/api-client.ts';
import { usePermissions } from '../../../lib/permissions.ts';
import { fieldQueries } from '../api/field-queries.ts';
import { administratorLabel } from '../model/field-form.ts';
import {
  DefineFieldDialog,
  DeleteFieldDialog,
  FieldForm,
  RenameFieldDialog,
} from './field-dialogs.tsx';

type Action = 'rename' | 'delete';

/**
 * The account's custom fields (reference-server extension `fields.*`): each with the key contacts
 * show it by, how many contacts have a value, and the administrators limited to it (spec §2.6
 * limit_metadata, for a caller who may read them); define, rename and delete for whoever may
 * (general_settings, not confined to some lists). Against a server without the extension it says
 * the page is not offered there.
 */
export function FieldsPage({ accountId }: { accountId: AccountId }) {
  const fields = useQuery(fieldQueries.list(accountId));
  const powers = usePermissions();
  const [defining, setDefining] = useState(false);
  const [acting, setActing] = useState<{ action: Action; field: CustomField } | null>(null);
  const [status, setStatus] = useState('');
  const on = (action: Action) => (acting?.action === action ? acting.field : null);
  const done = () => setActing(null);
  // The server refuses a list-limited caller any change of a field (on contacts of every list),
  // and a field-limited one a new field (it could not see it): not offered.
  const listLimited = powers.known && powers.limitLists !== null;
  const mayChange = !listLimited && powers.may('fields.update');
  const mayDefine = mayChange && !(powers.known && powers.limitMetadata !== null);

  let content;
  if (fields.isPending) content = <TableSkeleton label="Loading the custom fields…" />;
  else if (fields.isError)
    content = <ErrorMessage error={fields.error} onRetry={() => void fields.refetch()} />;
  else if (!fields.data.supported)
    return (
      <p className="notice">
        This server does not offer custom field definitions: they are an extension of the Listkeeper
        reference server, beyond the mailing-list API. Contacts show the fields the server defines,
        and their forms offer those.
      </p>
    );
  else if (fields.data.value.length === 0)
    content = <p>No custom fields yet. Contacts have only the standard fields.</p>;
  else {
    const list = fields.data.value;
    const showsLimits = list.some((field) => field.administrators !== undefined);
    content = (
      <TableScroll label="Custom fields">
        <table>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Identifier</th>
              <th scope="col">Contacts with a value</th>
              {showsLimits && <th scope="col">Administrators limited to it</th>}
              {mayChange && (
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {list.map((field) => (
              <tr key={String(field.id)}>
                <th scope="row">{field.name}</th>
                <td>{field.identifier ?? '—'}</td>
                <td>{field.contacts}</td>
                {showsLimits && (
                  <td>
                    <Limits field={field} />
                  </td>
                )}
                {mayChange && (
                  <td>
                    <div className="actions">
                      <button
                        type="button"
                        className="button small"
                        onClick={() => setActing({ action: 'rename', field })}
                        {...FieldForm.preloadProps}
                      >
                        Rename<span className="visually-hidden"> {field.name}</span>
                      </button>
                      <button
                        type="button"
                        className="button small danger"
                        onClick={() => setActing({ action: 'delete', field })}
                      >
                        Delete<span className="visually-hidden"> {field.name}</span>
                      </button>
                    </div>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    );
  }

  return (
    <>
      <p className="hint">
        Contacts show each field by its identifier, or by its name when it has none; so do
        administrators’ field limits (limit_metadata).
      </p>
      {mayDefine && (
        <div className="actions page-actions">
          <button
            type="button"
            className="button primary"
            onClick={() => setDefining(true)}
            {...FieldForm.preloadProps}
          >
            Define a field
          </button>
        </div>
      )}
      {listLimited && (
        <p className="hint">
          You are limited to some lists: a field is on the contacts of every list, so you cannot
          define, rename or delete one.
        </p>
      )}
      {/* Said when it changes (a live region present before), and no status while empty. */}
      <p aria-live="polite" className={status ? 'notice' : undefined}>
        {status}
      </p>
      {content}
      <DefineFieldDialog
        accountId={accountId}
        open={defining}
        onClose={() => setDefining(false)}
        onDone={setStatus}
      />
      <RenameFieldDialog
        accountId={accountId}
        field={on('rename')}
        onClose={done}
        onDone={setStatus}
      />
      <DeleteFieldDialog
        accountId={accountId}
        field={on('delete')}
        onClose={done}
        onDone={setStatus}
      />
    </>
  );
}

/** The administrators whose limit_metadata names the field; an unapplied one says so. */
function Limits({ field }: { field: CustomField }) {
  const administrators = field.administrators ?? [];
  if (administrators.length === 0) return <>—</>;
  return (
    <>
      {administrators.map((administrator) => (
        <span className="cell-line" key={String(administrator.id)}>
          {administratorLabel(administrator)}
          {!administrator.limited && (
            <span className="hint"> (named, but its limit_metadata permission is off)</span>
          )}
        </span>
      ))}
    </>
  );
}
