/** The page's h1 and its document title (React 19 hoists `<title>` into `<head>`). */
export function PageHeading({ title }: { title: string }) {
  return (
    <>
      <title>{`${title} · Listkeeper`}</title>
      <h1>{title}</h1>
    </>
  );
}
