/** Shown while the first page (its chunk, the configuration, the session) loads. */
export function PageLoading({ label = 'Loading…' }: { label?: string }) {
  return (
    <main id="main" className="page-loading">
      <p role="status">{label}</p>
    </main>
  );
}
