import { describe, expect, it } from 'vitest';
import { globPattern } from '../repositories/contact-search.repository.ts';
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
