/**
 * A callback ref for a bar stuck to the bottom of the screen (the list settings' save bar): while
 * it is shown, the page's scroll padding is its height, so a field reached with Tab scrolls into
 * view above the bar instead of behind it (WCAG 2.4.11, focus not obscured). Set through CSSOM,
 * which the CSP allows (it refuses inline style attributes).
 */
export function reserveBottomBarSpace(bar: HTMLElement | null): (() => void) | undefined {
  if (!bar) return undefined;
  const root = document.documentElement;
  const observer = new ResizeObserver(() => {
    root.style.scrollPaddingBottom = `${bar.offsetHeight}px`;
  });
  observer.observe(bar);
  return () => {
    observer.disconnect();
    root.style.removeProperty('scroll-padding-bottom');
  };
}
