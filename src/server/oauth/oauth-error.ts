/** RFC 6749 §5.2 error codes of the token endpoint (SECURITY.md 6). */
export type TokenErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope';

/**
 * An error of the token or refresh endpoint, answered as RFC 6749 §5.2 JSON rather than the API's
 * `{is_error, message}`: OAuth clients (oauth4webapi among them) read `error`. invalid_client is a
 * 401 with `WWW-Authenticate`; everything else a 400.
 */
export class OAuthError extends Error {
  readonly error: TokenErrorCode;
  readonly status: number;
  readonly headers: Record<string, string>;

  constructor(error: TokenErrorCode, description: string) {
    super(description);
    this.error = error;
    this.status = error === 'invalid_client' ? 401 : 400;
    this.headers = error === 'invalid_client' ? { 'www-authenticate': 'Basic realm="Listkeeper OAuth"' } : {};
  }

  toJSON(): { error: TokenErrorCode; error_description: string } {
    return { error: this.error, error_description: this.message };
  }
}

export const invalidRequest = (description: string) => new OAuthError('invalid_request', description);
export const invalidGrant = (description: string) => new OAuthError('invalid_grant', description);
export const invalidClient = (description = 'Client authentication failed') => new OAuthError('invalid_client', description);
