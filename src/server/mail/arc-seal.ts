import { sealMessage } from 'mailauth';

/**
 * One member's copy of a post to seal with the list's ARC set (issue 26 item 2, RFC 8617 §5.1),
 * as plain data: it runs on the seal pool's threads (transport.ts).
 */
export interface SealTask {
  /** The copy as it goes out, without the chain. */
  raw: Uint8Array;
  /** The ARC header fields the post came with (CRLF after each): the chain the list continues. */
  chain: Uint8Array;
  /** How that chain validated at receipt. */
  cv: 'none' | 'pass';
  /** The Authentication-Results value found at receipt, for ARC-Authentication-Results. */
  results: string;
  /** The DKIM key's domain, selector and PEM text, which sign the set. */
  signingDomain: string;
  selector: string;
  privateKey: string;
}

/**
 * The header fields to put on top of the copy: the list's new set, then the chain it continues.
 * ARC-Authentication-Results carries what verification found when the post came in,
 * ARC-Message-Signature signs this copy (each member's is their own), ARC-Seal the chain. Empty
 * when no set could be made (mailauth says why in errors it keeps): the copy goes out unsealed,
 * the seal is advice, the delivery is not.
 */
export async function arcSet(task: SealTask): Promise<Uint8Array> {
  const chained = Buffer.concat([task.chain, task.raw]);
  try {
    const seal = await sealMessage(chained, {
      signingDomain: task.signingDomain,
      selector: task.selector,
      privateKey: task.privateKey,
      cv: task.cv,
      authResults: task.results,
    });
    return seal.length === 0 ? new Uint8Array() : Buffer.concat([seal, task.chain]);
  } catch {
    return new Uint8Array();
  }
}
