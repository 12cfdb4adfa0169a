import type { ComponentType } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { AppShell } from '../components/layout/app-shell';
import { FullPageStatus } from '../components/layout/full-page-status';
import { ProtectedRoute } from '../features/auth/components/protected-route';
import { withChunkTimeout } from './chunk-loading';
import { RouteErrorPage } from './route-error';

/**
 * Route modules: one file per page under ./routes, each loaded on first visit as its own chunk.
 * A route module default-exports its page component.
 */
type RouteModule = { default?: ComponentType };
const routeModules = import.meta.glob<RouteModule>(['./routes/*.tsx', '!./routes/*.test.tsx']);

function MissingPage({ name }: { name: string }) {
  return <FullPageStatus label={`The ${name} page is not available yet.`} />;
}

/** A lazily loaded page (120 s chunk time-out), with its own error element. */
export function page(name: string): Pick<RouteObject, 'lazy' | 'errorElement'> {
  return {
    errorElement: <RouteErrorPage />,
    lazy: async () => {
      const load = routeModules[`./routes/${name}.tsx`];
      // A page another engineer has not added yet must not break the build or the other routes.
      if (!load) return { Component: () => <MissingPage name={name} /> };
      const module = await withChunkTimeout(load());
      if (!module.default) throw new Error(`Route module ./routes/${name}.tsx has no default export`);
      return { Component: module.default };
    },
  };
}

/** Pages behind the login guard, inside the app shell (spec part 1 §2, part 2 §2). */
export const PROTECTED_PAGES = [
  { path: '/dashboard', name: 'dashboard' },
  { path: '/bots', name: 'bots' },
  { path: '/trade', name: 'trade' },
  { path: '/market', name: 'market' },
  { path: '/future', name: 'future' },
  { path: '/backtest', name: 'backtest' },
  { path: '/earning', name: 'earning' },
  { path: '/support', name: 'support' },
  { path: '/sub', name: 'sub' },
  { path: '/dashboardd', name: 'dashboardd' },
  { path: '/potfolio', name: 'potfolio' },
  { path: '/alerts', name: 'alerts' },
] as const;

export const PUBLIC_PAGES = [
  { path: '/', name: 'landing' },
  { path: '/auth', name: 'auth' },
  { path: '/wallet-connect', name: 'wallet-connect' },
  { path: '/forgot-password', name: 'forgot-password' },
  { path: '/reset-password', name: 'reset-password' },
  { path: '/otp-verification', name: 'otp-verification' },
  { path: '/terms', name: 'terms' },
  { path: '/privacy', name: 'privacy' },
] as const;

export const routes: RouteObject[] = [
  {
    HydrateFallback: () => <FullPageStatus label="Loading..." />,
    errorElement: <RouteErrorPage />,
    children: [
      ...PUBLIC_PAGES.map(({ path, name }) => ({ path, ...page(name) })),
      { path: '/login', element: <Navigate to="/auth" replace /> },
      {
        element: <ProtectedRoute />,
        children: [
          {
            element: <AppShell />,
            children: PROTECTED_PAGES.map(({ path, name }) => ({ path, ...page(name) })),
          },
        ],
      },
      // Unknown paths: a 404 inside the shell for a signed-in user, standalone otherwise.
      { path: '*', ...page('not-found') },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
