/** The sections of the dashboard, in the order the navigation shows them. */
export const navItems = [
  { to: '/contacts', label: 'Contacts' },
  { to: '/lists', label: 'Lists' },
  { to: '/messages', label: 'Messages' },
  { to: '/administrators', label: 'Administrators' },
  { to: '/accounts', label: 'Accounts' },
] as const;
