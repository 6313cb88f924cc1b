/** Shown while the first page's chunk loads. */
export function PageLoading() {
  return (
    <p role="status" className="page-loading">
      Loading…
    </p>
  );
}
