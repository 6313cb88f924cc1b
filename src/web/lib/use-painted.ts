import { useEffect, useState } from 'react';

/**
 * False until the browser has painted what the component first rendered, then true: for work that
 * must not compete with a page's content for a phone's connection and CPU (issue 27 item 8), such
 * as a heavy chunk below the content or the navigation's counts. A frame's callbacks run before
 * its paint; a task queued from one runs after it.
 */
export function usePainted(): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => setPainted(true));
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, []);
  return painted;
}
