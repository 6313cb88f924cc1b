import { lazy, Suspense, type ComponentType } from 'react';
import {
  AccountButton,
  pendingAccountName,
} from '../../features/accounts/components/account-button.tsx';
import type { AccountSwitcherProps } from '../../features/accounts/components/account-switcher.tsx';
import { usePainted } from '../../lib/use-painted.ts';

let loading: Promise<{ default: ComponentType<AccountSwitcherProps> }> | null = null;

/**
 * The switcher's code (its dialog, search and TanStack Query's observer) is not needed for the
 * shell's first paint, which shows the button as it stands until the accounts arrive anyway: it
 * loads once the shell is on screen, and only for global principals (issue #5 budget), not beside
 * the page's own chunks and reads on a phone's connection (issue 27 item 8). A chunk that cannot
 * load leaves the account's id and a word on what to do.
 */
function loadAccountSwitcher() {
  loading ??= import('../../features/accounts/components/account-switcher.tsx').then(
    (module) => ({ default: module.AccountSwitcher }),
    () => ({ default: SwitcherUnavailable }),
  );
  return loading;
}

const AccountSwitcher = lazy(loadAccountSwitcher);

/** The account switcher; until its code is here, the same button (a click opens it once loaded). */
export function LazyAccountSwitcher(props: AccountSwitcherProps) {
  const painted = usePainted();
  const button = (
    <AccountButton
      name={pendingAccountName(props.accountId)}
      onClick={() => props.onOpenChange(true)}
    />
  );
  if (!painted) return button;
  return (
    <Suspense fallback={button}>
      <AccountSwitcher {...props} />
    </Suspense>
  );
}

function SwitcherUnavailable({ accountId }: AccountSwitcherProps) {
  return (
    <p className="account-label">
      {accountId !== null && <strong>Account {accountId}. </strong>}
      The account switcher could not be loaded; reload the page to switch accounts.
    </p>
  );
}
