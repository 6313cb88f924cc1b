import type { EffectiveSettings } from '../effective.ts';
import type {
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
}

/** One link of the chain: a hit, or null when the rule has nothing to say about the message. */
export type PostingRule = (context: RuleContext) => RuleHit | null;

export const has = (value: number, bit: number) => (value & bit) === bit;
