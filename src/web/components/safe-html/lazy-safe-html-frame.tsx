import './safe-html-frame.css';
import { lazy, Suspense, type ComponentProps } from 'react';

/**
 * The sanitizer (DOMPurify, and parse5 to take out parse-time markup) weighs about 50 kB gzip,
 * a third of a page's JavaScript budget: pages that show a preview or a message load it when the
 * frame first renders, not with the page.
 */
const SafeHtmlFrame = lazy(() =>
  import('./safe-html-frame.tsx').then((module) => ({ default: module.SafeHtmlFrame })),
);

type Props = ComponentProps<typeof SafeHtmlFrame>;

/** `SafeHtmlFrame`, loaded on first use; meanwhile an empty box of the frame's size says so. */
export function LazySafeHtmlFrame(props: Props) {
  return (
    <Suspense
      fallback={
        <p className="safe-html-frame-loading" role="status">
          Loading…
        </p>
      }
    >
      <SafeHtmlFrame {...props} />
    </Suspense>
  );
}
