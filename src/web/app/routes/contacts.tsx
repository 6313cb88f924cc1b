import type { LoaderFunctionArgs } from 'react-router';
import type { ContactQuery } from '../../../api/schemas/contact.ts';
import { PageHeading } from '../../components/page-heading.tsx';
import { contactQueries } from '../../features/contacts/api/contact-queries.ts';
import { ContactsTable } from '../../features/contacts/components/contacts-table.tsx';
import { useAccountId } from '../../lib/account-scope.ts';
import { queryClient } from '../query-client.ts';

/** The first page; every contact returned counts against the hourly allowance (spec §8). */
const FIRST_PAGE: ContactQuery = { page: 1, limit: 25 };

/** Starts the request while the page's chunk renders (same query options as the table). */
export function loader({ params }: LoaderFunctionArgs) {
  void queryClient.prefetchQuery(contactQueries.list(params.accountId ?? null, FIRST_PAGE));
  return null;
}

export function Component() {
  const accountId = useAccountId();
  return (
    <>
      <PageHeading title="Contacts" />
      <ContactsTable key={accountId} accountId={accountId} query={FIRST_PAGE} />
    </>
  );
}
