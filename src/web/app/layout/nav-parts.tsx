import { FieldsNavItem } from '../../features/fields/components/fields-nav-item.tsx';
import type { AccountId } from '../../lib/api-client.ts';
import { HeldCount } from './held-count.tsx';

/**
 * The navigation's parts that read the API, in one chunk loaded after the shell's first paint
 * (bench/bundle-size.ts, the shell's budget): the held queue's count and the Custom fields item.
 */
export function NavPart({
  part,
  accountId,
  global,
}: {
  part: 'held-count' | 'fields';
  accountId: AccountId;
  global: boolean;
}) {
  return part === 'held-count' ? (
    <HeldCount accountId={accountId} />
  ) : (
    <FieldsNavItem accountId={accountId} global={global} />
  );
}
