import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { preloadSessionRestore } from './app/guards.ts';
import { AppRouter } from './app/router.tsx';
import { loadConfig } from './lib/config.ts';
import { applyTheme, readThemeChoice } from './lib/theme.ts';
import { makeZodJitless } from './lib/zod-jitless.ts';
import './styles.css';

// No eval under the CSP: before any lazy chunk builds a Zod schema.
makeZodJitless();
// Before the first paint: the saved theme (CSP allows no inline script in index.html to do it).
applyTheme(readThemeChoice());
// Ask for /config.json while React starts; the router's middleware awaits the same promise.
void loadConfig();
preloadSessionRestore(location.pathname);

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

// No data layer here: the signed-in shell provides TanStack Query (app/layout/app-shell.tsx), so
// the entry and the sign-in page load without it (issue #5 budget).
createRoot(container).render(
  <StrictMode>
    <AppRouter />
  </StrictMode>,
);
