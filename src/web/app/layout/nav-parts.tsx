import { FieldsNavItem } from '../../features/fields/components/fields-nav-item.tsx';
import type { AccountId } from '../../lib/api-client.ts';
import { HeldCount, RequestsCount } from './queue-counts.tsx';

/**
 * The navigation's parts that read the API, in one chunk loaded after the shell's first paint
 * (bench/bundle-size.ts, the shell's budget): the held and requests queues' counts and the Custom
 * fields item.
 */
export function NavPart({
  part,
  accountId,
  global,
}: {
  part: 'held-count' | 'requests-count' | 'fields';
  accountId: AccountId;
  global: boolean;
}) {
  if (part === 'held-count') return <HeldCount accountId={accountId} />;
  if (part === 'requests-count') return <RequestsCount accountId={accountId} />;
  return <FieldsNavItem accountId={accountId} global={global} />;
}
