import type { Shortcut } from '../../lib/shortcuts.ts';
import type { Section } from '../../lib/account-scope.ts';

export type ShortcutAction =
  | { kind: 'section'; section: Section }
  | { kind: 'accounts' }
  | { kind: 'switch-account' }
  | { kind: 'help' }
  /** A shortcut of the page in view (lib/page-shortcuts.ts). */
  | { kind: 'page'; run: () => void };

export interface AppShortcut extends Shortcut<ShortcutAction> {
  description: string;
  /** Shown and active only for global principals. */
  globalOnly?: boolean;
}

/** The dashboard's keyboard shortcuts; the help dialog (`?`) lists them from here. */
export const SHORTCUTS: readonly AppShortcut[] = [
  {
    keys: ['g', 'c'],
    action: { kind: 'section', section: 'contacts' },
    description: 'Go to Contacts',
  },
  { keys: ['g', 'l'], action: { kind: 'section', section: 'lists' }, description: 'Go to Lists' },
  {
    keys: ['g', 'm'],
    action: { kind: 'section', section: 'messages' },
    description: 'Go to Messages',
  },
  {
    keys: ['g', 'h'],
    action: { kind: 'section', section: 'held' },
    description: 'Go to Held messages',
  },
  {
    keys: ['g', 'r'],
    action: { kind: 'section', section: 'requests' },
    description: 'Go to Requests to join and leave',
  },
  {
    keys: ['g', 'u'],
    action: { kind: 'section', section: 'administrators' },
    description: 'Go to Administrators (users)',
  },
  {
    keys: ['g', 'a'],
    action: { kind: 'accounts' },
    description: 'Go to Accounts',
    globalOnly: true,
  },
  {
    keys: ['s'],
    action: { kind: 'switch-account' },
    description: 'Switch account',
    globalOnly: true,
  },
  { keys: ['?'], action: { kind: 'help' }, description: 'Show the keyboard shortcuts' },
];
