/** The path and the query string (undefined without `?`); only the first `?` separates them. */
export function splitUrl(url: string): [string, string | undefined] {
  const mark = url.indexOf('?');
  return mark === -1 ? [url, undefined] : [url.slice(0, mark), url.slice(mark + 1)];
}

/** The query string alone (empty without `?`), for the hot path, which has no use for the path. */
export function queryStringOf(url: string): string {
  const mark = url.indexOf('?');
  return mark === -1 ? '' : url.slice(mark + 1);
}
