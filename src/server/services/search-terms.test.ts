import { describe, expect, it } from 'vitest';
import {
  globPattern,
  lookupPart,
  MAX_LOOKUP_CHARACTERS,
} from '../repositories/contact-search.repository.ts';
import { searchTerms } from './search-terms.ts';

describe('searchTerms', () => {
  it('splits at white space, lower-cases, and drops repeats and terms inside others', () => {
    expect(searchTerms('  Hypatia\tALEXANDR\n hypatia ')).toEqual(['hypatia', 'alexandr']);
    expect(searchTerms('tor torres orre')).toEqual(['torres']);
    expect(searchTerms('   ')).toEqual([]);
    expect(searchTerms('a\0b')).toEqual(['a', 'b']);
  });

  it('keeps every word whole, however many and however long', () => {
    const words = Array.from({ length: 20 }, (_, i) => `word${String.fromCharCode(97 + i)}`);
    expect(searchTerms(words.join(' '))).toEqual(words);
    expect(searchTerms('mail.exa'.repeat(32))).toEqual(['mail.exa'.repeat(32)]);
  });
});

describe('globPattern', () => {
  it('matches the term in any case, and takes GLOB wildcards literally', () => {
    expect(globPattern('ém')).toBe('*[éÉ][mM]*');
    expect(globPattern('a*?[]')).toBe('*[aA][*][?][[]]*');
    expect(globPattern('7.')).toBe('*7.*');
  });
});

describe('lookupPart', () => {
  it('looks an address up by the end of its local part and the @', () => {
    expect(lookupPart('farah.chowdhury.199@example.net')).toBe('ury.199@');
    expect(lookupPart('ann@example.net')).toBe('ann@');
    // Too little before the @ to narrow anything: the term itself.
    expect(lookupPart('al@example.net')).toBe('al@example.net');
  });

  it('looks up at most the first characters of a long term', () => {
    expect(lookupPart('torres')).toBe('torres');
    expect(lookupPart('mail.exa'.repeat(32))).toHaveLength(MAX_LOOKUP_CHARACTERS);
  });
});
