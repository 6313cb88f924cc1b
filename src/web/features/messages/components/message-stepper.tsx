import { Link } from 'react-router';
import type { MessageNeighbours, Neighbour } from '../api/use-message-neighbours.ts';
import { subjectOf } from '../lib/format.ts';
import { writeMessageSearch } from '../lib/search-params.ts';

const linkTo = (neighbour: Neighbour) => ({
  pathname: `../${encodeURIComponent(String(neighbour.message.id))}`,
  search: writeMessageSearch(neighbour.search).toString(),
});

/**
 * Previous and next message of the list the message was opened from (keys `k` and `j`). Nothing
 * when it was opened from elsewhere (a thread, a link): it has no place in a list then.
 */
export function MessageStepper({ neighbours }: { neighbours: MessageNeighbours }) {
  if (!neighbours.found) return null;
  const { previous, next } = neighbours;
  return (
    <nav className="message-stepper" aria-label="Messages of the list">
      {previous ? (
        <Link to={linkTo(previous)} relative="path" rel="prev">
          <span aria-hidden="true">← </span>Previous: {subjectOf(previous.message)}
        </Link>
      ) : (
        <span className="hint">No previous message</span>
      )}
      <span className="hint">
        {neighbours.position} of {neighbours.total} on this page
      </span>
      {next ? (
        <Link to={linkTo(next)} relative="path" rel="next">
          Next: {subjectOf(next.message)}
          <span aria-hidden="true"> →</span>
        </Link>
      ) : (
        <span className="hint">No next message</span>
      )}
    </nav>
  );
}
