import { useQuery } from '@tanstack/react-query';
import { useDeferredValue } from 'react';
import { Link, useParams, type LoaderFunctionArgs } from 'react-router';
import { ErrorMessage } from '../../components/error-message.tsx';
import { PageHeading } from '../../components/page-heading.tsx';
import { TableSkeleton } from '../../components/skeleton.tsx';
import { listQueries } from '../../lib/list-queries.ts';
import { ListSettingsForm } from '../../features/lists/components/settings/list-settings-form.tsx';
import { useAccountId } from '../../lib/account-scope.ts';
import { queryClient } from '../query-client.ts';

export function loader({ params }: LoaderFunctionArgs) {
  const accountId = params.accountId ?? null;
  void queryClient.prefetchQuery(listQueries.detail(accountId, params.listName ?? ''));
  void queryClient.prefetchQuery(listQueries.withIds(accountId));
  return null;
}

export function Component() {
  const accountId = useAccountId();
  const name = useParams().listName ?? '';
  const list = useQuery(listQueries.detail(accountId, name));
  const lists = useQuery(listQueries.withIds(accountId));
  // The form's first render is long (every setting of the list): rendered in the background once
  // the data is in, in slices the browser can answer between, not as one task (issue 27 item 8).
  const shownList = useDeferredValue(list.data);
  const shownLists = useDeferredValue(lists.data);
  return (
    <>
      <PageHeading title={`List ${name}`} />
      <p>
        <Link to=".." relative="path">
          All lists
        </Link>
      </p>
      {list.isPending || lists.isPending ? (
        <TableSkeleton label="Loading the list…" />
      ) : list.isError ? (
        <ErrorMessage error={list.error} onRetry={() => void list.refetch()} />
      ) : lists.isError ? (
        <ErrorMessage error={lists.error} onRetry={() => void lists.refetch()} />
      ) : !shownList || !shownLists ? (
        <TableSkeleton label="Loading the list…" />
      ) : (
        <ListSettingsForm
          key={`${accountId ?? ''}/${shownList.name}`}
          accountId={accountId}
          list={shownList}
          lists={shownLists}
        />
      )}
    </>
  );
}
