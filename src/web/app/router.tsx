import { createBrowserRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { Layout } from './layout.tsx';
import { PageLoading } from './page-loading.tsx';
import { RouteError } from './route-error.tsx';

/** Every page is its own chunk: a route module exports `Component` (and later `loader`). */
export function createAppRouter() {
  return createBrowserRouter([
    {
      path: '/',
      Component: Layout,
      ErrorBoundary: RouteError,
      HydrateFallback: PageLoading,
      children: [
        { index: true, lazy: () => import('./routes/home.tsx') },
        { path: 'contacts', lazy: () => import('./routes/contacts.tsx') },
        { path: 'lists', lazy: () => import('./routes/lists.tsx') },
        { path: 'messages', lazy: () => import('./routes/messages.tsx') },
        { path: 'administrators', lazy: () => import('./routes/administrators.tsx') },
        { path: 'accounts', lazy: () => import('./routes/accounts.tsx') },
        { path: '*', lazy: () => import('./routes/not-found.tsx') },
      ],
    },
  ]);
}

const router = createAppRouter();

export function AppRouter() {
  return <RouterProvider router={router} />;
}
