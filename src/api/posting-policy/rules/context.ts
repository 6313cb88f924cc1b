import type { EffectiveSettings } from '../effective.ts';
import type {
  PostingAuthentication,
  PostingDirectory,
  PostingList,
  PostingMessage,
  PostingSettings,
  RuleHit,
} from '../types.ts';

/** What every rule may look at: the inputs, resolved once. */
export interface RuleContext {
  list: PostingList;
  settings: PostingSettings;
  effective: EffectiveSettings;
  directory: PostingDirectory;
  message: PostingMessage;
  /** The sender's address, normalized (lower case, no brackets). */
  sender: string;
  /** What the receiving server verified of the author (NOT_CHECKED when it was not given). */
  authentication: PostingAuthentication;
}

/** One link of the chain: a hit, or null when the rule has nothing to say about the message. */
export type PostingRule = (context: RuleContext) => RuleHit | null;

export const has = (value: number, bit: number) => (value & bit) === bit;
