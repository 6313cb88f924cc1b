import { useParams, type LoaderFunctionArgs } from 'react-router';
import { contactQueries } from '../../lib/contact-queries.ts';
import { ContactPage } from '../../features/contacts/components/contact-page.tsx';
import { listQueries } from '../../lib/list-queries.ts';
import { useAccountId } from '../../lib/account-scope.ts';
import { queryClient } from '../query-client.ts';

/** Starts the contact's request (and the account's lists, for adding one) while the chunk renders. */
export function loader({ params }: LoaderFunctionArgs) {
  const accountId = params.accountId ?? null;
  if (params.contactId) {
    void queryClient.prefetchQuery(contactQueries.detail(accountId, params.contactId));
  }
  void queryClient.prefetchQuery(listQueries.list(accountId));
  return null;
}

export function Component() {
  const accountId = useAccountId();
  const { contactId = '' } = useParams();
  return (
    <ContactPage key={`${accountId}-${contactId}`} accountId={accountId} contactId={contactId} />
  );
}
