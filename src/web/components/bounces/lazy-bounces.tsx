import './bounce-marker.css';
import { lazy, Suspense, type ComponentProps } from 'react';

/**
 * The bounce markers load after the page they sit on (issue 26 item 1), in a chunk of their own
 * with the bounces.* operation table: most addresses never bounce, and a spec-only server has none.
 * One lazy component for both uses: each import() costs the page its list of chunks to preload.
 */
const Bounces = lazy(() => import('./bounce-marker.tsx'));

/** With `email` and `address`, that address's marker; without, the states' load error. */
export function LazyBounces(props: ComponentProps<typeof Bounces>) {
  return (
    <Suspense fallback={null}>
      <Bounces {...props} />
    </Suspense>
  );
}
