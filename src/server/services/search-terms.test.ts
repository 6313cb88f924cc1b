import { describe, expect, it } from 'vitest';
import { globPattern } from '../repositories/contact-search.repository.ts';
import { MAX_SEARCH_TERMS, MAX_TERM_CHARACTERS, searchTerms } from './search-terms.ts';

describe('searchTerms', () => {
  it('splits at white space, lower-cases, and drops repeats and terms inside others', () => {
    expect(searchTerms('  Hypatia\tALEXANDR\n hypatia ')).toEqual(['hypatia', 'alexandr']);
    expect(searchTerms('tor torres orre')).toEqual(['torres']);
    expect(searchTerms('   ')).toEqual([]);
    expect(searchTerms('a\0b')).toEqual(['a', 'b']);
  });

  it('bounds the work: the first terms, each cut to its first characters', () => {
    const words = Array.from({ length: 20 }, (_, i) => `word${String.fromCharCode(97 + i)}`);
    expect(searchTerms(words.join(' '))).toEqual(words.slice(0, MAX_SEARCH_TERMS));
    const terms = searchTerms('mail.exa'.repeat(1800));
    expect(terms).toEqual(['mail.exa'.repeat(MAX_TERM_CHARACTERS / 8)]);
    // Characters, not UTF-16 units: a cut never splits a character.
    expect([...(searchTerms('😀'.repeat(100))[0] ?? '')]).toHaveLength(MAX_TERM_CHARACTERS);
  });
});

describe('globPattern', () => {
  it('matches the term in any case, and takes GLOB wildcards literally', () => {
    expect(globPattern('ém')).toBe('*[éÉ][mM]*');
    expect(globPattern('a*?[]')).toBe('*[aA][*][?][[]]*');
    expect(globPattern('7.')).toBe('*7.*');
  });
});
