import { Link } from 'react-router';

/** One filter of a queue: where it leads, whether it is the one shown, and what it counts. */
export interface CountLink {
  key: string;
  to: string;
  current: boolean;
  text: string;
}

/** A queue's counts as the links that filter it (per list, per kind), the current one marked. */
export function TriageCounts({ label, links }: { label: string; links: readonly CountLink[] }) {
  return (
    <nav aria-label={label} className="triage-counts">
      <ul>
        {links.map((link) => (
          <li key={link.key}>
            <Link to={link.to} aria-current={link.current ? 'page' : undefined}>
              {link.text}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
