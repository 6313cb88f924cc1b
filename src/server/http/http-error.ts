/**
 * An error answer in the spec's shape (§7): `{is_error: true, message}` with its status. Services
 * throw it; the app's error handler writes it. Messages never carry SQL or stack traces.
 */
export class HttpError extends Error {
  readonly status: number;
  readonly headers: Record<string, string>;

  constructor(status: number, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.status = status;
    this.headers = headers;
  }
}

export const badRequest = (message: string) => new HttpError(400, message);
export const forbidden = (message = 'This key lacks permission for the request') => new HttpError(403, message);
export const notFound = (what: string) => new HttpError(404, `${what} not found`);
export const conflict = (message: string) => new HttpError(409, message);
