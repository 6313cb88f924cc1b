import { lazy, Suspense, useId, useState, type ComponentType } from 'react';
import type { PostingTesterProps } from './posting-tester.tsx';

let loading: Promise<{ default: ComponentType<PostingTesterProps> }> | null = null;

/**
 * The tester's code (the posting policy and its regular-expression engine) is not part of the list
 * settings page: it loads when someone opens the tester, or points at the button that does.
 */
function preload() {
  loading ??= import('./posting-tester.tsx').then(
    (module) => ({ default: module.PostingTester }),
    () => ({ default: TesterUnavailable }),
  );
  return loading;
}

const PostingTester = lazy(preload);

/** "What would happen?": a button beside the moderation summary that opens the posting tester. */
export function PostingTesterLoader(props: PostingTesterProps) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  return (
    <div className="posting-tester-loader">
      <button
        type="button"
        className="button"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onPointerEnter={() => void preload()}
        onFocus={() => void preload()}
        onClick={() => setOpen((was) => !was)}
      >
        {open ? 'Close the message tester' : 'What would happen to a message? Try one'}
      </button>
      {open && (
        <div id={panelId}>
          <Suspense fallback={<p role="status">Loading the message tester…</p>}>
            <PostingTester {...props} />
          </Suspense>
        </div>
      )}
    </div>
  );
}

function TesterUnavailable() {
  return (
    <p role="alert" className="error-message">
      The message tester could not be loaded; the dashboard may have been updated. Reload the page.
    </p>
  );
}
