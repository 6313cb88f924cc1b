export { AppShell as Component } from '../layout/app-shell.tsx';
