import { useSyncExternalStore } from 'react';
import type { Auth } from '../../api/client.ts';
import { ApiError } from '../../api/errors.ts';
import { forgetSignIn } from './tab-storage.ts';
import type { TokenKeeper } from './token-keeper.ts';

/**
 * How the user proved who they are; lives in this module's memory only (SECURITY.md 10). Behind
 * a gateway the page holds nothing: the gateway keeps the key or tokens and adds them itself.
 */
export type Credentials =
  | { method: 'key'; key: string }
  | { method: 'oauth'; keeper: TokenKeeper }
  | { method: 'gateway' };

export interface Principal {
  /** How the user signed in (through a gateway too). */
  method: 'key' | 'oauth';
  /** A global key or token manages every account of the group (spec §4.8). */
  global: boolean;
  /** What the header shows for the signed-in identity. */
  identity: string;
  /** The API server signed in to, when a gateway stands in front of it. */
  server?: string;
}

export type EndReason = 'signed-out' | 'session-expired' | 'key-refused';

export type SessionState =
  { status: 'signed-in'; principal: Principal } | { status: 'signed-out'; ended: EndReason | null };

let credentials: Credentials | null = null;
let state: SessionState = { status: 'signed-out', ended: null };
const listeners = new Set<() => void>();

function publish(next: SessionState) {
  state = next;
  for (const listener of listeners) listener();
}

export function getSession(): SessionState {
  return state;
}

export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The session, re-rendering on sign-in and sign-out. */
export function useSession(): SessionState {
  return useSyncExternalStore(subscribeSession, getSession);
}

/** For sign-out only: the server is told to end the OAuth session before memory forgets it. */
export function getCredentials(): Credentials | null {
  return credentials;
}

export function startSession(next: Credentials, principal: Principal): void {
  if (credentials?.method === 'oauth' && credentials !== next) credentials.keeper.stop();
  credentials = next;
  publish({ status: 'signed-in', principal });
}

/** Forgets the credentials (memory and the tab's storage); returns them for a server-side sign-out. */
export function endSession(reason: EndReason): Credentials | null {
  const previous = credentials;
  if (previous?.method === 'oauth') previous.keeper.stop();
  credentials = null;
  forgetSignIn();
  publish({ status: 'signed-out', ended: reason });
  return previous;
}

/**
 * The `Authorization` of the next request, asked by the API client before each one (so a refreshed
 * access token is picked up). Spec §5.1 and §5.2: keys and tokens are both Bearer credentials.
 */
export async function authorization(): Promise<Auth> {
  const current = credentials;
  if (current === null) throw new ApiError(401, 'Not signed in.');
  if (current.method === 'gateway') return { kind: 'none' };
  if (current.method === 'key') return { kind: 'bearer', token: current.key };
  return { kind: 'bearer', token: await current.keeper.accessToken() };
}
