import { useEffect, useEffectEvent, useMemo, useRef, useState } from 'react';
import { Link, Outlet, useLocation, useNavigate, useNavigation } from 'react-router';
import { rememberAccount, sectionOf, sectionPath, useAccountId } from '../../lib/account-scope.ts';
import { useCallerInfo } from '../../lib/caller-queries.ts';
import { usePermissions } from '../../lib/permissions.ts';
import { openSections } from '../../lib/powers.ts';
import { usePageShortcutList } from '../../lib/page-shortcuts.ts';
import { useSession, type Principal } from '../../lib/session.ts';
import { createSequenceMatcher, isShortcutEvent } from '../../lib/shortcuts.ts';
import { observeTableCellLabels } from '../../lib/table-cell-labels.ts';
import { PageLoading } from '../page-loading.tsx';
import { AppProvider } from '../provider.tsx';
import { HeaderMenu } from './header-menu.tsx';
import { LazyAccountSwitcher } from './lazy-account-switcher.tsx';
import { MainNav } from './main-nav.tsx';
import { NotPermitted } from './not-permitted.tsx';
import { RateLimitBanner } from './rate-limit-banner.tsx';
import { SHORTCUTS, type AppShortcut, type ShortcutAction } from './shortcuts.ts';
import { ShortcutsDialog } from './shortcuts-dialog.tsx';
import { SignOutButton } from './sign-out-button.tsx';
import { ThemeSelect } from './theme-select.tsx';
import { signedInAs } from './who-is-signed-in.ts';

/**
 * The frame of every signed-in page, and their data layer (TanStack Query, which the entry leaves
 * out). While a session ends, it waits for the router to move on.
 */
export function AppShell() {
  const session = useSession();
  if (session.status !== 'signed-in') return <PageLoading label="Signing out…" />;
  return (
    <AppProvider>
      <SignedInShell principal={session.principal} />
    </AppProvider>
  );
}

function SignedInShell({ principal }: { principal: Principal }) {
  const accountId = useAccountId();
  const navigate = useNavigate();
  const navigation = useNavigation();
  const { pathname } = useLocation();
  const mainRef = useRef<HTMLElement>(null);
  const [switcherOpen, setSwitcherOpen] = useState(false);
  const caller = useCallerInfo();
  const who = signedInAs(principal, caller);
  const powers = usePermissions();
  const section = sectionOf(pathname);
  const [helpOpen, setHelpOpen] = useState(false);
  // Only what the person may use (issue 27 item 6): no `g u` without the Administrators page.
  const open = openSections(powers).join(' ');
  const appShortcuts = useMemo(
    () =>
      SHORTCUTS.filter(
        (shortcut) =>
          (principal.global || !shortcut.globalOnly) &&
          (shortcut.action.kind !== 'section' || open.split(' ').includes(shortcut.action.section)),
      ),
    [principal.global, open],
  );
  const registered = usePageShortcutList();
  const pageShortcuts = useMemo(
    () =>
      registered.map(({ keys, description, run }): AppShortcut => ({
        keys,
        description,
        action: { kind: 'page', run },
      })),
    [registered],
  );
  const shortcuts = useMemo(
    () => [...appShortcuts, ...pageShortcuts],
    [appShortcuts, pageShortcuts],
  );

  useEffect(() => {
    if (accountId !== null) rememberAccount(accountId);
  }, [accountId]);

  // Tables become cards of labelled values on a phone; their labels come from one place.
  useEffect(() => (mainRef.current ? observeTableCellLabels(mainRef.current) : undefined), []);

  // After a client-side navigation, move focus to the new page as a full page load would.
  const firstPath = useRef(pathname);
  useEffect(() => {
    if (pathname !== firstPath.current) mainRef.current?.focus({ preventScroll: true });
  }, [pathname]);

  const run = useEffectEvent((action: ShortcutAction) => {
    switch (action.kind) {
      case 'section':
        return void navigate(sectionPath(accountId, action.section));
      case 'accounts':
        return void navigate('/accounts');
      case 'switch-account':
        return setSwitcherOpen(true);
      case 'help':
        return setHelpOpen(true);
      case 'page':
        return action.run();
    }
  });

  useEffect(() => {
    const matcher = createSequenceMatcher(shortcuts);
    const onKeyDown = (event: KeyboardEvent) => {
      // An open dialog owns the keyboard.
      if (!isShortcutEvent(event) || document.querySelector('dialog[open]')) return;
      const action = matcher.feed(event.key, event.timeStamp);
      if (action) {
        event.preventDefault();
        run(action);
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [shortcuts]);

  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="app-header">
        <p className="app-title">
          <Link to="/">Listkeeper</Link>
        </p>
        <div className="account-area">
          {principal.global ? (
            <LazyAccountSwitcher
              accountId={accountId}
              open={switcherOpen}
              onOpenChange={setSwitcherOpen}
            />
          ) : (
            <p className="account-label">
              {who.account !== null ? (
                <>
                  <span className="account-label-word">Account </span>
                  <strong>{who.account}</strong>
                </>
              ) : (
                // Spec v2 has no call that names the account of a key or token (issue 15 item 2).
                'Account not named by the server'
              )}
            </p>
          )}
        </div>
        <HeaderMenu>
          <div className="header-tools">
            <p className="identity">
              Signed in: <strong>{who.who}</strong>
              {principal.server && <> at {principal.server}</>}
            </p>
            <ThemeSelect />
            <button
              type="button"
              className="button small"
              onClick={() => setHelpOpen(true)}
              aria-keyshortcuts="?"
            >
              Shortcuts
            </button>
            <SignOutButton />
          </div>
          <MainNav
            accountId={accountId}
            global={principal.global}
            sections={openSections(powers)}
            audit={powers.known && powers.may('audit.list')}
          />
        </HeaderMenu>
      </header>
      {navigation.state === 'loading' && (
        <p className="route-progress" role="status">
          Loading…
        </p>
      )}
      <RateLimitBanner accountId={accountId} />
      <main id="main" ref={mainRef} tabIndex={-1}>
        {section !== null && !openSections(powers).includes(section) ? (
          <NotPermitted section={section} />
        ) : (
          <Outlet />
        )}
      </main>
      <ShortcutsDialog
        open={helpOpen}
        onClose={() => setHelpOpen(false)}
        shortcuts={appShortcuts}
        pageShortcuts={pageShortcuts}
      />
    </>
  );
}
