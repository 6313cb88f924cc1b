import { useQuery } from '@tanstack/react-query';
import type { Contact, ContactQuery } from '../../../../api/schemas/contact.ts';
import { ErrorMessage } from '../../../components/error-message.tsx';
import { TableSkeleton } from '../../../components/skeleton.tsx';
import { TableScroll } from '../../../components/table-scroll.tsx';
import type { AccountId } from '../../../lib/api-client.ts';
import { contactQueries } from '../api/contact-queries.ts';

function fullName(contact: Contact): string {
  return [contact.firstname, contact.surname].filter(Boolean).join(' ') || '—';
}

/** A first view of the address book: one page of contacts in a plain table. */
export function ContactsTable({ accountId, query }: { accountId: AccountId; query: ContactQuery }) {
  const contacts = useQuery(contactQueries.list(accountId, query));
  if (contacts.isPending) return <TableSkeleton label="Loading contacts…" />;
  if (contacts.isError)
    return <ErrorMessage error={contacts.error} onRetry={() => void contacts.refetch()} />;
  const { count, data } = contacts.data;
  if (data.length === 0) return <p>No contacts yet.</p>;
  return (
    <>
      <p className="summary">
        {count === data.length
          ? `${count} contacts.`
          : `${count} contacts; the first ${data.length} are shown.`}
      </p>
      <TableScroll label="Contacts">
        <table>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Email addresses</th>
              <th scope="col">Lists</th>
            </tr>
          </thead>
          <tbody>
            {data.map((contact) => (
              <tr key={String(contact.id)}>
                <td>{fullName(contact)}</td>
                <td>{contact.emails.map((email) => email.email).join(', ')}</td>
                <td>{contact.lists.map((membership) => membership.list).join(', ') || '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </>
  );
}
