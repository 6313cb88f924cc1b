import { describe, expect, it } from 'vitest';
import { escapeHtml, htmlToPlain, plainToHtml, refersToAddress } from './message-content.ts';

describe('message content (spec §4.5 "generated automatically")', () => {
  it('escapes plain text and wraps paragraphs and line breaks', () => {
    expect(plainToHtml('Hello <b>&</b> "you"\nsecond line\n\n\nNew paragraph\r\n\r\nThird')).toBe(
      '<p>Hello &lt;b&gt;&amp;&lt;/b&gt; &quot;you&quot;<br>\nsecond line</p>\n<p>New paragraph</p>\n<p>Third</p>',
    );
    expect(plainToHtml('')).toBe('');
    expect(escapeHtml(`'`)).toBe('&#39;');
  });

  it('derives plain text from HTML: tags stripped, hidden parts dropped, blocks on their lines, entities decoded', () => {
    const html =
      '<html><head><title>T</title><style>p{color:red}</style></head><body><h1>Title</h1><p>Fish &amp; chips&nbsp;today<br>at 5</p>' +
      '<script>alert(1)</script><!-- hidden --><ul><li>one</li><li>two</li></ul><p>&#72;&#x49; &lt;3 &bogus;</p></body></html>';
    expect(htmlToPlain(html)).toBe(
      'Title\n\nFish & chips today\nat 5\n\n- one\n- two\n\nHI <3 &bogus;',
    );
    expect(htmlToPlain('a < b and b > c')).toBe('a < b and b > c');
    expect(htmlToPlain('<p>unclosed <script>var x')).toBe('unclosed');
    expect(htmlToPlain('&#0; &#xD800; &#1114112;')).toBe('&#0; &#xD800; &#1114112;');
  });

  // No clock here (CI is loaded; speed is `npm run bench`'s): at these sizes a quadratic pass does
  // some 10^11 steps and never ends within the test's timeout, where a linear one takes milliseconds.
  it('stays linear on hostile input', () => {
    expect(htmlToPlain('<script>'.repeat(100_000))).toBe('');
    expect(htmlToPlain(`${' '.repeat(500_000)}x`)).toBe('x');
    expect(htmlToPlain('<'.repeat(500_000))).toBe('<'.repeat(500_000));
    expect(htmlToPlain('<a'.repeat(300_000))).toBe('<a'.repeat(300_000));
    expect(plainToHtml(`${'\n \t'.repeat(200_000)}x`)).toBe('<p> \tx</p>');
  });

  it('knows the addresses a message refers to, as written or with references decoded, and no other', () => {
    const html =
      '<img src="https://img.example/a.png?x=1&amp;y=2"><p>https://img.example/b.gif</p>';
    expect(refersToAddress(html, 'https://img.example/a.png?x=1&y=2')).toBe(true);
    expect(refersToAddress(html, 'https://img.example/a.png?x=1&amp;y=2')).toBe(true);
    expect(refersToAddress(html, 'https://img.example/b.gif')).toBe(true);
    expect(refersToAddress(html, 'https://img.example/c.png')).toBe(false);
    expect(refersToAddress(html, 'http://169.254.169.254/latest/meta-data/')).toBe(false);
    expect(refersToAddress(html, '')).toBe(false);
  });
});
