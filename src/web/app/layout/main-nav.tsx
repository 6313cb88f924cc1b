import { lazy, Suspense } from 'react';
import { NavLink } from 'react-router';
import { lastAccount, sectionPath, type Section } from '../../lib/account-scope.ts';
import type { AccountId } from '../../lib/api-client.ts';
import { usePermissions } from '../../lib/permissions.ts';
import { usePainted } from '../../lib/use-painted.ts';

// The queues' readers (and the contract's schemas with them) and the Custom fields item, offered
// only where the server has custom fields (extension `fields.*`), load after the shell's first
// paint: the shell itself reads nothing of them (bench/bundle-size.ts, the shell's budget), and
// their chunks and reads do not share a phone's connection with the page's (issue 27 item 8).
const NavPart = lazy(() => import('./nav-parts.tsx').then((m) => ({ default: m.NavPart })));

const sections: { section: Section; label: string }[] = [
  { section: 'contacts', label: 'Contacts' },
  { section: 'lists', label: 'Lists' },
  { section: 'messages', label: 'Messages' },
  { section: 'held', label: 'Held' },
  { section: 'requests', label: 'Requests' },
  { section: 'administrators', label: 'Administrators' },
];

/**
 * The sections of the account in use, and the group's accounts for global principals. Off an
 * account's pages (e.g. on Accounts), a global principal's links go to the account used last.
 */
export function MainNav({
  accountId,
  global,
  sections: open,
  audit,
}: {
  accountId: AccountId;
  global: boolean;
  /** The sections the principal may open (lib/permissions.ts); the others are not offered. */
  sections: readonly Section[];
  /**
   * The audit log (extension `audit.list`) is offered: the server says who is calling (the
   * reference server's `caller.get`, which the same extensions bring) and that they may read it.
   */
  audit: boolean;
}) {
  const target = accountId ?? (global ? lastAccount() : null);
  const painted = usePainted();
  // Spec §2.6 general_settings: the account's own settings (an operator has Accounts instead).
  const powers = usePermissions();
  const ownAccount =
    !global &&
    powers.known &&
    (powers.permissions.has('superadmin') || powers.permissions.has('general_settings'));
  return (
    <nav aria-label="Main" className="app-nav">
      <ul>
        {sections
          .filter(({ section }) => open.includes(section))
          .map(({ section, label }) => (
            <li key={section}>
              <NavLink to={sectionPath(target, section)}>
                {label}
                {painted && (section === 'held' || section === 'requests') && (
                  <Suspense fallback={null}>
                    <NavPart
                      part={section === 'held' ? 'held-count' : 'requests-count'}
                      accountId={target}
                      global={global}
                    />
                  </Suspense>
                )}
              </NavLink>
            </li>
          ))}
        {painted && (
          <Suspense fallback={null}>
            <NavPart part="fields" accountId={target} global={global} />
          </Suspense>
        )}
        {ownAccount && (
          <li>
            <NavLink to="/account" end>
              Account
            </NavLink>
          </li>
        )}
        {audit && (
          <li>
            <NavLink
              to={
                target === null
                  ? global
                    ? '/accounts/audit'
                    : '/audit'
                  : `/a/${encodeURIComponent(target)}/audit`
              }
            >
              Audit
            </NavLink>
          </li>
        )}
        {global && (
          <li>
            <NavLink to="/accounts" end>
              Accounts
            </NavLink>
          </li>
        )}
      </ul>
    </nav>
  );
}
