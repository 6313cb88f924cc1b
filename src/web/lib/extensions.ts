import { ApiError } from '../../api/errors.ts';
import type { ExtensionField } from '../../api/operations.ts';

/**
 * Feature detection of the reference server's extensions (src/api/operations.ts: the operations
 * marked `extension` and EXTENSION_FIELDS). The dashboard relies only on spec v2; where a server
 * lacks an extension (any other API v2 server, or `listkeeper serve` with EXTENSIONS=off) the page
 * says so and does without it, and never fails.
 */

/**
 * The server has no such operation: spec §7's 404 ("the API request does not exist"), or a 405
 * from a server that routes by path alone. Only for operations whose path names nothing missing
 * by then (the caller, the images of a message just read).
 */
export function isMissingOperation(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 404 || error.status === 405);
}

/** An extension operation's answer, or `unsupported` when the server does not offer it. */
export type ExtensionAnswer<T> = { supported: true; value: T } | { supported: false };

/** Calls an extension operation; a missing one is an answer, any other failure is thrown. */
export async function callExtension<T>(call: () => Promise<T>): Promise<ExtensionAnswer<T>> {
  try {
    return { supported: true, value: await call() };
  } catch (error) {
    if (isMissingOperation(error)) return { supported: false };
    throw error;
  }
}

/**
 * Whether the server sends an extension field: some object of an answer carries it. A field that
 * is absent when it has nothing to say (`key_expiry` of an administrator without a key) can only
 * be detected on an object that would carry it; the caller picks those.
 */
export function carriesField(
  objects: readonly object[] | undefined,
  field: ExtensionField,
): boolean {
  return objects?.some((object) => field in object) ?? false;
}
