import './safe-html-frame.css';
import { lazy, Suspense, useEffect, useRef, useState, type ComponentProps } from 'react';

/**
 * The sanitizer (DOMPurify, and parse5 to take out parse-time markup) weighs about 50 kB gzip,
 * a third of a page's JavaScript budget: pages that show a preview or a message load it when the
 * frame first comes near the screen, not with the page.
 */
const SafeHtmlFrame = lazy(() =>
  import('./safe-html-frame.tsx').then((module) => ({ default: module.SafeHtmlFrame })),
);

type Props = ComponentProps<typeof SafeHtmlFrame>;

/**
 * `SafeHtmlFrame`, loaded when its place is within a screen's height of the visible part of the
 * page (a list's footer preview, far below its name, waits; a message's body, on screen, loads
 * after the page's first paint, which no longer shares the connection with it); meanwhile an
 * empty box of the frame's size says so.
 */
export function LazySafeHtmlFrame(props: Props) {
  const placeholder = useRef<HTMLParagraphElement>(null);
  // Without IntersectionObserver (jsdom), nothing to wait for.
  const [near, setNear] = useState(() => typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const element = placeholder.current;
    if (near || !element) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setNear(true);
      },
      { rootMargin: '100% 0px' },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [near]);
  const loading = (
    <p ref={placeholder} className="safe-html-frame-loading" role="status">
      Loading…
    </p>
  );
  if (!near) return loading;
  return (
    <Suspense fallback={loading}>
      <SafeHtmlFrame {...props} />
    </Suspense>
  );
}
