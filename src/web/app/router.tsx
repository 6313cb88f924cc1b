import {
  createBrowserRouter,
  redirect,
  type LazyRouteFunction,
  type RouteObject,
} from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { sectionPath } from '../lib/account-scope.ts';
import { getSession, subscribeSession, type EndReason } from '../lib/session.ts';
import {
  loadConfiguration,
  requireGlobal,
  requireAccountPrincipal,
  requireGlobalForAccounts,
  requireOwnAccount,
  requireSession,
} from './guards.ts';
import { PageLoading } from './page-loading.tsx';
import { RootError, RouteError } from './route-error.tsx';

/**
 * A lazily loaded page. If its chunk cannot load (a deploy replaced it, the network dropped),
 * the route still resolves, to a loader that throws: its error boundary says so. (A route whose
 * `lazy` rejects would render as still loading, i.e. blank.)
 */
function page(load: LazyRouteFunction<RouteObject>): LazyRouteFunction<RouteObject> {
  return () =>
    load().catch((cause: unknown) => {
      const error = new Error(
        'This page could not be loaded; the dashboard may have been updated. Reload it.',
        { cause },
      );
      return {
        loader: () => {
          throw error;
        },
      };
    });
}

/** The account's sections; mounted twice: `/<section>` (account keys) and `/a/:accountId/<section>`. */
function sectionRoutes(): RouteObject[] {
  return [
    {
      path: 'contacts',
      lazy: page(() => import('./routes/contacts.tsx')),
      ErrorBoundary: RouteError,
    },
    {
      path: 'contacts/new',
      lazy: page(() => import('./routes/contact-new.tsx')),
      ErrorBoundary: RouteError,
    },
    {
      path: 'contacts/import',
      lazy: page(() => import('./routes/contact-import.tsx')),
      ErrorBoundary: RouteError,
    },
    {
      path: 'contacts/:contactId',
      lazy: page(() => import('./routes/contact.tsx')),
      ErrorBoundary: RouteError,
    },
    { path: 'lists', lazy: page(() => import('./routes/lists.tsx')), ErrorBoundary: RouteError },
    {
      path: 'lists/:listName',
      lazy: page(() => import('./routes/list-settings.tsx')),
      ErrorBoundary: RouteError,
    },
    {
      path: 'lists/:listName/members',
      lazy: page(() => import('./routes/list-members.tsx')),
      ErrorBoundary: RouteError,
    },
    {
      path: 'messages',
      lazy: page(() => import('./routes/messages.tsx')),
      ErrorBoundary: RouteError,
    },
    {
      path: 'messages/new',
      lazy: page(() => import('./routes/message-new.tsx')),
      ErrorBoundary: RouteError,
    },
    {
      path: 'messages/:messageId',
      lazy: page(() => import('./routes/message.tsx')),
      ErrorBoundary: RouteError,
    },
    {
      path: 'held',
      lazy: page(() => import('./routes/held.tsx')),
      ErrorBoundary: RouteError,
    },
    {
      path: 'requests',
      lazy: page(() => import('./routes/requests.tsx')),
      ErrorBoundary: RouteError,
    },
    {
      path: 'administrators',
      lazy: page(() => import('./routes/administrators.tsx')),
      ErrorBoundary: RouteError,
    },
    { path: 'audit', lazy: page(() => import('./routes/audit.tsx')), ErrorBoundary: RouteError },
    { path: 'fields', lazy: page(() => import('./routes/fields.tsx')), ErrorBoundary: RouteError },
  ];
}

/** Every page is its own chunk: a route module exports `Component` (and `loader` to prefetch). */
export function createAppRouter() {
  return createBrowserRouter([
    {
      middleware: [loadConfiguration],
      ErrorBoundary: RootError,
      HydrateFallback: PageLoading,
      children: [
        { path: 'sign-in', lazy: page(() => import('./routes/sign-in.tsx')) },
        { path: 'auth/callback', lazy: page(() => import('./routes/auth-callback.tsx')) },
        { path: 'auth/:problem', lazy: page(() => import('./routes/auth-problem.tsx')) },
        {
          middleware: [requireSession],
          lazy: page(() => import('./routes/shell.tsx')),
          children: [
            { index: true, lazy: page(() => import('./routes/home.tsx')) },
            { middleware: [requireOwnAccount], children: sectionRoutes() },
            {
              // The account's own settings: an account's principal; an operator has Accounts.
              path: 'account',
              middleware: [requireAccountPrincipal],
              lazy: page(() => import('./routes/account-settings.tsx')),
              ErrorBoundary: RouteError,
            },
            {
              path: 'accounts',
              middleware: [requireGlobalForAccounts],
              lazy: page(() => import('./routes/accounts.tsx')),
              ErrorBoundary: RouteError,
            },
            {
              path: 'accounts/administrators',
              middleware: [requireGlobalForAccounts],
              lazy: page(() => import('./routes/accounts-administrators.tsx')),
              ErrorBoundary: RouteError,
            },
            {
              path: 'accounts/audit',
              middleware: [requireGlobalForAccounts],
              lazy: page(() => import('./routes/audit.tsx')),
              ErrorBoundary: RouteError,
            },
            {
              path: 'a/:accountId',
              middleware: [requireGlobal],
              children: [
                {
                  index: true,
                  loader: ({ params }) =>
                    redirect(sectionPath(params.accountId ?? null, 'contacts')),
                },
                ...sectionRoutes(),
              ],
            },
            {
              path: '*',
              lazy: page(() => import('./routes/not-found.tsx')),
              ErrorBoundary: RouteError,
            },
          ],
        },
      ],
    },
  ]);
}

const router = createAppRouter();

const pageAfter: Record<EndReason, string> = {
  'signed-out': '/sign-in',
  'session-expired': '/auth/session-expired',
  'key-refused': '/auth/key-refused',
};

// When a session ends while it is in use (sign-out, a refused key, an expired token), say why.
let wasSignedIn = getSession().status === 'signed-in';
subscribeSession(() => {
  const session = getSession();
  if (wasSignedIn && session.status === 'signed-out' && session.ended) {
    void router.navigate(pageAfter[session.ended], {
      replace: true,
      state: { ended: session.ended },
    });
  }
  wasSignedIn = session.status === 'signed-in';
});

export function AppRouter() {
  return <RouterProvider router={router} />;
}
